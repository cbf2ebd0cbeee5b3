/* printer: the canonical TVMScript text of a module: headers, functions, bindings, blocks,
 * if/else, names and the hoisted shape-variable declarations. SPEC_NOTES: "Canonical printing". */
#include <ctype.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/print/literal.h"
#include "ast/print/printer_internal.h"

/* ---- Names ---- */

static const char *const python_keywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",
};

/* Names the printed text itself needs: the dialect prefixes and the tvm package. */
static const char *const printer_reserved[] = {"R", "T", "I", "tvm"};

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s != '\0'; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The slot of `name` in by_name, or the empty slot where it would go. */
static NameSlot *name_slot(const NameTable *t, const char *name)
{
    uint32_t i = name_hash(name) & (t->name_cap - 1);
    while (t->by_name[i].name != NULL && strcmp(t->by_name[i].name, name) != 0)
        i = (i + 1) & (t->name_cap - 1);
    return &t->by_name[i];
}

static void name_put(NameTable *t, const char *name, int index)
{
    if (2 * (t->name_used + 1) > t->name_cap) {
        NameSlot *old = t->by_name;
        uint32_t old_cap = t->name_cap;
        t->name_cap = old_cap == 0 ? 64 : old_cap * 2;
        t->by_name = MEM_ARRAY(NameSlot, t->name_cap);
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].name != NULL)
                *name_slot(t, old[i].name) = old[i];
    }
    NameSlot *slot = name_slot(t, name);
    if (slot->name == NULL)
        t->name_used++;
    slot->name = name;
    slot->index = index;
}

static bool is_taken(const NameTable *t, const char *name)
{
    if (t->name_cap == 0)
        return false;
    const NameSlot *slot = name_slot(t, name);
    /* A position a released scope left behind no longer holds this name. */
    return slot->name != NULL && slot->index < t->ntaken &&
           strcmp(t->taken[slot->index], name) == 0;
}

void names_reserve(NameTable *t, const char *name)
{
    if (!is_taken(t, name)) {
        name_put(t, name, t->ntaken);
        VEC_PUSH(t->taken, t->ntaken, t->captaken, name);
    }
}

const char *names_lookup(const NameTable *t, const void *key)
{
    int64_t i = 0;
    if (!ptrmap_get(&t->by_key, key, &i) || i >= t->n || t->entries[i].key != key)
        return NULL;
    return t->entries[i].name;
}

static bool is_keyword(const char *s)
{
    for (size_t i = 0; i < sizeof python_keywords / sizeof python_keywords[0]; i++)
        if (strcmp(python_keywords[i], s) == 0)
            return true;
    return false;
}

/* A valid Python identifier close to the hint. */
static char *sanitize(const char *hint)
{
    if (hint == NULL || hint[0] == '\0')
        return mem_strdup("v");
    StrBuf sb;
    strbuf_init(&sb);
    if (isdigit((unsigned char)hint[0]))
        strbuf_add(&sb, "v_");
    for (const char *c = hint; *c; c++)
        strbuf_addc(&sb, isalnum((unsigned char)*c) || *c == '_' ? *c : '_');
    if (is_keyword(sb.data))
        strbuf_addc(&sb, '_');
    return strbuf_str(&sb);
}

static void add_entry(NameTable *t, const void *key, const char *name)
{
    NameEntry e = {key, name};
    ptrmap_put(&t->by_key, key, t->n);
    VEC_PUSH(t->entries, t->n, t->cap, e);
}

/* The first object with a name keeps it; later ones get `_1`, `_2`, ... */
const char *names_define(NameTable *t, const void *key, const char *hint)
{
    const char *known = names_lookup(t, key);
    if (known != NULL)
        return known;
    const char *base = sanitize(hint);
    const char *name = base;
    for (int k = 1; is_taken(t, name); k++)
        name = mem_printf("%s_%d", base, k);
    names_reserve(t, name);
    add_entry(t, key, name);
    return name;
}

NameMark names_mark(const NameTable *t)
{
    NameMark m = {t->n, t->ntaken};
    return m;
}

void names_release(NameTable *t, NameMark mark)
{
    t->n = mark.n;
    t->ntaken = mark.ntaken;
}

NameTable *names_new(void)
{
    NameTable *t = MEM_NEW(NameTable);
    for (size_t i = 0; i < sizeof printer_reserved / sizeof printer_reserved[0]; i++)
        names_reserve(t, printer_reserved[i]);
    return t;
}

