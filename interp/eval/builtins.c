/* builtins: the dispatch table of builtin operators and the small ones (print, assert_op,
 * shapes, devices). SPEC_NOTES: "Builtins" (BI-*); SPEC_REST §10, TVMSCRIPT §7. */
#include "interp/eval/builtins.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/builtins_internal.h"
#include "values/render.h"
#include "values/tensor.h"

typedef Value *(*BuiltinFn)(const BuiltinCall *bc);

/* ---- shared helpers --------------------------------------------------------------- */

noreturn void builtins_fail(const BuiltinCall *bc, const char *code, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = mem_alloc_atomic((size_t)(len > 0 ? len : 0) + 1);
    vsnprintf(msg, (size_t)(len > 0 ? len : 0) + 1, fmt, ap2);
    va_end(ap2);
    interp_fail(bc->in, code, bc->rule, bc->call->span, "R.%s: %s", bc->name, msg);
}

void builtins_want_args(const BuiltinCall *bc, int min, int max)
{
    if (bc->nargs >= min && (max < 0 || bc->nargs <= max))
        return;
    if (min == max)
        builtins_fail(bc, "Arity", "takes %d argument%s, got %d", min, min == 1 ? "" : "s",
                      bc->nargs);
    if (max < 0)
        builtins_fail(bc, "Arity", "takes at least %d arguments, got %d", min, bc->nargs);
    builtins_fail(bc, "Arity", "takes %d to %d arguments, got %d", min, max, bc->nargs);
}

Value *builtins_tuple_arg(const BuiltinCall *bc, int i, const char *what)
{
    Value *v = bc->args[i];
    if (v->kind != VAL_TUPLE)
        builtins_fail(bc, "OpPrecondition", "%s must be a tuple, got a %s", what,
                      value_kind_name(v->kind));
    return v;
}

static Tensor *tensor_arg(const BuiltinCall *bc, int i)
{
    Value *v = bc->args[i];
    if (v->kind != VAL_TENSOR)
        builtins_fail(bc, "OpPrecondition", "argument %d must be a tensor, got a %s", i,
                      value_kind_name(v->kind));
    return v->u.tensor;
}

/* ---- print and assert_op ---------------------------------------------------------- */

/* The format given as a call attribute (`format="..."`), an older layout than TVM's
 * StringImm argument; NULL when absent. */
static const char *format_attr(const Expr *call)
{
    AttrValue *a = attrs_get(call->u.call.attrs, "format");
    if (!a)
        return NULL;
    if (a->kind == ATTR_STR)
        return a->u.s;
    if (a->kind == ATTR_EXPR && a->u.expr->kind == EXPR_STRING)
        return a->u.expr->u.str;
    return NULL;
}

/* The format of print/assert_op at argument `at` (moving *first to the values after it),
 * or from the call attribute. */
static const char *format_arg(const BuiltinCall *bc, int at, int *first)
{
    const char *fmt = format_attr(bc->call);
    *first = at;
    if (fmt)
        return fmt;
    if (bc->nargs <= at)
        return "";
    if (bc->args[at]->kind != VAL_STRING)
        builtins_fail(bc, "OpPrecondition", "the format must be a string, got a %s",
                      value_kind_name(bc->args[at]->kind));
    *first = at + 1;
    return bc->args[at]->u.str;
}

/* BI-print: args [format, vals...]; an empty format separates the values by spaces. */
static Value *bi_print(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, -1);
    int first;
    const char *fmt = format_arg(bc, 0, &first);
    char *error = NULL;
    char *line = render_print_line(fmt, bc->args + first, bc->nargs - first, &error);
    if (!line)
        builtins_fail(bc, "OpPrecondition", "bad format string: %s", error ? error : "");
    interp_write(bc->in, line);
    interp_write(bc->in, "\n");
    return value_unit();
}

/* The truth of assert_op's condition: a bool or integer PrimValue, or a rank-0 bool
 * tensor (TVM raises ValueError on anything else). */
