/* sinfo_dist: StructInfo of calls in the distributed dialect: the R.dist.* operators
 * (DIST-4) and other operators on DTensor arguments by TVM's generic sharding path (DIST-5).
 * SPEC_NOTES §4.24. */
#include <string.h>

#include "ast/arith/simplify.h"
#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/prover.h"
#include "interp/structinfo/sinfo_derive_internal.h"

static StructInfo *arg(const Expr *e, int i)
{
    return i < e->u.call.nargs ? e->u.call.args[i]->sinfo : NULL;
}

static bool is_dtensor(const StructInfo *s)
{
    return s != NULL && s->kind == SINFO_DTENSOR;
}

/* The mesh and placement of a call's "device_mesh" and "placement" attributes (the parser
 * checked their text and that the mesh exists). */
static StructInfo *attrs_dtensor(SiCtx *c, const Expr *e, StructInfo *tensor)
{
    const char *ref = ops_attr_str(e, "device_mesh", "");
    const char *name = "";
    int index = 0;
    dist_mesh_ref_parse(ref, &name, &index);
    Placement *p = MEM_NEW(Placement);
    dist_placement_parse(ops_attr_str(e, "placement", ""), p);
    return sinfo_dtensor(tensor, name, index, module_device_mesh(c->mod, name, index), p, e->span);
}

/* DIST-2 where inference builds a DTensor: TVM's DTensorStructInfo checks. */
static bool placement_ok(SiCtx *c, const StructInfo *s, Span span)
{
    rule_fired("DIST-2");
    const Placement *p = s->u.dtensor.placement;
    if (s->u.dtensor.mesh != NULL && p->n != s->u.dtensor.mesh->ndim) {
        si_error(c, "PlacementRank", "DIST-2", span,
                 "placement \"%s\" has %d specs, the mesh has %d dimensions", dist_placement_str(p),
                 p->n, s->u.dtensor.mesh->ndim);
        return false;
    }
    int ndim = s->u.dtensor.tensor->u.tensor.ndim;
    for (int i = 0; i < p->n; i++) {
        if (p->axes[i] >= 0 && p->axes[i] >= ndim) {
            si_error(c, "PlacementAxis", "DIST-2", span, "S[%d] shards a tensor of rank %d",
                     p->axes[i], ndim);
            return false;
        }
    }
    return true;
}

static StructInfo *redistribute(SiCtx *c, const Expr *e)
{
    StructInfo *x = arg(e, 0);
    if (!is_dtensor(x)) {
        si_error(c, "DistArgument", "DIST-4", e->span,
                 "R.dist.redistribute needs a DTensor, got %s", printer_print_sinfo(x));
        return sinfo_poisoned(e->span);
    }
    StructInfo *s = attrs_dtensor(c, e, x->u.dtensor.tensor);
    return placement_ok(c, s, e->span) ? s : sinfo_poisoned(e->span);
}

/* The tensor with axis `axis` divided by `n` (TVM's floor-free div of a known shape). */
static StructInfo *divided(SiCtx *c, const Expr *e, const StructInfo *t, int64_t axis, int64_t n)
{
    OpShape sh = ops_shape_of(t);
    if (sh.dims == NULL || axis < 0 || axis >= sh.ndim || n < 1) {
        si_error(c, "DistArgument", "DIST-4", e->span,
                 "redistribute_replica_to_shard needs a tensor of known shape, an axis inside "
                 "it and a positive number of workers");
        return NULL;
    }
    PrimExpr *d = sh.dims[axis];
    PrimExpr *nw = primexpr_int(n, d->dtype, e->span);
    PrimExpr *rem = arith_simplify(primexpr_binary(PE_FLOORMOD, d, nw, e->span));
    if (rem->kind == PE_INT && rem->u.int_value != 0) {
        si_error(c, "DistArgument", "DIST-4", e->span,
                 "axis %lld of length %s is not divisible by %lld workers", (long long)axis,
                 printer_print_primexpr(d), (long long)n);
        return NULL;
    }
    PrimExpr **dims = MEM_ARRAY(PrimExpr *, sh.ndim);
    for (int i = 0; i < sh.ndim; i++)
        dims[i] =
            i == axis ? arith_simplify(primexpr_binary(PE_FLOORDIV, d, nw, e->span)) : sh.dims[i];
    return ops_tensor_result((OpShape){dims, sh.ndim}, t->u.tensor.dtype, t->u.tensor.vdevice,
                             e->span);
}

