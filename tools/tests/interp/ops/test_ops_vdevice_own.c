/* test_ops_vdevice_own: each operator's own vdevice choice, before VDEV-2 fills the result's.
 * SPEC_NOTES: "StructInfo" (VDEV-2), §4.13. */

/* VDEV-2 puts every result tensor without a vdevice on its operands' one, so no corpus case
 * can see which vdevice an operator's inference chose itself. Here the inference runs alone,
 * for every struct_info case of spec-tests/struct_info/vdevice_ops_*.yaml, on its arguments'
 * StructInfo as the derivation gives them before any vdevice propagation: main's parameter
 * annotations, tuples of them, nested operator calls inferred the same way. (After the whole
 * check, the backward pass has put a parameter without a vdevice on its sibling's vdevice,
 * which would hide an operator that reads the wrong operand.) A case tagged tvm-diverges is
 * one where TVM's own inference gives no vdevice; every other case's expected text names the
 * one TVM's gives. */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/ops/ops.h"
#include "interp/ops/ops_common.h"
#include "interp/structinfo/sinfo_check.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/tests/unit.h"

#define FILE_PREFIX "vdevice_ops_"
#define MIN_CHECKED 200

typedef struct Tally {
    int checked;  /* inferences run and judged */
    int skipped;  /* struct_info cases this test cannot judge (reported) */
    int failures; /* wrong vdevice, or the case does not derive */
} Tally;

static void report(Tally *t, const Case *c, const char *what)
{
    t->failures++;
    printf("\n%s: %s", c->global_id, what);
}

static void skip(Tally *t, const Case *c, const char *why)
{
    t->skipped++;
    printf("\n%s: skipped: %s", c->global_id, why);
}

/* The function a struct_info name refers to ("func.var", or "var" in main) and the var. */
static const Function *named_function(const IRModule *mod, const char *name, const char **var)
{
    const char *dot = strchr(name, '.');
    const char *func = dot ? mem_printf("%.*s", (int)(dot - name), name) : "main";
    *var = dot ? dot + 1 : name;
    const ModuleFunc *mf = module_lookup(mod, func);
    return mf != NULL && mf->kind == MODFUNC_RELAX ? mf->u.relax : NULL;
}

/* The value of the last binding of `var` in f's body (sinfo_bindings_find's choice), or NULL. */
static const Expr *bound_value(const Function *f, const char *var)
{
    const Expr *body = f->body;
    if (body == NULL || body->kind != EXPR_SEQ)
        return NULL;
    const Expr *value = NULL;
    for (int i = 0; i < body->u.seq.nblocks; i++) {
        const BindingBlock *b = body->u.seq.blocks[i];
        for (int j = 0; j < b->n; j++)
            if (b->bindings[j]->var != NULL && strcmp(b->bindings[j]->var->name, var) == 0)
                value = b->bindings[j]->value;
    }
    return value;
}

static bool is_param(const Function *f, const Var *v)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i] == v)
            return true;
    return false;
}

/* Inference on its own: the function the call is in, the errors inference reports, and why
 * a call could not be inferred (NULL while it could). */
typedef struct Own {
    const Function *f;
    DiagList errors;
    const char *why;
} Own;

static StructInfo *own_infer(Own *o, const Expr *call);

/* An argument's StructInfo before vdevice propagation: a parameter's annotation (what SI-15
 * binds it to; R.Object when there is none), a tuple of such, a nested operator call's own
 * inference (R.linear is parsed as matmul(x, permute_dims(w))), or the derived StructInfo of
 * an expression that holds no variable (a shape, a PrimValue, a string, an extern function).
 * NULL when there is none. */
static StructInfo *own_sinfo(Own *o, const Expr *e)
{
    switch (e->kind) {
    case EXPR_VAR:
        if (is_param(o->f, e->u.var))
            return e->u.var->annotation ? e->u.var->annotation : sinfo_object(e->span);
        o->why = mem_printf("the argument %s is not a parameter", e->u.var->name);
        return NULL;
    case EXPR_TUPLE: {
        int n = e->u.tuple.n;
        StructInfo **fields = MEM_ARRAY(StructInfo *, n > 0 ? n : 1);
        for (int i = 0; i < n; i++)
            if ((fields[i] = own_sinfo(o, e->u.tuple.fields[i])) == NULL)
                return NULL;
        return sinfo_tuple(fields, n, e->span);
    }
    case EXPR_CALL:
        return own_infer(o, e);
    case EXPR_CONSTANT:
    case EXPR_PRIM_VALUE:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_SHAPE:
    case EXPR_EXTERN_FUNC:
        return e->sinfo;
    case EXPR_GLOBAL_VAR:
    case EXPR_SEQ:
    case EXPR_FUNCTION:
    case EXPR_IF:
    case EXPR_TUPLE_GET_ITEM:
    case EXPR_OP:
        o->why = "an argument is not a parameter, a tuple or an operator call";
        return NULL;
    }
    return NULL; /* not reached: every case of the switch returns */
}

