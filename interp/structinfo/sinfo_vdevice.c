/* sinfo_vdevice: VDevice propagation (RealizeVDevice): operators, the backward pass, the
 * second derivation and the final check. SPEC_NOTES: "StructInfo" (VDEV-*), §4.13. */
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/rule.h"
#include "interp/structinfo/sinfo_derive_internal.h"

/* ---- small helpers -------------------------------------------------------------------- */

static const char *vdev_text(const VDevice *v)
{
    return mem_printf("%s:%d", v->target_kind ? v->target_kind : "", v->vdevice_id);
}

/* to_vdevice and hint_on_device move data between devices: their argument and result need
 * not share a vdevice. */
static bool is_transfer_op(const char *op)
{
    return strcmp(op, "relax.to_vdevice") == 0 || strcmp(op, "relax.hint_on_device") == 0;
}

/* A Tensor with a defined vdevice gives it; anything else NULL. */
static VDevice *tensor_vdevice(const StructInfo *s)
{
    return s != NULL && s->kind == SINFO_TENSOR ? s->u.tensor.vdevice : NULL;
}

static StructInfo *on_vdevice(const StructInfo *s, VDevice *v)
{
    return sinfo_tensor(s->u.tensor.shape, s->u.tensor.dtype, v, s->u.tensor.ndim, s->span);
}

/* A variable's entry in one hash probe (a chain of 100,000 bindings looks each up often). */
static VdevVar *table_find(const VdevTable *t, const Var *v)
{
    int64_t i;
    return ptrmap_get(&t->index, v, &i) ? &t->items[i] : NULL;
}

/* ---- update_struct_info (VDEV-3) ------------------------------------------------------- */

/* update(S, v) of §7: tensors move to v (a different defined vdevice is an inconsistency),
 * tuples field by field, functions without derive_func by their result. `*clash` gets the
 * first defined vdevice found in the way. Returns `s` itself when nothing changes. */
static StructInfo *update(StructInfo *s, VDevice *v, const VDevice **clash)
{
    switch (s->kind) {
    case SINFO_TENSOR:
        if (s->u.tensor.vdevice == NULL)
            return on_vdevice(s, v);
        if (!sinfo_vdevice_equal(s->u.tensor.vdevice, v) && *clash == NULL)
            *clash = s->u.tensor.vdevice;
        return s;
    case SINFO_TUPLE: {
        int n = s->u.tuple.n;
        StructInfo **f = MEM_ARRAY(StructInfo *, n + 1);
        bool changed = false;
        for (int i = 0; i < n; i++) {
            f[i] = update(s->u.tuple.fields[i], v, clash);
            changed = changed || f[i] != s->u.tuple.fields[i];
        }
        return changed ? sinfo_tuple(f, n, s->span) : s;
    }
    case SINFO_FUNC: {
        if (s->u.func.derive_func != NULL)
            return s;
        StructInfo *ret = update(s->u.func.ret, v, clash);
        if (ret == s->u.func.ret)
            return s;
        StructInfo *g = MEM_NEW(StructInfo);
        *g = *s;
        g->u.func.ret = ret;
        return g;
    }
    case SINFO_OBJECT:
    case SINFO_PRIM:
    case SINFO_SHAPE:
    case SINFO_DTENSOR: /* placed by its mesh, never on a vdevice */
        return s;
    }
    return s; /* not reached: every case of the switch returns */
}

/* Applies the vdevices of `realized` onto `s` wherever `s` leaves them undefined (the two
 * describe one variable: kinds and tuple lengths agree, or nothing is applied). */