static StructInfo *replica_to_shard(SiCtx *c, const Expr *e)
{
    StructInfo *x = arg(e, 0);
    int64_t n = ops_attr_int(e, "num_workers", 0);
    int64_t axis = ops_attr_int(e, "axis", 0);
    if (x != NULL && x->kind == SINFO_TENSOR) {
        StructInfo *t = divided(c, e, x, axis, n);
        return t != NULL ? t : sinfo_poisoned(e->span);
    }
    if (!is_dtensor(x) || divided(c, e, x->u.dtensor.tensor, axis, n) == NULL)
        return x != NULL && !is_dtensor(x) && x->kind != SINFO_TENSOR
                   ? (si_error(c, "DistArgument", "DIST-4", e->span,
                               "redistribute_replica_to_shard needs a tensor or a DTensor"),
                      sinfo_poisoned(e->span))
                   : sinfo_poisoned(e->span);
    const Placement *p = x->u.dtensor.placement;
    if (p->n != 1 || p->axes[0] != -1) {
        si_error(c, "DistArgument", "DIST-4", e->span,
                 "redistribute_replica_to_shard needs a replicated DTensor of a 1-d mesh");
        return sinfo_poisoned(e->span);
    }
    /* TVM keeps the global tensor and marks it sharded along the axis. */
    Placement *q = MEM_NEW(Placement);
    q->axes = MEM_ARRAY(int, 1);
    q->axes[0] = (int)axis;
    q->n = 1;
    return sinfo_dtensor(x->u.dtensor.tensor, x->u.dtensor.mesh_name, x->u.dtensor.mesh_index,
                         x->u.dtensor.mesh, q, e->span);
}

/* DIST-4: the R.dist.* operators. */
static StructInfo *dist_op(SiCtx *c, const Expr *e, const char *op)
{
    rule_fired("DIST-4");
    if (strcmp(op, "relax.dist.annotate_sharding") == 0)
        return arg(e, 0) != NULL ? arg(e, 0) : sinfo_object(e->span);
    if (strcmp(op, "relax.dist.redistribute") == 0)
        return redistribute(c, e);
    if (strcmp(op, "relax.dist.redistribute_replica_to_shard") == 0)
        return replica_to_shard(c, e);
    if (strcmp(op, "relax.dist.call_tir_local_view") == 0) {
        if (e->u.call.nargs < 1 || e->u.call.args[0]->kind != EXPR_GLOBAL_VAR ||
            e->u.call.nsinfo_args != 1) {
            si_error(c, "DistArgument", "DIST-4", e->span,
                     "call_tir_local_view calls a PrimFunc of the module, with one out_sinfo");
            return sinfo_poisoned(e->span);
        }
        return e->u.call.sinfo_args[0];
    }
    return NULL;
}

/* ---- DIST-5: operators on DTensors ------------------------------------------------- */

typedef enum AxisMap {
    MAP_UNARY,
    MAP_BINARY,
    MAP_MATMUL,
    MAP_PERMUTE,
    MAP_REDUCE,
    MAP_SOFTMAX,
    MAP_RESHAPE,
    MAP_ALLREDUCE, /* the input's tensor, replicated */
    MAP_NONE,      /* TVM has a rule the reference does not derive */
} AxisMap;

