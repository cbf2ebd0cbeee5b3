/* wf_internal: what the well-formedness files share: the checking context (variable and
 * shape-variable scopes, the call graph) and the per-concept entry points. SPEC_NOTES:
 * "Well-formedness" (WF-*). */
#ifndef RELAX_INTERP_WF_INTERNAL_H
#define RELAX_INTERP_WF_INTERNAL_H

#include <stdbool.h>

#include "ast/module.h"
#include "ast/ptrmap.h"
#include "ast/strmap.h"
#include "interp/diag.h"

/* A Relax variable in scope: where it was bound, for the dataflow rules. */
typedef struct WfVisible {
    const Var *var;
    int fn_depth; /* how many functions enclose its binding site */
} WfVisible;

/* Which Relax functions of the module reach which (through GlobalVar references), in
 * time and memory linear in the module: the references as adjacency lists, and the
 * strongly connected components, which answer every question WF-7 and WF-8 ask. */
typedef struct WfCallGraph {
    const ModuleFunc **funcs; /* the Relax functions, in module order */
    int n;
    StrMap index;    /* a function's name -> its position (the first of two equal names) */
    int *succ_start; /* n + 1: function i references succ[succ_start[i] .. succ_start[i + 1]) */
    int *succ;
    int *component; /* n: the strongly connected component of each function */
    bool *on_cycle; /* n: the function reaches itself by one or more references */
} WfCallGraph;

typedef struct WfCtx {
    const IRModule *mod;
    DiagList *errors;
    WfCallGraph graph;
    /* Relax variables: every binding site of the module (prepass), those whose binding was
     * already visited, and those visible at the current point. */
    const Var **sites;
    int nsites, capsites;
    const Var **seen;
    int nseen, capseen;
    WfVisible *vis;
    int nvis, capvis;
    /* The same, indexed for one-probe lookups: sites and seen as sets, and each visible
     * Var's newest position in vis (checked on use, since scopes pop). */
    PtrMap site_set, seen_set, vis_at;
    /* Shape variables visible at the current point. */
    const TirVar **svars;
    int nsvars, capsvars;
    int fn_depth;
    bool in_dataflow;      /* the innermost enclosing block is a DataflowBlock */
    const Var *defining;   /* the variable whose (non-function) binding is being checked */
    const Var *local_self; /* the variable a local function being checked is bound to */
    int global_index;      /* the current global in the call graph, or -1 */
} WfCtx;

/* Where a StructInfo annotation stands; it decides what may bind and which rule an unbound
 * shape variable breaks. */
typedef enum WfSinfoSite {
    WF_SITE_PARAM,      /* a parameter annotation (WF-6) */
    WF_SITE_RET,        /* a return annotation (WF-4) */
    WF_SITE_VAR,        /* a binding variable's annotation (WF-10, WF-14..16) */
    WF_SITE_MATCH_CAST, /* a MatchCast target (WF-5) */
    WF_SITE_SINFO_ARG,  /* a call's sinfo_args (WF-14..16) */
} WfSinfoSite;

/* wellformed.c */
bool wf_is_visible_svar(const WfCtx *ctx, const TirVar *v);
void wf_push_svar(WfCtx *ctx, const TirVar *v);
/* The global_symbol attribute when it is a string, else NULL. */
const char *wf_symbol(const Attrs *attrs);

/* wf_vars.c: the walk over every function, with the scoping rules WF-1..3, WF-11. */
void wf_vars_check_function(WfCtx *ctx, const Function *f, const Var *self);
/* Every variable with a binding site in the module, for telling "later" from "never". */
void wf_vars_collect_sites(WfCtx *ctx);
/* A Relax variable named as a tensor shape in an annotation must be in scope (WF-14). */
void wf_vars_use_in_annotation(WfCtx *ctx, const Var *v, Span span);

/* wf_shapes.c: annotations and shape variables, WF-4..6, WF-10, WF-14..17, WF-19, WF-20,
 * WF-22, WF-24. */
void wf_shapes_check_sinfo(WfCtx *ctx, const StructInfo *s, WfSinfoSite site);
/* Pushes the shape variables standing alone in binding positions of `s` that are not yet
 * visible (tuples recursed, FuncStructInfo not). */
void wf_shapes_bind_positions(WfCtx *ctx, const StructInfo *s);
/* Checks that every shape variable of a PrimExpr used in an expression (ShapeExpr,
 * PrimValue) is in scope (WF-5). */
void wf_shapes_check_primexpr(WfCtx *ctx, const PrimExpr *e, Span span);

/* wf_dist.c: DIST-2, a DTensor's placement against its mesh and rank. */
void wf_dist_check_dtensor(WfCtx *ctx, const StructInfo *s);

/* wf_module.c: module and per-node rules WF-7..9, WF-12, WF-13, WF-18, WF-21, WF-23. */
void wf_module_build_graph(WfCtx *ctx);
void wf_module_check_globals(WfCtx *ctx);
void wf_module_check_function(WfCtx *ctx, const Function *f, const Var *self);
void wf_module_check_call(WfCtx *ctx, const Expr *call);
void wf_module_check_if(WfCtx *ctx, const Expr *e);
void wf_module_check_prim_value(WfCtx *ctx, const Expr *e);
void wf_module_check_op_position(WfCtx *ctx, const Expr *e);

/* Calls fn on every direct subexpression of e (binding values and bodies of a SeqExpr, a
 * Function's body, a Call's op and args, ...), in evaluation order. */
void wf_each_child(const Expr *e, void (*fn)(const Expr *child, void *arg), void *arg);

#endif
