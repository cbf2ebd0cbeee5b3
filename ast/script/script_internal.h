/* script_internal: the shared state of the Relax TVMScript translator (symbol table, scopes,
 * the function and dataflow being built). SPEC_NOTES: "TVMScript syntax", "Parse errors". */
#ifndef RELAX_AST_SCRIPT_INTERNAL_H
#define RELAX_AST_SCRIPT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "ast/error.h"
#include "ast/expr.h"
#include "ast/module.h"
#include "ast/text/py_ast.h"

/* The prefixes TVMScript predefines or imports: R/relax, T/tir/tirx, I/ir, tvm. */
typedef enum ScriptNs {
    NS_NONE,
    NS_RELAX,
    NS_TIR,
    NS_IR,
    NS_TVM,
} ScriptNs;

typedef enum SymKind {
    SYM_VAR,     /* a Relax variable */
    SYM_TIRVAR,  /* a shape variable */
    SYM_MODULE,  /* the module class name or an alias of it (`cls = Module`) */
    SYM_PRIM,    /* a Python name for a PrimExpr (`k = T.int64(16)`, `m = n * 2`) */
    SYM_VDEVICE, /* a Python name for a VDevice (`d = tvm.ir.VDevice("llvm", 0, "global")`) */
} SymKind;

typedef struct Sym {
    const char *name;
    SymKind kind;
    Var *var;
    TirVar *tvar;
    PrimExpr *prim;      /* SYM_PRIM */
    const char *vdevice; /* SYM_VDEVICE: the "kind:i" text naming it */
} Sym;

/* Where a StructInfo annotation is written: string dims are legal only in a signature. */
typedef enum SinfoMode {
    SMODE_BODY,
    SMODE_PARAM,
    SMODE_RET,
} SinfoMode;

/* The ordinary and dataflow blocks of one SeqExpr being built. */
typedef struct BodyBuilder {
    BindingBlock **blocks;
    int nblocks;
    int cap;
    BindingBlock *open; /* the ordinary block receiving bindings, or NULL */
} BodyBuilder;

/* The dataflow block being built: what it bound, and whether R.output was seen. */
typedef struct DataflowState {
    BindingBlock *block;
    Var **bound;
    int nbound;
    int cap;
    bool has_output;
} DataflowState;

/* The Relax function being built. */
typedef struct FuncState {
    TirVar **sig_vars; /* shape variables the signature defines */
    int nsig;
    int capsig;
    Attrs *attrs;
    bool has_func_attr;
    Span attr_span;
    Expr *ret_expr;        /* the return value once `return` was seen */
    int branch_depth;      /* > 0 inside an if branch */
    const PyBody *prelude; /* the body, whose leading declarations type the signature */
} FuncState;

typedef struct ScriptNsName {
    const char *name;
    ScriptNs ns;
} ScriptNsName;

typedef struct ScriptCtx {
    const char *file;
    ErrorTrap *trap;
    IRModule *mod;
    ScriptNsName *nss; /* prefix names in scope */
    int nns;
    int capns;
    Sym *syms; /* the symbol table: a stack, innermost last */
    int nsyms;
    int capsyms;
    struct SymIndex *index; /* per name, its positions in `syms`; made on first use */
    FuncState *func;        /* NULL outside a function */
    DataflowState *df;      /* NULL outside `with R.dataflow()` */
    BodyBuilder *body;      /* the SeqExpr receiving bindings */
    Span string_span;       /* the string dim being read, for errors */
    bool in_string_dim;     /* an unknown name is UndefinedShapeVar, not UnknownName */
} ScriptCtx;