const char *printer_var_name(Printer *p, const Var *v)
{
    if (p->names == NULL)
        return v->name ? v->name : "_";
    return names_define(p->names, v, v->name);
}

const char *printer_tirvar_name(Printer *p, const TirVar *v)
{
    if (p->names == NULL)
        return v->name ? v->name : "v";
    return names_define(p->names, v, v->name);
}

const char *printer_buffer_name(Printer *p, const Buffer *b)
{
    if (p->names == NULL)
        return b->name ? b->name : "buf";
    return names_define(p->names, b, b->name);
}

void printer_init(Printer *p, const IRModule *mod)
{
    memset(p, 0, sizeof *p);
    strbuf_init(&p->out);
    p->mod = mod;
    p->prim_ctx = PRIM_CTX_RELAX;
}

void printer_line_start(Printer *p)
{
    for (int i = 0; i < p->indent; i++)
        strbuf_add(&p->out, "    ");
}

void printer_line(Printer *p, const char *text)
{
    printer_line_start(p);
    strbuf_add(&p->out, text);
    strbuf_addc(&p->out, '\n');
}

/* ---- Hoisted declarations: shape variables and `cls = Module` ---- */

/* Declarations in order of first appearance; NULL stands for `cls = Module`. */
typedef struct Hoist {
    const TirVar **items;
    int n;
    int cap;
    int nsig; /* items found in the signature, printed before R.func_attr */
    bool has_cls;
} Hoist;

static void hoist_var(Hoist *h, const TirVar *v)
{
    for (int i = 0; i < h->n; i++)
        if (h->items[i] == v)
            return;
    VEC_PUSH(h->items, h->n, h->cap, v);
}

static void hoist_prim(Hoist *h, const PrimExpr *e);
static void hoist_sinfo(Hoist *h, const StructInfo *s);
static void hoist_expr(Hoist *h, const Expr *e);

static void hoist_prims(Hoist *h, PrimExpr *const *es, int n)
{
    for (int i = 0; i < n; i++)
        hoist_prim(h, es[i]);
}

static void hoist_prim(Hoist *h, const PrimExpr *e)
{
    if (e == NULL)
        return;
    if (e->kind == PE_VAR) {
        hoist_var(h, e->u.var);
    } else if (primexpr_is_binary(e->kind)) {
        hoist_prim(h, e->u.bin.a);
        hoist_prim(h, e->u.bin.b);
    } else if (e->kind == PE_NOT || e->kind == PE_CAST) {
        hoist_prim(h, e->u.operand);
    } else if (e->kind == PE_SELECT) {
        hoist_prim(h, e->u.select.cond);
        hoist_prim(h, e->u.select.then_value);
        hoist_prim(h, e->u.select.else_value);
    } else if (e->kind == PE_CALL) {
        hoist_prims(h, e->u.call.args, e->u.call.nargs);
    }
}

static void hoist_sinfo(Hoist *h, const StructInfo *s)
{
    if (s == NULL)
        return;
    switch (s->kind) {
    case SINFO_OBJECT:
        return;
    case SINFO_PRIM:
        hoist_prim(h, s->u.prim.value);
        return;
    case SINFO_SHAPE:
        if (s->u.shape.values != NULL)
            hoist_prims(h, s->u.shape.values, s->u.shape.ndim);
        return;
    case SINFO_TENSOR:
        hoist_expr(h, s->u.tensor.shape);
        return;
    case SINFO_TUPLE:
        for (int i = 0; i < s->u.tuple.n; i++)
            hoist_sinfo(h, s->u.tuple.fields[i]);
        return;
    case SINFO_FUNC:
        if (s->u.func.has_params)
            for (int i = 0; i < s->u.func.nparams; i++)
                hoist_sinfo(h, s->u.func.params[i]);
        hoist_sinfo(h, s->u.func.ret);
        return;
    case SINFO_DTENSOR:
        hoist_sinfo(h, s->u.dtensor.tensor);
        return;
    }
}

static void hoist_attrs(Hoist *h, const Attrs *attrs);

static void hoist_attr(Hoist *h, const AttrValue *v)
{
    if (v->kind == ATTR_EXPR)
        hoist_expr(h, v->u.expr);
    else if (v->kind == ATTR_LIST)
        for (int i = 0; i < v->u.list.n; i++)
            hoist_attr(h, v->u.list.items[i]);
    else if (v->kind == ATTR_DICT)
        hoist_attrs(h, v->u.dict);
}

