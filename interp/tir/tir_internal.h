/* tir_internal: what the TIR interpreter's files share (the activation of one PrimFunc call:
 * variable and buffer bindings, the return slot). SPEC_NOTES: "TIR semantics" (TIR-*). */
#ifndef RELAX_INTERP_TIR_INTERNAL_H
#define RELAX_INTERP_TIR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/tir.h"
#include "interp/eval/interp.h"
#include "interp/tir/prim_eval.h"
#include "values/tensor.h"

/* One TIR variable's value. Bindings form a stack: a scope is a mark to truncate back to,
 * and lookups search from the top, so an inner binding hides nothing it should not (TIR
 * variables are distinct objects; the stack order only matters for speed). */
typedef struct TirVarSlot {
    const TirVar *var;
    Scalar value;
} TirVarSlot;

/* A buffer and the tensor whose data it views. */
typedef struct TirBufferSlot {
    const Buffer *buffer;
    Tensor *tensor;
} TirBufferSlot;

#define TIR_FRAME_ROOM 8

typedef struct TirFrame {
    Interp *in;
    const PrimFunc *func;
    PrimEvalCtx pc;
    TirVarSlot *vars;
    int nvars;
    int capvars;
    TirBufferSlot *buffers;
    int nbuffers;
    int capbuffers;
    bool returned; /* tir.ret ran: every enclosing statement stops */
    Scalar ret;
    /* The first bindings' storage: a small PrimFunc's call allocates no binding stack. */
    TirVarSlot vars_room[TIR_FRAME_ROOM];
    TirBufferSlot buffers_room[TIR_FRAME_ROOM];
} TirFrame;

/* ---- variables (tir_exec.c) ------------------------------------------------------- */

void tir_frame_init(TirFrame *fr, Interp *in, const PrimFunc *f);
/* Pushes a binding; returns its slot index (stable while the binding lives). */
int tir_bind_var(TirFrame *fr, const TirVar *var, Scalar value);
/* The slot bound to var, or -1. */
int tir_find_var(const TirFrame *fr, const TirVar *var);
Scalar tir_eval(TirFrame *fr, const PrimExpr *e);

/* ---- buffers (tir_buffer.c) ------------------------------------------------------- */

void tir_buffer_bind(TirFrame *fr, const Buffer *b, Tensor *t);
/* TIR-ALLOC: a fresh zero-filled tensor of the buffer's dtype and evaluated shape, bound. */
void tir_buffer_alloc(TirFrame *fr, const Buffer *b, Span span);
/* TIR-BOUNDS: indices checked per dimension; the value converts to the buffer's dtype. */
Scalar tir_buffer_load(TirFrame *fr, const Buffer *b, const Scalar *indices, int n, Span span);
void tir_buffer_store(TirFrame *fr, const Buffer *b, const Scalar *indices, int n, Scalar v,
                      Span span);
/* The PrimEvalCtx load callback over a TirFrame. */
Scalar tir_buffer_load_cb(void *ctx, const PrimExpr *load, const Scalar *indices);

/* ---- statements (tir_stmt.c) ------------------------------------------------------ */

void tir_stmt_exec(TirFrame *fr, const Stmt *s);

#endif
