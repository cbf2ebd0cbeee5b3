/* astform: the `ast:` reader for modules, functions, bindings and expressions (a program
 * written in the spec's grammar, one YAML mapping per node). SPEC_NOTES: "The ast: form". */
#include "ast/astform/astform.h"

#include <string.h>

#include "ast/astform/astform_read.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_tir.h"
#include "ast/text/py_parser.h"

/* Every node name of the form, so that a misplaced node is told apart from an unknown one. */
static const char *const known_nodes[] = {
    "IRModule",
    "Function",
    "PrimFunc",
    "ExternFunc",
    "SeqExpr",
    "BindingBlock",
    "DataflowBlock",
    "VarBinding",
    "MatchCast",
    "Call",
    "If",
    "Tuple",
    "TupleGetItem",
    "Constant",
    "PrimValue",
    "StringImm",
    "DataTypeImm",
    "ShapeExpr",
    "Op",
    "GlobalVar",
    "Var",
    "DataflowVar",
    "ObjectStructInfo",
    "PrimStructInfo",
    "ShapeStructInfo",
    "TensorStructInfo",
    "TupleStructInfo",
    "FuncStructInfo",
    "VDevice",
    "ShapeVar",
    "IntImm",
    "FloatImm",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Mod",
    "FloorDiv",
    "FloorMod",
    "Min",
    "Max",
    "EQ",
    "NE",
    "LT",
    "LE",
    "GT",
    "GE",
    "And",
    "Or",
    "Not",
    "Select",
    "Cast",
    "TirCall",
    NULL,
};

static noreturn void fail_kind(AstReader *r, yaml_node_t *node, const char *want, const char *name)
{
    for (const char *const *k = known_nodes; *k != NULL; k++)
        if (strcmp(*k, name) == 0)
            ast_fail(r, node, "expected %s, found %s", want, name);
    ast_fail(r, node, "unknown node '%s'", name);
}

static Function *read_function(AstReader *r, yaml_node_t *node, yaml_node_t *value);

/* ---- Variables --------------------------------------------------------------------- */

static yaml_node_t *var_annotation(AstReader *r, const AstFields *f)
{
    yaml_node_t *a = ast_field(r, f, "struct_info");
    yaml_node_t *b = ast_field(r, f, "struct_info_annotation");
    if (a != NULL && b != NULL)
        ast_fail(r, b, "struct_info and struct_info_annotation both given");
    return a ? a : b;
}

/* {Var: x} | {Var: x#2, struct_info: S} | {Var: {name_hint: x, struct_info_annotation: S}};
 * DataflowVar alike. The same kind and name (with its #k suffix) is the same object. */
static Var *read_var(AstReader *r, yaml_node_t *node, bool binding_site)
{
    static const char *const sibling[] = {"struct_info", "struct_info_annotation", NULL};
    static const char *const fields[] = {"name_hint", "struct_info", "struct_info_annotation",
                                         NULL};
    yaml_node_t *value;
    const char *kind = ast_head(r, node, &value);
    if (strcmp(kind, "Var") != 0 && strcmp(kind, "DataflowVar") != 0)
        fail_kind(r, node, "a Var or DataflowVar", kind);
    AstFields f;
    yaml_node_t *name_node = value;
    if (value->type == YAML_MAPPING_NODE) {
        ast_single(r, node, kind);
        f = ast_fields(r, node, value, kind, fields);
        name_node = ast_field_req(r, &f, "name_hint");
    } else {
        f = ast_sibling_fields(r, node, kind, sibling);
    }
    const char *key = ast_scalar(r, name_node, "a variable name");
    const char *full = mem_printf("%s:%s", kind, key);
    Var *v = ast_table_get(&r->vars, full);
    if (v == NULL) {
        v = var_new(ast_name_hint(r, name_node, key), kind[0] == 'D', NULL, ast_span(r, node));
        ast_table_put(&r->vars, full, v);
    }
    yaml_node_t *ann = var_annotation(r, &f);
    if (binding_site && ast_table_get(&r->vars, mem_printf("bound %s", full)) == NULL) {
        v->span = ast_span(r, node);
        ast_table_put(&r->vars, mem_printf("bound %s", full), v);
    }
    if (ann == NULL)
        return v;
    if (!binding_site)
        ast_fail(r, ann, "the struct_info of '%s' belongs where it is bound", key);
    if (v->annotation != NULL)
        ast_fail(r, ann, "the struct_info of '%s' is given at two binding sites", key);
    v->annotation = ast_read_sinfo(r, ann);
    return v;
}

