/* expr: Relax expressions, variables, bindings, binding blocks and functions.
 * SPEC_NOTES: "Grammar" (Expr, Binding, BindingBlock). */
#ifndef RELAX_AST_EXPR_H
#define RELAX_AST_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/attrs.h"
#include "ast/dtype.h"
#include "ast/error.h"
#include "ast/primexpr.h"
#include "ast/sinfo.h"

/* A Relax variable (Var or DataflowVar). Identity is the object: every use of the variable
 * points here, and shadowing creates a new Var with the same name. */
typedef struct Var {
    const char *name;
    bool is_dataflow;
    StructInfo *annotation; /* struct_info_annotation, NULL when absent */
    int id;                 /* unique per process, for traces */
    Span span;              /* the binding site */
    /* The evaluator's resolution of the variable to a slot of the frames of the function
     * that binds it (NULL, 0 until that function first runs; interp/eval/env.c). */
    const void *slot_owner;
    int slot;
} Var;

/* One GlobalVar object per module function; references point to it. */
typedef struct GlobalVar {
    const char *name;
    Span span;
    int slot; /* the evaluator's guess of 1 + its index among the module's functions; 0: none */
} GlobalVar;

/* The data of a Constant: a dense row-major array. float16 and bfloat16 are stored as their
 * 16-bit patterns, bool as one byte per element. */
typedef struct ConstData {
    DataType dtype;
    int ndim;
    int64_t *shape;
    int64_t numel;
    void *data; /* numel * dtype_bytes(dtype) bytes */
} ConstData;

typedef enum ExprKind {
    EXPR_CONSTANT,
    EXPR_VAR, /* Var or DataflowVar: u.var->is_dataflow tells which */
    EXPR_GLOBAL_VAR,
    EXPR_TUPLE,
    EXPR_SEQ,
    EXPR_PRIM_VALUE,
    EXPR_STRING,
    EXPR_DTYPE,
    EXPR_FUNCTION,
    EXPR_IF,
    EXPR_EXTERN_FUNC,
    EXPR_CALL,
    EXPR_SHAPE,
    EXPR_TUPLE_GET_ITEM,
    EXPR_OP,
} ExprKind;

typedef enum BindingKind {
    BIND_VAR,        /* VarBinding(var, value) */
    BIND_MATCH_CAST, /* MatchCast(var?, struct_info, value) */
} BindingKind;

typedef struct Binding {
    BindingKind kind;
    Var *var; /* NULL only for a MatchCast without a variable */
    struct Expr *value;
    StructInfo *struct_info; /* MatchCast target; NULL for VarBinding */
    bool from_expr_stmt;     /* written as a bare expression statement (`R.print(x)`) */
    Span span;
} Binding;

typedef struct BindingBlock {
    bool is_dataflow;
    Binding **bindings;
    int n;
    int cap;
    Span span;
} BindingBlock;

typedef struct Function {
    Var **params;
    int nparams;
    struct Expr *body;
    StructInfo *ret; /* ret_struct_info, NULL when not annotated */
    bool is_pure;
    Attrs *attrs;     /* never NULL; global_symbol lives here */
    const char *name; /* the def name as written (nested: the bound variable's name) */
    Span span;
} Function;

typedef struct Expr {
    ExprKind kind;
    Span span;
    StructInfo *sinfo; /* derived StructInfo; NULL until derived */
    /* EXPR_EXTERN_FUNC: the FuncStructInfo written in R.ExternFunc(name, R.Callable(...)), or
     * NULL for the default (opaque, impure). EXPR_CONSTANT: the DTensor StructInfo of an
     * R.dist.const (SPEC_NOTES §4.24), or NULL. */
    StructInfo *extern_sinfo;
    union {
        ConstData *constant;
        Var *var;
        GlobalVar *gvar;
        struct {
            struct Expr **fields;
            int n;
        } tuple;
        struct {
            BindingBlock **blocks;
            int nblocks;
            struct Expr *body;
        } seq;
        PrimExpr *prim;
        const char *str;
        DataType dtype;
        Function *func;
        struct {
            struct Expr *cond;
            struct Expr *then_branch;
            struct Expr *else_branch;
        } if_;
        const char *extern_symbol;
        struct {
            struct Expr *op;
            struct Expr **args;
            int nargs;
            StructInfo **sinfo_args;
            int nsinfo_args;
            Attrs *attrs; /* never NULL */
        } call;
        struct {
            PrimExpr **values;
            int n;
        } shape;
        struct {
            struct Expr *tuple;
            int index;
        } get_item;
        const char *op_name; /* TVM's name: "relax.add", "relax.nn.softmax", "relax.call_tir" */
    } u;
} Expr;

Var *var_new(const char *name, bool is_dataflow, StructInfo *annotation, Span span);
Expr *expr_new(ExprKind kind, Span span);
Expr *expr_var(Var *var, Span span);
Expr *expr_tuple(Expr **fields, int n, Span span);
Expr *expr_call(Expr *op, Expr **args, int nargs, Span span);
Expr *expr_op(const char *op_name, Span span);
Expr *expr_prim_value(PrimExpr *value, Span span);
Expr *expr_shape(PrimExpr **values, int n, Span span);
Expr *expr_seq(BindingBlock **blocks, int nblocks, Expr *body, Span span);
Binding *binding_var(Var *var, Expr *value, Span span);
Binding *binding_match_cast(Var *var, StructInfo *target, Expr *value, Span span);
BindingBlock *block_new(bool is_dataflow, Span span);
void block_add(BindingBlock *block, Binding *binding);
Function *function_new(Span span);
/* The function's "global_symbol" attribute, or NULL. */
const char *function_global_symbol(const Function *f);

#endif
