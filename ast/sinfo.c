/* sinfo: StructInfo constructors.
 * SPEC_NOTES: "Grammar" (StructInfo). */
#include "ast/sinfo.h"

#include "ast/mem.h"

static StructInfo *make(StructInfoKind kind, Span span)
{
    StructInfo *s = MEM_NEW(StructInfo);
    s->kind = kind;
    s->span = span;
    return s;
}

StructInfo *sinfo_object(Span span)
{
    return make(SINFO_OBJECT, span);
}

StructInfo *sinfo_poisoned(Span span)
{
    StructInfo *s = make(SINFO_OBJECT, span);
    s->poisoned = true;
    return s;
}

bool sinfo_has_poison(const StructInfo *s)
{
    if (s == NULL)
        return false;
    if (s->poisoned)
        return true;
    if (s->kind == SINFO_TUPLE)
        for (int i = 0; i < s->u.tuple.n; i++)
            if (sinfo_has_poison(s->u.tuple.fields[i]))
                return true;
    return false;
}

StructInfo *sinfo_prim(DataType dtype, PrimExpr *value, Span span)
{
    StructInfo *s = make(SINFO_PRIM, span);
    s->u.prim.dtype = dtype;
    s->u.prim.value = value;
    return s;
}

StructInfo *sinfo_shape(PrimExpr **values, int ndim, Span span)
{
    StructInfo *s = make(SINFO_SHAPE, span);
    s->u.shape.values = values;
    s->u.shape.ndim = ndim;
    return s;
}

StructInfo *sinfo_tensor(struct Expr *shape, DataType dtype, VDevice *vdevice, int ndim, Span span)
{
    StructInfo *s = make(SINFO_TENSOR, span);
    s->u.tensor.shape = shape;
    s->u.tensor.dtype = dtype;
    s->u.tensor.vdevice = vdevice;
    s->u.tensor.ndim = ndim;
    return s;
}

StructInfo *sinfo_tuple(StructInfo **fields, int n, Span span)
{
    StructInfo *s = make(SINFO_TUPLE, span);
    s->u.tuple.fields = fields;
    s->u.tuple.n = n;
    return s;
}

StructInfo *sinfo_func(StructInfo **params, int nparams, StructInfo *ret, bool purity, Span span)
{
    StructInfo *s = make(SINFO_FUNC, span);
    s->u.func.params = params;
    s->u.func.nparams = nparams;
    s->u.func.has_params = true;
    s->u.func.ret = ret;
    s->u.func.purity = purity;
    return s;
}

StructInfo *sinfo_func_opaque(StructInfo *ret, bool purity, const char *derive_func, Span span)
{
    StructInfo *s = make(SINFO_FUNC, span);
    s->u.func.has_params = false;
    s->u.func.ret = ret;
    s->u.func.purity = purity;
    s->u.func.derive_func = derive_func;
    return s;
}

bool sinfo_is_void(const StructInfo *s)
{
    return s->kind == SINFO_TUPLE && s->u.tuple.n == 0;
}