/* {GlobalVar: f}: one object per name; a name no function defines still reads. */
static GlobalVar *global_var(AstReader *r, const char *name, yaml_node_t *node)
{
    GlobalVar *g = ast_table_get(&r->gvars, name);
    if (g == NULL) {
        g = globalvar_new(name, ast_span(r, node));
        ast_table_put(&r->gvars, name, g);
    }
    return g;
}

/* A shorthand value, or the one named field when the value is written in field form. */
static yaml_node_t *unary(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *name,
                          const char *field)
{
    const char *const fields[] = {field, NULL};
    if (!ast_is_field_form(r, value, fields))
        return value;
    AstFields f = ast_fields(r, node, value, name, fields);
    return ast_field_req(r, &f, field);
}

/* ---- Expressions ------------------------------------------------------------------- */

static Expr **read_exprs(AstReader *r, yaml_node_t *node, int *n, const char *what)
{
    ast_expect_seq(r, node, what);
    *n = ast_seq_len(node);
    Expr **out = MEM_ARRAY(Expr *, *n + 1);
    for (int i = 0; i < *n; i++)
        out[i] = ast_read_expr(r, ast_seq_item(r, node, i));
    return out;
}

static Binding *read_binding(AstReader *r, yaml_node_t *node)
{
    static const char *const vb[] = {"var", "value", NULL};
    static const char *const mc[] = {"var", "struct_info", "value", NULL};
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    ast_single(r, node, name);
    Span sp = ast_span(r, node);
    if (strcmp(name, "VarBinding") == 0) {
        AstFields f = ast_fields(r, node, value, name, vb);
        Var *v = read_var(r, ast_field_req(r, &f, "var"), true);
        Expr *e = ast_read_expr(r, ast_field_req(r, &f, "value"));
        if (e->kind == EXPR_FUNCTION && e->u.func->name == NULL)
            e->u.func->name = v->name;
        return binding_var(v, e, sp);
    }
    if (strcmp(name, "MatchCast") == 0) {
        AstFields f = ast_fields(r, node, value, name, mc);
        yaml_node_t *vn = ast_field(r, &f, "var");
        Var *v = vn && !ast_is_null(vn) ? read_var(r, vn, true) : NULL;
        StructInfo *s = ast_read_sinfo(r, ast_field_req(r, &f, "struct_info"));
        return binding_match_cast(v, s, ast_read_expr(r, ast_field_req(r, &f, "value")), sp);
    }
    fail_kind(r, node, "a VarBinding or MatchCast", name);
}

/* BindingBlock ::= {BindingBlock: {bindings: [...]}} | {DataflowBlock: [...]} */
static BindingBlock *read_block(AstReader *r, yaml_node_t *node)
{
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    ast_single(r, node, name);
    if (strcmp(name, "BindingBlock") != 0 && strcmp(name, "DataflowBlock") != 0)
        fail_kind(r, node, "a BindingBlock or DataflowBlock", name);
    ast_enter(r, node);
    BindingBlock *b = block_new(name[0] == 'D', ast_span(r, node));
    yaml_node_t *list = unary(r, node, value, name, "bindings");
    if (ast_is_null(list)) {
        ast_leave(r);
        return b;
    }
    ast_expect_seq(r, list, "bindings");
    for (int i = 0; i < ast_seq_len(list); i++)
        block_add(b, read_binding(r, ast_seq_item(r, list, i)));
    ast_leave(r);
    return b;
}

/* SeqExpr(blocks: [BindingBlock], body: Expr) */
static Expr *read_seq(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"blocks", "body", NULL};
    AstFields f = ast_fields(r, node, value, "SeqExpr", allowed);
    yaml_node_t *bl = ast_field(r, &f, "blocks");
    int n = 0;
    BindingBlock **blocks = NULL;
    if (bl != NULL && !ast_is_null(bl)) {
        ast_expect_seq(r, bl, "blocks");
        n = ast_seq_len(bl);
        blocks = MEM_ARRAY(BindingBlock *, n + 1);
        for (int i = 0; i < n; i++)
            blocks[i] = read_block(r, ast_seq_item(r, bl, i));
    }
    return expr_seq(blocks, n, ast_read_expr(r, ast_field_req(r, &f, "body")), ast_span(r, node));
}

