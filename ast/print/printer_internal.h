/* printer_internal: the state shared by the printer's files (names, context, output).
 * SPEC_NOTES: "Canonical printing". */
#ifndef RELAX_AST_PRINTER_INTERNAL_H
#define RELAX_AST_PRINTER_INTERNAL_H

#include <stdbool.h>

#include "ast/mem.h"
#include "ast/module.h"
#include "ast/print/printer.h"
#include "ast/ptrmap.h"

/* Printed names of the variables of one scope (an outermost Relax function or a PrimFunc):
 * every object gets a distinct valid Python identifier, chosen at its first appearance in
 * print order, so printing the reparsed text picks the same names again. */
typedef struct NameEntry {
    const void *key;
    const char *name;
} NameEntry;

/* A name's position in `taken`, hashed by the name's text. */
typedef struct NameSlot {
    const char *name; /* NULL: empty */
    int index;
} NameSlot;

/* Scoped names in constant time: `entries` and `taken` are stacks that names_release cuts
 * back; the hashes keep each key's (or name's) latest position and are checked against the
 * stacks, so a position left by a released scope reads as absent (SPEC_NOTES 4.18: no
 * lookup proportional to the program). */
typedef struct NameTable {
    NameEntry *entries;
    int n;
    int cap;
    const char **taken; /* names in use, including reserved ones */
    int ntaken;
    int captaken;
    PtrMap by_key;      /* key -> its index in entries */
    NameSlot *by_name;  /* open addressing: name -> its index in taken */
    uint32_t name_cap;  /* 0 or a power of two */
    uint32_t name_used; /* slots holding a name (live or stale) */
} NameTable;

/* How integer literals print: Relax dims read a bare int as int64, TIR as int32. */
typedef enum PrimContext {
    PRIM_CTX_RELAX,
    PRIM_CTX_TIR,
} PrimContext;

/* A loop variable and its extent, for recognising `T.axis.remap`. */
typedef struct LoopFrame {
    const TirVar *var;
    const PrimExpr *extent;
} LoopFrame;

typedef struct Printer {
    StrBuf out;
    const IRModule *mod; /* for vdevice indices; NULL when printing a fragment */
    NameTable *names;    /* NULL: print raw names */
    int indent;
    bool quote_dims; /* inside the outermost signature: dims with vars print as strings */
    PrimContext prim_ctx;
    LoopFrame *loops; /* enclosing TIR loops, innermost last */
    int nloops;
    int caploops;
} Printer;

void printer_init(Printer *p, const IRModule *mod);

/* Names. */
NameTable *names_new(void);
/* A scope's start; releasing it frees the names defined since (TIR loops, lets, blocks). */
typedef struct NameMark {
    int n;
    int ntaken;
} NameMark;
NameMark names_mark(const NameTable *t);
void names_release(NameTable *t, NameMark mark);
void names_reserve(NameTable *t, const char *name);
const char *names_lookup(const NameTable *t, const void *key);
const char *names_define(NameTable *t, const void *key, const char *hint);
const char *printer_var_name(Printer *p, const Var *v);
const char *printer_tirvar_name(Printer *p, const TirVar *v);
const char *printer_buffer_name(Printer *p, const Buffer *b);

/* Lines. */
void printer_line_start(Printer *p);
void printer_line(Printer *p, const char *text);

/* Leaves shared by every part. */
void printer_emit_float(StrBuf *sb, double v, DataType dtype);
void printer_emit_attr(Printer *p, StrBuf *sb, const AttrValue *v);
void printer_emit_dict(Printer *p, StrBuf *sb, const Attrs *attrs, bool sorted);
/* Indices of attrs' keys in sorted order (a fresh array). */
int *printer_sorted_keys(const Attrs *attrs);

void printer_emit_expr(Printer *p, StrBuf *sb, const Expr *e);
void printer_emit_sinfo(Printer *p, StrBuf *sb, const StructInfo *s);
void printer_emit_prim(Printer *p, StrBuf *sb, const PrimExpr *e);
/* A dim in a shape or a Prim value: quoted when inside the signature and it mentions a var. */
void printer_emit_dim(Printer *p, StrBuf *sb, const PrimExpr *e);
bool printer_prim_has_var(const PrimExpr *e);
const char *printer_vdevice_str(Printer *p, const VDevice *vd);

/* TIR. */
void printer_emit_primfunc(Printer *p, const PrimFunc *f, const char *name);

#endif
