/* script: TVMScript text to a Relax IRModule: the file's outer structure (imports, the
 * @I.ir_module class or a lone @R.function) and the module body. SPEC_NOTES: TS-1, TS-1.1. */
#include "ast/script/script.h"

#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"
#include "ast/script/script_internal.h"
#include "ast/script/script_tir.h"
#include "ast/text/py_parser.h"

static ScriptNs ns_of_module_name(const char *name)
{
    if (strcmp(name, "relax") == 0)
        return NS_RELAX;
    if (strcmp(name, "tir") == 0 || strcmp(name, "tirx") == 0)
        return NS_TIR;
    if (strcmp(name, "ir") == 0)
        return NS_IR;
    return NS_NONE;
}

/* import -> 'from' 'tvm.script' 'import' NAME ['as' NAME] {, ...} | 'import' 'tvm' ;
 * other imports are Python's business and are ignored. */
static void read_import(ScriptCtx *ctx, const PyStmt *s)
{
    for (int i = 0; i < s->u.import.n; i++) {
        const char *name = s->u.import.names[i];
        const char *as = s->u.import.asnames[i] ? s->u.import.asnames[i] : name;
        if (!s->u.import.module) {
            if (strcmp(name, "tvm") == 0)
                script_add_ns(ctx, as, NS_TVM);
            continue;
        }
        if (strcmp(s->u.import.module, "tvm.script") != 0)
            continue;
        ScriptNs ns = ns_of_module_name(name);
        if (ns != NS_NONE)
            script_add_ns(ctx, as, ns);
    }
}

static void add_default_prefixes(ScriptCtx *ctx)
{
    static const struct {
        const char *name;
        ScriptNs ns;
    } defaults[] = {{"I", NS_IR},     {"ir", NS_IR},   {"T", NS_TIR},       {"tir", NS_TIR},
                    {"tirx", NS_TIR}, {"R", NS_RELAX}, {"relax", NS_RELAX}, {"tvm", NS_TVM}};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
        script_add_ns(ctx, defaults[i].name, defaults[i].ns);
}

/* ---- module body (TS-1.1) ------------------------------------------------------------ */

static void check_module_decorator(ScriptCtx *ctx, const PyStmt *cls)
{
    if (cls->u.class_.ndecorators != 1)
        script_fail(ctx, "BadModule", cls->span, "a module class needs the decorator @I.ir_module");
    const PyExpr *d = cls->u.class_.decorators[0];
    const PyExpr *head = d->kind == PY_CALL ? d->u.call.func : d;
    ScriptNs ns;
    const char *path = script_dotted(ctx, head, &ns);
    bool ok = path && ((ns == NS_IR && strcmp(path, "ir_module") == 0) ||
                       (ns == NS_TVM && strcmp(path, "script.ir_module") == 0));
    if (!ok)
        script_fail(ctx, "BadDecorator", d->span, "expected @I.ir_module");
    if (d->kind != PY_CALL)
        return;
    if (d->u.call.nargs > 0)
        script_fail(ctx, "BadDecorator", d->span, "I.ir_module takes keyword arguments only");
    for (int i = 0; i < d->u.call.nkw; i++) {
        if (strcmp(d->u.call.kw_names[i], "check_well_formed") != 0)
            script_fail(ctx, "BadDecorator", d->u.call.kw_spans[i],
                        "I.ir_module takes no keyword `%s`", d->u.call.kw_names[i]);
        if (d->u.call.kw_values[i]->kind != PY_BOOL)
            script_fail(ctx, "BadDecorator", d->u.call.kw_values[i]->span,
                        "check_well_formed must be True or False");
    }
}

static const PyExpr *dict_arg(ScriptCtx *ctx, const PyExpr *call)
{
    if (call->u.call.nargs != 1 || call->u.call.nkw != 0 || call->u.call.args[0]->kind != PY_DICT)
        script_fail(ctx, "BadArguments", call->span, "expected one dict argument");
    return call->u.call.args[0];
}

/* vdevice -> 'I.vdevice' '(' (STRING | dict) [',' INT [',' STRING]] ')' */
static VDevice *read_vdevice_decl(ScriptCtx *ctx, const PyExpr *e)
{
    if (!script_is_call_to(ctx, e, NS_IR, "vdevice") || e->u.call.nkw > 0 || e->u.call.nargs < 1 ||
        e->u.call.nargs > 3)
        script_fail(ctx, "BadArguments", e->span,
                    "expected I.vdevice(target, vdevice_id, memory_scope)");
    VDevice *v = MEM_NEW(VDevice);
    v->span = e->span;
    v->memory_scope = "global";
    const PyExpr *target = e->u.call.args[0];
    AttrValue *t = script_attr_value(ctx, target, false);
    if (t->kind == ATTR_STR) {
        v->target_kind = t->u.s;
    } else {
        AttrValue *kind = t->kind == ATTR_DICT ? attrs_get(t->u.dict, "kind") : NULL;
        if (!kind || kind->kind != ATTR_STR)
            script_fail(ctx, "BadArguments", target->span,
                        "a vdevice target is a string or a dict with a \"kind\"");
        v->target_kind = kind->u.s;
        v->target_config = t->u.dict;
    }
    if (e->u.call.nargs > 1) {
        AttrValue *id = script_attr_value(ctx, e->u.call.args[1], false);
        if (id->kind != ATTR_INT)
            script_fail(ctx, "BadArguments", e->u.call.args[1]->span, "vdevice_id is an int");
        v->vdevice_id = (int)id->u.i;
    }
    if (e->u.call.nargs > 2) {
        if (e->u.call.args[2]->kind != PY_STR)
            script_fail(ctx, "BadArguments", e->u.call.args[2]->span, "memory_scope is a string");
        v->memory_scope = e->u.call.args[2]->u.str;
    }
    return v;
}

