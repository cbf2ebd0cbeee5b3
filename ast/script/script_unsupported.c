/* script_unsupported: the TVMScript constructs the project does not read, each rejected with
 * an error that names it and says why. SPEC_NOTES §4.10. */
#include <string.h>

#include "ast/script/script_internal.h"

typedef struct Unsupported {
    ScriptNs ns;
    const char *path;   /* exact, or a prefix when it ends in '.' or '_' */
    const char *reason; /* why, for the message */
} Unsupported;

static const Unsupported UNSUPPORTED[] = {
    {NS_RELAX, "macro", "macros are expanded by TVM's Python front end, not part of Relax"},
    {NS_RELAX, "rewriter", "pattern rewriters are compiler passes, not Relax programs"},
    {NS_RELAX, "call_py_func", "Python functions of a BasePyModule run outside Relax"},
    {NS_NONE, "BasePyModule", "Python functions of a BasePyModule run outside Relax"},
    {NS_IR, "BasePyModule", "Python functions of a BasePyModule run outside Relax"},
    {NS_TVM, "relax.BasePyModule", "Python functions of a BasePyModule run outside Relax"},
    {NS_TIR, "anylist_", "the VM's internal list objects are compiler internals"},
    {NS_TIR, "meta_var", "meta variables are Python-level macros of TVM's front end"},
    {NS_TIR, "tvm_struct_get", "runtime structure access is a compiler internal"},
    {NS_TIR, "allocate_const",
     "constant buffers of lowered TIR (T.allocate_const, T.Buffer(data=...)) are not read"},
};

static bool matches(const char *pattern, const char *path)
{
    size_t n = strlen(pattern);
    if (pattern[n - 1] == '.' || pattern[n - 1] == '_')
        return strncmp(pattern, path, n) == 0;
    return strcmp(pattern, path) == 0;
}

const char *script_unsupported_reason(ScriptNs ns, const char *path)
{
    for (size_t i = 0; path && i < sizeof UNSUPPORTED / sizeof UNSUPPORTED[0]; i++)
        if (UNSUPPORTED[i].ns == ns && matches(UNSUPPORTED[i].path, path))
            return UNSUPPORTED[i].reason;
    return NULL;
}

static const char *prefix_of(ScriptNs ns)
{
    switch (ns) {
    case NS_RELAX:
        return "R.";
    case NS_TIR:
        return "T.";
    case NS_IR:
        return "I.";
    case NS_TVM:
        return "tvm.";
    case NS_NONE:
        return "";
    }
    return "";
}

/* §4.10: `e` (a dotted name, or a call or subscript of one) names a construct the project
 * does not read: Unsupported, naming it. Returns when it names anything else. */
void script_reject_unsupported(ScriptCtx *ctx, const PyExpr *e)
{
    while (e->kind == PY_CALL || e->kind == PY_SUBSCRIPT)
        e = e->kind == PY_CALL ? e->u.call.func : e->u.subscript.value;
    ScriptNs ns = NS_NONE;
    const char *path = e->kind == PY_NAME ? e->u.name : script_dotted(ctx, e, &ns);
    const char *why = script_unsupported_reason(ns, path);
    if (why != NULL)
        error_raise(ctx->trap, PHASE_PARSE, "Unsupported", "TS-1", e->span,
                    "%s%s is not supported: %s", prefix_of(ns), path, why);
}