/* The operators TVM v0.22 registers a dist.FInferStructInfo for, by axis map. */
static const struct {
    const char *name;
    AxisMap map;
} DIST_OPS[] = {
    {"abs", MAP_UNARY},
    {"acos", MAP_UNARY},
    {"acosh", MAP_UNARY},
    {"asin", MAP_UNARY},
    {"asinh", MAP_UNARY},
    {"atan", MAP_UNARY},
    {"atanh", MAP_UNARY},
    {"bitwise_not", MAP_UNARY},
    {"ceil", MAP_UNARY},
    {"cos", MAP_UNARY},
    {"cosh", MAP_UNARY},
    {"exp", MAP_UNARY},
    {"floor", MAP_UNARY},
    {"log", MAP_UNARY},
    {"logical_not", MAP_UNARY},
    {"negative", MAP_UNARY},
    {"round", MAP_UNARY},
    {"rsqrt", MAP_UNARY},
    {"sigmoid", MAP_UNARY},
    {"sign", MAP_UNARY},
    {"sin", MAP_UNARY},
    {"sinh", MAP_UNARY},
    {"square", MAP_UNARY},
    {"sqrt", MAP_UNARY},
    {"tan", MAP_UNARY},
    {"tanh", MAP_UNARY},
    {"nn.relu", MAP_UNARY},
    {"nn.gelu", MAP_UNARY},
    {"nn.gelu_tanh", MAP_UNARY},
    {"nn.silu", MAP_UNARY},
    {"add", MAP_BINARY},
    {"divide", MAP_BINARY},
    {"floor_divide", MAP_BINARY},
    {"multiply", MAP_BINARY},
    {"power", MAP_BINARY},
    {"subtract", MAP_BINARY},
    {"mod", MAP_BINARY},
    {"floor_mod", MAP_BINARY},
    {"equal", MAP_BINARY},
    {"greater", MAP_BINARY},
    {"greater_equal", MAP_BINARY},
    {"less", MAP_BINARY},
    {"less_equal", MAP_BINARY},
    {"not_equal", MAP_BINARY},
    {"minimum", MAP_BINARY},
    {"maximum", MAP_BINARY},
    {"logical_and", MAP_BINARY},
    {"logical_or", MAP_BINARY},
    {"logical_xor", MAP_BINARY},
    {"bitwise_and", MAP_BINARY},
    {"bitwise_or", MAP_BINARY},
    {"bitwise_xor", MAP_BINARY},
    {"left_shift", MAP_BINARY},
    {"right_shift", MAP_BINARY},
    {"matmul", MAP_MATMUL},
    {"permute_dims", MAP_PERMUTE},
    {"max", MAP_REDUCE},
    {"mean", MAP_REDUCE},
    {"min", MAP_REDUCE},
    {"prod", MAP_REDUCE},
    {"std", MAP_REDUCE},
    {"sum", MAP_REDUCE},
    {"variance", MAP_REDUCE},
    {"nn.softmax", MAP_SOFTMAX},
    {"reshape", MAP_RESHAPE},
    {"ccl.allreduce", MAP_ALLREDUCE},
    {"builtin.stop_lift_params", MAP_NONE},
};

static bool dist_map_of(const char *op, AxisMap *map)
{
    for (size_t i = 0; i < sizeof DIST_OPS / sizeof DIST_OPS[0]; i++)
        if (strcmp(op + 6, DIST_OPS[i].name) == 0) {
            *map = DIST_OPS[i].map;
            return true;
        }
    return false;
}

/* The dim of a tensor counted from the right (1 = last), or NULL. */
static const PrimExpr *dim_from_right(const StructInfo *t, int i)
{
    OpShape sh = ops_shape_of(t);
    return sh.dims != NULL && i >= 1 && i <= sh.ndim ? sh.dims[sh.ndim - i] : NULL;
}

/* TVM's broadcast join: an axis aligned from the right joins the output unless it is the
 * 1 that broadcasts against a longer dim. */
static int broadcast_axis(const StructInfo *self, const StructInfo *other, int a, int out_ndim)
{
    int n = self->u.tensor.ndim;
    int from_right = n - a;
    const PrimExpr *mine = dim_from_right(self, from_right);
    const PrimExpr *theirs =
        other != NULL && other->kind == SINFO_TENSOR ? dim_from_right(other, from_right) : NULL;
    if (mine != NULL && theirs != NULL && prover_compare(mine, theirs) != PROVE_EQUAL &&
        ops_dim_is(mine, 1))
        return -1;
    return out_ndim - from_right;
}