/* A global_info entry other than vdevices is kept by name: I.dummy_global_info() reads as
 * the string "dummy_global_info". */
static AttrValue *global_info_item(ScriptCtx *ctx, const PyExpr *e)
{
    ScriptNs ns;
    const char *path = e->kind == PY_CALL ? script_dotted(ctx, e->u.call.func, &ns) : NULL;
    if (path)
        return attr_str(path, e->span);
    return script_attr_value(ctx, e, false);
}

/* global_infos -> 'I.module_global_infos' '(' '{' STRING ':' '[' item {',' item} ']' '}' ')' */
static void read_global_infos(ScriptCtx *ctx, const PyExpr *call)
{
    const PyExpr *d = dict_arg(ctx, call);
    IRModule *m = ctx->mod;
    for (int i = 0; i < d->u.dict.n; i++) {
        const PyExpr *k = d->u.dict.keys[i];
        const PyExpr *v = d->u.dict.values[i];
        if (k->kind != PY_STR || (v->kind != PY_LIST && v->kind != PY_TUPLE))
            script_fail(ctx, "BadArguments", k->span, "global infos map names to lists");
        if (script_dist_global_info(ctx, k->u.str, v))
            continue;
        if (strcmp(k->u.str, "vdevice") == 0) {
            VDevice **all = MEM_ARRAY(VDevice *, m->nvdevices + v->u.seq.n + 1);
            for (int j = 0; j < m->nvdevices; j++)
                all[j] = m->vdevices[j];
            for (int j = 0; j < v->u.seq.n; j++)
                all[m->nvdevices + j] = read_vdevice_decl(ctx, v->u.seq.items[j]);
            m->vdevices = all;
            m->nvdevices += v->u.seq.n;
            continue;
        }
        AttrValue *list = attr_new(ATTR_LIST, v->span);
        list->u.list.n = v->u.seq.n;
        list->u.list.items = MEM_ARRAY(AttrValue *, v->u.seq.n ? v->u.seq.n : 1);
        for (int j = 0; j < v->u.seq.n; j++)
            list->u.list.items[j] = global_info_item(ctx, v->u.seq.items[j]);
        attrs_set(m->global_infos_other, k->u.str, list);
    }
}

static GlobalVar *declare(ScriptCtx *ctx, const char *name, Span span)
{
    if (module_lookup(ctx->mod, name))
        script_fail(ctx, "DuplicateFunction", span, "the module already has `%s`", name);
    return globalvar_new(name, span);
}

/* extern -> NAME '=' 'R.ExternFunc' '(' STRING ')' */
static bool read_extern(ScriptCtx *ctx, const PyStmt *s)
{
    if (s->kind != PYS_ASSIGN || s->u.assign.ntargets != 1 ||
        s->u.assign.targets[0]->kind != PY_NAME ||
        !script_is_call_to(ctx, s->u.assign.value, NS_RELAX, "ExternFunc"))
        return false;
    const PyExpr *t = s->u.assign.targets[0];
    Expr *e = script_expr(ctx, s->u.assign.value);
    ModuleFunc *f = module_add(ctx->mod, declare(ctx, t->u.name, t->span), MODFUNC_EXTERN);
    f->u.extern_symbol = e->u.extern_symbol;
    f->span = s->span;
    return true;
}

/* Pass 1: the class body's statements other than defs, in order. */
static void read_module_stmt(ScriptCtx *ctx, const PyStmt *s)
{
    if (s->kind == PYS_DEF || s->kind == PYS_PASS || read_extern(ctx, s))
        return;
    if (s->kind == PYS_EXPR) {
        const PyExpr *e = s->u.expr;
        if (e->kind == PY_STR)
            return;
        if (script_is_call_to(ctx, e, NS_IR, "module_attrs")) {
            const PyExpr *d = dict_arg(ctx, e);
            AttrValue *v = script_attr_value(ctx, d, false);
            for (int i = 0; i < v->u.dict->n; i++)
                attrs_set(ctx->mod->attrs, v->u.dict->keys[i], v->u.dict->values[i]);
            return;
        }
        if (script_is_call_to(ctx, e, NS_IR, "module_global_infos")) {
            read_global_infos(ctx, e);
            return;
        }
    }
    script_fail(ctx, "BadModule", s->span, "statement not allowed in a module class body");
}

