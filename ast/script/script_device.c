/* script_device: R.hint_on_device and the devices it names: R.device(device_type, index)
 * and TVM's constructors tvm.cpu(i), tvm.cuda(i), ... SPEC_NOTES: "TVMScript syntax" (TS-7),
 * VDEV-5. */
#include <stdint.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"

/* The integer keyword `name` of a call, or `fallback` when it is absent. */
static int64_t int_keyword(ScriptCtx *ctx, const PyExpr *c, const char *name, int64_t fallback)
{
    for (int k = 0; k < c->u.call.nkw; k++) {
        if (strcmp(c->u.call.kw_names[k], name) != 0)
            continue;
        if (c->u.call.kw_values[k]->kind != PY_INT)
            script_fail(ctx, "BadArguments", c->u.call.kw_spans[k], "`%s` takes an integer", name);
        return c->u.call.kw_values[k]->u.int_value;
    }
    return fallback;
}

/* A device field of R.device(device_type, index): positional, or by keyword (TVM v0.22's
 * names, or the older dev_type / dev_id). */
static int64_t device_field(ScriptCtx *ctx, const PyExpr *dev, int pos, const char *const *names,
                            int64_t fallback)
{
    if (pos < dev->u.call.nargs) {
        const PyExpr *a = dev->u.call.args[pos];
        if (a->kind != PY_INT)
            script_fail(ctx, "BadArguments", a->span, "`%s` takes an integer", names[0]);
        return a->u.int_value;
    }
    int64_t v = int_keyword(ctx, dev, names[0], INT64_MIN);
    return v != INT64_MIN ? v : int_keyword(ctx, dev, names[1], fallback);
}

/* The DLPack device type codes of TVM's device constructors tvm.cpu(i), tvm.cuda(i), ... */
static const struct {
    const char *name;
    int64_t type;
} device_kinds[] = {
    {"cpu", 1},   {"cuda", 2},  {"gpu", 2},      {"cl", 4},      {"opencl", 4},   {"vulkan", 7},
    {"metal", 8}, {"rocm", 10}, {"ext_dev", 12}, {"webgpu", 15}, {"hexagon", 16},
};

/* device -> R.device(device_type, index) | tvm.<kind>([index]) ; sets *type and *index. */
static void read_device(ScriptCtx *ctx, const PyExpr *dev, const char *fname, int64_t *type,
                        int64_t *index)
{
    static const char *const type_names[] = {"device_type", "dev_type"};
    static const char *const index_names[] = {"index", "dev_id"};
    ScriptNs ns;
    const char *path = dev->kind == PY_CALL ? script_dotted(ctx, dev->u.call.func, &ns) : NULL;
    if (path != NULL && ns == NS_RELAX && strcmp(path, "device") == 0) {
        *type = device_field(ctx, dev, 0, type_names, 1);
        *index = device_field(ctx, dev, 1, index_names, 0);
        return;
    }
    for (size_t k = 0;
         path != NULL && ns == NS_TVM && k < sizeof device_kinds / sizeof device_kinds[0]; k++) {
        if (strcmp(path, device_kinds[k].name) != 0)
            continue;
        static const char *const id_names[] = {"dev_id", "index"};
        *type = device_kinds[k].type;
        *index = device_field(ctx, dev, 0, id_names, 0);
        return;
    }
    script_fail(ctx, "BadArguments", dev->span,
                "R.%s takes a device R.device(...) or tvm.cpu(...), tvm.cuda(...), ...", fname);
}

/* hint_on_device -> R.hint_on_device(data, device [, scope])
 *                 | R.hint_on_device(data, dev_type=t, dev_id=i)
 * The device is kept as the call's attributes dev_type, dev_id (and memory_scope). */