/* Call(op: Expr, args: [Expr], sinfo_args: [StructInfo], attrs: Attrs?) */
static Expr *read_call(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"op", "args", "sinfo_args", "attrs", NULL};
    AstFields f = ast_fields(r, node, value, "Call", allowed);
    Expr *e = expr_call(ast_read_expr(r, ast_field_req(r, &f, "op")), NULL, 0, ast_span(r, node));
    yaml_node_t *args = ast_field(r, &f, "args");
    if (args != NULL && !ast_is_null(args))
        e->u.call.args = read_exprs(r, args, &e->u.call.nargs, "args");
    yaml_node_t *sargs = ast_field(r, &f, "sinfo_args");
    if (sargs != NULL && !ast_is_null(sargs)) {
        ast_expect_seq(r, sargs, "sinfo_args");
        int n = e->u.call.nsinfo_args = ast_seq_len(sargs);
        e->u.call.sinfo_args = MEM_ARRAY(StructInfo *, n + 1);
        for (int i = 0; i < n; i++)
            e->u.call.sinfo_args[i] = ast_read_sinfo(r, ast_seq_item(r, sargs, i));
    }
    yaml_node_t *attrs = ast_field(r, &f, "attrs");
    if (attrs != NULL)
        e->u.call.attrs = ast_read_attrs(r, attrs);
    return e;
}

/* If(cond: Expr, true_branch: Expr, false_branch: Expr) */
static Expr *read_if(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"cond", "true_branch", "false_branch", NULL};
    AstFields f = ast_fields(r, node, value, "If", allowed);
    Expr *e = expr_new(EXPR_IF, ast_span(r, node));
    e->u.if_.cond = ast_read_expr(r, ast_field_req(r, &f, "cond"));
    e->u.if_.then_branch = ast_read_expr(r, ast_field_req(r, &f, "true_branch"));
    e->u.if_.else_branch = ast_read_expr(r, ast_field_req(r, &f, "false_branch"));
    return e;
}

/* TupleGetItem(tuple_value: Expr, index: int) */
static Expr *read_get_item(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"tuple_value", "index", NULL};
    AstFields f = ast_fields(r, node, value, "TupleGetItem", allowed);
    Expr *e = expr_new(EXPR_TUPLE_GET_ITEM, ast_span(r, node));
    e->u.get_item.tuple = ast_read_expr(r, ast_field_req(r, &f, "tuple_value"));
    yaml_node_t *ix = ast_field_req(r, &f, "index");
    int64_t i = ast_int(r, ix, "index");
    if (i < -1000000000 || i > 1000000000)
        ast_fail(r, ix, "index out of range");
    e->u.get_item.index = (int)i;
    return e;
}

/* The leaf expressions, each with a one-field shorthand. */
static Expr *read_leaf_expr(AstReader *r, yaml_node_t *node, yaml_node_t *value, const char *name)
{
    Span sp = ast_span(r, node);
    if (strcmp(name, "Constant") == 0) {
        Expr *e = expr_new(EXPR_CONSTANT, sp);
        e->u.constant = ast_read_const_data(r, unary(r, node, value, name, "data"));
        return e;
    }
    if (strcmp(name, "PrimValue") == 0)
        return expr_prim_value(ast_read_primexpr(r, unary(r, node, value, name, "value")), sp);
    if (strcmp(name, "StringImm") == 0) {
        Expr *e = expr_new(EXPR_STRING, sp);
        e->u.str = ast_scalar(r, unary(r, node, value, name, "value"), "a StringImm value");
        return e;
    }
    if (strcmp(name, "DataTypeImm") == 0) {
        Expr *e = expr_new(EXPR_DTYPE, sp);
        e->u.dtype = ast_dtype(r, unary(r, node, value, name, "value"));
        return e;
    }
    if (strcmp(name, "ExternFunc") == 0) {
        Expr *e = expr_new(EXPR_EXTERN_FUNC, sp);
        e->u.extern_symbol =
            ast_scalar(r, unary(r, node, value, name, "global_symbol"), "a global_symbol");
        return e;
    }
    if (strcmp(name, "Op") == 0)
        return expr_op(ast_scalar(r, unary(r, node, value, name, "op_name"), "an op_name"), sp);
    if (strcmp(name, "GlobalVar") == 0) {
        Expr *e = expr_new(EXPR_GLOBAL_VAR, sp);
        yaml_node_t *n = unary(r, node, value, name, "name_hint");
        e->u.gvar = global_var(r, ast_scalar(r, n, "a GlobalVar name"), node);
        return e;
    }
    fail_kind(r, node, "an Expr", name);
}