static StructInfo *transfer(StructInfo *s, const StructInfo *realized, const VDevice **clash)
{
    if (s->kind != realized->kind)
        return s;
    switch (s->kind) {
    case SINFO_TENSOR: {
        VDevice *v = realized->u.tensor.vdevice;
        return v != NULL ? update(s, v, clash) : s;
    }
    case SINFO_TUPLE: {
        int n = s->u.tuple.n;
        if (n != realized->u.tuple.n)
            return s;
        StructInfo **f = MEM_ARRAY(StructInfo *, n + 1);
        bool changed = false;
        for (int i = 0; i < n; i++) {
            f[i] = transfer(s->u.tuple.fields[i], realized->u.tuple.fields[i], clash);
            changed = changed || f[i] != s->u.tuple.fields[i];
        }
        return changed ? sinfo_tuple(f, n, s->span) : s;
    }
    case SINFO_FUNC: {
        if (s->u.func.derive_func != NULL)
            return s;
        StructInfo *ret = transfer(s->u.func.ret, realized->u.func.ret, clash);
        if (ret == s->u.func.ret)
            return s;
        StructInfo *g = MEM_NEW(StructInfo);
        *g = *s;
        g->u.func.ret = ret;
        return g;
    }
    case SINFO_OBJECT:
    case SINFO_PRIM:
    case SINFO_SHAPE:
    case SINFO_DTENSOR: /* placed by its mesh, never on a vdevice */
        return s;
    }
    return s; /* not reached: every case of the switch returns */
}

/* ---- binding a variable (VDEV-6) ---------------------------------------------------------- */

StructInfo *si_vdev_bind(SiCtx *c, const Var *v, StructInfo *s, Span span)
{
    const VdevVar *r = c->realized ? table_find(c->realized, v) : NULL;
    if (r != NULL) {
        rule_fired("VDEV-6");
        const VDevice *clash = NULL;
        StructInfo *t = transfer(s, r->sinfo, &clash);
        if (clash != NULL)
            si_error(c, "VDeviceConflict", "VDEV-6", span,
                     "`%s` is on %s by its value, but its uses put it on another vdevice (%s)",
                     v->name, vdev_text(clash), printer_print_sinfo(r->sinfo));
        s = t;
    }
    if (c->defs != NULL) {
        VdevVar *d = table_find(c->defs, v);
        if (d != NULL) {
            d->sinfo = s;
        } else {
            VdevVar e = {v, s};
            ptrmap_put(&c->defs->index, v, c->defs->n);
            VEC_PUSH(c->defs->items, c->defs->n, c->defs->cap, e);
        }
    }
    return s;
}

/* ---- operators (VDEV-2) --------------------------------------------------------------- */

/* Every defined vdevice among the tensors of `s` (tuple fields included) must be `*common`,
 * which the first one sets. Returns a different one, or NULL. */
static const VDevice *gather(const StructInfo *s, VDevice **common)
{
    if (s == NULL)
        return NULL;
    if (s->kind == SINFO_TUPLE) {
        for (int i = 0; i < s->u.tuple.n; i++) {
            const VDevice *d = gather(s->u.tuple.fields[i], common);
            if (d != NULL)
                return d;
        }
        return NULL;
    }
    VDevice *v = tensor_vdevice(s);
    if (v == NULL)
        return NULL;
    if (*common == NULL)
        *common = v;
    return sinfo_vdevice_equal(*common, v) ? NULL : v;
}

/* The tensors of `s` whose vdevice is undefined go to v. */
static StructInfo *fill(StructInfo *s, VDevice *v)
{
    if (s->kind == SINFO_TENSOR)
        return s->u.tensor.vdevice == NULL ? on_vdevice(s, v) : s;
    if (s->kind != SINFO_TUPLE)
        return s;
    int n = s->u.tuple.n;
    StructInfo **f = MEM_ARRAY(StructInfo *, n + 1);
    bool changed = false;
    for (int i = 0; i < n; i++) {
        f[i] = fill(s->u.tuple.fields[i], v);
        changed = changed || f[i] != s->u.tuple.fields[i];
    }
    return changed ? sinfo_tuple(f, n, s->span) : s;
}

StructInfo *si_vdev_op_result(SiCtx *c, const Expr *call, const char *op, StructInfo *s)
{
    if (is_transfer_op(op))
        return s;
    rule_fired("VDEV-2");
    VDevice *common = NULL;
    for (int i = 0; i < call->u.call.nargs; i++) {
        const VDevice *other = gather(call->u.call.args[i]->sinfo, &common);
        if (other == NULL)
            continue;
        si_error(c, "VDeviceMismatch", "VDEV-2", call->span,
                 "the tensor arguments of %s are on different vdevices (%s and %s); move one "
                 "with R.to_vdevice",
                 op, vdev_text(common), vdev_text(other));
        return s;
    }
    return common != NULL ? fill(s, common) : s;
}

