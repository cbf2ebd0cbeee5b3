/* legacy_tir: the legacy TIR of the seed programs: shape variables declared with
 * T.var(dtype), singly or as a tuple, to today's T.int64() (LEG-13). The rest of their
 * PrimFuncs (T.handle, T.match_buffer, T.grid, blocks) is still today's syntax.
 * SPEC_NOTES: "Legacy syntax". */
#include <string.h>

#include "ast/dtype.h"
#include "ast/legacy/legacy_internal.h"
#include "ast/mem.h"
#include "ast/rule.h"

static bool is_tvar(const PyExpr *e)
{
    return e->kind == PY_CALL && legacy_is(e->u.call.func, "T.var");
}

/* T.var("int64") is T.int64(); its one argument is the variable's dtype. */
static PyExpr *tvar(LegacyCtx *ctx, const PyExpr *e)
{
    const PyExpr *arg = e->u.call.nargs == 1 ? e->u.call.args[0] : lpy_kw(e, "dtype");
    DataType dt;
    if (arg == NULL || arg->kind != PY_STR || e->u.call.nargs + e->u.call.nkw != 1 ||
        !dtype_parse(arg->u.str, &dt) || dt.lanes != 1 || (dt.code != DT_INT && dt.code != DT_UINT))
        legacy_fail(ctx, "LegacyTVar", "LEG-13", e->span,
                    "T.var takes the variable's integer dtype, as in T.var(\"int64\")");
    return lpy_call(lpy_dotted("T", arg->u.str, e->span), NULL, 0, e->span);
}

/* a, b = T.var(d), T.var(d) becomes one declaration per variable. */
static int split_tuple(LegacyCtx *ctx, PyStmt *s, PyStmt **out)
{
    PyExpr *t = s->u.assign.targets[0];
    PyExpr *v = s->u.assign.value;
    if (v->kind != PY_TUPLE || v->u.seq.n != t->u.seq.n)
        legacy_fail(ctx, "LegacyTVar", "LEG-13", s->span, "declare one T.var per variable");
    for (int i = 0; i < t->u.seq.n; i++) {
        if (!is_tvar(v->u.seq.items[i]))
            legacy_fail(ctx, "LegacyTVar", "LEG-13", v->u.seq.items[i]->span,
                        "declare one T.var per variable");
        out[i] = lpy_assign(t->u.seq.items[i], tvar(ctx, v->u.seq.items[i]), s->span);
    }
    return t->u.seq.n;
}

static bool declares_tvars(const PyStmt *s)
{
    if (s->kind != PYS_ASSIGN || s->u.assign.ntargets != 1)
        return false;
    const PyExpr *v = s->u.assign.value;
    if (is_tvar(v))
        return true;
    return v->kind == PY_TUPLE && v->u.seq.n > 0 && is_tvar(v->u.seq.items[0]);
}

static int count_out(const PyBody *b)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        const PyStmt *s = b->stmts[i];
        n += declares_tvars(s) && s->u.assign.value->kind == PY_TUPLE ? s->u.assign.value->u.seq.n
                                                                      : 1;
    }
    return n;
}

void legacy_primfunc(LegacyCtx *ctx, PyStmt *def)
{
    rule_fired("LEG-13");
    PyBody *b = &def->u.def.body;
    PyStmt **out = MEM_ARRAY(PyStmt *, count_out(b) + 1);
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        PyStmt *s = b->stmts[i];
        if (!declares_tvars(s)) {
            out[n++] = s;
        } else if (s->u.assign.targets[0]->kind == PY_TUPLE) {
            n += split_tuple(ctx, s, out + n);
        } else if (s->u.assign.value->kind != PY_CALL) {
            legacy_fail(ctx, "LegacyTVar", "LEG-13", s->span, "declare one T.var per variable");
        } else {
            s->u.assign.value = tvar(ctx, s->u.assign.value);
            out[n++] = s;
        }
    }
    b->stmts = out;
    b->n = n;
}