/* script_scope.c: errors, prefixes and the symbol table. */
noreturn void script_fail(ScriptCtx *ctx, const char *code, Span span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Raises an error caught from a shared translator again, with this translator's rule for
 * its code (SPEC_NOTES §2.1 gives one rule per code). */
noreturn void script_reraise(ScriptCtx *ctx, const Error *e);
void script_add_ns(ScriptCtx *ctx, const char *name, ScriptNs ns);
/* The prefix a name stands for (NS_NONE when it is a local symbol or unknown). */
ScriptNs script_ns_of(ScriptCtx *ctx, const char *name);
/* For R.nn.softmax: NS_RELAX and "nn.softmax". NULL when `e` is not a prefixed path. */
const char *script_dotted(ScriptCtx *ctx, const PyExpr *e, ScriptNs *ns);
/* script_unsupported.c (SPEC_NOTES §4.10): why the construct at ns.path is not read, or NULL;
 * and the Unsupported parse error when `e` names such a construct. */
const char *script_unsupported_reason(ScriptNs ns, const char *path);
void script_reject_unsupported(ScriptCtx *ctx, const PyExpr *e);
int script_scope_mark(const ScriptCtx *ctx);
void script_scope_pop(ScriptCtx *ctx, int mark);
void script_bind_var(ScriptCtx *ctx, const char *name, Var *var);
void script_bind_tirvar(ScriptCtx *ctx, const char *name, TirVar *tvar);
void script_bind_module(ScriptCtx *ctx, const char *name);
void script_bind_prim(ScriptCtx *ctx, const char *name, PrimExpr *prim);
void script_bind_vdevice(ScriptCtx *ctx, const char *name, const char *ref);
/* TS-5.3: drops the dataflow variables bound since `mark`, keeping the rest in order. */
void script_scope_drop_dataflow(ScriptCtx *ctx, int mark);
Sym *script_lookup(ScriptCtx *ctx, const char *name); /* NULL when unknown */
bool script_is_identifier(const char *s);

/* script_expr.c: expressions. */
typedef enum PrimClass {
    PCLASS_OTHER,
    PCLASS_LITERAL, /* a Python number or bool, possibly negated */
    PCLASS_PRIM,    /* a PrimExpr over shape variables */
} PrimClass;
PrimClass script_prim_class(ScriptCtx *ctx, const PyExpr *e);
PrimExpr *script_prim(ScriptCtx *ctx, const PyExpr *e);
/* An expression with TVM's convert_to_expr rules for Python values (int -> PrimValue). */
Expr *script_expr(ScriptCtx *ctx, const PyExpr *e);
/* The right-hand side of a binding, where Python literals become Constants. */
Expr *script_rhs(ScriptCtx *ctx, const PyExpr *e);
/* A Python literal (None, bool, number, string, list, tuple, dict) as an attribute value;
 * with allow_expr, anything else is read as a Relax expression. */
AttrValue *script_attr_value(ScriptCtx *ctx, const PyExpr *e, bool allow_expr);
Expr *script_var_ref(Var *var, Span span);

/* A Python number as TVM's Python side evaluates it: literals, their negation, and
 * float("nan"), float("inf"), float("-inf"). */
typedef enum NumKind {
    NUM_INT,
    NUM_FLOAT,
    NUM_BOOL,
} NumKind;
typedef struct ScriptNum {
    NumKind kind;
    int64_t i; /* NUM_INT, NUM_BOOL */
    double f;  /* NUM_FLOAT */
} ScriptNum;
bool script_number(ScriptCtx *ctx, const PyExpr *e, ScriptNum *out);

/* script_call.c: R.* calls. */
Expr *script_relax_call(ScriptCtx *ctx, const PyExpr *call, const char *path);
/* script_device.c: R.hint_on_device(data, device [, scope]), the device as attributes;
 * tvm.ir.VDevice(target, vdevice_id, memory_scope) as the "kind:i" text naming that vdevice
 * of the module, declared in its global infos when it has no equal one. */
Expr *script_hint_on_device(ScriptCtx *ctx, const PyExpr *c, const char *fname);
bool script_is_vdevice_call(ScriptCtx *ctx, const PyExpr *e);
const char *script_vdevice_ref(ScriptCtx *ctx, const PyExpr *e);

/* script_const.c: R.const. */
Expr *script_const(ScriptCtx *ctx, const PyExpr *call);
/* The constant of a Python value and a dtype string (NULL: the value's own dtype). */
Expr *script_const_of(ScriptCtx *ctx, const PyExpr *value, const PyExpr *dtype, Span span);
Expr *script_literal_const(ScriptCtx *ctx, const PyExpr *e);

/* script_dist.c: the distributed dialect (SPEC_NOTES §4.24). A global info list of
 * R.device_mesh calls becomes a MeshGroup of the module (false: not such a list); a DTensor
 * from its tensor part, mesh "name[i]" and placement text; the R.dist.<name> calls other
 * than call_tir and call_tir_local_view. */
bool script_dist_global_info(ScriptCtx *ctx, const char *key, const PyExpr *list);
StructInfo *script_dist_dtensor(ScriptCtx *ctx, StructInfo *tensor, const PyExpr *mesh,
                                const PyExpr *placement, Span span);
Expr *script_dist_call(ScriptCtx *ctx, const PyExpr *c, const char *name);

/* script_sinfo.c: StructInfo annotations. */
StructInfo *script_sinfo(ScriptCtx *ctx, const PyExpr *e, SinfoMode mode);
/* Defines a shape variable for every bare identifier string dim of a parameter annotation. */
void script_sinfo_collect(ScriptCtx *ctx, const PyExpr *e);
bool script_is_sinfo(ScriptCtx *ctx, const PyExpr *e);

/* script_func.c: functions and bodies. */
typedef struct DecoratorFlags {
    bool pure;
    bool private_;
} DecoratorFlags;
bool script_is_relax_decorator(ScriptCtx *ctx, const PyExpr *d);
bool script_is_prim_decorator(ScriptCtx *ctx, const PyExpr *d);
DecoratorFlags script_relax_decorator(ScriptCtx *ctx, const PyStmt *def);
Function *script_function(ScriptCtx *ctx, const PyStmt *def, bool top_level);
void script_emit(ScriptCtx *ctx, Binding *b);
/* Closes the ordinary block being filled, so the next binding starts a new one. */
void script_close_block(ScriptCtx *ctx);
void script_func_attr(ScriptCtx *ctx, const PyExpr *call);
Var *script_new_var(ScriptCtx *ctx, const char *name, StructInfo *ann, Span span);

/* script_stmt.c: statements of a function body. */
void script_stmt(ScriptCtx *ctx, const PyStmt *s);
void script_body_stmts(ScriptCtx *ctx, const PyBody *body);
/* `e` is a call of <ns>.<path>(...). */
bool script_is_call_to(ScriptCtx *ctx, const PyExpr *e, ScriptNs ns, const char *path);
/* name [: ann] = R.match_cast(value, S): emits the MatchCast and binds the name. */
Var *script_match_cast(ScriptCtx *ctx, const PyExpr *target, StructInfo *ann, const PyExpr *call,
                       Span span);
/* A right-hand side that is not a Relax value: T.int64() or the module class name. */
bool script_is_decl(ScriptCtx *ctx, const PyExpr *value);
/* TS-4.2: the dtype the function body's leading declarations give `name` (`x = T.float16()`,
 * as TVM collects them before the signature); false when they do not declare it. */
bool script_prelude_dtype(ScriptCtx *ctx, const char *name, DataType *t);

/* script_if.c: if/else. */
Var *script_if(ScriptCtx *ctx, const PyStmt *s);

#endif
