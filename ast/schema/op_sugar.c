/* op_sugar: what TVM v0.22's Python op constructors do beyond binding parameters: defaults
 * that depend on other arguments, and "operators" that are compositions of others.
 * SPEC_NOTES: "Operators" (OP-SUGAR). */
#include "ast/schema/op_schema.h"

#include <string.h>

#include "ast/arith/simplify.h"
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

/* ---- reshape: ConvertNewShapeToExpr (manipulate.cc) ---------------------------------------- */

/* A product of dims as a constant and atoms (variables and other terms), for dividing one
 * product by another exactly, as TVM's analyzer simplifies `n * 12 // n` to 12. */
typedef struct Product {
    int64_t k;
    const PrimExpr *atom[2 * 64];
    int n;
    bool overflow;
} Product;

static bool same_atom(const PrimExpr *a, const PrimExpr *b)
{
    return a == b || (a->kind == PE_VAR && b->kind == PE_VAR && a->u.var == b->u.var);
}

static void product_mul(Product *p, const PrimExpr *e)
{
    if (e->kind == PE_MUL) {
        product_mul(p, e->u.bin.a);
        product_mul(p, e->u.bin.b);
    } else if (e->kind == PE_INT) {
        p->overflow = p->overflow || __builtin_mul_overflow(p->k, e->u.int_value, &p->k);
    } else if (p->n < (int)(sizeof p->atom / sizeof p->atom[0])) {
        p->atom[p->n++] = e;
    } else {
        p->overflow = true;
    }
}

static PrimExpr *product_expr(const Product *p, Span sp)
{
    PrimExpr *e = NULL;
    for (int i = 0; i < p->n; i++)
        e = e == NULL ? (PrimExpr *)p->atom[i]
                      : primexpr_binary(PE_MUL, e, (PrimExpr *)p->atom[i], sp);
    PrimExpr *k = primexpr_int(p->k, dtype_int64(), sp);
    if (e == NULL)
        return k;
    return p->k == 1 ? e : primexpr_binary(PE_MUL, e, k, sp);
}

/* old / new when new's atoms are among old's and its constant divides old's: the atoms left
 * over times the quotient; NULL otherwise. */
static PrimExpr *product_div(Product old, const Product *by, Span sp)
{
    if (old.overflow || by->overflow || by->k == 0 || old.k % by->k != 0)
        return NULL;
    for (int i = 0; i < by->n; i++) {
        int at = -1;
        for (int j = 0; j < old.n && at < 0; j++)
            at = same_atom(old.atom[j], by->atom[i]) ? j : -1;
        if (at < 0)
            return NULL;
        old.atom[at] = old.atom[--old.n];
    }
    old.k /= by->k;
    return product_expr(&old, sp);
}

static bool is_const(const PrimExpr *e, int64_t v)
{
    return e->kind == PE_INT && e->u.int_value == v;
}

/* The -1 dim: the input's element count floor-divided by the product of the other dims
 * (those not constant and at most 0 left out, as TVM leaves them out), simplified; NULL when
 * a constant product passes int64 (left to inference, which reports it). */
PrimExpr *op_schema_reshape_inferred(PrimExpr *const *in, int nin, PrimExpr *const *dims, int n,
                                     int at, Span sp)
{
    Product old = {1, {NULL}, 0, false}, by = {1, {NULL}, 0, false};
    for (int i = 0; i < nin; i++)
        product_mul(&old, in[i]);
    for (int i = 0; i < n; i++)
        if (i != at && !(dims[i]->kind == PE_INT && dims[i]->u.int_value <= 0))
            product_mul(&by, dims[i]);
    if (old.overflow || by.overflow)
        return NULL;
    PrimExpr *exact = product_div(old, &by, sp);
    if (exact != NULL)
        return arith_simplify(exact);
    return arith_simplify(
        primexpr_binary(PE_FLOORDIV, product_expr(&old, sp), product_expr(&by, sp), sp));
}

/* OP-SUGAR: R.reshape(x, shape) with a 0 (copy the input's dim there) or a -1 (the dim that
 * keeps the element count) in a literal shape is resolved when the call is built, as TVM's
 * constructor does (ConvertNewShapeToExpr), so the call prints the concrete shape. It needs
 * the input's shape: the reference knows it here when x is a variable annotated with a known
 * shape; otherwise the call stays as written and inference resolves the same dims (OP-reshape).
 * A second -1 or a 0 past the input's rank is left to inference, which reports it. */
static void reshape_sugar(Expr *call)
{
    if (call->u.call.nargs != 2)
        return;
    const Expr *x = call->u.call.args[0];
    Expr *shape = call->u.call.args[1];
    if (x->kind != EXPR_VAR || shape->kind != EXPR_SHAPE)
        return;
    const StructInfo *a = x->u.var->annotation;
    if (a == NULL || a->kind != SINFO_TENSOR || a->u.tensor.shape == NULL ||
        a->u.tensor.shape->kind != EXPR_SHAPE)
        return;
    PrimExpr **in = a->u.tensor.shape->u.shape.values;
    int nin = a->u.tensor.shape->u.shape.n, n = shape->u.shape.n, infer = -1, special = 0;
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        PrimExpr *d = shape->u.shape.values[i];
        bool zero = is_const(d, 0), minus = is_const(d, -1);
        if ((zero && i >= nin) || (minus && infer >= 0))
            return;
        dims[i] = zero ? in[i] : d;
        infer = minus ? i : infer;
        special += zero || minus;
    }
    if (special == 0)
        return;
    if (infer >= 0 &&
        (dims[infer] = op_schema_reshape_inferred(in, nin, dims, n, infer, shape->span)) == NULL)
        return;
    rule_fired("OP-SUGAR");
    call->u.call.args[1] = expr_shape(dims, n, shape->span);
}

Expr *op_schema_sugar(Expr *call)
{
    if (call->kind != EXPR_CALL || call->u.call.op->kind != EXPR_OP)
        return call;
    if (is_op(call, "relax.arange"))
        arange_sugar(call);
    else if (is_op(call, "relax.eye"))
        eye_sugar(call);
    else if (is_op(call, "relax.reshape"))
        reshape_sugar(call);
    else if (is_op(call, "relax.nn.relu6"))
        return relu6_sugar(call);
    else if (is_op(call, "relax.linear"))
        return linear_sugar(call);
    return call;
}