/* TVM's matmul batch join: the i-th batch axis from the right joins the output only when
 * the other operand has an i-th batch axis too, and not as the 1 that broadcasts against it
 * (TVM's walk covers the shorter batch prefix alone). */
static int matmul_batch_axis(const StructInfo *self, const StructInfo *other, int a, int batch_out)
{
    int n = self->u.tensor.ndim, m = other->u.tensor.ndim;
    int from_right = n - 2 - a;
    if (from_right > (m > 2 ? m - 2 : 0))
        return -1;
    const PrimExpr *mine = dim_from_right(self, from_right + 2);
    const PrimExpr *theirs = dim_from_right(other, from_right + 2);
    if (mine != NULL && theirs != NULL && prover_compare(mine, theirs) != PROVE_EQUAL &&
        ops_dim_is(mine, 1))
        return -1;
    return batch_out - from_right;
}

static int matmul_axis(const StructInfo *x1, const StructInfo *x2, int k, int a, int out_ndim)
{
    int n1 = x1->u.tensor.ndim, n2 = x2->u.tensor.ndim;
    int batch_out = out_ndim - (n1 > 1) - (n2 > 1);
    if (k == 0) {
        if (n1 == 1 || a == n1 - 1)
            return -1; /* the reduced axis */
        if (a == n1 - 2)
            return n2 == 1 ? out_ndim - 1 : out_ndim - 2;
        return matmul_batch_axis(x1, x2, a, batch_out);
    }
    if (n2 == 1 || a == n2 - 2)
        return -1;
    if (a == n2 - 1)
        return out_ndim - 1;
    return matmul_batch_axis(x2, x1, a, batch_out);
}

static int permute_axis(const Expr *e, int a, int ndim)
{
    int64_t *axes;
    int n;
    if (!ops_attr_int_list(e, "axes", &axes, &n))
        return ndim - 1 - a; /* None reverses */
    for (int o = 0; o < n; o++)
        if ((axes[o] < 0 ? axes[o] + ndim : axes[o]) == a)
            return o;
    return -1;
}

static int reduce_axis(const Expr *e, AxisMap map, int a, int ndim)
{
    bool keep = map == MAP_SOFTMAX || ops_attr_bool(e, "keepdims", false);
    int64_t *axes = NULL;
    int n = 0;
    bool all = map != MAP_SOFTMAX && !ops_attr_int_list(e, "axis", &axes, &n);
    int64_t one = ops_attr_int(e, "axis", -1);
    if (map == MAP_SOFTMAX) {
        axes = &one;
        n = 1;
    }
    int out = 0;
    for (int i = 0; i < ndim; i++) {
        bool reduced = all;
        for (int j = 0; j < n; j++)
            reduced = reduced || (axes[j] < 0 ? axes[j] + ndim : axes[j]) == i;
        if (i == a)
            return reduced ? -1 : (keep ? i : out);
        if (!reduced)
            out++;
    }
    return -1;
}

/* a > b (1), a < b (-1) or neither provable (0), for products of dims. */
static int product_order(const PrimExpr *a, const PrimExpr *b)
{
    PrimExpr *x = arith_simplify(a), *y = arith_simplify(b);
    if (x->kind == PE_INT && y->kind == PE_INT)
        return x->u.int_value > y->u.int_value ? 1 : x->u.int_value < y->u.int_value ? -1 : 0;
    return 0;
}

/* TVM's reshape axis graph: walking both shapes from the right, an input axis joins the
 * output axis that closes a group of equal products. */
static int reshape_axis(const StructInfo *in, const StructInfo *out, int a)
{
    OpShape os = ops_shape_of(in), ns = ops_shape_of(out);
    if (os.dims == NULL || ns.dims == NULL)
        return -1;
    int i = os.ndim, j = ns.ndim;
    Span none = {0};
    PrimExpr *op = primexpr_int(1, dtype_int64(), none), *np = op;
    while (i > 0 && j > 0) {
        int order = product_order(np, op);
        if (order > 0) {
            op = primexpr_binary(PE_MUL, op, os.dims[--i], none);
        } else if (order < 0) {
            np = primexpr_binary(PE_MUL, np, ns.dims[--j], none);
        } else {
            if (i != os.ndim && i == a)
                return j;
            i--;
            j--;
            op = primexpr_binary(PE_MUL, op, os.dims[i], none);
            np = primexpr_binary(PE_MUL, np, ns.dims[j], none);
        }
    }
    return -1;
}

