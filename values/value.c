/* value: constructors and small queries for run-time values.
 * SPEC_NOTES: "Values" (the spec's "Values in Relax" and "Representation of Values"). */
#include "values/value.h"

#include <string.h>

#include "ast/mem.h"

static int next_value_id = 1; /* debug identity only; never affects meaning */

static Value *value_new(ValueKind kind)
{
    Value *v = MEM_NEW(Value);
    v->kind = kind;
    v->id = next_value_id++;
    return v;
}

Value *value_tensor(Tensor *t)
{
    Value *v = value_new(VAL_TENSOR);
    v->u.tensor = t;
    return v;
}

Value *value_tuple(Value *const *fields, int n)
{
    /* The fields follow the value in one block. */
    Value *v = mem_alloc(sizeof(Value) + sizeof(Value *) * (size_t)(n > 0 ? n : 1));
    v->kind = VAL_TUPLE;
    v->id = next_value_id++;
    v->u.tuple.fields = (Value **)(v + 1);
    for (int i = 0; i < n; i++)
        v->u.tuple.fields[i] = fields[i];
    v->u.tuple.n = n;
    return v;
}

Value *value_unit(void)
{
    return value_tuple(NULL, 0);
}

Value *value_shape(const int64_t *dims, int ndim)
{
    Value *v = value_new(VAL_SHAPE);
    v->u.shape.dims = mem_alloc_atomic(sizeof(int64_t) * (size_t)(ndim > 0 ? ndim : 1));
    if (ndim > 0)
        memcpy(v->u.shape.dims, dims, sizeof(int64_t) * (size_t)ndim);
    v->u.shape.ndim = ndim;
    return v;
}

Value *value_prim_int(DataType dtype, int64_t x)
{
    if (dtype_is_float(dtype))
        return value_prim_float(dtype, (double)x);
    Value *v = value_new(VAL_PRIM);
    v->u.prim.dtype = dtype;
    v->u.prim.i = tensor_dtype_supported(dtype) ? tensor_wrap_i64(dtype, x) : x;
    v->u.prim.f = (double)v->u.prim.i;
    return v;
}

Value *value_prim_float(DataType dtype, double x)
{
    if (!dtype_is_float(dtype))
        return value_prim_int(dtype, tensor_f64_to_int(dtype, x));
    Value *v = value_new(VAL_PRIM);
    v->u.prim.dtype = dtype;
    v->u.prim.f = tensor_dtype_supported(dtype) ? tensor_round_f64(dtype, x) : x;
    v->u.prim.i = 0;
    return v;
}

Value *value_prim_bool(bool b)
{
    return value_prim_int(dtype_bool(), b ? 1 : 0);
}

Value *value_string(const char *s)
{
    Value *v = value_new(VAL_STRING);
    v->u.str = mem_strdup(s);
    return v;
}

Value *value_dtype(DataType t)
{
    Value *v = value_new(VAL_DTYPE);
    v->u.dtype = t;
    return v;
}

Value *value_closure(const struct Function *func, void *env)
{
    Value *v = value_new(VAL_CLOSURE);
    v->u.closure.func = func;
    v->u.closure.env = env;
    return v;
}

Value *value_packed(const char *name, bool is_pure, PackedFn fn)
{
    Value *v = value_new(VAL_PACKED);
    v->u.packed.name = mem_strdup(name);
    v->u.packed.is_pure = is_pure;
    v->u.packed.fn = fn;
    return v;
}

Value *value_primfunc(const struct PrimFunc *pf)
{
    Value *v = value_new(VAL_PRIMFUNC);
    v->u.primfunc = pf;
    return v;
}

Value *value_null(void)
{
    return value_new(VAL_NULL);
}

Value *value_object(const char *name)
{
    Value *v = value_new(VAL_OBJECT);
    v->u.object.name = mem_strdup(name != NULL ? name : "object");
    return v;
}

Value *value_storage(Storage *s)
{
    Value *v = value_object("relax.Storage");
    v->u.object.storage = s;
    return v;
}

Value *value_callable_pattern(void)
{
    Value *v = value_object("callable");
    v->u.object.callable_pattern = true;
    return v;
}

const char *value_kind_name(ValueKind kind)
{
    switch (kind) {
    case VAL_TENSOR:
        return "tensor";
    case VAL_TUPLE:
        return "tuple";
    case VAL_SHAPE:
        return "shape";
    case VAL_PRIM:
        return "prim";
    case VAL_STRING:
        return "string";
    case VAL_DTYPE:
        return "dtype";
    case VAL_CLOSURE:
        return "closure";
    case VAL_PACKED:
        return "packed function";
    case VAL_PRIMFUNC:
        return "prim_func";
    case VAL_NULL:
        return "null";
    case VAL_OBJECT:
        return "object";
    }
    return "?";
}

bool value_is_callable(const Value *v)
{
    return v->kind == VAL_CLOSURE || v->kind == VAL_PACKED || v->kind == VAL_PRIMFUNC;
}

bool value_prim_is_float(const Value *v)
{
    return dtype_is_float(v->u.prim.dtype);
}

double value_prim_as_f64(const Value *v)
{
    if (value_prim_is_float(v))
        return v->u.prim.f;
    if (dtype_is_uint(v->u.prim.dtype))
        return (double)(uint64_t)v->u.prim.i;
    return (double)v->u.prim.i;
}

int64_t value_prim_as_i64(const Value *v)
{
    if (!value_prim_is_float(v))
        return v->u.prim.i;
    double f = v->u.prim.f;
    if (f != f)
        return 0;
    if (f >= 9223372036854775808.0)
        return INT64_MAX;
    if (f < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)f;
}
