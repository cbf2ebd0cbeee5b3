/* sinfo_compare: StructInfo annotations compared by meaning rather than by text.
 * SPEC_NOTES: "The conformance runner" (SINFO-CMP-1). */
#include "tools/conform/sinfo_compare.h"

#include <ctype.h>
#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/structinfo/prover.h"
#include "interp/structinfo/sinfo_relations.h"

static bool same_dim(const PrimExpr *a, const PrimExpr *b)
{
    return prover_compare(a, b) == PROVE_EQUAL;
}

static bool same_dims(PrimExpr *const *a, PrimExpr *const *b, int n)
{
    for (int i = 0; i < n; i++)
        if (!same_dim(a[i], b[i]))
            return false;
    return true;
}

/* A tensor's shape: its dims when written, else NULL. */
static PrimExpr **tensor_dims(const StructInfo *s)
{
    const struct Expr *e = s->u.tensor.shape;
    return e != NULL && e->kind == EXPR_SHAPE ? e->u.shape.values : NULL;
}

static bool same_tensor(const StructInfo *a, const StructInfo *b)
{
    if (!dtype_equal(a->u.tensor.dtype, b->u.tensor.dtype) ||
        a->u.tensor.ndim != b->u.tensor.ndim ||
        !sinfo_vdevice_equal(a->u.tensor.vdevice, b->u.tensor.vdevice))
        return false;
    PrimExpr **da = tensor_dims(a), **db = tensor_dims(b);
    if ((da == NULL) != (db == NULL))
        return false;
    return da == NULL || same_dims(da, db, a->u.tensor.ndim);
}

static bool same_list(StructInfo *const *a, StructInfo *const *b, int n)
{
    for (int i = 0; i < n; i++)
        if (!sinfo_same_meaning(a[i], b[i]))
            return false;
    return true;
}

/* SINFO-CMP-1 */
bool sinfo_same_meaning(const StructInfo *a, const StructInfo *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case SINFO_OBJECT:
        return true;
    case SINFO_PRIM:
        if (!dtype_equal(a->u.prim.dtype, b->u.prim.dtype) ||
            (a->u.prim.value == NULL) != (b->u.prim.value == NULL))
            return false;
        return a->u.prim.value == NULL || same_dim(a->u.prim.value, b->u.prim.value);
    case SINFO_SHAPE:
        if (a->u.shape.ndim != b->u.shape.ndim ||
            (a->u.shape.values == NULL) != (b->u.shape.values == NULL))
            return false;
        return a->u.shape.values == NULL ||
               same_dims(a->u.shape.values, b->u.shape.values, a->u.shape.ndim);
    case SINFO_TENSOR:
        return same_tensor(a, b);
    case SINFO_TUPLE:
        return a->u.tuple.n == b->u.tuple.n &&
               same_list(a->u.tuple.fields, b->u.tuple.fields, a->u.tuple.n);
    case SINFO_FUNC:
        if (a->u.func.has_params != b->u.func.has_params || a->u.func.purity != b->u.func.purity ||
            (a->u.func.has_params &&
             (a->u.func.nparams != b->u.func.nparams ||
              !same_list(a->u.func.params, b->u.func.params, a->u.func.nparams))))
            return false;
        /* An opaque callable's derive_func is part of it (TVM's structural equality). */
        if ((a->u.func.derive_func == NULL) != (b->u.func.derive_func == NULL) ||
            (a->u.func.derive_func != NULL &&
             strcmp(a->u.func.derive_func, b->u.func.derive_func) != 0))
            return false;
        return sinfo_same_meaning(a->u.func.ret, b->u.func.ret);
    case SINFO_DTENSOR:
        return dist_mesh_equal(a->u.dtensor.mesh, b->u.dtensor.mesh) &&
               dist_placement_equal(a->u.dtensor.placement, b->u.dtensor.placement) &&
               same_tensor(a->u.dtensor.tensor, b->u.dtensor.tensor);
    }
    return false;
}

/* ---- reading the two texts in one scope ---- */