static void hoist_attrs(Hoist *h, const Attrs *attrs)
{
    for (int i = 0; attrs != NULL && i < attrs->n; i++)
        hoist_attr(h, attrs->values[i]);
}

static void hoist_signature(Hoist *h, const Function *f)
{
    for (int i = 0; i < f->nparams; i++)
        hoist_sinfo(h, f->params[i]->annotation);
    hoist_sinfo(h, f->ret);
}

static void hoist_binding(Hoist *h, const Binding *b)
{
    if (b->var != NULL)
        hoist_sinfo(h, b->var->annotation);
    hoist_expr(h, b->value);
    hoist_sinfo(h, b->struct_info);
}

static void hoist_seq(Hoist *h, const Expr *e)
{
    for (int i = 0; i < e->u.seq.nblocks; i++)
        for (int j = 0; j < e->u.seq.blocks[i]->n; j++)
            hoist_binding(h, e->u.seq.blocks[i]->bindings[j]);
    hoist_expr(h, e->u.seq.body);
}

static void hoist_cls(Hoist *h)
{
    if (h->has_cls)
        return;
    h->has_cls = true;
    VEC_PUSH(h->items, h->n, h->cap, NULL);
}

static void hoist_expr(Hoist *h, const Expr *e)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case EXPR_CONSTANT:
    case EXPR_VAR:
    case EXPR_STRING:
    case EXPR_DTYPE:
    case EXPR_EXTERN_FUNC:
    case EXPR_OP:
        return;
    case EXPR_GLOBAL_VAR:
        hoist_cls(h);
        return;
    case EXPR_TUPLE:
        for (int i = 0; i < e->u.tuple.n; i++)
            hoist_expr(h, e->u.tuple.fields[i]);
        return;
    case EXPR_SEQ:
        hoist_seq(h, e);
        return;
    case EXPR_PRIM_VALUE:
        hoist_prim(h, e->u.prim);
        return;
    case EXPR_FUNCTION:
        hoist_signature(h, e->u.func);
        hoist_expr(h, e->u.func->body);
        return;
    case EXPR_IF:
        hoist_expr(h, e->u.if_.cond);
        hoist_expr(h, e->u.if_.then_branch);
        hoist_expr(h, e->u.if_.else_branch);
        return;
    case EXPR_CALL:
        hoist_expr(h, e->u.call.op);
        for (int i = 0; i < e->u.call.nargs; i++)
            hoist_expr(h, e->u.call.args[i]);
        hoist_attrs(h, e->u.call.attrs);
        for (int i = 0; i < e->u.call.nsinfo_args; i++)
            hoist_sinfo(h, e->u.call.sinfo_args[i]);
        return;
    case EXPR_SHAPE:
        hoist_prims(h, e->u.shape.values, e->u.shape.n);
        return;
    case EXPR_TUPLE_GET_ITEM:
        hoist_expr(h, e->u.get_item.tuple);
        return;
    }
}

static void print_hoisted(Printer *p, const Hoist *h, int from, int to)
{
    for (int i = from; i < to; i++) {
        const TirVar *v = h->items[i];
        printer_line_start(p);
        if (v == NULL)
            strbuf_add(&p->out, "cls = Module\n");
        else
            strbuf_addf(&p->out, "%s = T.%s(%s)\n", printer_tirvar_name(p, v), dtype_str(v->dtype),
                        v->is_size_var ? "is_size_var=True" : "");
    }
}

/* ---- Function bodies ---- */

static void print_function(Printer *p, const Function *f, const char *name, bool top);
static void print_seq_body(Printer *p, const Expr *body);

static void emit_line_expr(Printer *p, const char *lhs, const StructInfo *ann, const Expr *e)
{
    printer_line_start(p);
    if (lhs != NULL) {
        strbuf_add(&p->out, lhs);
        if (ann != NULL) {
            strbuf_add(&p->out, ": ");
            printer_emit_sinfo(p, &p->out, ann);
        }
        strbuf_add(&p->out, " = ");
    }
    printer_emit_expr(p, &p->out, e);
    strbuf_addc(&p->out, '\n');
}

static bool is_expr_stmt(const Binding *b)
{
    return b->kind == BIND_VAR && (b->from_expr_stmt || (b->var != NULL && b->var->name != NULL &&
                                                         strcmp(b->var->name, "_") == 0));
}