static bool assert_condition(const BuiltinCall *bc, const Value *c)
{
    if (c->kind == VAL_PRIM && !value_prim_is_float(c))
        return c->u.prim.i != 0;
    if (c->kind == VAL_TENSOR && c->u.tensor->ndim == 0 && dtype_is_bool(c->u.tensor->dtype))
        return tensor_get_i64(c->u.tensor, 0) != 0;
    builtins_fail(bc, "OpPrecondition",
                  "the condition must be a bool or integer PrimValue or a rank-0 bool tensor");
}

/* BI-assert_op: args [cond, format, vals...]; the values are rendered only on failure. */
static Value *bi_assert_op(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, -1);
    if (assert_condition(bc, bc->args[0]))
        return value_unit();
    int first;
    const char *fmt = format_arg(bc, 1, &first);
    char *error = NULL;
    char *msg = render_assert_message(fmt, bc->args + first, bc->nargs - first, &error);
    if (!msg)
        builtins_fail(bc, "OpPrecondition", "bad format string: %s", error ? error : "");
    interp_fail(bc->in, "AssertFailed", "BI-assert_op", bc->call->span, "%s", msg);
}

/* ---- shapes ----------------------------------------------------------------------- */

/* BI-shape_of: a new shape value with the tensor's dims. */
static Value *bi_shape_of(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, 1);
    Tensor *t = tensor_arg(bc, 0);
    return value_shape(t->shape, t->ndim);
}

/* BI-null_value */
static Value *bi_null_value(const BuiltinCall *bc)
{
    builtins_want_args(bc, 0, 0);
    return value_null();
}

/* BI-shape_to_tensor: a new int64 1-D tensor holding the dims. */
static Value *bi_shape_to_tensor(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, 1);
    Value *s = bc->args[0];
    if (s->kind != VAL_SHAPE)
        builtins_fail(bc, "OpPrecondition", "the argument must be a shape, got a %s",
                      value_kind_name(s->kind));
    int64_t n = s->u.shape.ndim;
    Tensor *t = tensor_new(dtype_int64(), 1, &n);
    tensor_write_i64(t, s->u.shape.dims);
    return value_tensor(t);
}

/* BI-tensor_to_shape: a 1-D integer tensor of non-negative values to a shape. */
static Value *bi_tensor_to_shape(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, 1);
    Tensor *t = tensor_arg(bc, 0);
    if (t->ndim != 1 || dtype_is_float(t->dtype) || dtype_is_bool(t->dtype))
        builtins_fail(bc, "OpPrecondition", "the argument must be a 1-D integer tensor");
    int64_t *dims = mem_alloc_atomic(sizeof(int64_t) * (size_t)(t->numel ? t->numel : 1));
    tensor_read_i64(t, dims);
    for (int64_t i = 0; i < t->numel; i++) {
        if (dims[i] < 0) /* uint64 above 2^63 reads negative too */
            builtins_fail(bc, "OpPrecondition", "dim %lld is negative (%lld)", (long long)i,
                          (long long)dims[i]);
    }
    return value_shape(dims, (int)t->numel);
}

/* ---- devices ---------------------------------------------------------------------- */

/* The implementation has one device, so moving a value there is copying its tensors:
 * immutable leaves are shared, tuples are rebuilt around the copies. */
static Value *copy_tensors(Value *v)
{
    if (v->kind == VAL_TENSOR)
        return value_tensor(tensor_copy(v->u.tensor));
    if (v->kind != VAL_TUPLE)
        return v;
    Value **fields = MEM_ARRAY(Value *, v->u.tuple.n ? v->u.tuple.n : 1);
    for (int i = 0; i < v->u.tuple.n; i++)
        fields[i] = copy_tensors(v->u.tuple.fields[i]);
    return value_tuple(fields, v->u.tuple.n);
}

/* BI-to_vdevice: the destination is a call attribute; every tensor is copied. */
static Value *bi_to_vdevice(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, 2);
    return copy_tensors(bc->args[0]);
}

