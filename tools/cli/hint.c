/* hint: the "did you mean" of a diagnostic, from its code and the name its message quotes,
 * over the names in scope: operators, an operator's keywords, the program's functions and
 * the names written before the error. SPEC_NOTES: "Error codes". */
#include <string.h>

#include "ast/expr.h"
#include "ast/mem.h"
#include "ast/schema/op_schema.h"
#include "tools/cli/cli.h"
#include "tools/cli/suggest.h"

/* The text between the first `open` and the next `close` of the message, or NULL. */
static const char *quoted(const char *msg, char open, char close)
{
    const char *a = strchr(msg, open);
    const char *b = a != NULL ? strchr(a + 1, close) : NULL;
    return b != NULL ? mem_strndup(a + 1, (size_t)(b - a - 1)) : NULL;
}

static void add_module_functions(NameList *l, const IRModule *mod)
{
    for (int i = 0; mod != NULL && i < mod->nfuncs; i++)
        names_add(l, mod->funcs[i]->gvar->name);
}

/* "unknown operator relax.nn.softmx": the closest operator, as TVMScript writes it. */
static const char *unknown_op(const Error *e)
{
    const char *name = strrchr(e->message, ' ');
    if (name == NULL)
        return NULL;
    NameList ops = {0};
    names_add_operators(&ops);
    const char *best = suggest_closest(name + 1, &ops);
    if (best != NULL && strncmp(best, "relax.", 6) == 0)
        best = mem_printf("R.%s", best + 6);
    return best;
}

/* "R.sum takes no keyword `axes`": the closest parameter of that operator. */
static const char *unknown_keyword(const Error *e)
{
    const char *key = quoted(e->message, '`', '`');
    size_t n = strcspn(e->message, " ");
    if (key == NULL || strncmp(e->message, "R.", 2) != 0)
        return NULL;
    const OpSchema *op = op_schema_lookup(mem_printf("relax.%.*s", (int)n - 2, e->message + 2));
    NameList params = {0};
    for (int i = 0; op != NULL && i < op->nparams; i++)
        names_add(&params, op->params[i].name);
    return suggest_closest(key, &params);
}

/* "name `yy` is not defined", "the module has no function `fooo`", "no entry function
 * 'mian'": the closest function, or name written before the error. */
static const char *unknown_name(const Error *e, const char *source, const IRModule *mod)
{
    const char *name = quoted(e->message, '`', '`');
    if (name == NULL)
        name = quoted(e->message, '\'', '\'');
    if (name == NULL)
        return NULL;
    NameList names = {0};
    add_module_functions(&names, mod);
    if (source != NULL) {
        names_add_defs(&names, source);
        if (strstr(e->message, "function") == NULL)
            names_add_identifiers(&names, source, e->span.line);
    }
    return suggest_closest(name, &names);
}

/* ENTRY-1: with no close name, the entry points the program has. */
static const char *entry_list(const IRModule *mod)
{
    StrBuf sb;
    strbuf_init(&sb);
    int n = 0;
    for (int i = 0; mod != NULL && i < mod->nfuncs; i++) {
        const ModuleFunc *mf = mod->funcs[i];
        if (mf->kind != MODFUNC_RELAX || function_global_symbol(mf->u.relax) == NULL)
            continue;
        strbuf_addf(&sb, "%s`%s`", n++ > 0 ? ", " : "", mf->gvar->name);
    }
    if (n == 0)
        return "the program has no entry function (a private function is none)";
    return mem_printf("the program's entry function%s %s", n > 1 ? "s are" : " is",
                      strbuf_str(&sb));
}

const char *cli_hint(const Error *e, const char *source, const IRModule *mod)
{
    const char *best = NULL;
    if (e->code == NULL || e->message == NULL)
        return NULL;
    if (strcmp(e->code, "UnknownOp") == 0)
        best = unknown_op(e);
    else if (strcmp(e->code, "UnknownKeyword") == 0)
        best = unknown_keyword(e);
    else if (strcmp(e->code, "UnknownName") == 0 || strcmp(e->code, "NoEntry") == 0)
        best = unknown_name(e, source, mod);
    if (best == NULL && strcmp(e->code, "NoEntry") == 0 && mod != NULL)
        return entry_list(mod);
    return best != NULL ? mem_printf("did you mean `%s`?", best) : NULL;
}