/* The right-hand side of a binding, `R.match_cast(value, S)` for a MatchCast. */
static void emit_binding_rhs(Printer *p, const Binding *b)
{
    if (b->kind == BIND_VAR) {
        printer_emit_expr(p, &p->out, b->value);
        return;
    }
    strbuf_add(&p->out, "R.match_cast(");
    printer_emit_expr(p, &p->out, b->value);
    strbuf_add(&p->out, ", ");
    printer_emit_sinfo(p, &p->out, b->struct_info);
    strbuf_addc(&p->out, ')');
}

/* `lhs[: S] = rhs` with lhs already named. */
static void emit_binding_as(Printer *p, const Binding *b, const char *lhs)
{
    printer_line_start(p);
    if (is_expr_stmt(b)) {
        emit_binding_rhs(p, b);
        strbuf_addc(&p->out, '\n');
        return;
    }
    strbuf_add(&p->out, lhs);
    if (b->var != NULL && b->var->annotation != NULL) {
        strbuf_add(&p->out, ": ");
        printer_emit_sinfo(p, &p->out, b->var->annotation);
    }
    strbuf_add(&p->out, " = ");
    emit_binding_rhs(p, b);
    strbuf_addc(&p->out, '\n');
}

/* The binding that computes a branch's result var named like the if's var folds into
 * the branch's final `y = ...` line, which is how the text writes it. */
static const Binding *branch_fold(const Expr *branch, const Var *target)
{
    if (branch->kind != EXPR_SEQ || branch->u.seq.nblocks == 0)
        return NULL;
    const Expr *body = branch->u.seq.body;
    const BindingBlock *last = branch->u.seq.blocks[branch->u.seq.nblocks - 1];
    if (body->kind != EXPR_VAR || last->is_dataflow || last->n == 0)
        return NULL;
    const Binding *b = last->bindings[last->n - 1];
    if (b->var != body->u.var || b->var->name == NULL || target->name == NULL ||
        strcmp(b->var->name, target->name) != 0)
        return NULL;
    return b;
}

static void print_block(Printer *p, const BindingBlock *blk, const Binding *skip);
static void print_binding(Printer *p, const Binding *b);

static void print_if_as(Printer *p, const Binding *ifb, const Expr *e, const char *y);

static void print_branch(Printer *p, const Binding *ifb, const Expr *branch, const char *y)
{
    p->indent++;
    const Binding *fold = branch_fold(branch, ifb->var);
    if (branch->kind == EXPR_SEQ) {
        for (int i = 0; i < branch->u.seq.nblocks; i++)
            print_block(p, branch->u.seq.blocks[i], fold);
    }
    const Expr *result = branch->kind == EXPR_SEQ ? branch->u.seq.body : branch;
    if (fold == NULL && result->kind == EXPR_IF) {
        /* `elif` and a nested if that ends a branch both read as an If result. */
        print_if_as(p, ifb, result, y);
    } else if (fold != NULL) {
        add_entry(p->names, fold->var, y);
        print_binding(p, fold);
    } else if (is_expr_stmt(ifb)) {
        emit_line_expr(p, NULL, NULL, result);
    } else {
        emit_line_expr(p, y, ifb->var->annotation, result);
    }
    p->indent--;
}

static void print_if_as(Printer *p, const Binding *b, const Expr *e, const char *y)
{
    printer_line_start(p);
    strbuf_add(&p->out, "if ");
    printer_emit_expr(p, &p->out, e->u.if_.cond);
    strbuf_add(&p->out, ":\n");
    print_branch(p, b, e->u.if_.then_branch, y);
    printer_line(p, "else:");
    print_branch(p, b, e->u.if_.else_branch, y);
}

static void print_if(Printer *p, const Binding *b)
{
    print_if_as(p, b, b->value, is_expr_stmt(b) ? "_" : printer_var_name(p, b->var));
}

static void print_binding(Printer *p, const Binding *b)
{
    if (b->var == NULL) {
        emit_binding_as(p, b, "_");
        return;
    }
    if (b->kind == BIND_VAR && b->value->kind == EXPR_IF) {
        print_if(p, b);
        return;
    }
    if (b->kind == BIND_VAR && b->value->kind == EXPR_FUNCTION && !is_expr_stmt(b)) {
        print_function(p, b->value->u.func, printer_var_name(p, b->var), false);
        return;
    }
    const char *lhs = is_expr_stmt(b) ? "_" : printer_var_name(p, b->var);
    emit_binding_as(p, b, lhs);
}