/* The operator's inference on its arguments' own StructInfo, as the derivation calls it. */
static StructInfo *own_infer(Own *o, const Expr *call)
{
    const Expr *callee = call->u.call.op;
    const OpImpl *impl = callee->kind == EXPR_OP ? ops_lookup(callee->u.op_name) : NULL;
    if (impl == NULL || impl->infer == NULL) {
        o->why = "a call is not of an operator with a registered inference";
        return NULL;
    }
    int n = call->u.call.nargs;
    StructInfo **args = MEM_ARRAY(StructInfo *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        if ((args[i] = own_sinfo(o, call->u.call.args[i])) == NULL)
            return NULL;
    OpInferCtx ctx = {call, args, n, &o->errors, ops_rule_of(impl->name)};
    return ops_infer(impl, &ctx);
}

/* The text of the vdevice="..." a StructInfo text names first, or NULL. */
static const char *vdevice_named(const char *text)
{
    static const char key[] = "vdevice=\"";
    const char *at = strstr(text, key);
    if (at == NULL)
        return NULL;
    at += sizeof key - 1;
    const char *end = strchr(at, '"');
    return end ? mem_printf("%.*s", (int)(end - at), at) : NULL;
}

/* Whether every tensor of `s` (tuple fields recursively) is on `want` (NULL: on none); the
 * first tensor that is not goes to *wrong. Counts the tensors met. */
static bool tensors_on(const StructInfo *s, const char *want, const StructInfo **wrong, int *n)
{
    if (s->kind == SINFO_TUPLE) {
        for (int i = 0; i < s->u.tuple.n; i++)
            if (!tensors_on(s->u.tuple.fields[i], want, wrong, n))
                return false;
        return true;
    }
    if (s->kind != SINFO_TENSOR)
        return true;
    ++*n;
    const char *got = s->u.tensor.vdevice ? vdevice_named(printer_print_sinfo(s)) : NULL;
    bool same = got == NULL || want == NULL ? got == want : strcmp(got, want) == 0;
    if (!same)
        *wrong = s;
    return same;
}

/* The call of `c`'s expected binding, with its module derived, or NULL after skip/report. */
static const Expr *case_call(const Case *c, const Function **f, Tally *t)
{
    IRModule *mod = unit_case_module(c);
    if (mod == NULL) {
        report(t, c, "the program does not parse");
        return NULL;
    }
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    sinfo_check_module(mod, &errors, &warnings);
    if (errors.n > 0) {
        report(t, c, mem_printf("the program does not derive: %s", error_format(&errors.items[0])));
        return NULL;
    }
    const char *var = NULL;
    *f = named_function(mod, c->runs[0].expect.sinfos[0].var, &var);
    const Expr *call = *f ? bound_value(*f, var) : NULL;
    if (call == NULL || call->kind != EXPR_CALL || call->u.call.op->kind != EXPR_OP) {
        skip(t, c, "the expected binding's value is not an operator call");
        return NULL;
    }
    return call;
}

static void check_case(const Case *c, Tally *t)
{
    if (c->nruns != 1 || c->runs[0].expect.kind != EXPECT_STRUCT_INFO)
        return; /* an expected error (here VDEV-7's): no result to look at */
    Own o;
    memset(&o, 0, sizeof o);
    diag_init(&o.errors);
    const Expr *call = case_call(c, &o.f, t);
    if (call == NULL)
        return;
    StructInfo *got = own_infer(&o, call);
    if (got == NULL) {
        skip(t, c, o.why);
        return;
    }
    if (o.errors.n > 0) {
        report(t, c, mem_printf("the inference fails: %s", error_format(&o.errors.items[0])));
        return;
    }
    /* tvm-diverges: TVM's own inference gives no vdevice; else the expected text names it. */
    const char *want =
        case_has_tag(c, "tvm-diverges") ? NULL : vdevice_named(c->runs[0].expect.sinfos[0].text);
    const char *op = call->u.call.op->u.op_name;
    const StructInfo *wrong = NULL;
    int ntensors = 0;
    t->checked++;
    if (!tensors_on(got, want, &wrong, &ntensors))
        report(t, c,
               mem_printf("%s's own result %s, want vdevice %s", op, printer_print_sinfo(wrong),
                          want ? want : "none"));
    else if (ntensors == 0)
        report(t, c, mem_printf("%s's own result %s has no tensor", op, printer_print_sinfo(got)));
}

static bool is_vdevice_ops_file(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(base, FILE_PREFIX, strlen(FILE_PREFIX)) == 0;
}

static void check_file(const char *path, Tally *t)
{
    const char *error = NULL;
    CaseFile *cf = unit_case_file(path, &error);
    if (cf == NULL) {
        printf("\n%s", error);
        t->failures++;
        return;
    }
    for (int i = 0; i < cf->ncases; i++)
        check_case(cf->cases[i], t);
}

static void test_ops_vdevice_own(void)
{
    const char **paths = NULL;
    int n =
        corpus_find_files(mem_printf("%s/spec-tests/struct_info", unit_source_dir()), &paths, 0);
    Tally t = {0, 0, 0};
    for (int i = 0; i < n; i++)
        if (is_vdevice_ops_file(paths[i]))
            check_file(paths[i], &t);
    printf("\nops_vdevice_own: %d inferences checked, %d cases skipped, %d failures\n", t.checked,
           t.skipped, t.failures);
    CU_ASSERT_EQUAL(t.failures, 0);
    CU_ASSERT_TRUE(t.checked >= MIN_CHECKED);
}

UNIT_SUITE(ops_vdevice_own)
{
    CU_pSuite s = CU_add_suite("ops_vdevice_own", 0, 0);
    CU_add_test(s, "each operator's own result vdevice is TVM's", test_ops_vdevice_own);
}
