/* tir: the subset of TIR PrimFuncs that Relax programs call (TVMSCRIPT.md §11).
 * SPEC_NOTES: "TIR subset". */
#ifndef RELAX_AST_TIR_H
#define RELAX_AST_TIR_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/attrs.h"
#include "ast/dtype.h"
#include "ast/error.h"
#include "ast/primexpr.h"

typedef struct Buffer {
    const char *name;
    DataType dtype;
    PrimExpr **shape;
    int ndim;
    const char *scope; /* "global" unless given */
    /* axis_separators=[...]: where the physical (flattened) layout splits the axes; it
     * changes no logical index, so the interpreter reads it only to print it back */
    int64_t *axis_separators;
    int naxis_separators;
    Span span;
} Buffer;

typedef enum IterKind {
    ITER_SPATIAL, /* "S" */
    ITER_REDUCE,  /* "R" */
} IterKind;

/* A block iteration variable: var ranges over [dom_min, dom_min + extent), bound to `binding`. */
typedef struct IterVar {
    TirVar *var;
    PrimExpr *dom_min;
    PrimExpr *extent;
    IterKind kind;
    PrimExpr *binding;
} IterVar;

/* buffer[min0 : min0 + extent0, ...]; a point access has extent 1. */
typedef struct BufferRegion {
    Buffer *buffer;
    PrimExpr **mins;
    PrimExpr **extents;
    int n;
} BufferRegion;

typedef enum ForKind {
    FOR_SERIAL,
    FOR_PARALLEL,
    FOR_VECTORIZED,
    FOR_UNROLLED,
    FOR_THREAD_BINDING, /* T.thread_binding: runs as a serial loop; u.for_.thread names the axis */
} ForKind;

typedef enum StmtKind {
    STMT_SEQ,
    STMT_FOR,
    STMT_BLOCK, /* BlockRealize + Block */
    STMT_STORE,
    STMT_LET,
    STMT_IF,
    STMT_EVALUATE,
    STMT_ALLOC, /* T.alloc_buffer / T.decl_buffer outside a block: buffer live in body */
    STMT_WHILE,
} StmtKind;

typedef struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct {
            struct Stmt **stmts;
            int n;
        } seq;
        struct {
            TirVar *var;
            PrimExpr *min;
            PrimExpr *extent;
            ForKind kind;
            const char *thread; /* FOR_THREAD_BINDING: "blockIdx.x", ...; NULL otherwise */
            struct Stmt *body;
        } for_;
        struct {
            const char *name;
            IterVar **iters;
            int niters;
            PrimExpr *predicate; /* T.where; NULL when absent */
            BufferRegion **reads;
            int nreads;
            bool has_reads; /* T.reads was written */
            BufferRegion **writes;
            int nwrites;
            bool has_writes;
            struct Stmt *init; /* NULL when absent */
            Buffer **allocs;
            int nallocs;
            Attrs *annotations; /* T.block_attr; never NULL */
            struct Stmt *body;
        } block;
        struct {
            Buffer *buffer;
            PrimExpr **indices;
            int nindices;
            PrimExpr *value;
        } store;
        struct {
            TirVar *var;
            PrimExpr *value;
            struct Stmt *body;
        } let;
        struct {
            PrimExpr *cond;
            struct Stmt *then_stmt;
            struct Stmt *else_stmt; /* NULL when absent */
        } if_;
        PrimExpr *evaluate;
        struct {
            Buffer *buffer;
            struct Stmt *body;
        } alloc;
        struct {
            PrimExpr *cond;
            struct Stmt *body;
        } while_;
    } u;
} Stmt;

typedef struct PrimFunc {
    const char *name;
    TirVar **params;        /* handles, buffers' data and scalars, in order */
    Buffer **param_buffers; /* buffer_map: the buffer bound to params[i], or NULL */
    int nparams;
    Stmt *body;
    DataType ret_dtype; /* Void when the function returns nothing */
    Attrs *attrs;       /* never NULL */
    bool is_private;
    Span span;
} PrimFunc;

Stmt *stmt_new(StmtKind kind, Span span);
Buffer *buffer_new(const char *name, DataType dtype, PrimExpr **shape, int ndim, Span span);
PrimFunc *primfunc_new(const char *name, Span span);

#endif