static bool binds_output(const Binding *b)
{
    return b->var != NULL && !b->var->is_dataflow && !is_expr_stmt(b);
}

static void print_block(Printer *p, const BindingBlock *blk, const Binding *skip)
{
    if (!blk->is_dataflow) {
        for (int i = 0; i < blk->n; i++)
            if (blk->bindings[i] != skip)
                print_binding(p, blk->bindings[i]);
        return;
    }
    printer_line(p, "with R.dataflow():");
    p->indent++;
    for (int i = 0; i < blk->n; i++)
        print_binding(p, blk->bindings[i]);
    printer_line_start(p);
    strbuf_add(&p->out, "R.output(");
    const char *sep = "";
    for (int i = 0; i < blk->n; i++) {
        if (!binds_output(blk->bindings[i]))
            continue;
        strbuf_addf(&p->out, "%s%s", sep, printer_var_name(p, blk->bindings[i]->var));
        sep = ", ";
    }
    strbuf_add(&p->out, ")\n");
    p->indent--;
}

static void print_seq_body(Printer *p, const Expr *body)
{
    const Expr *result = body;
    if (body->kind == EXPR_SEQ) {
        for (int i = 0; i < body->u.seq.nblocks; i++)
            print_block(p, body->u.seq.blocks[i], NULL);
        result = body->u.seq.body;
    }
    printer_line_start(p);
    strbuf_add(&p->out, "return ");
    printer_emit_expr(p, &p->out, result);
    strbuf_addc(&p->out, '\n');
}

/* ---- Functions ---- */

static void print_decorator(Printer *p, const Function *f, bool top)
{
    bool impure = !f->is_pure;
    bool priv = top && function_global_symbol(f) == NULL;
    printer_line_start(p);
    strbuf_add(&p->out, "@R.function");
    if (impure && priv)
        strbuf_add(&p->out, "(pure=False, private=True)");
    else if (impure)
        strbuf_add(&p->out, "(pure=False)");
    else if (priv)
        strbuf_add(&p->out, "(private=True)");
    strbuf_addc(&p->out, '\n');
}

static void print_signature(Printer *p, const Function *f, const char *name, bool top)
{
    printer_line_start(p);
    strbuf_addf(&p->out, "def %s(", name);
    p->quote_dims = top;
    for (int i = 0; i < f->nparams; i++) {
        const Var *v = f->params[i];
        strbuf_addf(&p->out, "%s%s: ", i > 0 ? ", " : "", printer_var_name(p, v));
        printer_emit_sinfo(p, &p->out, v->annotation);
    }
    strbuf_addc(&p->out, ')');
    if (f->ret != NULL) {
        strbuf_add(&p->out, " -> ");
        printer_emit_sinfo(p, &p->out, f->ret);
    }
    strbuf_add(&p->out, ":\n");
    p->quote_dims = false;
}

/* R.func_attr without a global_symbol that the def name already implies. */
static void print_func_attrs(Printer *p, const Function *f, const char *name, bool top)
{
    Attrs *shown = attrs_new();
    for (int i = 0; i < f->attrs->n; i++) {
        const AttrValue *v = f->attrs->values[i];
        bool implied = top && strcmp(f->attrs->keys[i], "global_symbol") == 0 &&
                       v->kind == ATTR_STR && strcmp(v->u.s, name) == 0;
        if (!implied)
            attrs_set(shown, f->attrs->keys[i], f->attrs->values[i]);
    }
    if (shown->n == 0)
        return;
    printer_line_start(p);
    strbuf_add(&p->out, "R.func_attr(");
    printer_emit_dict(p, &p->out, shown, true);
    strbuf_add(&p->out, ")\n");
}

static void print_function(Printer *p, const Function *f, const char *name, bool top)
{
    Hoist h = {0};
    if (top) {
        p->names = names_new();
        hoist_signature(&h, f);
        h.nsig = h.n;
        hoist_expr(&h, f->body);
        if (h.has_cls)
            names_reserve(p->names, "cls");
        for (int i = 0; i < h.n; i++)
            if (h.items[i] != NULL)
                printer_tirvar_name(p, h.items[i]);
    }
    print_decorator(p, f, top);
    print_signature(p, f, name, top);
    p->indent++;
    print_hoisted(p, &h, 0, h.nsig);
    print_func_attrs(p, f, name, top);
    print_hoisted(p, &h, h.nsig, h.n);
    print_seq_body(p, f->body);
    p->indent--;
}

