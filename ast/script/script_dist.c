/* script_dist: the distributed dialect in TVMScript: R.device_mesh global infos, the mesh and
 * placement of R.DTensor, and the R.dist.* calls. SPEC_NOTES §4.24 (DIST-1, DIST-2, DIST-4). */
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"

/* Binds positional then keyword arguments of `c` to `names`. */
static void bind(ScriptCtx *ctx, const PyExpr *c, const char *fname, const char *const *names,
                 int n, const PyExpr **slot)
{
    if (c->u.call.nargs > n)
        script_fail(ctx, "BadArguments", c->span, "%s takes at most %d arguments", fname, n);
    for (int i = 0; i < n; i++)
        slot[i] = i < c->u.call.nargs ? c->u.call.args[i] : NULL;
    for (int k = 0; k < c->u.call.nkw; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], c->u.call.kw_names[k]) != 0)
            i++;
        if (i == n)
            script_fail(ctx, "UnknownKeyword", c->u.call.kw_spans[k], "%s takes no keyword `%s`",
                        fname, c->u.call.kw_names[k]);
        if (slot[i] != NULL)
            script_fail(ctx, "BadArguments", c->u.call.kw_spans[k], "`%s` given twice", names[i]);
        slot[i] = c->u.call.kw_values[k];
    }
    for (int i = 0; i < n; i++)
        if (slot[i] == NULL)
            script_fail(ctx, "BadArguments", c->span, "%s needs `%s`", fname, names[i]);
}

static int64_t int_item(ScriptCtx *ctx, const PyExpr *e, const char *what)
{
    ScriptNum v;
    if (!script_number(ctx, e, &v) || v.kind != NUM_INT)
        script_fail(ctx, "DistMesh", e->span, "%s must be an integer", what);
    return v.i;
}

static int64_t *int_list(ScriptCtx *ctx, const PyExpr *e, const char *what, int *n)
{
    if (e->kind != PY_LIST && e->kind != PY_TUPLE)
        script_fail(ctx, "DistMesh", e->span, "%s must be a list or tuple of integers", what);
    *n = e->u.seq.n;
    int64_t *v = MEM_ARRAY(int64_t, *n + 1);
    for (int i = 0; i < *n; i++)
        v[i] = int_item(ctx, e->u.seq.items[i], what);
    return v;
}

/* ids -> '[' INT {',' INT} ']' | 'I.Range' '(' [begin ','] end ')' */
static void read_device_ids(ScriptCtx *ctx, const PyExpr *e, DeviceMesh *m)
{
    if (!script_is_call_to(ctx, e, NS_IR, "Range")) {
        m->device_ids = int_list(ctx, e, "a device id", &m->ndevices);
        return;
    }
    int n = e->u.call.nargs;
    if (n < 1 || n > 2 || e->u.call.nkw > 0)
        script_fail(ctx, "DistMesh", e->span, "I.Range takes (begin, end) or (end)");
    m->has_range = true;
    m->range_begin = n == 2 ? int_item(ctx, e->u.call.args[0], "a range bound") : 0;
    m->range_end = int_item(ctx, e->u.call.args[n - 1], "a range bound");
    if (m->range_end < m->range_begin || m->range_end - m->range_begin > 1 << 20)
        script_fail(ctx, "DistMesh", e->span, "I.Range(%lld, %lld) is no range of device ids",
                    (long long)m->range_begin, (long long)m->range_end);
    m->ndevices = (int)(m->range_end - m->range_begin);
    m->device_ids = MEM_ARRAY(int64_t, m->ndevices + 1);
    for (int i = 0; i < m->ndevices; i++)
        m->device_ids[i] = m->range_begin + i;
}

static bool is_mesh_call(ScriptCtx *ctx, const PyExpr *e)
{
    return script_is_call_to(ctx, e, NS_RELAX, "device_mesh") ||
           script_is_call_to(ctx, e, NS_RELAX, "dist.device_mesh");
}

/* DIST-1: mesh -> R.device_mesh '(' shape ',' ids ')'; the shape's dims are positive and their
 * product is the number of devices, as TVM's DeviceMesh requires. */
