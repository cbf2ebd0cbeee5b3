/* op_sugar: what TVM v0.22's Python op constructors do beyond binding parameters: defaults
 * that depend on other arguments, and "operators" that are compositions of others.
 * SPEC_NOTES: "Operators" (OP-SUGAR). */
#include "ast/schema/op_schema.h"

#include <string.h>

#include "ast/attrs.h"
#include "ast/expr.h"
#include "ast/mem.h"
#include "ast/rule.h"

static bool is_op(const Expr *call, const char *name)
{
    return strcmp(call->u.call.op->u.op_name, name) == 0;
}

static Expr *int_prim(int64_t v, Span sp)
{
    return expr_prim_value(primexpr_int(v, dtype_int64(), sp), sp);
}

static Expr *new_call(const char *op, Expr **args, int n, Span sp)
{
    Expr *call = expr_call(expr_op(op, sp), args, n, sp);
    return call;
}

/* A float literal argument (python/tvm/relax/op/create.py, arange's is_int is false for it).
 * TVM's constructor rejects a Relax variable here; the reference accepts one and counts it as
 * an integer (SPEC_NOTES "Operators", OP-SUGAR). */
static bool is_float_prim(const Expr *e)
{
    return e->kind == EXPR_PRIM_VALUE && !dtype_is_int(e->u.prim->dtype);
}

/* OP-SUGAR: R.arange(end) is arange(0, end, 1); a dtype left None is int64 when start, end and
 * step are all integers, else float32 (create.py, arange). The schema binds (start, step)
 * when end is omitted; step always has its default, so two arguments mean no end. */
static void arange_sugar(Expr *call)
{
    rule_fired("OP-SUGAR");
    Expr **a = call->u.call.args;
    if (call->u.call.nargs == 2) {
        Expr **args = MEM_ARRAY(Expr *, 3);
        args[0] = int_prim(0, call->span);
        args[1] = a[0];
        args[2] = a[1];
        call->u.call.args = a = args;
        call->u.call.nargs = 3;
    }
    AttrValue *dt = attrs_get(call->u.call.attrs, "dtype");
    if (dt == NULL || dt->kind != ATTR_STR || strcmp(dt->u.s, "void") != 0)
        return;
    bool ints = !is_float_prim(a[0]) && !is_float_prim(a[1]) && !is_float_prim(a[2]);
    attrs_set(call->u.call.attrs, "dtype", attr_str(ints ? "int64" : "float32", call->span));
}

/* OP-SUGAR: R.eye(n) is eye(n, n, 0) (create.py, eye: m = n if m is None). The schema binds
 * (n, k) when m is omitted. */
static void eye_sugar(Expr *call)
{
    rule_fired("OP-SUGAR");
    Expr **a = call->u.call.args;
    if (call->u.call.nargs != 2)
        return;
    Expr **args = MEM_ARRAY(Expr *, 3);
    args[0] = a[0];
    args[1] = a[0];
    args[2] = a[1];
    call->u.call.args = args;
    call->u.call.nargs = 3;
}

/* OP-SUGAR: R.nn.relu6(x) is R.clip(x, 0, 6) (python/tvm/relax/op/nn/nn.py, relu6). */
static Expr *relu6_sugar(Expr *call)
{
    rule_fired("OP-SUGAR");
    rule_fired("OP-nn.relu6");
    Expr **args = MEM_ARRAY(Expr *, 3);
    args[0] = call->u.call.args[0];
    args[1] = int_prim(0, call->span);
    args[2] = int_prim(6, call->span);
    return new_call("relax.clip", args, 3, call->span);
}

/* OP-SUGAR: R.linear(x, w, b, out_dtype) is matmul(x, permute_dims(w, axes=None), out_dtype)
 * plus b when given (python/tvm/relax/op/linear_algebra.py, linear). */
static Expr *linear_sugar(Expr *call)
{
    rule_fired("OP-SUGAR");
    rule_fired("OP-linear");
    Span sp = call->span;
    Expr **pa = MEM_ARRAY(Expr *, 1);
    pa[0] = call->u.call.args[1];
    Expr *perm = new_call("relax.permute_dims", pa, 1, sp);
    attrs_set(perm->u.call.attrs, "axes", attr_new(ATTR_NONE, sp));
    Expr **ma = MEM_ARRAY(Expr *, 2);
    ma[0] = call->u.call.args[0];
    ma[1] = perm;
    Expr *mm = new_call("relax.matmul", ma, 2, sp);
    AttrValue *od = attrs_get(call->u.call.attrs, "out_dtype");
    attrs_set(mm->u.call.attrs, "out_dtype", od != NULL ? od : attr_str("void", sp));
    if (call->u.call.nargs < 3)
        return mm;
    Expr **aa = MEM_ARRAY(Expr *, 2);
    aa[0] = mm;
    aa[1] = call->u.call.args[2];
    return new_call("relax.add", aa, 2, sp);
}

Expr *op_schema_sugar(Expr *call)
{
    if (call->kind != EXPR_CALL || call->u.call.op->kind != EXPR_OP)
        return call;
    if (is_op(call, "relax.arange"))
        arange_sugar(call);
    else if (is_op(call, "relax.eye"))
        eye_sugar(call);
    else if (is_op(call, "relax.nn.relu6"))
        return relu6_sugar(call);
    else if (is_op(call, "relax.linear"))
        return linear_sugar(call);
    return call;
}