/* Pass 2: a GlobalVar for every def, so bodies may refer to functions defined later. */
static ModuleFunc *declare_def(ScriptCtx *ctx, const PyStmt *s)
{
    ModuleFuncKind kind = MODFUNC_RELAX;
    bool prim = s->u.def.ndecorators == 1 && script_is_prim_decorator(ctx, s->u.def.decorators[0]);
    if (prim)
        kind = MODFUNC_PRIM;
    else
        script_relax_decorator(ctx, s);
    ModuleFunc *f = module_add(ctx->mod, declare(ctx, s->u.def.name, s->span), kind);
    f->span = s->span;
    return f;
}

/* TIR-CALL: a def of the class body by name. */
static const PyStmt *class_def(const TirModule *m, const char *fn)
{
    const PyBody *body = m->ctx;
    for (int i = 0; i < body->n; i++) {
        const PyStmt *s = body->stmts[i];
        if (s->kind == PYS_DEF && strcmp(s->u.def.name, fn) == 0)
            return s;
    }
    return NULL;
}

/* module -> '@I.ir_module' 'class' NAME ':' {module_stmt} {funcdef} */
static IRModule *read_module(ScriptCtx *ctx, const PyStmt *cls)
{
    rule_fired("TS-1.1");
    for (int i = 0; i < cls->u.class_.nbases; i++) /* class Module(BasePyModule) */
        script_reject_unsupported(ctx, cls->u.class_.bases[i]);
    check_module_decorator(ctx, cls);
    ctx->mod = module_new(ctx->file);
    script_bind_module(ctx, cls->u.class_.name);
    const PyBody *body = &cls->u.class_.body;
    for (int i = 0; i < body->n; i++)
        read_module_stmt(ctx, body->stmts[i]);
    TirModule tm = {cls->u.class_.name, class_def, body};
    ModuleFunc **funcs = MEM_ARRAY(ModuleFunc *, body->n ? body->n : 1);
    for (int i = 0; i < body->n; i++)
        if (body->stmts[i]->kind == PYS_DEF)
            funcs[i] = declare_def(ctx, body->stmts[i]);
    for (int i = 0; i < body->n; i++) {
        const PyStmt *s = body->stmts[i];
        if (s->kind != PYS_DEF)
            continue;
        if (funcs[i]->kind == MODFUNC_PRIM)
            funcs[i]->u.prim = script_tir_primfunc(s, &tm, ctx->trap);
        else
            funcs[i]->u.relax = script_function(ctx, s, true);
    }
    return ctx->mod;
}

/* lone -> '@R.function' funcdef : a module holding the one function. */
static IRModule *read_lone(ScriptCtx *ctx, const PyStmt *def)
{
    for (int i = 0; i < def->u.def.ndecorators; i++)
        if (script_is_prim_decorator(ctx, def->u.def.decorators[i]))
            script_fail(ctx, "BadModule", def->span,
                        "a lone PrimFunc is not a Relax program; put it in an @I.ir_module");
    ctx->mod = module_new(ctx->file);
    ctx->mod->is_lone_function = true;
    GlobalVar *g = globalvar_new(def->u.def.name, def->span);
    ModuleFunc *f = module_add(ctx->mod, g, MODFUNC_RELAX);
    f->u.relax = script_function(ctx, def, true);
    return ctx->mod;
}

/* file -> {import | docstring} (module | lone) {import | docstring} */
IRModule *script_parse(const char *file, const char *text, ErrorTrap *trap)
{
    return script_parse_body(file, py_parse_file(file, text, trap), trap);
}

IRModule *script_parse_body(const char *file, PyBody top, ErrorTrap *trap)
{
    rule_fired("TS-1");
    ScriptCtx ctx = {.file = file, .trap = trap};
    add_default_prefixes(&ctx);
    const PyStmt *def = NULL;
    for (int i = 0; i < top.n; i++) {
        const PyStmt *s = top.stmts[i];
        if (s->kind == PYS_IMPORT) {
            read_import(&ctx, s);
        } else if (s->kind == PYS_PASS || (s->kind == PYS_EXPR && s->u.expr->kind == PY_STR)) {
            continue;
        } else if ((s->kind == PYS_CLASS || s->kind == PYS_DEF) && !def) {
            def = s;
        } else {
            script_fail(&ctx, "BadModule", s->span,
                        s->kind == PYS_CLASS || s->kind == PYS_DEF
                            ? "a file holds one module or one function"
                            : "statement not allowed at the top level");
        }
    }
    if (!def)
        script_fail(&ctx, "BadModule", span_make(file, 1, 1),
                    "no @I.ir_module class or @R.function in the file");
    return def->kind == PYS_CLASS ? read_module(&ctx, def) : read_lone(&ctx, def);
}
