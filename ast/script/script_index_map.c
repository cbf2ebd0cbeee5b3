/* script_index_map: TIR index maps written as Python lambdas, `T.index_map(lambda i, j: ...)`
 * or a bare `lambda`, read into an ATTR_INDEX_MAP attribute. SPEC_NOTES: TS-6.2. */
#include "ast/script/script_index_map.h"
#include "ast/rule.h"

#include <string.h>

#include "ast/mem.h"
#include "ast/script/script_prim.h"

typedef struct Params {
    const PyExpr *lambda;
    TirVar **vars;
} Params;

static bool lookup_param(void *ctx, const char *name, TirVar **var, Buffer **buffer)
{
    const Params *ps = ctx;
    *buffer = NULL;
    for (int i = ps->lambda->u.lambda.nparams - 1; i >= 0; i--)
        if (strcmp(ps->lambda->u.lambda.params[i], name) == 0) {
            *var = ps->vars[i];
            return true;
        }
    return false;
}

static bool is_index_map_call(const PyExpr *e)
{
    return e->kind == PY_CALL && e->u.call.func->kind == PY_ATTR &&
           e->u.call.func->u.attr.value->kind == PY_NAME &&
           strcmp(e->u.call.func->u.attr.value->u.name, "T") == 0 &&
           strcmp(e->u.call.func->u.attr.attr, "index_map") == 0;
}

/* index_dtype="int32" or "int64" (the default) of T.index_map. */
static DataType index_dtype(const PyExpr *call, ErrorTrap *trap)
{
    DataType t = dtype_int64();
    for (int i = 0; i < call->u.call.nkw; i++) {
        const PyExpr *v = call->u.call.kw_values[i];
        if (strcmp(call->u.call.kw_names[i], "index_dtype") != 0 || v->kind != PY_STR ||
            !dtype_parse(v->u.str, &t) || !dtype_is_int(t) || (t.bits != 32 && t.bits != 64) ||
            t.lanes != 1)
            error_raise(trap, PHASE_PARSE, "BadArguments", "TS-6.2", call->u.call.kw_spans[i],
                        "T.index_map takes a lambda and index_dtype=\"int32\" or \"int64\"");
    }
    return t;
}

/* The lambda of `T.index_map(lambda ..., index_dtype=...)` (TVM's printed form) or of a
 * bare lambda; *dtype receives the parameters' dtype. */
static const PyExpr *the_lambda(const PyExpr *e, ErrorTrap *trap, DataType *dtype)
{
    *dtype = dtype_int64();
    if (is_index_map_call(e)) {
        if (e->u.call.nargs != 1)
            error_raise(trap, PHASE_PARSE, "BadArguments", "TS-6.2", e->span,
                        "T.index_map takes one lambda");
        *dtype = index_dtype(e, trap);
        e = e->u.call.args[0];
    }
    if (e->kind != PY_LAMBDA)
        error_raise(trap, PHASE_PARSE, "BadArguments", "TS-6.2", e->span,
                    "an index map is written `lambda i, j: (...)` or `T.index_map(lambda ...)`");
    return e;
}

/* index_map -> 'T.index_map' '(' lambdef [',' 'index_dtype' '=' STRING] ')' | lambdef
 * lambdef   -> 'lambda' NAME {',' NAME} ':' result
 * result    -> PrimExpr | '(' PrimExpr {',' PrimExpr} [','] ')' | '[' ... ']'
 * The parameters are int64 variables (TVM's default index dtype for Relax) unless
 * index_dtype says int32; Python numbers in the results take the parameters' type. */
AttrValue *script_index_map(const PyExpr *e, ErrorTrap *trap)
{
    rule_fired("TS-6.2");
    DataType dtype;
    const PyExpr *lam = the_lambda(e, trap, &dtype);
    AttrValue *v = attr_new(ATTR_INDEX_MAP, e->span);
    int np = lam->u.lambda.nparams;
    v->u.index_map.params = MEM_ARRAY(TirVar *, np + 1);
    v->u.index_map.nparams = np;
    for (int i = 0; i < np; i++)
        v->u.index_map.params[i] =
            tirvar_new(lam->u.lambda.params[i], dtype, lam->u.lambda.param_spans[i]);
    Params ps = {lam, v->u.index_map.params};
    PrimEnv env = {.lookup = lookup_param, .ctx = &ps, .tir = dtype.bits == 32};
    const PyExpr *body = lam->u.lambda.body;
    bool seq = body->kind == PY_TUPLE || body->kind == PY_LIST;
    int nr = seq ? body->u.seq.n : 1;
    v->u.index_map.results = MEM_ARRAY(PrimExpr *, nr + 1);
    v->u.index_map.nresults = nr;
    for (int i = 0; i < nr; i++) {
        const PyExpr *r = seq ? body->u.seq.items[i] : body;
        PrimExpr *pe = script_prim_expr(r, &env, trap);
        if (!dtype_is_int(pe->dtype))
            error_raise(trap, PHASE_PARSE, "BadArguments", "TS-6.2", r->span,
                        "an index map's result must be an integer index");
        v->u.index_map.results[i] = pe;
    }
    return v;
}

bool script_is_index_map(const PyExpr *e)
{
    return e->kind == PY_LAMBDA || is_index_map_call(e);
}