/* ---- Module ---- */

static int func_group(const ModuleFunc *f)
{
    switch (f->kind) {
    case MODFUNC_PRIM:
        return 0;
    case MODFUNC_EXTERN:
        return 1;
    case MODFUNC_RELAX:
        return 2;
    }
    return 2;
}

/* PrimFuncs, then extern functions, then Relax functions; alphabetical, `main` last. */
static int func_order(const ModuleFunc *a, const ModuleFunc *b)
{
    if (func_group(a) != func_group(b))
        return func_group(a) - func_group(b);
    bool ma = strcmp(a->gvar->name, "main") == 0;
    bool mb = strcmp(b->gvar->name, "main") == 0;
    if (ma != mb)
        return ma ? 1 : -1;
    return strcmp(a->gvar->name, b->gvar->name);
}

static ModuleFunc **sorted_funcs(const IRModule *mod)
{
    ModuleFunc **fs = MEM_ARRAY(ModuleFunc *, mod->nfuncs + 1);
    for (int i = 0; i < mod->nfuncs; i++) {
        ModuleFunc *f = mod->funcs[i];
        int j = i;
        for (; j > 0 && func_order(fs[j - 1], f) > 0; j--)
            fs[j] = fs[j - 1];
        fs[j] = f;
    }
    return fs;
}

static void print_vdevice(Printer *p, const VDevice *vd)
{
    strbuf_add(&p->out, "I.vdevice(");
    if (vd->target_config != NULL)
        printer_emit_dict(p, &p->out, vd->target_config, true);
    else
        literal_add_string(&p->out, vd->target_kind ? vd->target_kind : "");
    strbuf_addf(&p->out, ", %d, ", vd->vdevice_id);
    literal_add_string(&p->out, vd->memory_scope ? vd->memory_scope : "global");
    strbuf_addc(&p->out, ')');
}

/* DIST-1: R.device_mesh(shape, I.Range(begin, end)) or R.device_mesh(shape, [ids]). */
static void print_mesh(Printer *p, const DeviceMesh *m)
{
    strbuf_add(&p->out, "R.device_mesh((");
    for (int i = 0; i < m->ndim; i++)
        strbuf_addf(&p->out, "%s%lld", i > 0 ? ", " : "", (long long)m->shape[i]);
    strbuf_add(&p->out, m->ndim == 1 ? ",), " : "), ");
    if (m->has_range) {
        strbuf_addf(&p->out, "I.Range(%lld, %lld))", (long long)m->range_begin,
                    (long long)m->range_end);
        return;
    }
    strbuf_addc(&p->out, '[');
    for (int i = 0; i < m->ndevices; i++)
        strbuf_addf(&p->out, "%s%lld", i > 0 ? ", " : "", (long long)m->device_ids[i]);
    strbuf_add(&p->out, "])");
}

/* One global info list: vdevices (-1), a mesh group (its index + 1000000), another (its
 * attrs index). */
static void print_global_info(Printer *p, const IRModule *mod, int which)
{
    if (which == -1) {
        strbuf_add(&p->out, "\"vdevice\": [");
        for (int j = 0; j < mod->nvdevices; j++) {
            strbuf_add(&p->out, j > 0 ? ", " : "");
            print_vdevice(p, mod->vdevices[j]);
        }
        strbuf_addc(&p->out, ']');
        return;
    }
    if (which >= 1000000) {
        const MeshGroup *g = &mod->mesh_groups[which - 1000000];
        literal_add_string(&p->out, g->name);
        strbuf_add(&p->out, ": [");
        for (int j = 0; j < g->n; j++) {
            strbuf_add(&p->out, j > 0 ? ", " : "");
            print_mesh(p, g->meshes[j]);
        }
        strbuf_addc(&p->out, ']');
        return;
    }
    literal_add_string(&p->out, mod->global_infos_other->keys[which]);
    strbuf_add(&p->out, ": ");
    printer_emit_attr(p, &p->out, mod->global_infos_other->values[which]);
}

static const char *global_info_key(const IRModule *mod, int which)
{
    if (which == -1)
        return "vdevice";
    if (which >= 1000000)
        return mod->mesh_groups[which - 1000000].name;
    return mod->global_infos_other->keys[which];
}

