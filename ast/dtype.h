/* dtype: TIR data types (Int/UInt/Float/Handle with bits and lanes, plus bfloat).
 * SPEC_NOTES: "Data types" (grammar DataType, Bool, Void; WF-19, WF-20). */
#ifndef RELAX_AST_DTYPE_H
#define RELAX_AST_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Codes as DLPack numbers them. */
typedef enum DTypeCode {
    DT_INT = 0,
    DT_UINT = 1,
    DT_FLOAT = 2,
    DT_HANDLE = 3,
    DT_BFLOAT = 4,
} DTypeCode;

typedef struct DataType {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DataType;

DataType dtype_make(DTypeCode code, int bits, int lanes);
DataType dtype_void(void); /* Handle(bits=0, lanes=0): unknown */
DataType dtype_bool(void); /* UInt(bits=1, lanes=1) */
DataType dtype_int64(void);
DataType dtype_int32(void);
DataType dtype_float32(void);
DataType dtype_float64(void);
DataType dtype_handle(void); /* Handle(bits=64, lanes=1), TIR's opaque pointer */

bool dtype_equal(DataType a, DataType b);
bool dtype_is_void(DataType t);
bool dtype_is_bool(DataType t);
bool dtype_is_int(DataType t);   /* signed integer */
bool dtype_is_uint(DataType t);  /* unsigned integer, bool included */
bool dtype_is_float(DataType t); /* float or bfloat */
bool dtype_is_handle(DataType t);

/* "float32", "int64", "bool", "bfloat16", "float16x4", "handle", "void", "" (void).
 * Returns false for a string that names no data type. */
bool dtype_parse(const char *s, DataType *out);
/* The canonical name; "void" for Void. */
const char *dtype_str(DataType t);
/* Bytes one element occupies in a tensor (bool: 1). 0 for Void and handles. */
size_t dtype_bytes(DataType t);

#endif