static Expr *read_compound_expr(AstReader *r, yaml_node_t *node, yaml_node_t *value,
                                const char *name)
{
    Span sp = ast_span(r, node);
    if (strcmp(name, "Tuple") == 0) {
        Expr *e = expr_tuple(NULL, 0, sp);
        e->u.tuple.fields =
            read_exprs(r, unary(r, node, value, name, "fields"), &e->u.tuple.n, "fields");
        return e;
    }
    if (strcmp(name, "ShapeExpr") == 0) {
        int n;
        PrimExpr **vals = ast_read_primexprs(r, unary(r, node, value, name, "values"), &n);
        return expr_shape(vals, n, sp);
    }
    if (strcmp(name, "SeqExpr") == 0)
        return read_seq(r, node, value);
    if (strcmp(name, "Call") == 0)
        return read_call(r, node, value);
    if (strcmp(name, "If") == 0)
        return read_if(r, node, value);
    if (strcmp(name, "TupleGetItem") == 0)
        return read_get_item(r, node, value);
    if (strcmp(name, "Function") == 0) {
        Expr *e = expr_new(EXPR_FUNCTION, sp);
        e->u.func = read_function(r, node, value);
        return e;
    }
    return read_leaf_expr(r, node, value, name);
}

/* Expr ::= Constant | Var | DataflowVar | GlobalVar | Tuple | SeqExpr | PrimValue | StringImm
 *        | DataTypeImm | Function | If | ExternFunc | Call | ShapeExpr | TupleGetItem | Op */
Expr *ast_read_expr(AstReader *r, yaml_node_t *node)
{
    ast_enter(r, node);
    yaml_node_t *value;
    const char *name = ast_head(r, node, &value);
    Expr *e;
    if (strcmp(name, "Var") == 0 || strcmp(name, "DataflowVar") == 0) {
        e = expr_var(read_var(r, node, false), ast_span(r, node));
    } else {
        ast_single(r, node, name);
        e = read_compound_expr(r, node, value, name);
    }
    ast_leave(r);
    return e;
}

/* ---- Functions and modules --------------------------------------------------------- */

/* Function(params: [Var], body: Expr, ret_struct_info: StructInfo?, is_pure: bool?,
 *          attrs: Attrs?) */
static Function *read_function(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"params",  "body",  "ret_struct_info",
                                          "is_pure", "attrs", NULL};
    AstFields f = ast_fields(r, node, value, "Function", allowed);
    Function *fn = function_new(ast_span(r, node));
    yaml_node_t *ps = ast_field(r, &f, "params");
    if (ps != NULL && !ast_is_null(ps)) {
        ast_expect_seq(r, ps, "params");
        fn->nparams = ast_seq_len(ps);
        fn->params = MEM_ARRAY(Var *, fn->nparams + 1);
        for (int i = 0; i < fn->nparams; i++)
            fn->params[i] = read_var(r, ast_seq_item(r, ps, i), true);
    }
    yaml_node_t *ret = ast_field(r, &f, "ret_struct_info");
    if (ret != NULL && !ast_is_null(ret))
        fn->ret = ast_read_sinfo(r, ret);
    yaml_node_t *pure = ast_field(r, &f, "is_pure");
    fn->is_pure = pure ? ast_bool(r, pure, "is_pure") : true;
    yaml_node_t *attrs = ast_field(r, &f, "attrs");
    if (attrs != NULL)
        fn->attrs = ast_read_attrs(r, attrs);
    fn->body = ast_read_expr(r, ast_field_req(r, &f, "body"));
    return fn;
}

/* The first def of a text, or NULL when it does not read (its own reading reports that). */
static const PyStmt *first_def(const char *file, const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return NULL;
    PyBody body = py_parse_file(file, text, &trap);
    for (int i = 0; i < body.n; i++)
        if (body.stmts[i]->kind == PYS_DEF)
            return body.stmts[i];
    return NULL;
}

/* TIR-CALL in the ast: form: a PrimFunc's text calls another as Module.f; its def is found
 * in the text of the module's PrimFunc named f. */
