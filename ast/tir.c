/* tir: constructors for PrimFuncs, buffers and statements.
 * SPEC_NOTES: "TIR subset". */
#include "ast/tir.h"

#include "ast/mem.h"

Stmt *stmt_new(StmtKind kind, Span span)
{
    Stmt *s = MEM_NEW(Stmt);
    s->kind = kind;
    s->span = span;
    if (kind == STMT_BLOCK)
        s->u.block.annotations = attrs_new();
    return s;
}

Buffer *buffer_new(const char *name, DataType dtype, PrimExpr **shape, int ndim, Span span)
{
    Buffer *b = MEM_NEW(Buffer);
    b->name = name;
    b->dtype = dtype;
    b->shape = shape;
    b->ndim = ndim;
    b->scope = "global";
    b->span = span;
    return b;
}

PrimFunc *primfunc_new(const char *name, Span span)
{
    PrimFunc *f = MEM_NEW(PrimFunc);
    f->name = name;
    f->ret_dtype = dtype_void();
    f->attrs = attrs_new();
    f->span = span;
    return f;
}