static DeviceMesh *read_mesh(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("DIST-1");
    static const char *const names[] = {"shape", "device_ids"};
    const PyExpr *slot[2];
    bind(ctx, e, "R.device_mesh", names, 2, slot);
    DeviceMesh *m = MEM_NEW(DeviceMesh);
    m->span = e->span;
    m->shape = int_list(ctx, slot[0], "a mesh dimension", &m->ndim);
    read_device_ids(ctx, slot[1], m);
    int64_t prod = 1;
    for (int i = 0; i < m->ndim; i++) {
        if (m->shape[i] < 1 || m->shape[i] > 1 << 20)
            script_fail(ctx, "DistMesh", slot[0]->span, "a mesh dimension must be positive");
        prod *= m->shape[i];
        if (prod > 1 << 20)
            script_fail(ctx, "DistMesh", slot[0]->span, "the mesh is too large");
    }
    if (prod != m->ndevices)
        script_fail(ctx, "DistMesh", e->span,
                    "a mesh of shape with %lld elements needs as many device ids, got %d",
                    (long long)prod, m->ndevices);
    return m;
}

bool script_dist_global_info(ScriptCtx *ctx, const char *key, const PyExpr *list)
{
    if (list->u.seq.n == 0 || !is_mesh_call(ctx, list->u.seq.items[0]))
        return false;
    MeshGroup g = {.name = key, .n = list->u.seq.n};
    g.meshes = MEM_ARRAY(DeviceMesh *, g.n);
    for (int i = 0; i < g.n; i++) {
        const PyExpr *item = list->u.seq.items[i];
        if (!is_mesh_call(ctx, item))
            script_fail(ctx, "DistMesh", item->span, "a list of meshes holds only R.device_mesh");
        g.meshes[i] = read_mesh(ctx, item);
    }
    IRModule *m = ctx->mod;
    for (int i = 0; i < m->nmesh_groups; i++)
        if (strcmp(m->mesh_groups[i].name, key) == 0)
            script_fail(ctx, "DistMesh", list->span, "global info \"%s\" given twice", key);
    MeshGroup *all = MEM_ARRAY(MeshGroup, m->nmesh_groups + 1);
    for (int i = 0; i < m->nmesh_groups; i++)
        all[i] = m->mesh_groups[i];
    all[m->nmesh_groups++] = g;
    m->mesh_groups = all;
    return true;
}

/* DIST-1: "name[i]" names the i-th mesh of the global info `name`. */
static DeviceMesh *mesh_ref(ScriptCtx *ctx, const PyExpr *e, Span at, const char **name, int *index)
{
    rule_fired("DIST-1");
    if (e == NULL)
        script_fail(ctx, "DistMesh", at, "a DTensor needs a device mesh");
    if (e->kind != PY_STR || !dist_mesh_ref_parse(e->u.str, name, index))
        script_fail(ctx, "DistMesh", e->span, "a device mesh is written \"name[index]\"");
    DeviceMesh *m = module_device_mesh(ctx->mod, *name, *index);
    if (m == NULL)
        script_fail(ctx, "DistMesh", e->span, "the module's global infos have no mesh %s",
                    e->u.str);
    return m;
}

/* DIST-2: the placement text, read as TVM reads it. */
static Placement *placement(ScriptCtx *ctx, const PyExpr *e, Span at)
{
    rule_fired("DIST-2");
    if (e == NULL || e->kind != PY_STR)
        script_fail(ctx, "DistPlacement", e ? e->span : at,
                    "a placement is a string such as \"S[0], R\"");
    Placement *p = MEM_NEW(Placement);
    const char *why = dist_placement_parse(e->u.str, p);
    if (why != NULL)
        script_fail(ctx, "DistPlacement", e->span, "placement \"%s\": %s", e->u.str, why);
    return p;
}

StructInfo *script_dist_dtensor(ScriptCtx *ctx, StructInfo *tensor, const PyExpr *mesh,
                                const PyExpr *place, Span span)
{
    const char *name;
    int index;
    DeviceMesh *m = mesh_ref(ctx, mesh, span, &name, &index);
    return sinfo_dtensor(tensor, name, index, m, placement(ctx, place, span), span);
}

/* ---- R.dist.* calls (DIST-4) ------------------------------------------------------- */