/* ---- hint_on_device (VDEV-5) ---------------------------------------------------------- */

/* The DLPack device type a target kind runs on (kDLCPU = 1, kDLCUDA = 2, ...); 0 unknown. */
static int device_type_of(const char *kind)
{
    static const struct {
        const char *kind;
        int type;
    } table[] = {
        {"llvm", 1},   {"c", 1},     {"cuda", 2},  {"nvptx", 2},   {"opencl", 4},
        {"vulkan", 7}, {"metal", 8}, {"rocm", 10}, {"webgpu", 15}, {"hexagon", 16},
    };
    for (size_t i = 0; kind != NULL && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].kind, kind) == 0)
            return table[i].type;
    return 0;
}

static int64_t int_attr(const Expr *call, const char *key, int64_t fallback)
{
    const AttrValue *a = attrs_get(call->u.call.attrs, key);
    return a != NULL && a->kind == ATTR_INT ? a->u.i : fallback;
}

StructInfo *si_vdev_hint(SiCtx *c, const Expr *call)
{
    rule_fired("VDEV-5");
    StructInfo *t = call->u.call.nargs > 0 ? call->u.call.args[0]->sinfo : NULL;
    if (t == NULL)
        return sinfo_object(call->span);
    int64_t type = int_attr(call, "dev_type", 1), id = int_attr(call, "dev_id", 0);
    VDevice *found = NULL;
    for (int i = 0; i < c->mod->nvdevices && found == NULL; i++) {
        VDevice *v = c->mod->vdevices[i];
        if (device_type_of(v->target_kind) == type && v->vdevice_id == id)
            found = v;
    }
    if (found == NULL) {
        si_error(c, "VDeviceNotFound", "VDEV-5", call->span,
                 "no vdevice of the module has device type %lld and id %lld", (long long)type,
                 (long long)id);
        return t;
    }
    return t->kind == SINFO_TENSOR ? on_vdevice(t, found) : t;
}

/* ---- the backward pass (VDEV-4) -------------------------------------------------------- */

typedef struct Bw {
    SiCtx *c;
    VdevTable *t;
    bool changed;
    bool reverse; /* this sweep visits bindings last to first */
} Bw;

static void bw_expr(Bw *w, Expr *e);

/* The StructInfo of an expression as the pass sees it: a variable's is its table entry. */
static StructInfo *bw_sinfo(const Bw *w, const Expr *e)
{
    if (e->kind == EXPR_VAR) {
        const VdevVar *r = table_find(w->t, e->u.var);
        return r != NULL ? r->sinfo : e->sinfo;
    }
    return e->sinfo;
}

static StructInfo *bw_update(Bw *w, StructInfo *s, VDevice *v, Span span)
{
    rule_fired("VDEV-3");
    const VDevice *clash = NULL;
    StructInfo *u = update(s, v, &clash);
    if (clash != NULL)
        si_error(w->c, "VDeviceConflict", "VDEV-3", span,
                 "a value on %s is needed on %s here (insert R.to_vdevice)", vdev_text(clash),
                 vdev_text(v));
    return u;
}

/* A variable's StructInfo lives in the table: updating it updates its definition. */
static void bw_set_var(Bw *w, const Var *var, VDevice *v, Span span)
{
    VdevVar *r = table_find(w->t, var);
    if (r == NULL)
        return;
    StructInfo *u = bw_update(w, r->sinfo, v, span);
    w->changed = w->changed || u != r->sinfo;
    r->sinfo = u;
}

/* Sets e's StructInfo to update(S, v); a tuple literal's StructInfo is its fields'. */
static void bw_set(Bw *w, Expr *e, VDevice *v)
{
    if (e->kind == EXPR_VAR) {
        bw_set_var(w, e->u.var, v, e->span);
        return;
    }
    if (e->sinfo == NULL)
        return;
    if (e->kind == EXPR_TUPLE) {
        /* The fields report any inconsistency; the tuple follows them. */
        for (int i = 0; i < e->u.tuple.n; i++)
            bw_set(w, e->u.tuple.fields[i], v);
        const VDevice *reported = NULL;
        e->sinfo = update(e->sinfo, v, &reported);
        return;
    }
    StructInfo *u = bw_update(w, e->sinfo, v, e->span);
    w->changed = w->changed || u != e->sinfo;
    e->sinfo = u;
}