/* BI-hint_on_device: a hint only; the value itself. */
static Value *bi_hint_on_device(const BuiltinCall *bc)
{
    builtins_want_args(bc, 1, 2);
    return bc->args[0];
}

/* BI-hint_on_device: `R.device(dev_type=, dev_id=)`, hint_on_device's second argument,
 * reaches the evaluator as a call; with one device it is an opaque token. */
static Value *bi_device(const BuiltinCall *bc)
{
    builtins_want_args(bc, 0, 2);
    return value_object("relax.Device");
}

/* ---- the table -------------------------------------------------------------------- */

struct BuiltinEntry {
    const char *op;   /* TVM's op name */
    const char *rule; /* BI-<name> */
    BuiltinFn fn;
};

static const BuiltinEntry builtin_table[] = {
    {"relax.call_tir", "BI-call_tir", builtins_call_tir},
    {"relax.call_tir_with_grad", "BI-call_tir", builtins_call_tir},
    {"relax.call_tir_inplace", "BI-call_tir_inplace", builtins_call_tir_inplace},
    {"relax.call_dps_packed", "BI-call_dps_packed", builtins_call_dps_packed},
    {"relax.call_pure_packed", "BI-call_pure_packed", builtins_call_pure_packed},
    {"relax.call_inplace_packed", "BI-call_inplace_packed", builtins_call_inplace_packed},
    {"relax.invoke_closure", "BI-invoke_closure", builtins_invoke_closure},
    {"relax.invoke_pure_closure", "BI-invoke_closure", builtins_invoke_closure},
    {"relax.make_closure", "BI-make_closure", builtins_make_closure},
    {"relax.print", "BI-print", bi_print},
    {"relax.assert_op", "BI-assert_op", bi_assert_op},
    {"relax.shape_of", "BI-shape_of", bi_shape_of},
    {"relax.null_value", "BI-null_value", bi_null_value},
    {"relax.shape_to_tensor", "BI-shape_to_tensor", bi_shape_to_tensor},
    {"relax.tensor_to_shape", "BI-tensor_to_shape", bi_tensor_to_shape},
    {"relax.to_vdevice", "BI-to_vdevice", bi_to_vdevice},
    {"relax.hint_on_device", "BI-hint_on_device", bi_hint_on_device},
    {"relax.device", "BI-hint_on_device", bi_device},
};

static const BuiltinEntry *find_builtin(const char *op_name)
{
    if (!op_name)
        return NULL;
    for (size_t i = 0; i < sizeof builtin_table / sizeof builtin_table[0]; i++) {
        if (strcmp(builtin_table[i].op, op_name) == 0)
            return &builtin_table[i];
    }
    return NULL;
}

bool builtins_has(const char *op_name)
{
    return find_builtin(op_name) != NULL;
}

const BuiltinEntry *builtins_find(const char *op_name)
{
    return find_builtin(op_name);
}

Value *builtins_call(struct Interp *in, struct Env *env, const Expr *call, Value **args, int nargs)
{
    const char *op = call->u.call.op->kind == EXPR_OP ? call->u.call.op->u.op_name : NULL;
    const BuiltinEntry *b = find_builtin(op);
    if (!b)
        interp_fail(in, "OpNotImplemented", "E-12", call->span, "`%s` is not a builtin",
                    op ? op : "?");
    return builtins_call_entry(b, in, env, call, args, nargs);
}

Value *builtins_call_entry(const BuiltinEntry *b, struct Interp *in, struct Env *env,
                           const Expr *call, Value **args, int nargs)
{
    BuiltinCall bc = {
        .in = in,
        .env = env,
        .call = call,
        .args = args,
        .nargs = nargs,
        .name = b->op + strlen("relax."),
        .rule = b->rule,
    };
    rule_fired(b->rule); /* BI-<name> */
    /* DIAG-site: the builtin's own errors without a position point at its call. */
    Span outer = in->site;
    in->site = call->span;
    Value *r = b->fn(&bc);
    in->site = outer;
    return r;
}