/* The output axis that axis `a` of DTensor argument `k` carries to, or -1. */
static int out_axis(const Expr *e, AxisMap map, StructInfo *const *t, int k, int a,
                    const StructInfo *out)
{
    int out_ndim = out->u.tensor.ndim;
    switch (map) {
    case MAP_UNARY:
        return k == 0 ? a : -1;
    case MAP_BINARY:
        return broadcast_axis(t[k], t[1 - k], a, out_ndim);
    case MAP_MATMUL:
        return matmul_axis(t[0], t[1], k, a, out_ndim);
    case MAP_PERMUTE:
        return k == 0 ? permute_axis(e, a, t[0]->u.tensor.ndim) : -1;
    case MAP_REDUCE:
    case MAP_SOFTMAX:
        return k == 0 ? reduce_axis(e, map, a, t[0]->u.tensor.ndim) : -1;
    case MAP_RESHAPE:
        return k == 0 ? reshape_axis(t[0], out, a) : -1;
    case MAP_ALLREDUCE:
    case MAP_NONE:
        return -1;
    }
    return -1; /* not reached: every case of the switch returns */
}

/* The placement of the result, as TVM's axis graph gives it: each output axis takes the
 * mesh dimension its input axes are sharded along (two different ones for one axis are a
 * conflict, reported: NULL), then each mesh dimension shards the last output axis that
 * takes it, the others replicate. */
static Placement *propagate(SiCtx *c, const Expr *e, AxisMap map, StructInfo *const *t,
                            const StructInfo *result, const DeviceMesh *mesh)
{
    int out_ndim = result->u.tensor.ndim;
    int *dim_of = MEM_ARRAY(int, out_ndim > 0 ? out_ndim : 1);
    for (int o = 0; o < out_ndim; o++)
        dim_of[o] = -1;
    for (int k = 0; k < e->u.call.nargs && k < 2; k++) {
        const StructInfo *s = arg(e, k);
        if (!is_dtensor(s))
            continue;
        const Placement *p = s->u.dtensor.placement;
        for (int j = 0; j < p->n && j < mesh->ndim; j++) {
            int o = p->axes[j] < 0 ? -1 : out_axis(e, map, t, k, p->axes[j], result);
            if (o < 0 || o >= out_ndim)
                continue;
            if (dim_of[o] != -1 && dim_of[o] != j) {
                si_error(c, "DistShardingConflict", "DIST-5", e->span,
                         "output axis %d is sharded along mesh dimensions %d and %d", o, dim_of[o],
                         j);
                return NULL;
            }
            dim_of[o] = j;
        }
    }
    Placement *out = dist_placement_replicated(mesh->ndim);
    for (int o = 0; o < out_ndim; o++)
        if (dim_of[o] >= 0)
            out->axes[dim_of[o]] = o;
    return out;
}

/* The first DTensor argument; every other must be on its mesh, and no plain tensor may
 * stand beside it. */
static const StructInfo *common_mesh(SiCtx *c, const Expr *e, const char *op)
{
    const StructInfo *first = NULL;
    for (int i = 0; i < e->u.call.nargs; i++) {
        const StructInfo *s = arg(e, i);
        if (s != NULL && s->kind == SINFO_TENSOR) {
            si_error(c, "DistMixedArguments", "DIST-5", e->span,
                     "%s takes DTensors or tensors, not both (argument %d is a tensor)", op, i + 1);
            return NULL;
        }
        if (!is_dtensor(s))
            continue;
        if (first == NULL)
            first = s;
        else if (!dist_mesh_equal(first->u.dtensor.mesh, s->u.dtensor.mesh)) {
            si_error(c, "DistShardingConflict", "DIST-5", e->span,
                     "%s: its DTensors are on different meshes", op);
            return NULL;
        }
    }
    return first;
}