/* The callee is an Op (other than a transfer) or a PrimFunc: code that runs on the device of
 * its tensors. */
static bool runs_on_its_tensors(const SiCtx *c, const Expr *call)
{
    const Expr *op = call->u.call.op;
    if (op->kind == EXPR_OP)
        return !is_transfer_op(op->u.op_name);
    if (op->kind != EXPR_GLOBAL_VAR)
        return false;
    const ModuleFunc *mf = module_lookup(c->mod, op->u.gvar->name);
    return mf != NULL && mf->kind == MODFUNC_PRIM;
}

/* Step 2: a call on v puts its callee's result and its arguments on v. */
static void bw_call(Bw *w, Expr *e)
{
    VDevice *v = tensor_vdevice(e->sinfo);
    if (v != NULL && runs_on_its_tensors(w->c, e)) {
        bw_set(w, e->u.call.op, v);
        for (int i = 0; i < e->u.call.nargs; i++)
            bw_set(w, e->u.call.args[i], v);
    }
    bw_expr(w, e->u.call.op);
    for (int i = 0; i < e->u.call.nargs; i++)
        bw_expr(w, e->u.call.args[i]);
}

/* Steps 3.1 and 3.2: a binding's variable and value share a vdevice; a MatchCast's variable
 * takes its target's. */
static void bw_binding(Bw *w, Binding *b)
{
    if (b->var != NULL) {
        const VdevVar *r = table_find(w->t, b->var);
        VDevice *v = r != NULL ? tensor_vdevice(r->sinfo) : NULL;
        if (v != NULL)
            bw_set(w, b->value, v);
        VDevice *from = b->kind == BIND_MATCH_CAST ? tensor_vdevice(b->struct_info)
                                                   : tensor_vdevice(bw_sinfo(w, b->value));
        if (from != NULL)
            bw_set_var(w, b->var, from, b->span);
    }
    bw_expr(w, b->value);
}

/* Step 3: the SeqExpr's vdevice reaches its body; then every binding. A reverse sweep takes
 * the body first and the bindings last to first, so a vdevice moves from a use to its
 * definition, however far back, in one sweep. */
static void bw_seq(Bw *w, Expr *e)
{
    VDevice *v = tensor_vdevice(e->sinfo);
    if (v != NULL)
        bw_set(w, e->u.seq.body, v);
    if (w->reverse)
        bw_expr(w, e->u.seq.body);
    int nblocks = e->u.seq.nblocks;
    for (int i = 0; i < nblocks; i++) {
        BindingBlock *blk = e->u.seq.blocks[w->reverse ? nblocks - 1 - i : i];
        for (int k = 0; k < blk->n; k++)
            bw_binding(w, blk->bindings[w->reverse ? blk->n - 1 - k : k]);
    }
    if (!w->reverse)
        bw_expr(w, e->u.seq.body);
}

/* Step 1: a function whose result is on v has its body on v. */
static void bw_function(Bw *w, Function *f, const StructInfo *finfo)
{
    const StructInfo *ret = f->ret;
    if (ret == NULL && finfo != NULL && finfo->kind == SINFO_FUNC)
        ret = finfo->u.func.ret;
    VDevice *v = tensor_vdevice(ret);
    if (v != NULL)
        bw_set(w, f->body, v);
    bw_expr(w, f->body);
}

/* Step 4: any other expression: its children. */
static void bw_expr(Bw *w, Expr *e)
{
    switch (e->kind) {
    case EXPR_CALL:
        bw_call(w, e);
        return;
    case EXPR_SEQ:
        bw_seq(w, e);
        return;
    case EXPR_FUNCTION:
        bw_function(w, e->u.func, e->sinfo);
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            bw_expr(w, e->u.tuple.fields[i]);
        return;
    case EXPR_IF:
        bw_expr(w, e->u.if_.cond);
        bw_expr(w, e->u.if_.then_branch);
        bw_expr(w, e->u.if_.else_branch);
        return;
    case EXPR_TUPLE_GET_ITEM:
        bw_expr(w, e->u.get_item.tuple);
        return;
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    }
}

