/* interp: the evaluator's context, the module's globals and the entry points (§9.1), errors,
 * fuel and printed output. SPEC_NOTES: "Evaluation" (ENTRY-1, LIMIT-fuel, LIMIT-depth). */
#include "interp/eval/interp.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "ast/rule.h"
#include "interp/eval/env.h"
#include "interp/eval/eval_internal.h"
#include "interp/eval/packed.h"
#include "interp/lowered/lowered.h"

/* The evaluator runs on a stack of its own, large enough that the depth limit, not the C
 * stack, ends a deep non-tail recursion. The stack is reserved address space: only the pages
 * a run touches are ever backed. Calls stop with DepthLimit when less than the margin is left,
 * which covers what builtins, packed functions and the TIR interpreter use below a call. */
#define INTERP_STACK_BYTES ((size_t)1 << 30)
#define INTERP_STACK_MARGIN ((size_t)4 << 20)

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void interp_options_default(InterpOptions *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_depth = INTERP_DEFAULT_MAX_DEPTH;
    opt->fuel = INTERP_DEFAULT_FUEL;
}

/* §9.1: a Relax function becomes a closure over nothing; a module-level ExternFunc whose
 * packed function does not exist becomes a packed function value with no body, which raises
 * PackedFuncMissing only when called. */
static Value *global_value(Interp *in, const ModuleFunc *mf)
{
    switch (mf->kind) {
    case MODFUNC_RELAX:
        return value_closure(mf->u.relax, env_new(1));
    case MODFUNC_PRIM:
        return value_primfunc(mf->u.prim);
    case MODFUNC_EXTERN: {
        rule_fired("E-11");
        /* ENTRY-1, E-11: globals are evaluated before execution begins, so a module-level
         * ExternFunc naming no packed function fails here, before the entry runs. */
        Value *v = packed_lookup(in->packed, mf->u.extern_symbol);
        if (v == NULL)
            interp_fail(in, "PackedFuncMissing", "E-11", mf->span, "no packed function named '%s'",
                        mf->u.extern_symbol);
        return v;
    }
    }
    return value_null();
}

void interp_init(Interp *in, const IRModule *mod, const InterpOptions *opt, ErrorTrap *trap)
{
    memset(in, 0, sizeof *in);
    in->mod = mod;
    in->trap = trap;
    if (opt != NULL)
        in->opt = *opt;
    else
        interp_options_default(&in->opt);
    strbuf_init(&in->out);
    in->fuel = in->opt.fuel;
    if (in->opt.timeout > 0)
        in->deadline = monotonic_seconds() + in->opt.timeout;
    in->packed = packed_registry_new();
    packed_register_spectest(in->packed);
    lowered_register_packed(in->packed);
    in->func_info = env_func_table_new();
    in->env_pool = env_pool_new();
    in->op_targets = env_map_new(64);
    in->gvar_index = env_map_new(mod->nfuncs);
    in->globals = MEM_ARRAY(Value *, mod->nfuncs > 0 ? mod->nfuncs : 1);
    /* ENTRY-1: every global first, so functions may refer to each other in any order. */
    rule_fired("ENTRY-1");
    /* DIST-6: a module with device meshes runs; only a distributed value met on the way is
     * refused, at its site. */
    if (mod->nmesh_groups > 0)
        rule_fired("DIST-6");
    for (int i = 0; i < mod->nfuncs; i++) {
        env_map_put(in->gvar_index, mod->funcs[i]->gvar, (void *)(intptr_t)(i + 1));
        in->globals[i] = global_value(in, mod->funcs[i]);
    }
}

Value *interp_global_resolve(Interp *in, const GlobalVar *gvar, Span span)
{
    intptr_t k = (intptr_t)env_map_get(in->gvar_index, gvar);
    if (k > 0) {
        ((GlobalVar *)gvar)->slot = (int)k;
        return in->globals[k - 1];
    }
    /* A GlobalVar object that is not the module's own: resolve it once by name. */
    for (int i = 0; i < in->mod->nfuncs; i++) {
        if (strcmp(in->mod->funcs[i]->gvar->name, gvar->name) == 0) {
            env_map_put(in->gvar_index, gvar, (void *)(intptr_t)(i + 1));
            return in->globals[i];
        }
    }
    interp_fail(in, "UnboundVariable", "E-2", span, "no global function '%s'", gvar->name);
}