static const PyStmt *module_primfunc_def(const TirModule *m, const char *fn)
{
    AstReader *r = (AstReader *)m->ctx;
    yaml_node_t *funcs = r->funcs;
    if (funcs == NULL)
        return NULL;
    for (yaml_node_pair_t *p = funcs->data.mapping.pairs.start; p < funcs->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
        if (k == NULL || v == NULL || k->type != YAML_SCALAR_NODE ||
            strcmp((const char *)k->data.scalar.value, fn) != 0 || v->type != YAML_MAPPING_NODE ||
            v->data.mapping.pairs.top - v->data.mapping.pairs.start != 1)
            continue;
        yaml_node_t *kind = yaml_document_get_node(r->doc, v->data.mapping.pairs.start->key);
        yaml_node_t *text = yaml_document_get_node(r->doc, v->data.mapping.pairs.start->value);
        if (kind == NULL || text == NULL || kind->type != YAML_SCALAR_NODE ||
            text->type != YAML_SCALAR_NODE ||
            strcmp((const char *)kind->data.scalar.value, "PrimFunc") != 0)
            continue;
        return first_def(r->file, (const char *)text->data.scalar.value);
    }
    return NULL;
}

static PrimFunc *translate_primfunc(AstReader *r, yaml_node_t *value, const char *text,
                                    ErrorTrap *inner)
{
    PyBody body = py_parse_file(r->file, text, inner);
    const PyStmt *def = NULL;
    for (int i = 0; i < body.n; i++) {
        if (body.stmts[i]->kind == PYS_IMPORT)
            continue;
        if (body.stmts[i]->kind != PYS_DEF || def != NULL)
            ast_fail(r, value, "a PrimFunc's text must hold exactly one @T.prim_func def");
        def = body.stmts[i];
    }
    if (def == NULL)
        ast_fail(r, value, "a PrimFunc's text must hold exactly one @T.prim_func def");
    TirModule module = {"Module", module_primfunc_def, r};
    return script_tir_primfunc(def, &module, inner);
}

/* {PrimFunc: "<@T.prim_func def ...>"}: TVMScript text of one PrimFunc. Errors in the text
 * keep their own codes; their lines are moved into the case file when the text is a block
 * scalar (whose first line follows the `|`), otherwise they point at the scalar. */
static PrimFunc *read_primfunc(AstReader *r, yaml_node_t *value, const char *name)
{
    const char *text = ast_scalar(r, value, "a PrimFunc's TVMScript text");
    ErrorTrap inner;
    PrimFunc *volatile pf = NULL;
    if (setjmp(inner.jmp) == 0)
        pf = translate_primfunc(r, value, text, &inner);
    if (pf == NULL) {
        Error e = inner.error;
        bool block = value->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                     value->data.scalar.style == YAML_FOLDED_SCALAR_STYLE;
        Span at = ast_span(r, value);
        if (block && e.span.line > 0) {
            at.line = e.span.line + (int)value->start_mark.line + 1;
            at.col = e.span.col;
            at.end_line = at.line;
            at.end_col = at.col;
        }
        error_raise(r->trap, e.phase, e.code, e.rule, at, "%s", e.message);
    }
    pf->name = name;
    return pf;
}

static void read_module_func(AstReader *r, GlobalVar *g, yaml_node_t *node)
{
    ast_enter(r, node);
    yaml_node_t *value;
    const char *kind = ast_head(r, node, &value);
    ast_single(r, node, kind);
    ModuleFunc *mf;
    if (strcmp(kind, "Function") == 0) {
        mf = module_add(r->mod, g, MODFUNC_RELAX);
        mf->u.relax = read_function(r, node, value);
        mf->u.relax->name = g->name;
    } else if (strcmp(kind, "PrimFunc") == 0) {
        mf = module_add(r->mod, g, MODFUNC_PRIM);
        mf->u.prim = read_primfunc(r, value, g->name);
    } else if (strcmp(kind, "ExternFunc") == 0) {
        mf = module_add(r->mod, g, MODFUNC_EXTERN);
        mf->u.extern_symbol =
            ast_scalar(r, unary(r, node, value, kind, "global_symbol"), "a global_symbol");
    } else {
        fail_kind(r, node, "a Function, PrimFunc or ExternFunc", kind);
    }
    mf->span = ast_span(r, node);
    ast_leave(r);
}