Expr *script_hint_on_device(ScriptCtx *ctx, const PyExpr *c, const char *fname)
{
    rule_fired("TS-7");
    int n = c->u.call.nargs;
    if (n < 1 || n > 3)
        script_fail(ctx, "BadArguments", c->span, "R.%s takes data and a device", fname);
    Expr **args = MEM_ARRAY(Expr *, 1);
    args[0] = script_expr(ctx, c->u.call.args[0]);
    Expr *call = expr_call(expr_op(mem_printf("relax.%s", fname), c->span), args, 1, c->span);
    Attrs *attrs = call->u.call.attrs;
    if (n == 1) {
        attrs_set(attrs, "dev_type", attr_int(int_keyword(ctx, c, "dev_type", 1), c->span));
        attrs_set(attrs, "dev_id", attr_int(int_keyword(ctx, c, "dev_id", 0), c->span));
        return call;
    }
    const PyExpr *dev = c->u.call.args[1];
    int64_t type, index;
    read_device(ctx, dev, fname, &type, &index);
    attrs_set(attrs, "dev_type", attr_int(type, dev->span));
    attrs_set(attrs, "dev_id", attr_int(index, dev->span));
    if (n == 3) {
        const PyExpr *scope = c->u.call.args[2];
        if (scope->kind != PY_STR)
            script_fail(ctx, "BadArguments", scope->span, "the memory scope must be a string");
        attrs_set(attrs, "memory_scope", attr_str(scope->u.str, scope->span));
    }
    return call;
}

bool script_is_vdevice_call(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNs ns;
    const char *path = e->kind == PY_CALL ? script_dotted(ctx, e->u.call.func, &ns) : NULL;
    /* tvm.ir.VDevice reads as I.VDevice: tvm.ir is the IR namespace */
    return path != NULL && ((ns == NS_TVM && strcmp(path, "ir.VDevice") == 0) ||
                            (ns == NS_IR && strcmp(path, "VDevice") == 0));
}

/* VDEV-1: vdevice_obj -> 'tvm.ir.VDevice' '(' STRING [',' INT [',' STRING]] ')' (keywords
 * target, vdevice_id, memory_scope). TVM's object need not be in the global infos; the
 * reference names every vdevice there, so it is the module's equal one (same target kind,
 * id and scope), declared when there is none (SPEC_NOTES §4.3). */
const char *script_vdevice_ref(ScriptCtx *ctx, const PyExpr *e)
{
    rule_fired("VDEV-1");
    static const char *const names[] = {"target", "vdevice_id", "memory_scope"};
    const PyExpr *slot[3] = {NULL, NULL, NULL};
    if (e->u.call.nargs > 3)
        script_fail(ctx, "BadArguments", e->span, "tvm.ir.VDevice takes at most 3 arguments");
    for (int i = 0; i < e->u.call.nargs; i++)
        slot[i] = e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        int i = 0;
        while (i < 3 && strcmp(names[i], e->u.call.kw_names[k]) != 0)
            i++;
        if (i == 3 || slot[i] != NULL)
            script_fail(ctx, "UnknownKeyword", e->u.call.kw_spans[k],
                        "tvm.ir.VDevice takes target, vdevice_id, memory_scope");
        slot[i] = e->u.call.kw_values[k];
    }
    if (slot[0] == NULL || slot[0]->kind != PY_STR ||
        (slot[1] != NULL && slot[1]->kind != PY_INT) ||
        (slot[2] != NULL && slot[2]->kind != PY_STR))
        script_fail(ctx, "BadArguments", e->span,
                    "tvm.ir.VDevice takes a target string, an int id and a scope string");
    if (ctx->mod->is_lone_function)
        script_fail(ctx, "BadArguments", e->span, "a VDevice needs a module to declare it");
    VDevice want = {.target_kind = slot[0]->u.str,
                    .vdevice_id = slot[1] ? (int)slot[1]->u.int_value : 0,
                    .memory_scope = slot[2] ? slot[2]->u.str : "global",
                    .span = e->span};
    IRModule *m = ctx->mod;
    int ordinal = 0;
    for (int i = 0; i < m->nvdevices; i++) {
        const VDevice *v = m->vdevices[i];
        if (strcmp(v->target_kind, want.target_kind) != 0)
            continue;
        if (v->vdevice_id == want.vdevice_id && strcmp(v->memory_scope, want.memory_scope) == 0)
            return mem_printf("%s:%d", want.target_kind, ordinal);
        ordinal++;
    }
    VDevice **all = MEM_ARRAY(VDevice *, m->nvdevices + 1);
    for (int i = 0; i < m->nvdevices; i++)
        all[i] = m->vdevices[i];
    all[m->nvdevices] = MEM_NEW(VDevice);
    *all[m->nvdevices] = want;
    m->vdevices = all;
    m->nvdevices++;
    return mem_printf("%s:%d", want.target_kind, ordinal);
}