static Expr *call_of(const char *op, Expr *arg, Span span)
{
    Expr **args = MEM_ARRAY(Expr *, 1);
    args[0] = arg;
    return expr_call(expr_op(op, span), args, 1, span);
}

/* sharding -> R.dist.annotate_sharding '(' value ',' device_mesh ',' placement ')'
 *           | R.dist.redistribute '(' value ',' device_mesh ',' placement ')' */
static Expr *sharding_call(ScriptCtx *ctx, const PyExpr *c, const char *name)
{
    static const char *const names[] = {"input", "device_mesh", "placement"};
    const PyExpr *slot[3];
    const char *fname = mem_printf("R.dist.%s", name);
    bind(ctx, c, fname, names, 3, slot);
    const char *mesh_name;
    int index;
    mesh_ref(ctx, slot[1], c->span, &mesh_name, &index);
    Placement *p = placement(ctx, slot[2], c->span);
    Expr *call = call_of(mem_printf("relax.dist.%s", name), script_expr(ctx, slot[0]), c->span);
    attrs_set(call->u.call.attrs, "device_mesh",
              attr_str(mem_printf("%s[%d]", mesh_name, index), slot[1]->span));
    attrs_set(call->u.call.attrs, "placement", attr_str(dist_placement_str(p), slot[2]->span));
    return call;
}

/* r_to_s -> R.dist.redistribute_replica_to_shard '(' input ',' num_workers ',' axis ')' */
static Expr *replica_to_shard(ScriptCtx *ctx, const PyExpr *c, const char *name)
{
    static const char *const names[] = {"input", "num_workers", "axis"};
    const PyExpr *slot[3];
    bind(ctx, c, "R.dist.redistribute_replica_to_shard", names, 3, slot);
    Expr *call = call_of(mem_printf("relax.dist.%s", name), script_expr(ctx, slot[0]), c->span);
    for (int i = 1; i < 3; i++) {
        ScriptNum v;
        if (!script_number(ctx, slot[i], &v) || v.kind != NUM_INT)
            script_fail(ctx, "BadArguments", slot[i]->span, "`%s` takes an integer", names[i]);
        attrs_set(call->u.call.attrs, names[i], attr_int(v.i, slot[i]->span));
    }
    return call;
}

/* dist_const -> R.dist.const '(' value ',' dtensor ')': a constant whose StructInfo is the
 * DTensor given, its data of that DTensor's dtype. */
static Expr *dist_const(ScriptCtx *ctx, const PyExpr *c, const char *name)
{
    (void)name;
    static const char *const names[] = {"value", "struct_info"};
    const PyExpr *slot[2];
    bind(ctx, c, "R.dist.const", names, 2, slot);
    StructInfo *s = script_sinfo(ctx, slot[1], SMODE_BODY);
    if (s->kind != SINFO_DTENSOR)
        script_fail(ctx, "BadArguments", slot[1]->span, "R.dist.const takes an R.DTensor");
    PyExpr *dtype = MEM_NEW(PyExpr);
    dtype->kind = PY_STR;
    dtype->span = slot[1]->span;
    dtype->u.str = dtype_str(s->u.dtensor.tensor->u.tensor.dtype);
    Expr *e = script_const_of(ctx, slot[0], dtype, c->span);
    e->extern_sinfo = s;
    return e;
}

typedef Expr *(*DistForm)(ScriptCtx *ctx, const PyExpr *c, const char *name);

static const struct {
    const char *name;
    DistForm fn;
} FORMS[] = {
    {"annotate_sharding", sharding_call},
    {"redistribute", sharding_call},
    {"redistribute_replica_to_shard", replica_to_shard},
    {"const", dist_const},
};

Expr *script_dist_call(ScriptCtx *ctx, const PyExpr *c, const char *name)
{
    rule_fired("DIST-4");
    for (size_t i = 0; i < sizeof FORMS / sizeof FORMS[0]; i++)
        if (strcmp(FORMS[i].name, name) == 0)
            return FORMS[i].fn(ctx, c, name);
    script_fail(ctx, "UnknownName", c->span, "R.dist.%s is no operator of the distributed dialect",
                name);
}
