/* legacy_internal: what the legacy reader's files share: the rewrite context, the kinds of
 * values it tracks, and constructors of Python-tree nodes. SPEC_NOTES: "Legacy syntax". */
#ifndef RELAX_AST_LEGACY_INTERNAL_H
#define RELAX_AST_LEGACY_INTERNAL_H

#include <stdbool.h>
#include <stdnoreturn.h>

#include "ast/error.h"
#include "ast/text/py_ast.h"

/* What the rewriter knows of a Relax variable: the legacy type checker's coarse answer,
 * which decides whether a match_shape is a tensor or a shape match (LEG-5). */
typedef enum LegacyKind { LKIND_UNKNOWN, LKIND_TENSOR, LKIND_SHAPE, LKIND_OTHER } LegacyKind;

typedef struct LegacyVar {
    const char *name;
    LegacyKind kind;
    const char *dtype; /* a tensor's dtype when known, else NULL */
    PyExpr *dims;      /* a shape variable bound to a literal shape: its dims (a tuple) */
} LegacyVar;

typedef struct LegacyCtx {
    const char *file;
    ErrorTrap *trap;
    const char *module_name; /* the class holding the functions, or NULL for a lone one */
    const char **globals;    /* the module's function names */
    int nglobals;
    /* per Relax function */
    LegacyVar *vars;
    int nvars, capvars;
    const char **shape_vars; /* names used as dims, in first-use order */
    int nshape_vars, capshape_vars;
    bool impure; /* the body calls R.call_packed or R.print (LEG-12) */
} LegacyCtx;

noreturn void legacy_fail(LegacyCtx *ctx, const char *code, const char *rule, Span span,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- the legacy forms (legacy_detect.c) ---- */

/* "R.match_shape" for a dotted name R.match_shape (under any alias of relax/tir), else NULL. */
const char *legacy_dotted(const PyExpr *e);
bool legacy_is(const PyExpr *e, const char *dotted);
/* The legacy form this one node is (not its children), or NULL. */
const char *legacy_form_of_expr(const PyExpr *e);

/* ---- annotations (legacy_sinfo.c) ---- */

typedef enum LegacyAnnMode { LANN_SIGNATURE, LANN_BODY } LegacyAnnMode;
PyExpr *legacy_annotation(LegacyCtx *ctx, PyExpr *ann, LegacyAnnMode mode);
/* The dims of a shape written as a tuple: each dim checked, names collected (body mode) or
 * turned into strings (signature mode). Returns a new tuple. */
PyExpr *legacy_dims(LegacyCtx *ctx, PyExpr *dims, LegacyAnnMode mode);
/* What an annotation (already rewritten) says of its variable. */
LegacyKind legacy_kind_of_annotation(const PyExpr *ann, const char **dtype);

/* ---- calls and bindings (legacy_call.c) ---- */

PyExpr *legacy_expr(LegacyCtx *ctx, PyExpr *e);
/* A binding's right-hand side, given the target's rewritten annotation (or NULL). */
PyExpr *legacy_rhs(LegacyCtx *ctx, PyExpr *value, PyExpr *ann);
/* The kind of a rewritten right-hand side. */
LegacyKind legacy_kind_of_rhs(LegacyCtx *ctx, const PyExpr *value, const char **dtype);

/* ---- variables of one function (legacy_rewrite.c) ---- */

LegacyVar *legacy_var(LegacyCtx *ctx, const char *name);
void legacy_set_var(LegacyCtx *ctx, const char *name, LegacyKind kind, const char *dtype);
void legacy_add_shape_var(LegacyCtx *ctx, const char *name);
bool legacy_is_global(const LegacyCtx *ctx, const char *name);
/* `f` for a global of a module class C: C.f, as today's TVMScript names it. */
PyExpr *legacy_global_ref(LegacyCtx *ctx, PyExpr *name);

/* ---- TIR (legacy_tir.c) ---- */

void legacy_primfunc(LegacyCtx *ctx, PyStmt *def);

/* ---- Python-tree constructors (legacy_build.c) ---- */

PyExpr *lpy_name(const char *name, Span span);
PyExpr *lpy_dotted(const char *prefix, const char *attr, Span span);
PyExpr *lpy_str(const char *s, Span span);
PyExpr *lpy_int(long long v, Span span);
PyExpr *lpy_bool(bool v, Span span);
PyExpr *lpy_seq(PyExprKind kind, PyExpr **items, int n, Span span);
PyExpr *lpy_call(PyExpr *func, PyExpr **args, int nargs, Span span);
void lpy_add_arg(PyExpr *call, PyExpr *arg);
void lpy_add_kw(PyExpr *call, const char *name, PyExpr *value);
/* The keyword argument `name` of a call, or NULL; lpy_drop_kw removes it. */
PyExpr *lpy_kw(const PyExpr *call, const char *name);
void lpy_drop_kw(PyExpr *call, const char *name);
PyStmt *lpy_assign(PyExpr *target, PyExpr *value, Span span);
/* A dim as TVMScript writes it in a signature string ("n * m"); NULL when `e` is not one. */
const char *lpy_unparse_dim(const PyExpr *e);

#endif
