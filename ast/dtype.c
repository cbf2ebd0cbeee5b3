/* dtype: parsing, printing and classifying TIR data types.
 * SPEC_NOTES: "Data types". */
#include "ast/dtype.h"

#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

DataType dtype_make(DTypeCode code, int bits, int lanes)
{
    DataType t = {(uint8_t)code, (uint8_t)bits, (uint16_t)lanes};
    return t;
}

DataType dtype_void(void)
{
    return dtype_make(DT_HANDLE, 0, 0);
}

DataType dtype_bool(void)
{
    return dtype_make(DT_UINT, 1, 1);
}

DataType dtype_int64(void)
{
    return dtype_make(DT_INT, 64, 1);
}

DataType dtype_int32(void)
{
    return dtype_make(DT_INT, 32, 1);
}

DataType dtype_float32(void)
{
    return dtype_make(DT_FLOAT, 32, 1);
}

DataType dtype_float64(void)
{
    return dtype_make(DT_FLOAT, 64, 1);
}

DataType dtype_handle(void)
{
    return dtype_make(DT_HANDLE, 64, 1);
}

bool dtype_equal(DataType a, DataType b)
{
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

bool dtype_is_void(DataType t)
{
    return t.code == DT_HANDLE && t.bits == 0 && t.lanes == 0;
}

bool dtype_is_bool(DataType t)
{
    return t.code == DT_UINT && t.bits == 1;
}

bool dtype_is_int(DataType t)
{
    return t.code == DT_INT;
}

bool dtype_is_uint(DataType t)
{
    return t.code == DT_UINT;
}

bool dtype_is_float(DataType t)
{
    return t.code == DT_FLOAT || t.code == DT_BFLOAT;
}

bool dtype_is_handle(DataType t)
{
    return t.code == DT_HANDLE && !dtype_is_void(t);
}

static bool parse_bits_lanes(const char *s, int *bits, int *lanes)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    long b = strtol(s, &end, 10);
    long l = 1;
    if (*end == 'x') {
        const char *ls = end + 1;
        if (*ls < '0' || *ls > '9')
            return false;
        l = strtol(ls, &end, 10);
    }
    if (*end != '\0' || b <= 0 || b > 255 || l <= 0 || l > 65535)
        return false;
    *bits = (int)b;
    *lanes = (int)l;
    return true;
}

bool dtype_parse(const char *s, DataType *out)
{
    static const struct {
        const char *prefix;
        DTypeCode code;
    } prefixes[] = {
        {"bfloat", DT_BFLOAT},
        {"float", DT_FLOAT},
        {"uint", DT_UINT},
        {"int", DT_INT},
    };
    if (s[0] == '\0' || strcmp(s, "void") == 0) {
        *out = dtype_void();
        return true;
    }
    if (strcmp(s, "bool") == 0) {
        *out = dtype_bool();
        return true;
    }
    if (strcmp(s, "handle") == 0) {
        *out = dtype_handle();
        return true;
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i].prefix);
        int bits, lanes;
        if (strncmp(s, prefixes[i].prefix, n) == 0 && parse_bits_lanes(s + n, &bits, &lanes)) {
            *out = dtype_make(prefixes[i].code, bits, lanes);
            return true;
        }
    }
    return false;
}

const char *dtype_str(DataType t)
{
    if (dtype_is_void(t))
        return "void";
    if (dtype_is_bool(t) && t.lanes == 1)
        return "bool";
    const char *base = "handle";
    switch ((DTypeCode)t.code) {
    case DT_INT:
        base = "int";
        break;
    case DT_UINT:
        base = "uint";
        break;
    case DT_FLOAT:
        base = "float";
        break;
    case DT_BFLOAT:
        base = "bfloat";
        break;
    case DT_HANDLE:
        return t.lanes == 1 && t.bits == 64 ? "handle" : mem_printf("handle%d", t.bits);
    }
    if (t.lanes == 1)
        return mem_printf("%s%d", base, t.bits);
    return mem_printf("%s%dx%d", base, t.bits, t.lanes);
}

size_t dtype_bytes(DataType t)
{
    if (dtype_is_void(t) || t.code == DT_HANDLE)
        return 0;
    size_t bits = dtype_is_bool(t) ? 8 : t.bits;
    return (bits + 7) / 8 * t.lanes;
}
