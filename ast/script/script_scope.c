/* script_scope: parse errors, the TVMScript prefixes and the symbol table of the translator.
 * SPEC_NOTES: "Parse errors" (codes and rules), TS-1 (names). */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script_internal.h"
#include "ast/strmap.h"

/* The rule of every code this translator raises (SPEC_NOTES §2.1), so a call site cannot
 * pair a code with the wrong rule. */
static const struct {
    const char *code;
    const char *rule;
} code_rules[] = {
    {"SyntaxError", "PY-1"},
    {"UnsupportedSyntax", "PY-1"},
    {"UnknownName", "TS-1"},
    {"BadModule", "TS-1"},
    {"BadDecorator", "TS-2"},
    {"DuplicateFunction", "TS-1.1"},
    {"MissingParamAnnotation", "TS-2"},
    {"MissingReturn", "TS-2"},
    {"DuplicateReturn", "TS-2"},
    {"StmtAfterReturn", "TS-2"},
    {"NestedPrimFunc", "TS-2"},
    {"PrivateGlobalSymbol", "TS-2"},
    {"DuplicateFuncAttr", "TS-2"},
    {"BadAnnotation", "TS-3"},
    {"AnnotationShape", "TS-3"},
    {"AnnotationNdimConflict", "TS-3"},
    {"AnnotationNdim", "TS-3"},
    {"AnnotationArity", "TS-3"},
    {"UnknownKeyword", "TS-3"},
    {"BadDType", "TS-3.1"},
    {"StringDimOutsideSignature", "TS-3"},
    {"UndefinedShapeVar", "TS-5.1"},
    {"ShapeVarDType", "TS-4.2"},
    {"ChainedAssign", "TS-4.1"},
    {"BadAssignTarget", "TS-4.1"},
    {"MatchCastAnnotation", "TS-4.3"},
    {"OutputOutsideDataflow", "TS-4.4"},
    {"DuplicateOutput", "TS-4.4"},
    {"BindingAfterOutput", "TS-4.4"},
    {"OutputForeignVar", "TS-4.4"},
    {"BadWith", "TS-4.4"},
    {"IfInDataflow", "WF-7"},
    {"MissingElse", "TS-4.5"},
    {"IfBranchMismatch", "TS-4.5"},
    {"PythonModOperator", "TS-6"},
    {"PythonNumberOperand", "TS-6"},
    {"BadConst", "TS-6"},
    {"BadArguments", "TS-7"},
    {"BadExpression", "TS-6"},
    {"DistMesh", "DIST-1"},
    {"DistPlacement", "DIST-2"},
};

static const char *rule_of(const char *code)
{
    for (size_t i = 0; i < sizeof code_rules / sizeof code_rules[0]; i++)
        if (strcmp(code_rules[i].code, code) == 0)
            return code_rules[i].rule;
    return NULL;
}

noreturn void script_fail(ScriptCtx *ctx, const char *code, Span span, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (span.file == NULL)
        span.file = ctx->file;
    error_raise(ctx->trap, PHASE_PARSE, code, rule_of(code), span, "%s", msg);
}

noreturn void script_reraise(ScriptCtx *ctx, const Error *e)
{
    const char *rule = rule_of(e->code);
    error_raise(ctx->trap, e->phase, e->code, rule ? rule : e->rule, e->span, "%s", e->message);
}

void script_add_ns(ScriptCtx *ctx, const char *name, ScriptNs ns)
{
    ScriptNsName entry = {name, ns};
    VEC_PUSH(ctx->nss, ctx->nns, ctx->capns, entry);
}

ScriptNs script_ns_of(ScriptCtx *ctx, const char *name)
{
    /* Python scoping: a local variable hides a global prefix of the same name. */
    if (script_lookup(ctx, name) != NULL)
        return NS_NONE;
    for (int i = ctx->nns - 1; i >= 0; i--)
        if (strcmp(ctx->nss[i].name, name) == 0)
            return ctx->nss[i].ns;
    return NS_NONE;
}

/* `tvm.script.ir_module` is the one tvm.* path TVMScript uses; `tvm.script.relax.X` and
 * friends read as their prefix. */
static const char *strip_tvm(const char *path, ScriptNs *ns)
{
    static const struct {
        const char *prefix;
        ScriptNs ns;
    } subs[] = {{"script.relax.", NS_RELAX}, {"relax.", NS_RELAX},
                {"script.tir.", NS_TIR},     {"tir.", NS_TIR},
                {"script.ir.", NS_IR},       {"ir.", NS_IR}};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        size_t n = strlen(subs[i].prefix);
        if (strncmp(path, subs[i].prefix, n) == 0) {
            *ns = subs[i].ns;
            return path + n;
        }
    }
    return path;
}