/* global_info: {vdevice: [VDevice, ...], <other kind>: <attribute value>, ...} */
static void read_global_info(AstReader *r, yaml_node_t *node)
{
    Attrs *all = ast_read_attrs(r, node); /* checks the keys; vdevice is read again below */
    for (int i = 0; i < all->n; i++)
        if (strcmp(all->keys[i], "vdevice") != 0)
            attrs_set(r->mod->global_infos_other, all->keys[i], all->values[i]);
    yaml_node_t *list = NULL;
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
         p++)
        if (strcmp(ast_scalar(r, ast_node(r, p->key), "a global_info kind"), "vdevice") == 0)
            list = ast_node(r, p->value);
    if (list == NULL)
        return;
    ast_expect_seq(r, list, "vdevice");
    r->mod->nvdevices = ast_seq_len(list);
    r->mod->vdevices = MEM_ARRAY(VDevice *, r->mod->nvdevices + 1);
    for (int i = 0; i < r->mod->nvdevices; i++)
        r->mod->vdevices[i] = ast_read_vdevice(r, ast_seq_item(r, list, i));
}

/* IRModule(funcs: {GlobalVar: Function|PrimFunc|ExternFunc}, global_info, attrs). Every
 * GlobalVar exists before any body is read, so references may point forward. */
static void read_module(AstReader *r, yaml_node_t *node, yaml_node_t *value)
{
    static const char *const allowed[] = {"funcs", "global_info", "attrs", NULL};
    AstFields f = ast_fields(r, node, value, "IRModule", allowed);
    yaml_node_t *gi = ast_field(r, &f, "global_info");
    if (gi != NULL && !ast_is_null(gi))
        read_global_info(r, gi);
    yaml_node_t *attrs = ast_field(r, &f, "attrs");
    if (attrs != NULL)
        r->mod->attrs = ast_read_attrs(r, attrs);
    yaml_node_t *funcs = ast_field_req(r, &f, "funcs");
    if (ast_is_null(funcs))
        return;
    if (funcs->type != YAML_MAPPING_NODE)
        ast_fail(r, funcs, "funcs must be a mapping from global names to functions");
    yaml_node_pair_t *start = funcs->data.mapping.pairs.start;
    int n = (int)(funcs->data.mapping.pairs.top - start);
    GlobalVar **gvars = MEM_ARRAY(GlobalVar *, n + 1);
    for (int i = 0; i < n; i++) {
        yaml_node_t *k = ast_node(r, start[i].key);
        const char *name = ast_scalar(r, k, "a global name");
        if (ast_table_get(&r->gvars, name) != NULL)
            ast_fail(r, k, "the global name '%s' is bound twice", name);
        gvars[i] = global_var(r, name, k);
    }
    r->funcs = funcs;
    for (int i = 0; i < n; i++)
        read_module_func(r, gvars[i], ast_node(r, start[i].value));
    r->funcs = NULL;
}

IRModule *astform_read(const char *file, yaml_document_t *doc, yaml_node_t *node, ErrorTrap *trap)
{
    rule_fired("AST-1");
    AstReader r;
    ast_reader_init(&r, file, doc, trap);
    yaml_node_t *value;
    const char *name = ast_head(&r, node, &value);
    ast_single(&r, node, name);
    if (strcmp(name, "IRModule") == 0) {
        read_module(&r, node, value);
        return r.mod;
    }
    if (strcmp(name, "Function") != 0)
        fail_kind(&r, node, "an IRModule or a Function", name);
    /* A lone function is the module's only function, named main. */
    GlobalVar *g = global_var(&r, "main", node);
    r.mod->is_lone_function = true;
    read_module_func(&r, g, node);
    return r.mod;
}

static void load_document(const char *file, const char *text, yaml_document_t *doc, ErrorTrap *trap)
{
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (yaml_parser_load(&parser, doc))
        goto done;
    Span sp =
        span_make(file, (int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1);
    const char *problem = mem_strdup(parser.problem ? parser.problem : "invalid YAML");
    yaml_parser_delete(&parser);
    error_raise(trap, PHASE_PARSE, "BadAst", "AST-1", sp, "%s", problem);
done:
    yaml_parser_delete(&parser);
}

IRModule *astform_read_text(const char *file, const char *text, ErrorTrap *trap)
{
    yaml_document_t doc;
    load_document(file, text, &doc, trap);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        yaml_document_delete(&doc);
        error_raise(trap, PHASE_PARSE, "BadAst", "AST-1", span_make(file, 1, 1),
                    "empty document: expected an IRModule or a Function");
    }
    ErrorTrap inner;
    IRModule *volatile mod = NULL;
    if (setjmp(inner.jmp) == 0)
        mod = astform_read(file, &doc, root, &inner);
    yaml_document_delete(&doc);
    if (mod == NULL)
        error_raise(trap, inner.error.phase, inner.error.code, inner.error.rule, inner.error.span,
                    "%s", inner.error.message);
    return mod;
}