noreturn void interp_fail(Interp *in, const char *code, const char *rule, Span span,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *msg = mem_alloc_atomic((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    /* DIAG-site: an error raised without a position points at the call being applied. */
    if (span.line <= 0)
        span = in->site;
    if (span.file == NULL && span.line > 0 && in->mod != NULL)
        span.file = in->mod->file;
    error_raise(in->trap, PHASE_RUNTIME, code, rule, span, "%s", msg);
}

/* Interruption and LIMIT-time, looked at on every 1024th step or charge. */
static void check_stop(Interp *in, Span span)
{
    if (in->opt.interrupt != NULL && *in->opt.interrupt)
        interp_fail(in, "Interrupted", NULL, span, "interrupted");
    if (in->deadline > 0 && (in->steps++ & 1023) == 0 && monotonic_seconds() > in->deadline)
        interp_fail(in, "Timeout", "LIMIT-time", span, "the run took longer than %g seconds",
                    in->opt.timeout);
}

void interp_step_checked(Interp *in, Span span)
{
    check_stop(in, span);
    /* LIMIT-fuel */
    rule_fired("LIMIT-fuel");
    if (in->fuel <= 0)
        interp_fail(in, "StepLimit", "LIMIT-fuel", span, "the step budget of %lld ran out",
                    (long long)in->opt.fuel);
    in->fuel--;
}

void interp_charge(Interp *in, int64_t units, Span span)
{
    check_stop(in, span);
    /* LIMIT-fuel: an operator's elements, all at once, before its work */
    rule_fired("LIMIT-fuel");
    if (units < 0 || units > in->fuel)
        interp_fail(in, "StepLimit", "LIMIT-fuel", span,
                    "the step budget of %lld ran out (this operator needs %lld more)",
                    (long long)in->opt.fuel, (long long)(units < 0 ? INT64_MAX : units - in->fuel));
    in->fuel -= units;
}

void interp_prepay_result(Interp *in, int64_t units, Span span)
{
    interp_charge(in, units, span);
    in->prepaid += units;
}

/* LIMIT-fuel: a tensor past the fuel left when its operator was called. */
static void refuse_tensor(void *ctx, int64_t elements)
{
    Interp *in = ctx;
    interp_fail(in, "StepLimit", "LIMIT-fuel", in->site,
                "the step budget of %lld ran out (this operator would make a tensor of %lld "
                "elements with %lld steps left as it was called)",
                (long long)in->opt.fuel, (long long)elements, (long long)in->budget);
}

TensorBudget interp_budget(Interp *in)
{
    in->budget = in->fuel;
    return (TensorBudget){in->fuel, refuse_tensor, in};
}

void interp_write(Interp *in, const char *text)
{
    strbuf_add(&in->out, text);
    if (in->opt.echo != NULL) {
        fputs(text, in->opt.echo);
        fflush(in->opt.echo);
    }
}

bool interp_stack_exhausted(const Interp *in)
{
    char here;
    return in->stack_limit != 0 && (uintptr_t)&here < in->stack_limit;
}

/* An entry call on the large stack. Errors cannot longjmp across threads, so the thread
 * catches them and the caller raises them again on its own trap. */
typedef struct EntryRun {
    Interp *in;
    Value *callee;
    Value **args;
    int nargs;
    size_t stack_bytes; /* 0: running on the caller's stack */
    Value *result;
    bool failed;
    ErrorTrap trap;
} EntryRun;

/* OutOfMemory (SPEC_NOTES 4.18) raised at the call being applied, as a runtime error. */
static void out_of_memory(void *ctx, const char *message)
{
    interp_fail(ctx, "OutOfMemory", NULL, span_none(), "%s", message);
}

static void entry_run(void *p)
{
    EntryRun *r = p;
    Interp *in = r->in;
    char base;
    if (r->stack_bytes > INTERP_STACK_MARGIN)
        in->stack_limit = (uintptr_t)&base - (r->stack_bytes - INTERP_STACK_MARGIN);
    ErrorTrap *outer = in->trap;
    in->trap = &r->trap;
    MemFailHandler outer_fail = mem_set_fail_handler((MemFailHandler){out_of_memory, in});
    /* An error inside a kernel leaves through here: the tensor budget its call set ends. */
    TensorBudget outer_budget = tensor_set_budget((TensorBudget){0, NULL, NULL});
    if (setjmp(r->trap.jmp) == 0)
        r->result = interp_call(in, r->callee, r->args, r->nargs, span_none());
    else
        r->failed = true;
    tensor_set_budget(outer_budget);
    mem_set_fail_handler(outer_fail);
    in->trap = outer;
    in->stack_limit = 0;
}

static int find_entry(const Interp *in, const char *name)
{
    for (int i = 0; i < in->mod->nfuncs; i++) {
        const ModuleFunc *mf = in->mod->funcs[i];
        if (mf->kind != MODFUNC_RELAX)
            continue;
        const char *gs = function_global_symbol(mf->u.relax);
        if (gs != NULL && strcmp(gs, name) == 0)
            return i;
    }
    for (int i = 0; i < in->mod->nfuncs; i++) {
        const ModuleFunc *mf = in->mod->funcs[i];
        if (mf->kind == MODFUNC_RELAX && strcmp(mf->gvar->name, name) == 0 &&
            function_global_symbol(mf->u.relax) != NULL)
            return i;
    }
    return -1;
}

/* Where a function named `name` that is no entry point is defined (a private function), so
 * NoEntry can point at it; no position when nothing has the name. */
static Span named_function_span(const Interp *in, const char *name)
{
    for (int i = 0; i < in->mod->nfuncs; i++) {
        const ModuleFunc *mf = in->mod->funcs[i];
        if (mf->kind == MODFUNC_RELAX && strcmp(mf->gvar->name, name) == 0)
            return mf->u.relax->span;
    }
    return span_none();
}

Value *interp_run_entry(Interp *in, const char *name, Value **args, int nargs)
{
    rule_fired("ENTRY-1");
    /* ENTRY-1: only a Relax function with a global_symbol is an entry point. A lone
     * function is the program's only function: the default entry "main" names it. */
    int k = find_entry(in, name);
    if (k < 0 && in->mod->is_lone_function && in->mod->nfuncs == 1 && strcmp(name, "main") == 0)
        k = find_entry(in, in->mod->funcs[0]->gvar->name);
    if (k < 0)
        interp_fail(in, "NoEntry", "ENTRY-1", named_function_span(in, name),
                    "no entry function '%s' (a Relax function with a global_symbol)", name);
    in->depth = 0;
    EntryRun run;
    memset(&run, 0, sizeof run);
    run.in = in;
    run.callee = in->globals[k];
    run.args = args;
    run.nargs = nargs;
    run.stack_bytes = INTERP_STACK_BYTES;
    if (!mem_run_on_large_stack(INTERP_STACK_BYTES, entry_run, &run)) {
        run.stack_bytes = 0;
        entry_run(&run);
    }
    if (run.failed) {
        const Error *e = &run.trap.error;
        error_raise(in->trap, e->phase, e->code, e->rule, e->span, "%s", e->message);
    }
    return run.result;
}
