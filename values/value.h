/* value: the run-time values of Relax programs, one tagged union with identity.
 * SPEC_NOTES: "Values" (the spec's "Values in Relax" and "Representation of Values"). */
#ifndef RELAX_VALUES_VALUE_H
#define RELAX_VALUES_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/dtype.h"
#include "values/tensor.h"

struct Function;
struct PrimFunc;

typedef enum ValueKind {
    VAL_TENSOR, /* mutable: aliasing is observable */
    VAL_TUPLE,  /* immutable sequence of values */
    VAL_SHAPE,  /* immutable int64 dims */
    VAL_PRIM,   /* immutable scalar (bool is UInt1) */
    VAL_STRING,
    VAL_DTYPE,
    VAL_CLOSURE,  /* a Relax function with its captured environment */
    VAL_PACKED,   /* a packed (host) function */
    VAL_PRIMFUNC, /* a TIR PrimFunc */
    VAL_NULL,     /* the null object of relax.null_value */
    VAL_OBJECT,   /* any other opaque object, known by a kind name */
} ValueKind;

typedef struct Value Value;

/* A storage of the lowered IR (TVM's StorageObj): raw bytes that tensors view. It is an
 * opaque object to programs (R.Object), so it rides in VAL_OBJECT under the kind name
 * "relax.Storage". SPEC_NOTES: "The lowered IR". */
typedef struct Storage {
    void *data; /* nbytes bytes of atomic GC memory, zeroed at allocation */
    int64_t nbytes;
    DataType dtype_hint;
    const char *scope;
} Storage;

/* A packed function's body. `ctx` is the evaluator's context: the function raises errors
 * and reaches host state through it. Returns the result value (unit is an empty tuple). */
typedef Value *(*PackedFn)(void *ctx, Value **args, int nargs);

struct Value {
    ValueKind kind;
    int id; /* small and unique per process, for traces only */
    /* Set by the lowered IR's kill operators: the value's lifetime has ended and a later
     * use of it is a runtime error (SPEC_NOTES: "The lowered IR", LOW-kill). */
    bool killed;
    union {
        Tensor *tensor;
        struct {
            Value **fields;
            int n;
        } tuple;
        struct {
            int64_t *dims;
            int ndim;
        } shape;
        struct {
            DataType dtype;
            int64_t i; /* ints and bool; uint64 as its two's-complement bits */
            double f;  /* floats, already rounded to dtype */
        } prim;
        const char *str;
        DataType dtype;
        struct {
            const struct Function *func;
            void *env; /* the evaluator's captured environment */
        } closure;
        struct {
            const char *name;
            bool is_pure;
            PackedFn fn;
        } packed;
        const struct PrimFunc *primfunc;
        struct {
            const char *name; /* kind name; never NULL */
            /* Only in expectations read from case files: {callable: true} matches any
             * closure, packed function or PrimFunc. Evaluation never creates one. */
            bool callable_pattern;
            Storage *storage; /* "relax.Storage" objects only, else NULL */
        } object;
    } u;
};

Value *value_tensor(Tensor *t);
/* The fields array is copied; the field values are shared. */
Value *value_tuple(Value *const *fields, int n);
Value *value_unit(void); /* the empty tuple */
Value *value_shape(const int64_t *dims, int ndim);
/* A PrimValue of an integer or bool dtype; the value wraps to the dtype (bool: 0 or 1). */
Value *value_prim_int(DataType dtype, int64_t v);
/* A PrimValue of a float dtype; the value rounds once to the dtype. */
Value *value_prim_float(DataType dtype, double v);
Value *value_prim_bool(bool b);
Value *value_string(const char *s); /* copied */
Value *value_dtype(DataType t);
Value *value_closure(const struct Function *func, void *env);
Value *value_packed(const char *name, bool is_pure, PackedFn fn);
Value *value_primfunc(const struct PrimFunc *pf);
Value *value_null(void);
Value *value_object(const char *name);
Value *value_callable_pattern(void);
/* An opaque object named "relax.Storage" holding `s`. */
Value *value_storage(Storage *s);

/* "tensor", "tuple", "shape", "prim", "string", "dtype", "closure", "packed function",
 * "prim_func", "null", "object". */
const char *value_kind_name(ValueKind kind);
bool value_is_callable(const Value *v);
bool value_prim_is_float(const Value *v);
/* A PrimValue's payload in either representation. */
double value_prim_as_f64(const Value *v);
int64_t value_prim_as_i64(const Value *v);

#endif