/* DIST-5: the operator's own inference on the tensors of its arguments, then the placement
 * by the generic path. */
static StructInfo *dist_generic(SiCtx *c, Expr *e, const char *op, const OpImpl *impl)
{
    rule_fired("DIST-5");
    AxisMap map;
    bool own = dist_map_of(op, &map) && map == MAP_ALLREDUCE; /* needs no tensor inference */
    if (!dist_map_of(op, &map) || map == MAP_NONE ||
        (!own && (impl == NULL || impl->infer == NULL))) {
        si_error(c, "DistNoInference", "DIST-5", e->span, "%s has no inference on DTensors%s", op,
                 dist_map_of(op, &map) ? " in the reference (TVM v0.22 derives one)"
                                       : " in TVM v0.22");
        return sinfo_poisoned(e->span);
    }
    const StructInfo *first = common_mesh(c, e, op);
    if (first == NULL)
        return sinfo_poisoned(e->span);
    /* TVM's binary and matmul rules read two DTensor operands. */
    if ((map == MAP_BINARY || map == MAP_MATMUL) &&
        (e->u.call.nargs < 2 || !is_dtensor(arg(e, 0)) || !is_dtensor(arg(e, 1)))) {
        si_error(c, "DistMixedArguments", "DIST-5", e->span,
                 "%s on a DTensor needs a DTensor for each operand", op);
        return sinfo_poisoned(e->span);
    }
    int n = e->u.call.nargs;
    StructInfo **tensors = MEM_ARRAY(StructInfo *, n > 1 ? n : 2);
    for (int i = 0; i < n; i++)
        tensors[i] = is_dtensor(arg(e, i)) ? arg(e, i)->u.dtensor.tensor : arg(e, i);
    int before = c->errors->n;
    OpInferCtx ctx = {e, tensors, n, c->errors, ops_rule_of(op)};
    if (!own)
        rule_fired(ctx.rule);
    /* TVM's allreduce keeps its input's tensor. */
    StructInfo *t = map == MAP_ALLREDUCE ? tensors[0] : ops_infer(impl, &ctx);
    if (c->errors->n > before || t->kind != SINFO_TENSOR)
        return t->kind != SINFO_TENSOR && c->errors->n == before
                   ? (si_error(c, "DistNoInference", "DIST-5", e->span,
                               "%s on DTensors gives no single tensor", op),
                      sinfo_poisoned(e->span))
                   : sinfo_poisoned(e->span);
    const DeviceMesh *mesh = first->u.dtensor.mesh;
    Placement *p = mesh != NULL ? propagate(c, e, map, tensors, t, mesh) : NULL;
    if (p == NULL)
        return sinfo_poisoned(e->span);
    return sinfo_dtensor(t, first->u.dtensor.mesh_name, first->u.dtensor.mesh_index,
                         first->u.dtensor.mesh, p, e->span);
}

/* DIST-4: call_tir's inputs are not checked against its PrimFunc once one is a DTensor, as
 * TVM's check stops there. */
static bool tuple_has_dtensor(const StructInfo *s)
{
    if (s == NULL || s->kind != SINFO_TUPLE)
        return is_dtensor(s);
    for (int i = 0; i < s->u.tuple.n; i++)
        if (is_dtensor(s->u.tuple.fields[i]))
            return true;
    return false;
}

StructInfo *si_dist_call(SiCtx *c, Expr *e, const char *op, const OpImpl *impl)
{
    if (strncmp(op, "relax.dist.", 11) == 0)
        return dist_op(c, e, op);
    if (strcmp(op, "relax.call_tir") == 0) {
        if (!tuple_has_dtensor(arg(e, 1)) &&
            (e->u.call.nsinfo_args != 1 || !tuple_has_dtensor(e->u.call.sinfo_args[0])))
            return NULL;
        rule_fired("DIST-4");
        return e->u.call.nsinfo_args == 1 ? e->u.call.sinfo_args[0] : sinfo_object(e->span);
    }
    for (int i = 0; i < e->u.call.nargs; i++)
        if (is_dtensor(arg(e, i)))
            return dist_generic(c, e, op, impl);
    return NULL;
}