/* The lists in key order. */
static void print_global_infos(Printer *p, const IRModule *mod)
{
    const Attrs *other = mod->global_infos_other;
    int n = other->n + mod->nmesh_groups + (mod->nvdevices > 0);
    if (n == 0)
        return;
    int *order = MEM_ARRAY(int, n);
    int k = 0;
    for (int i = 0; i < other->n; i++)
        order[k++] = i;
    for (int i = 0; i < mod->nmesh_groups; i++)
        order[k++] = 1000000 + i;
    if (mod->nvdevices > 0)
        order[k++] = -1;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(global_info_key(mod, order[j - 1]),
                                        global_info_key(mod, order[j])) > 0;
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    printer_line_start(p);
    strbuf_add(&p->out, "I.module_global_infos({");
    for (int i = 0; i < n; i++) {
        strbuf_add(&p->out, i > 0 ? ", " : "");
        print_global_info(p, mod, order[i]);
    }
    strbuf_add(&p->out, "})\n");
}

static void print_module_func(Printer *p, const ModuleFunc *f)
{
    switch (f->kind) {
    case MODFUNC_RELAX:
        print_function(p, f->u.relax, f->gvar->name, true);
        return;
    case MODFUNC_PRIM:
        printer_emit_primfunc(p, f->u.prim, f->gvar->name);
        return;
    case MODFUNC_EXTERN:
        printer_line_start(p);
        strbuf_addf(&p->out, "%s = R.ExternFunc(", f->gvar->name);
        literal_add_string(&p->out, f->u.extern_symbol);
        strbuf_add(&p->out, ")\n");
        return;
    }
}

static void print_module_body(Printer *p, const IRModule *mod)
{
    printer_line(p, "@I.ir_module");
    printer_line(p, "class Module:");
    p->indent++;
    size_t start = p->out.len;
    if (mod->attrs->n > 0) {
        printer_line_start(p);
        strbuf_add(&p->out, "I.module_attrs(");
        printer_emit_dict(p, &p->out, mod->attrs, true);
        strbuf_add(&p->out, ")\n");
    }
    print_global_infos(p, mod);
    ModuleFunc **fs = sorted_funcs(mod);
    for (int i = 0; i < mod->nfuncs; i++) {
        if (p->out.len > start)
            strbuf_addc(&p->out, '\n');
        p->names = NULL;
        print_module_func(p, fs[i]);
    }
    if (p->out.len == start)
        printer_line(p, "pass");
    p->indent--;
}

/* Which dialect prefixes the code uses, outside string literals and comments. */
static void scan_prefixes(const char *code, bool used[3])
{
    static const char prefixes[3] = {'I', 'T', 'R'};
    bool in_str = false;
    for (const char *c = code; *c; c++) {
        if (in_str) {
            if (*c == '\\' && c[1])
                c++;
            else if (*c == '"')
                in_str = false;
            continue;
        }
        if (*c == '"') {
            in_str = true;
        } else if (*c == '#') {
            while (c[1] && c[1] != '\n')
                c++;
        } else if (c[1] == '.' && (c == code || !(isalnum((unsigned char)c[-1]) || c[-1] == '_'))) {
            for (int k = 0; k < 3; k++)
                if (*c == prefixes[k])
                    used[k] = true;
        }
    }
}

char *printer_print_module(const IRModule *mod)
{
    Printer p;
    printer_init(&p, mod);
    bool lone = mod->is_lone_function && mod->nfuncs == 1 && mod->funcs[0]->kind == MODFUNC_RELAX;
    if (lone)
        print_function(&p, mod->funcs[0]->u.relax, mod->funcs[0]->gvar->name, true);
    else
        print_module_body(&p, mod);
    const char *code = strbuf_str(&p.out);
    bool used[3] = {false, false, false};
    scan_prefixes(code, used);
    StrBuf sb;
    strbuf_init(&sb);
    if (used[0])
        strbuf_add(&sb, "# from tvm.script import ir as I\n");
    if (used[1])
        strbuf_add(&sb, "# from tvm.script import tir as T\n");
    if (used[2])
        strbuf_add(&sb, "# from tvm.script import relax as R\n");
    strbuf_addc(&sb, '\n');
    strbuf_add(&sb, code);
    return strbuf_str(&sb);
}
