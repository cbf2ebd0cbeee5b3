/* primexpr: TIR scalar expressions, used for shape dimensions, PrimValues and PrimFunc bodies.
 * SPEC_NOTES: "Grammar" (PrimExpr) and "TIR subset". */
#ifndef RELAX_AST_PRIMEXPR_H
#define RELAX_AST_PRIMEXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/dtype.h"
#include "ast/error.h"

struct Buffer;

/* A TIR variable: a shape variable in Relax, a loop or scalar variable in TIR.
 * Identity is the object: shadowing makes a new one with the same name. */
typedef struct TirVar {
    const char *name;
    DataType dtype;
    int id;           /* unique per process, for traces and debugging */
    bool is_size_var; /* declared with T.SizeVar: known non-negative */
    Span span;        /* where it was declared */
} TirVar;

typedef enum PrimExprKind {
    PE_INT,   /* IntImm: u.int_value (bool is UInt(1)) */
    PE_FLOAT, /* FloatImm: u.float_value */
    PE_VAR,   /* u.var */
    PE_ADD,
    PE_SUB,
    PE_MUL,
    PE_DIV, /* TIR Div: truncating for integers */
    PE_MOD, /* TIR Mod: truncating remainder */
    PE_FLOORDIV,
    PE_FLOORMOD,
    PE_MIN,
    PE_MAX,
    PE_EQ,
    PE_NE,
    PE_LT,
    PE_LE,
    PE_GT,
    PE_GE,
    PE_AND,
    PE_OR,
    PE_NOT,    /* u.operand */
    PE_SELECT, /* u.select */
    PE_CAST,   /* u.operand, to this node's dtype */
    PE_LOAD,   /* BufferLoad: u.load */
    PE_CALL,   /* intrinsic call: u.call ("tir.exp", "tir.if_then_else", ...) */
} PrimExprKind;

typedef struct PrimExpr {
    PrimExprKind kind;
    DataType dtype;
    Span span;
    union {
        int64_t int_value;
        double float_value;
        TirVar *var;
        struct {
            struct PrimExpr *a;
            struct PrimExpr *b;
        } bin;
        struct PrimExpr *operand;
        struct {
            struct PrimExpr *cond;
            struct PrimExpr *then_value;
            struct PrimExpr *else_value;
        } select;
        struct {
            struct Buffer *buffer;
            struct PrimExpr **indices;
            int nindices;
        } load;
        struct {
            const char *name;
            struct PrimExpr **args;
            int nargs;
        } call;
    } u;
} PrimExpr;

TirVar *tirvar_new(const char *name, DataType dtype, Span span);
PrimExpr *primexpr_new(PrimExprKind kind, DataType dtype, Span span);
PrimExpr *primexpr_int(int64_t value, DataType dtype, Span span);
PrimExpr *primexpr_float(double value, DataType dtype, Span span);
PrimExpr *primexpr_var(TirVar *var, Span span);
PrimExpr *primexpr_binary(PrimExprKind kind, PrimExpr *a, PrimExpr *b, Span span);
bool primexpr_is_binary(PrimExprKind kind);
bool primexpr_is_compare(PrimExprKind kind);

#endif
