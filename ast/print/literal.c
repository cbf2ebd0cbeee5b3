/* literal: Python's way of writing floats (shortest digits that read back in the dtype) and
 * strings, for the printer and the value renderings. SPEC_NOTES: "Canonical printing". */
#include "ast/print/literal.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ast/scalar.h"

void literal_decimal_from_sci(const char *text, LiteralDecimal *d)
{
    d->n = 0;
    const char *p = text;
    for (; *p != '\0' && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && d->n < (int)sizeof d->digits - 1)
            d->digits[d->n++] = *p;
    d->exp = *p == 'e' ? atoi(p + 1) : 0;
    while (d->n > 1 && d->digits[d->n - 1] == '0')
        d->n--;
    d->digits[d->n] = '\0';
}

/* The value of `dtype` nearest to x (float16 and bfloat16 rounded once, from the double). */
static double round_to(DataType dtype, double x)
{
    if (dtype.code == DT_FLOAT && dtype.bits == 32)
        return (double)(float)x;
    if (dtype.code == DT_FLOAT && dtype.bits == 16)
        return (double)scalar_half_to_float(scalar_double_to_half(x));
    if (dtype.code == DT_BFLOAT && dtype.bits == 16)
        return (double)scalar_bfloat_to_float(scalar_double_to_bfloat(x));
    return x;
}

/* Whether the text reads back to a, through a double and (for narrow floats) through a float:
 * readers of both kinds must agree. */
static bool reads_back(const char *text, double a, DataType dtype)
{
    if (round_to(dtype, strtod(text, NULL)) != a)
        return false;
    if (dtype.code == DT_FLOAT && dtype.bits == 64)
        return true;
    return round_to(dtype, (double)strtof(text, NULL)) == a;
}

/* printf gives the correctly rounded p-digit decimal; at a binade edge the rounding
 * interval is lopsided and a neighbour one unit away may read back when it does not. */
static bool try_neighbours(const LiteralDecimal *near, int p, double a, DataType dtype,
                           LiteralDecimal *out)
{
    uint64_t m = 0;
    for (int i = 0; i < p; i++)
        m = m * 10u + (uint64_t)(i < near->n ? near->digits[i] - '0' : 0);
    for (int delta = -1; delta <= 1; delta += 2) {
        uint64_t cand = delta < 0 ? m - 1u : m + 1u;
        if (cand == 0)
            continue;
        char text[64];
        snprintf(text, sizeof text, "%" PRIu64 "e%d", cand, near->exp - (p - 1));
        if (!reads_back(text, a, dtype))
            continue;
        char sci[64];
        snprintf(sci, sizeof sci, "%.*e", p - 1, strtod(text, NULL));
        literal_decimal_from_sci(sci, out);
        return true;
    }
    return false;
}

void literal_decimal_shortest(double a, DataType dtype, LiteralDecimal *d)
{
    a = round_to(dtype, a); /* the value the dtype holds */
    char text[64];
    for (int p = 1; p <= 17; p++) {
        snprintf(text, sizeof text, "%.*e", p - 1, a);
        literal_decimal_from_sci(text, d);
        if (a == 0.0 || reads_back(text, a, dtype))
            return;
        LiteralDecimal near = *d;
        if (p > 1 && try_neighbours(&near, p, a, dtype, d))
            return;
    }
    snprintf(text, sizeof text, "%.16e", a);
    literal_decimal_from_sci(text, d);
}

void literal_decimal_split(const LiteralDecimal *d, StrBuf *ip, StrBuf *fp)
{
    if (d->exp < 0) {
        strbuf_addc(ip, '0');
        for (int i = 0; i < -d->exp - 1; i++)
            strbuf_addc(fp, '0');
        strbuf_add(fp, d->digits);
        return;
    }
    for (int i = 0; i <= d->exp; i++)
        strbuf_addc(ip, i < d->n ? d->digits[i] : '0');
    if (d->n > d->exp + 1)
        strbuf_add(fp, d->digits + d->exp + 1);
}

void literal_add_float(StrBuf *sb, double v, DataType dtype, bool bare_integers)
{
    if (isnan(v)) {
        strbuf_add(sb, "nan");
        return;
    }
    if (isinf(v)) {
        strbuf_add(sb, v < 0 ? "-inf" : "inf");
        return;
    }
    double a = fabs(v);
    LiteralDecimal d;
    literal_decimal_shortest(a, dtype, &d);
    if (signbit(v))
        strbuf_addc(sb, '-');
    if (a == 0.0 || (d.exp >= -4 && d.exp < 16)) {
        StrBuf ip = {0}, fp = {0};
        literal_decimal_split(&d, &ip, &fp);
        strbuf_add(sb, strbuf_str(&ip));
        if (fp.len > 0 || !bare_integers || (a == 0.0 && signbit(v)))
            strbuf_addf(sb, ".%s", fp.len > 0 ? fp.data : "0");
        return;
    }
    strbuf_addc(sb, d.digits[0]);
    if (d.n > 1)
        strbuf_addf(sb, ".%s", d.digits + 1);
    strbuf_addf(sb, "e%c%02d", d.exp < 0 ? '-' : '+', d.exp < 0 ? -d.exp : d.exp);
}

void literal_add_string(StrBuf *sb, const char *s)
{
    strbuf_addc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        switch (*p) {
        case '"':
            strbuf_add(sb, "\\\"");
            break;
        case '\\':
            strbuf_add(sb, "\\\\");
            break;
        case '\n':
            strbuf_add(sb, "\\n");
            break;
        case '\t':
            strbuf_add(sb, "\\t");
            break;
        case '\r':
            strbuf_add(sb, "\\r");
            break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                strbuf_addf(sb, "\\x%02x", *p);
            else
                strbuf_addc(sb, (char)*p);
        }
    }
    strbuf_addc(sb, '"');
}