/* The walk repeats until nothing changes, alternating direction. Updates only define
 * undefined vdevices, and each changing walk defines at least one, so it ends without a
 * bound on rounds. It ends soon, too: a vdevice moves against binding order (from a use to
 * the definition of an argument, an alias' source or a SeqExpr's body) in a reverse walk,
 * and along it only from an alias' source to the alias (`y = x`), in a forward walk; what
 * arrives that way flows on only to further aliases, so a reverse walk, a forward one and
 * one that finds nothing new are the whole pass on any program. */
bool si_vdev_backward(SiCtx *c, VdevTable *t)
{
    rule_fired("VDEV-4");
    Bw w = {c, t, true, true};
    int errors = c->errors->n;
    for (; w.changed; w.reverse = !w.reverse) {
        w.changed = false;
        for (int i = 0; i < c->mod->nfuncs; i++) {
            ModuleFunc *mf = c->mod->funcs[i];
            if (mf->kind == MODFUNC_RELAX)
                bw_function(&w, mf->u.relax, c->globals[i]);
        }
        if (c->errors->n > errors)
            return false;
    }
    return true;
}

/* ---- the final check (VDEV-7) ---------------------------------------------------------- */

/* A tensor (or a tuple holding one) whose vdevice is undefined. */
static bool lacks_vdevice(const StructInfo *s)
{
    if (s == NULL)
        return false;
    if (s->kind == SINFO_TENSOR)
        return s->u.tensor.vdevice == NULL;
    if (s->kind != SINFO_TUPLE)
        return false;
    for (int i = 0; i < s->u.tuple.n; i++)
        if (lacks_vdevice(s->u.tuple.fields[i]))
            return true;
    return false;
}

static void final_expr(SiCtx *c, const Expr *e);

static void final_call(SiCtx *c, const Expr *e)
{
    if (runs_on_its_tensors(c, e)) {
        const Expr *op = e->u.call.op;
        const char *name = op->kind == EXPR_OP ? op->u.op_name : op->u.gvar->name;
        for (int i = 0; i < e->u.call.nargs; i++) {
            const Expr *a = e->u.call.args[i];
            if (lacks_vdevice(a->sinfo))
                si_error(c, "VDeviceUndefined", "VDEV-7", a->span,
                         "argument %d of %s (%s) has no vdevice: annotate it, or move it with "
                         "R.to_vdevice",
                         i + 1, name, printer_print_sinfo(a->sinfo));
        }
    }
    final_expr(c, e->u.call.op);
    for (int i = 0; i < e->u.call.nargs; i++)
        final_expr(c, e->u.call.args[i]);
}

static void final_expr(SiCtx *c, const Expr *e)
{
    switch (e->kind) {
    case EXPR_CALL:
        final_call(c, e);
        return;
    case EXPR_SEQ:
        for (int i = 0; i < e->u.seq.nblocks; i++)
            for (int k = 0; k < e->u.seq.blocks[i]->n; k++)
                final_expr(c, e->u.seq.blocks[i]->bindings[k]->value);
        final_expr(c, e->u.seq.body);
        return;
    case EXPR_FUNCTION:
        final_expr(c, e->u.func->body);
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            final_expr(c, e->u.tuple.fields[i]);
        return;
    case EXPR_IF:
        final_expr(c, e->u.if_.cond);
        final_expr(c, e->u.if_.then_branch);
        final_expr(c, e->u.if_.else_branch);
        return;
    case EXPR_TUPLE_GET_ITEM:
        final_expr(c, e->u.get_item.tuple);
        return;
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_SHAPE:
    case EXPR_OP:
        return;
    }
}

void si_vdev_final_check(SiCtx *c)
{
    rule_fired("VDEV-7");
    for (int i = 0; i < c->mod->nfuncs; i++)
        if (c->mod->funcs[i]->kind == MODFUNC_RELAX)
            final_expr(c, c->mod->funcs[i]->u.relax->body);
}
