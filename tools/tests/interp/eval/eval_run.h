/* eval_run: running small programs for the evaluator's unit tests: the result or the
 * error, what was printed, and value makers. */
#ifndef RELAX_TESTS_EVAL_RUN_H
#define RELAX_TESTS_EVAL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/error.h"
#include "ast/module.h"
#include "interp/eval/interp.h"

typedef struct Run {
    Value *v;
    bool failed;
    Error err;
    const char *out;
    Interp *in;
} Run;

#define MOD_HEAD "@I.ir_module\nclass Module:\n"

/* The module src, or NULL after printing its parse error. */
IRModule *eval_parse(const char *src);
/* main of src on args, with opt (NULL: the defaults). */
Run run_opt(const char *src, Value **args, int nargs, const InterpOptions *opt);
Run run(const char *src, Value **args, int nargs);
/* r succeeded with a value (else prints its error). */
bool ok(Run r);
/* r failed at run time with code and rule (NULL: none) (else prints what it got). */
bool fails(Run r, const char *code, const char *rule);
int64_t prim_int(const Value *v);
/* float32 tensors counting up from start: of any shape, a vector of n, an a x b matrix. */
Value *ften(int ndim, const int64_t *shape, double start);
Value *vec(int64_t n);
Value *mat(int64_t a, int64_t b);

/* even/odd by mutual recursion over a shape variable; main(k) is even(k). */
extern const char *const MUTUAL;

#endif