static bool is_word_start(const char *t, const char *p)
{
    return (isalpha((unsigned char)*p) || *p == '_') &&
           (p == t || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' && p[-1] != '.'));
}

static bool reserved(const char *w)
{
    static const char *const WORDS[] = {"R",    "T",       "True",  "False",  "None",   "dtype",
                                        "ndim", "vdevice", "value", "values", "purity", NULL};
    for (const char *const *k = WORDS; *k != NULL; k++)
        if (strcmp(*k, w) == 0)
            return true;
    return false;
}

/* `name = T.int64()` for every identifier the texts use as a dim (a word not after a dot, not
 * a call, not a keyword argument, not a dtype string's content). */
static void declare_names(StrBuf *sb, const char *text, StrBuf *seen)
{
    for (const char *p = text; *p; p++) {
        if (!is_word_start(text, p))
            continue;
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        char *w = mem_strndup(p, (size_t)(q - p));
        const char *after = q;
        while (*after == ' ')
            after++;
        bool dtype_string = p > text && p[-1] == '"' && *q == '"' && strchr(w, '_') == NULL &&
                            (strncmp(w, "float", 5) == 0 || strncmp(w, "int", 3) == 0 ||
                             strncmp(w, "uint", 4) == 0 || strncmp(w, "bfloat", 6) == 0 ||
                             strcmp(w, "bool") == 0 || strcmp(w, "void") == 0);
        const char *key = mem_printf(",%s,", w);
        if (!reserved(w) && *after != '(' && *after != '=' && !dtype_string &&
            strstr(strbuf_str(seen), key) == NULL) {
            strbuf_addf(sb, "    %s = T.int64()\n", w);
            strbuf_add(seen, key + 1);
        }
        p = q - 1;
    }
}

static bool dtype_name(const char *w)
{
    DataType t;
    return dtype_parse(w, &t);
}

/* The text with quoted dims ("n * 2", value="n + 1") unquoted: string dims are read only in
 * signatures, and both texts are read in a function body. dtype and vdevice strings stay. */
static const char *unquote_dims(const char *text)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (const char *p = text; *p; p++) {
        const char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
        if (end == NULL) {
            strbuf_addc(&sb, *p);
            continue;
        }
        char *body = mem_strndup(p + 1, (size_t)(end - p - 1));
        const char *b = p;
        while (b > text && b[-1] == ' ')
            b--;
        bool in_dims = b > text && (b[-1] == '(' || b[-1] == ',' || b[-1] == '[');
        bool value = b - text >= 6 && strncmp(b - 6, "value=", 6) == 0;
        if ((in_dims || value) && !dtype_name(body))
            strbuf_add(&sb, body);
        else
            strbuf_addn(&sb, p, (size_t)(end - p + 1));
        p = end;
    }
    return strbuf_str(&sb);
}

static const StructInfo *cast_sinfo(const IRModule *mod, int k)
{
    const ModuleFunc *mf = module_lookup(mod, "main");
    if (mf == NULL || mf->kind != MODFUNC_RELAX)
        return NULL;
    const Expr *body = mf->u.relax->body;
    if (body->kind != EXPR_SEQ || body->u.seq.nblocks < 1 || body->u.seq.blocks[0]->n <= k)
        return NULL;
    const Binding *b = body->u.seq.blocks[0]->bindings[body->u.seq.blocks[0]->n - 2 + k];
    return b->kind == BIND_MATCH_CAST ? b->struct_info : NULL;
}

bool sinfo_texts_same_meaning(const char *expected, const char *got, const char **why)
{
    expected = unquote_dims(expected);
    got = unquote_dims(got);
    StrBuf src, seen;
    strbuf_init(&src);
    strbuf_init(&seen);
    strbuf_add(&seen, ",");
    strbuf_add(&src, "@R.function\ndef main(v: R.Object):\n");
    declare_names(&src, expected, &seen);
    declare_names(&src, got, &seen);
    strbuf_addf(&src, "    a = R.match_cast(v, %s)\n    b = R.match_cast(v, %s)\n    return v\n",
                expected, got);
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        if (why != NULL)
            *why = mem_printf("the annotations do not read: %s", error_format(&trap.error));
        return false;
    }
    IRModule *mod = script_parse("<struct_info>", strbuf_str(&src), &trap);
    const StructInfo *a = cast_sinfo(mod, 0), *b = cast_sinfo(mod, 1);
    if (a == NULL || b == NULL) {
        if (why != NULL)
            *why = "the annotations do not read as StructInfo";
        return false;
    }
    bool same = sinfo_same_meaning(a, b);
    if (!same && why != NULL)
        *why = "the StructInfo differs in meaning";
    return same;
}
