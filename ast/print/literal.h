/* literal: numbers and strings written as Python writes them (shortest round-tripping float
 * digits per dtype, double-quoted escaped strings), shared by the printer and the renderings
 * of values. SPEC_NOTES: "Canonical printing", "Values and their renderings". */
#ifndef RELAX_AST_LITERAL_H
#define RELAX_AST_LITERAL_H

#include <stdbool.h>

#include "ast/dtype.h"
#include "ast/mem.h"

/* A finite non-negative number d1.d2d3... x 10^exp; `digits` has no trailing zeros (zero is
 * the single digit "0"). */
typedef struct LiteralDecimal {
    char digits[40];
    int n;
    int exp;
} LiteralDecimal;

/* Reads printf's "%e" text (d.ddde+XX) into a decimal, dropping trailing zeros. */
void literal_decimal_from_sci(const char *text, LiteralDecimal *d);
/* The fewest digits of |a| that read back to the same value of `dtype`, whether the reader
 * goes through a double or through a float. */
void literal_decimal_shortest(double a, DataType dtype, LiteralDecimal *d);
/* Positional digits: the integer part (at least "0") and the fraction (maybe empty). */
void literal_decimal_split(const LiteralDecimal *d, StrBuf *ip, StrBuf *fp);
/* Python's float repr layout of the shortest digits: positional when their decimal exponent
 * is in [-4, 16) (with ".0" when integral unless `bare_integers`), otherwise d.ddde+XX;
 * nan, inf, -inf. */
void literal_add_float(StrBuf *sb, double v, DataType dtype, bool bare_integers);
/* A double-quoted string with \" \\ \n \t \r and \xNN escapes. */
void literal_add_string(StrBuf *sb, const char *s);

#endif