const char *script_dotted(ScriptCtx *ctx, const PyExpr *e, ScriptNs *ns)
{
    const char *parts[16];
    int n = 0;
    while (e->kind == PY_ATTR && n < 16) {
        parts[n++] = e->u.attr.attr;
        e = e->u.attr.value;
    }
    if (e->kind != PY_NAME || n == 0 || n == 16)
        return NULL;
    *ns = script_ns_of(ctx, e->u.name);
    if (*ns == NS_NONE)
        return NULL;
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = n - 1; i >= 0; i--) {
        strbuf_add(&sb, parts[i]);
        if (i > 0)
            strbuf_addc(&sb, '.');
    }
    const char *path = strbuf_str(&sb);
    if (*ns == NS_TVM)
        path = strip_tvm(path, ns);
    return path;
}

/* ---- the symbol table ----
 * A stack of bindings, innermost last, with an index from each name to the positions that
 * bind it (oldest first), so a lookup is one hash probe however many bindings a program has:
 * a 100,000-binding function parses in linear time. SPEC_NOTES: "Resource limits". */

typedef struct SymSlot {
    int *pos;
    int n;
    int cap;
} SymSlot;

typedef struct SymIndex {
    StrMap names; /* a name -> its slot */
    SymSlot *slots;
    int n;
    int cap;
} SymIndex;

/* The slot of `name`; with `create`, a new empty one when the name was never bound. */
static SymSlot *slot_of(ScriptCtx *ctx, const char *name, bool create)
{
    if (ctx->index == NULL)
        ctx->index = MEM_NEW(SymIndex);
    SymIndex *ix = ctx->index;
    int64_t k;
    if (strmap_get(&ix->names, name, &k))
        return &ix->slots[k];
    if (!create)
        return NULL;
    VEC_PUSH(ix->slots, ix->n, ix->cap, ((SymSlot){NULL, 0, 0}));
    strmap_put_first(&ix->names, name, ix->n - 1);
    return &ix->slots[ix->n - 1];
}

static void index_push(ScriptCtx *ctx, int pos)
{
    SymSlot *slot = slot_of(ctx, ctx->syms[pos].name, true);
    VEC_PUSH(slot->pos, slot->n, slot->cap, pos);
}

/* Forgets positions >= mark: each is the newest of its name's positions. */
static void index_pop(ScriptCtx *ctx, int mark)
{
    for (int i = ctx->nsyms - 1; i >= mark; i--)
        slot_of(ctx, ctx->syms[i].name, false)->n--;
}

int script_scope_mark(const ScriptCtx *ctx)
{
    return ctx->nsyms;
}

void script_scope_pop(ScriptCtx *ctx, int mark)
{
    index_pop(ctx, mark);
    ctx->nsyms = mark;
}

static void push(ScriptCtx *ctx, Sym sym)
{
    VEC_PUSH(ctx->syms, ctx->nsyms, ctx->capsyms, sym);
    index_push(ctx, ctx->nsyms - 1);
}

void script_bind_var(ScriptCtx *ctx, const char *name, Var *var)
{
    push(ctx, (Sym){.name = name, .kind = SYM_VAR, .var = var});
}

void script_bind_tirvar(ScriptCtx *ctx, const char *name, TirVar *tvar)
{
    push(ctx, (Sym){.name = name, .kind = SYM_TIRVAR, .tvar = tvar});
}

void script_bind_module(ScriptCtx *ctx, const char *name)
{
    push(ctx, (Sym){.name = name, .kind = SYM_MODULE});
}

void script_bind_prim(ScriptCtx *ctx, const char *name, PrimExpr *prim)
{
    push(ctx, (Sym){.name = name, .kind = SYM_PRIM, .prim = prim});
}

void script_bind_vdevice(ScriptCtx *ctx, const char *name, const char *ref)
{
    push(ctx, (Sym){.name = name, .kind = SYM_VDEVICE, .vdevice = ref});
}

/* TS-5.3: dataflow variables leave scope with their block; outputs, shape variables and aliases
 * stay (a match_cast inside the block may define shape variables used after it). */
void script_scope_drop_dataflow(ScriptCtx *ctx, int mark)
{
    index_pop(ctx, mark);
    int keep = mark;
    for (int i = mark; i < ctx->nsyms; i++) {
        Sym s = ctx->syms[i];
        if (s.kind == SYM_VAR && s.var->is_dataflow)
            continue;
        ctx->syms[keep++] = s;
    }
    ctx->nsyms = keep;
    for (int i = mark; i < keep; i++)
        index_push(ctx, i);
}

Sym *script_lookup(ScriptCtx *ctx, const char *name)
{
    SymSlot *slot = slot_of(ctx, name, false);
    if (slot == NULL || slot->n == 0)
        return NULL;
    return &ctx->syms[slot->pos[slot->n - 1]];
}

bool script_is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}
