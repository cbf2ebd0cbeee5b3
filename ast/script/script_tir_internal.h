/* script_tir_internal: what the PrimFunc translator's files share (the symbol table, the
 * error path, buffer and attribute arguments). SPEC_NOTES: "TIR subset" (TS-11). */
#ifndef RELAX_AST_SCRIPT_TIR_INTERNAL_H
#define RELAX_AST_SCRIPT_TIR_INTERNAL_H

#include <stdbool.h>

#include "ast/attrs.h"
#include "ast/error.h"
#include "ast/text/py_ast.h"
#include "ast/script/script_prim.h"
#include "ast/script/script_tir.h"
#include "ast/tir.h"

/* One name in scope: a variable (with its loop range when a loop binds it) or a buffer. */
typedef struct TirSym {
    const char *name;
    TirVar *var;
    Buffer *buffer;
    PrimExpr *loop_min; /* set for loop variables: T.axis.remap reads the range */
    PrimExpr *loop_extent;
    int param; /* index of the handle parameter the name denotes, or -1 */
    /* `for iters in T.grid(...)`: the name stands for the loop variables' names */
    const char **grid_names;
    int ngrid;
} TirSym;

/* A lexical symbol table as a stack: a scope is a mark to truncate back to, and shadowing
 * pushes a new entry over the old one. */
typedef struct TirCtx {
    ErrorTrap *trap;
    const TirModule *module; /* NULL outside a module (TIR-CALL) */
    PrimFunc *func;
    PrimEnv env;
    TirSym *syms;
    int nsyms;
    int cap;
    bool top_level;   /* translating the function's own body, not a nested one */
    Stmt *body_block; /* the block whose own body is being translated, or NULL */
} TirCtx;

noreturn void script_tir_fail(const TirCtx *c, Span span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

TirSym *script_tir_bind(TirCtx *c, const char *name, TirVar *var, Buffer *buffer);
TirSym *script_tir_find(const TirCtx *c, const char *name);

PrimExpr *script_tir_expr(TirCtx *c, const PyExpr *e);
PrimExpr *script_tir_expr_typed(TirCtx *c, const PyExpr *e, DataType hint);

/* "block", "axis.remap", ... for a call of T.block(...), T.axis.remap(...); NULL when `e`
 * is not a call of a T.* function. */
const char *script_tir_callee(const PyExpr *e);

/* A buffer from T.Buffer / T.match_buffer / T.alloc_buffer arguments: the shape is the
 * positional argument at `first`, the dtype the next (both also by keyword). */
Buffer *script_tir_buffer_args(TirCtx *c, const char *name, const PyExpr *call, int first);

/* T.int64 / T.float32 / T.handle ... (also called with no arguments: T.int64()). */
bool script_tir_scalar_type(const PyExpr *e, DataType *out);

/* A Python dict literal of attribute values. */
Attrs *script_tir_attrs(TirCtx *c, const PyExpr *dict);

/* Two expressions where a Python number among them takes the other's type. */
void script_tir_expr_pair(TirCtx *c, const PyExpr *x, const PyExpr *y, PrimExpr **a, PrimExpr **b);

/* end - min, folded when both are constants or min is 0. */
PrimExpr *script_tir_extent(TirCtx *c, PrimExpr *min, PrimExpr *end, Span span);

/* with T.block(["name"]): ... */
Stmt *script_tir_block(TirCtx *c, const PyStmt *with);

/* A statement that configures `block` rather than running in it (T.axis.*, T.reads,
 * T.writes, T.where, T.block_attr, T.alloc_buffer, with T.init()). False when `s` is not
 * one of them. */
bool script_tir_block_stmt(TirCtx *c, const PyStmt *s, Stmt *block);

/* The statements body[start..] as one statement. `block` is the block whose own body this
 * is (T.reads, T.axis.* and T.init apply to it), or NULL. */
Stmt *script_tir_body(TirCtx *c, const PyBody *body, int start, Stmt *block);

#endif
