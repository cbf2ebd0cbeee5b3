/* interp: the evaluator's context and its entry points (SPEC_REST §9, "Detailed semantics").
 * SPEC_NOTES: "Evaluation" (E-1..E-13, ENTRY-1, LIMIT-*). */
#ifndef RELAX_INTERP_INTERP_H
#define RELAX_INTERP_INTERP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

#include "ast/error.h"
#include "ast/mem.h"
#include "ast/module.h"
#include "ast/rule.h"
#include "values/value.h"

struct Env;            /* interp/eval/env.h: the bindings of one activation */
struct PackedRegistry; /* interp/eval/packed.h */
struct FuncInfoTable;  /* interp/eval/env.h: per-Function analysis (free variables), cached */

typedef struct InterpOptions {
    int max_depth;   /* Relax call depth limit (LIMIT-depth); default INTERP_DEFAULT_MAX_DEPTH */
    int64_t fuel;    /* step budget (LIMIT-fuel); default INTERP_DEFAULT_FUEL */
    FILE *trace;     /* --trace output, or NULL */
    bool trace_json; /* --trace=json: one JSON object a line rather than text */
    FILE *echo;      /* printed output is also written here as produced, or NULL */
    /* Set (by a SIGINT handler: the REPL's Ctrl-C) to stop the evaluation at its next step
     * with an Interrupted error; NULL when nothing interrupts. */
    const volatile sig_atomic_t *interrupt;
    double timeout; /* wall-clock seconds for the whole run (LIMIT-time); 0: none */
} InterpOptions;

#define INTERP_DEFAULT_MAX_DEPTH 10000
#define INTERP_DEFAULT_FUEL 10000000LL

typedef struct Interp {
    const IRModule *mod;
    ErrorTrap *trap; /* runtime errors longjmp here */
    InterpOptions opt;
    StrBuf out;             /* everything R.print and spectest.print wrote, for `stdout:` checks */
    int64_t fuel;           /* steps left */
    int64_t prepaid;        /* result elements the running operator charged before its work */
    int64_t budget;         /* the fuel left when the running operator was called */
    int depth;              /* current Relax call depth */
    const char *func;       /* the name of the Relax function being evaluated (for --trace) */
    const Function *arg_fn; /* while its arguments are checked (FN-2): the callee, ... */
    int arg_index;          /* ... and the argument's index, so a failure names both */
    int64_t spectest_counter;
    struct PackedRegistry *packed;
    Value **globals; /* parallel to mod->funcs: closures, PrimFunc values, packed functions */
    struct FuncInfoTable *func_info;
    struct EnvPool *env_pool;   /* activations of returned calls, reused */
    struct EnvMap *op_targets;  /* Op node -> what it names, resolved on its first call */
    struct EnvMap *bound_funcs; /* make_closure's synthesized functions, by callee */
    struct EnvMap *gvar_index;  /* GlobalVar* -> 1 + its index in mod->funcs */
    /* The SeqExpr whose tail binding was found last, and that binding (or NULL): a loop's
     * body asks for the same one on every iteration. */
    const Expr *tail_seq;
    const Binding *tail_seq_binding;
    uintptr_t stack_limit; /* calls below this C stack address raise DepthLimit; 0: none */
    double deadline;       /* LIMIT-time: the monotonic clock's reading to stop at; 0: none */
    int64_t steps;         /* steps and charges taken, to read the clock now and then */
    /* The call being applied: an error a packed function or builtin raises without a span
     * of its own points here (DIAG-site). */
    Span site;
} Interp;

void interp_options_default(InterpOptions *opt);
/* Prepares an interpreter for `mod` (§9.1: every global evaluated first). Errors (an
 * ExternFunc naming a missing packed function) are raised through `trap`. */
void interp_init(Interp *in, const IRModule *mod, const InterpOptions *opt, ErrorTrap *trap);
/* Calls the entry point `name`: a Relax function with a global_symbol (ENTRY-1). */
Value *interp_run_entry(Interp *in, const char *name, Value **args, int nargs);
/* Calls a closure, packed function or PrimFunc value with evaluated arguments (E-12.2). */
Value *interp_call(Interp *in, Value *callee, Value **args, int nargs, Span span);
/* Evaluates an expression in an environment (E-1..E-13). */
Value *interp_eval(Interp *in, struct Env *env, const Expr *e);
/* Raises a runtime error: code from SPEC_NOTES §2 "Runtime errors", rule id or NULL. */
noreturn void interp_fail(Interp *in, const char *code, const char *rule, Span span,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Spends `units` of fuel at once: an operator spends one unit per element of its operands
 * and of its result, and matmul one per multiply-accumulate (LIMIT-fuel); raises StepLimit
 * when not enough is left. */
void interp_charge(Interp *in, int64_t units, Span span);
/* LIMIT-fuel: an operator that knows its result's size before making it (the creation
 * operators) charges it here, before the work; the charge for the result after the kernel
 * counts only what this did not cover. */
void interp_prepay_result(Interp *in, int64_t units, Span span);
/* LIMIT-fuel: the bound on the tensors an operator's kernel makes, in force while it runs
 * (tensor_set_budget): the fuel left now, so no result, and nothing else the kernel makes,
 * is larger than the work still allowed; past it the call ends with StepLimit before the
 * memory is taken. */
TensorBudget interp_budget(Interp *in);
/* interp_step's checks and errors, and the clock of LIMIT-time. */
void interp_step_checked(Interp *in, Span span);

/* Spends one step of fuel; raises StepLimit when none is left. The common step (no clock,
 * no interruption, no rule recording, fuel left) is inline: it is most of what a loop
 * does. */
static inline void interp_step(Interp *in, Span span)
{
    if (in->fuel > 0 && in->deadline <= 0 && !rule_recording &&
        (in->opt.interrupt == NULL || !*in->opt.interrupt)) {
        in->fuel--; /* LIMIT-fuel */
        return;
    }
    interp_step_checked(in, span);
}
/* Appends printed text to the output (and echoes it when asked). */
void interp_write(Interp *in, const char *text);
/* interp_global when the GlobalVar's slot guess misses: its index by map, else by name. */
Value *interp_global_resolve(Interp *in, const GlobalVar *gvar, Span span);

/* The value of a module global (closure, PrimFunc or packed function). The slot is a guess
 * (a GlobalVar may serve several modules), checked before use; a hit is inline, since a
 * call of a global function looks its callee up on every call. */
static inline Value *interp_global(Interp *in, const GlobalVar *gvar, Span span)
{
    int s = gvar->slot;
    if (s > 0 && s <= in->mod->nfuncs && in->mod->funcs[s - 1]->gvar == gvar)
        return in->globals[s - 1];
    return interp_global_resolve(in, gvar, span);
}

#endif
