/* case_file: reads a conformance case file (yaml_node_load) and checks it against
 * CASE_FORMAT version 1. SPEC_NOTES: "Case file errors (phase case)". */
#include "tools/conform/case_file.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/dtype.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "tools/cli/source.h"
#include "tools/conform/case_value.h"

typedef struct Loader {
    const char *path;
    const char *text;
    yaml_document_t doc; /* libyaml's document of the text, for the ast: reader */
    bool have_doc;       /* read only by a file that holds an ast: form */
    ErrorTrap *trap;
    CaseFile *cf;
} Loader;

static noreturn void fail_at(Loader *ld, int line, int col, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static noreturn void fail_at(Loader *ld, int line, int col, const char *code, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    error_raise(ld->trap, PHASE_CASE, code, NULL, span_make(ld->path, line, col), "%s", buf);
}

#define FAIL(ld, node, ...) fail_at((ld), (node)->line, (node)->col, "CaseSchema", __VA_ARGS__)

/* Every key of `map` must be in `allowed` (NULL-terminated) and appear once. */
static void check_keys(Loader *ld, const YamlNode *map, const char *const *allowed,
                       const char *what)
{
    for (int i = 0; i < map->nitems; i++) {
        bool known = false;
        for (const char *const *a = allowed; *a != NULL; a++)
            known = known || strcmp(*a, map->keys[i]) == 0;
        if (!known)
            FAIL(ld, map->items[i], "unknown key '%s' in %s", map->keys[i], what);
        for (int j = 0; j < i; j++) {
            if (strcmp(map->keys[i], map->keys[j]) == 0)
                FAIL(ld, map->items[i], "key '%s' given twice in %s", map->keys[i], what);
        }
    }
}

static void need_map(Loader *ld, const YamlNode *n, const char *what)
{
    if (n->kind != YAML_NODE_MAP)
        FAIL(ld, n, "%s must be a mapping", what);
}

static const char *need_string(Loader *ld, const YamlNode *n, const char *what)
{
    if (n->kind != YAML_NODE_SCALAR)
        FAIL(ld, n, "%s must be a string", what);
    return n->scalar;
}

static void need_true(Loader *ld, const YamlNode *n, const char *what)
{
    bool b;
    if (!yaml_node_bool(n, &b) || !b)
        FAIL(ld, n, "%s must be true", what);
}

/* A list of non-empty strings, appended to *out. */
static void add_string_list(Loader *ld, const YamlNode *n, const char *what, const char ***out,
                            int *len)
{
    if (n->kind != YAML_NODE_SEQ)
        FAIL(ld, n, "%s must be a list", what);
    int cap = *len;
    for (int i = 0; i < n->nitems; i++) {
        const char *s = need_string(ld, n->items[i], what);
        if (*s == '\0')
            FAIL(ld, n->items[i], "empty string in %s", what);
        VEC_PUSH(*out, *len, cap, s);
    }
}

static double need_tolerance(Loader *ld, const YamlNode *n, const char *what)
{
    double d;
    bool is_int;
    if (!yaml_node_number(n, &d, &is_int) || !(d >= 0))
        FAIL(ld, n, "%s must be a non-negative number", what);
    return d;
}

static const char *const ERROR_KEYS[] = {"phase", "code", "rule", NULL};

/* error: {phase: P, code: C?, rule: R?} with P a phase a program can fail in. */
static void load_error_expect(Loader *ld, const YamlNode *n, Expect *e)
{
    need_map(ld, n, "error");
    check_keys(ld, n, ERROR_KEYS, "error");
    const YamlNode *phase = yaml_node_get(n, "phase");
    if (phase == NULL)
        FAIL(ld, n, "error needs a phase");
    Phase p;
    if (error_phase_parse(need_string(ld, phase, "phase"), &p) != 0 || p > PHASE_RUNTIME)
        FAIL(ld, phase, "unknown phase '%s' (parse, wellformed, struct_info or runtime)",
             phase->scalar);
    e->error_phase = p;
    const YamlNode *code = yaml_node_get(n, "code");
    const YamlNode *rule = yaml_node_get(n, "rule");
    e->error_code = code != NULL ? need_string(ld, code, "code") : NULL;
    e->error_rule = rule != NULL ? need_string(ld, rule, "rule") : NULL;
}

static void load_sinfo_expect(Loader *ld, const YamlNode *n, Expect *e)
{
    need_map(ld, n, "struct_info");
    if (n->nitems == 0)
        FAIL(ld, n, "struct_info names no binding");
    int cap = 0;
    for (int i = 0; i < n->nitems; i++) {
        SInfoExpect s = {n->keys[i], need_string(ld, n->items[i], "a StructInfo text")};
        for (int j = 0; j < i; j++) {
            if (strcmp(n->keys[i], n->keys[j]) == 0)
                FAIL(ld, n->items[i], "binding '%s' given twice", n->keys[i]);
        }
        VEC_PUSH(e->sinfos, e->nsinfos, cap, s);
    }
}

static const char *const EXPECT_KEYS[] = {
    "value",     "valid",       "struct_info",   "error",
    "roundtrip", "normal_form", "normalizes_to", "normalizes_to_ast",
    "stdout",    "warnings",    "printed",       "errors",
    NULL};

/* The keys that name an expectation kind; both normalizes_to spellings are one kind. */
static const struct {
    const char *key;
    ExpectKind kind;
} KIND_KEYS[] = {
    {"value", EXPECT_VALUE},
    {"valid", EXPECT_VALID},
    {"struct_info", EXPECT_STRUCT_INFO},
    {"error", EXPECT_ERROR},
    {"roundtrip", EXPECT_ROUNDTRIP},
    {"normal_form", EXPECT_NORMAL_FORM},
    {"normalizes_to", EXPECT_NORMALIZES_TO},
    {"normalizes_to_ast", EXPECT_NORMALIZES_TO},
};
#define NKIND_KEYS ((int)(sizeof KIND_KEYS / sizeof KIND_KEYS[0]))

static yaml_node_t *raw_get(yaml_document_t *doc, yaml_node_t *map, const char *key);
static yaml_node_t *raw_case(Loader *ld, int index);

/* normal_form: true, or normal_form: {rule: NF-n} for a program the check must reject. */
static void load_normal_form_expect(Loader *ld, const YamlNode *n, Expect *e)
{
    static const char *const NF_KEYS[] = {"rule", NULL};
    if (n->kind != YAML_NODE_MAP) {
        need_true(ld, n, "normal_form (true, or {rule: NF-n})");
        return;
    }
    check_keys(ld, n, NF_KEYS, "normal_form");
    const YamlNode *rule = yaml_node_get(n, "rule");
    if (rule == NULL)
        FAIL(ld, n, "normal_form needs a rule (the NF-n the check reports)");
    e->nf_rule = need_string(ld, rule, "rule");
    if (strncmp(e->nf_rule, "NF-", 3) != 0)
        FAIL(ld, rule, "normal_form rule '%s' is not a normal-form rule (NF-n)", e->nf_rule);
}

/* normalizes_to: the program as TVMScript text, or normalizes_to_ast: the ast: form, read now
 * while libyaml's document is alive; its errors are the case's, like those of ast:. */
static void load_normalizes_to(Loader *ld, const YamlNode *n, int case_index, Expect *e)
{
    const YamlNode *text = yaml_node_get(n, "normalizes_to");
    if (text != NULL) {
        e->normalized_text = need_string(ld, text, "normalizes_to");
        return;
    }
    const YamlNode *ast = yaml_node_get(n, "normalizes_to_ast");
    need_map(ld, ast, "normalizes_to_ast");
    if (case_index < 0)
        FAIL(ld, ast, "normalizes_to_ast is static: it has no place in runs");
    yaml_node_t *raw = raw_get(&ld->doc, raw_case(ld, case_index), "expect");
    yaml_node_t *node = raw_get(&ld->doc, raw, "normalizes_to_ast");
    ErrorTrap t;
    if (setjmp(t.jmp) == 0) {
        e->normalized_ast = astform_read(ld->path, &ld->doc, node, &t);
    } else {
        e->normalized_ast = NULL;
        e->normalized_ast_failed = true;
        e->normalized_ast_error = t.error;
    }
}

static int count_kinds(const YamlNode *n, ExpectKind *kind)
{
    int nkinds = 0;
    for (int k = 0; k < NKIND_KEYS; k++) {
        if (yaml_node_get(n, KIND_KEYS[k].key) != NULL) {
            *kind = KIND_KEYS[k].kind;
            nkinds++;
        }
    }
    return nkinds;
}

static void load_expect_body(Loader *ld, const YamlNode *n, int case_index, Expect *e)
{
    const YamlNode *body = yaml_node_get(n, case_expect_kind_name(e->kind));
    switch (e->kind) {
    case EXPECT_VALUE:
        case_value_validate(ld->path, body, ld->trap);
        e->value = (YamlNode *)body;
        break;
    case EXPECT_VALID:
        need_true(ld, body, "valid");
        break;
    case EXPECT_STRUCT_INFO:
        load_sinfo_expect(ld, body, e);
        break;
    case EXPECT_ERROR:
        load_error_expect(ld, body, e);
        break;
    case EXPECT_ROUNDTRIP:
        need_true(ld, body, "roundtrip");
        break;
    case EXPECT_NORMAL_FORM:
        load_normal_form_expect(ld, body, e);
        break;
    case EXPECT_NORMALIZES_TO:
        load_normalizes_to(ld, n, case_index, e);
        break;
    }
}

/* `case_index` is the case's place in the file (for normalizes_to_ast), or -1 inside runs. */
static void load_expect(Loader *ld, const YamlNode *n, int case_index, Expect *e)
{
    need_map(ld, n, "expect");
    check_keys(ld, n, EXPECT_KEYS, "expect");
    e->line = n->line;
    int nkinds = count_kinds(n, &e->kind);
    if (nkinds != 1)
        FAIL(ld, n,
             "expect needs exactly one of value, valid, struct_info, error, roundtrip, "
             "normal_form, normalizes_to, normalizes_to_ast (found %d)",
             nkinds);
    load_expect_body(ld, n, case_index, e);
    const YamlNode *out = yaml_node_get(n, "stdout");
    const YamlNode *warnings = yaml_node_get(n, "warnings");
    const YamlNode *printed = yaml_node_get(n, "printed");
    if (out != NULL)
        e->stdout_text = need_string(ld, out, "stdout");
    if (warnings != NULL) {
        e->has_warnings = true;
        add_string_list(ld, warnings, "warnings", &e->warnings, &e->nwarnings);
    }
    const YamlNode *errors = yaml_node_get(n, "errors");
    if (errors != NULL && (e->kind != EXPECT_ERROR || e->error_phase != PHASE_STRUCT_INFO))
        FAIL(ld, errors, "errors is only allowed with a struct_info error");
    if (errors != NULL) {
        e->has_errors = true;
        add_string_list(ld, errors, "errors", &e->errors, &e->nerrors);
        if (e->nerrors == 0)
            FAIL(ld, errors, "errors lists at least the expected error's code");
    }
    if (printed != NULL && e->kind != EXPECT_ROUNDTRIP)
        FAIL(ld, printed, "printed is only allowed with roundtrip");
    if (printed != NULL)
        e->printed = need_string(ld, printed, "printed");
}

/* A call is needed exactly when the expectation is about evaluation. */
static void check_run_fits(Loader *ld, const YamlNode *at, const CaseRun *r)
{
    const Expect *e = &r->expect;
    bool dynamic =
        e->kind == EXPECT_VALUE || (e->kind == EXPECT_ERROR && e->error_phase == PHASE_RUNTIME);
    if (dynamic && !r->has_call)
        FAIL(ld, at, "expect %s needs run: (or runs:)",
             e->kind == EXPECT_VALUE ? "value" : "a runtime error");
    if (!r->has_call && e->stdout_text != NULL)
        FAIL(ld, at, "expect stdout needs run: (or runs:)");
    bool about_form = e->kind == EXPECT_ROUNDTRIP || e->kind == EXPECT_NORMAL_FORM ||
                      e->kind == EXPECT_NORMALIZES_TO;
    bool static_only = e->kind == EXPECT_VALID || e->kind == EXPECT_STRUCT_INFO || about_form;
    if (static_only && r->has_call)
        FAIL(ld, at, "expect %s is static: drop run:", case_expect_kind_name(e->kind));
    if (about_form && (e->stdout_text != NULL || e->has_warnings))
        FAIL(ld, at, "%s takes no stdout or warnings", case_expect_kind_name(e->kind));
}

static const char *const RUN_KEYS[] = {"entry", "args", NULL};
static const char *const RUNS_ITEM_KEYS[] = {"entry", "args", "expect", NULL};

/* run: {entry?, args?} (and, inside runs:, expect). */
static void load_call(Loader *ld, const YamlNode *n, CaseRun *r, bool in_runs)
{
    need_map(ld, n, in_runs ? "an item of runs" : "run");
    check_keys(ld, n, in_runs ? RUNS_ITEM_KEYS : RUN_KEYS, in_runs ? "runs" : "run");
    r->has_call = true;
    r->line = n->line;
    const YamlNode *entry = yaml_node_get(n, "entry");
    r->entry = entry != NULL ? need_string(ld, entry, "entry") : "main";
    const YamlNode *args = yaml_node_get(n, "args");
    if (args == NULL)
        return;
    if (args->kind != YAML_NODE_SEQ)
        FAIL(ld, args, "args must be a list of values");
    for (int i = 0; i < args->nitems; i++)
        case_value_validate(ld->path, args->items[i], ld->trap);
    r->args = args->items;
    r->nargs = args->nitems;
}

static void load_runs(Loader *ld, const YamlNode *n, int case_index, Case *c)
{
    const YamlNode *runs = yaml_node_get(n, "runs");
    if (runs != NULL) {
        if (yaml_node_get(n, "run") != NULL || yaml_node_get(n, "expect") != NULL)
            FAIL(ld, runs, "runs replaces run and expect: give one or the other");
        if (runs->kind != YAML_NODE_SEQ || runs->nitems == 0)
            FAIL(ld, runs, "runs must be a non-empty list");
        c->runs = MEM_ARRAY(CaseRun, runs->nitems);
        c->nruns = runs->nitems;
        for (int i = 0; i < runs->nitems; i++) {
            const YamlNode *item = runs->items[i];
            load_call(ld, item, &c->runs[i], true);
            const YamlNode *expect = yaml_node_get(item, "expect");
            if (expect == NULL)
                FAIL(ld, item, "an item of runs needs expect");
            load_expect(ld, expect, -1, &c->runs[i].expect);
            check_run_fits(ld, item, &c->runs[i]);
        }
        return;
    }
    const YamlNode *expect = yaml_node_get(n, "expect");
    if (expect == NULL)
        FAIL(ld, n, "case '%s' has no expect", c->id);
    c->runs = MEM_NEW(CaseRun);
    c->nruns = 1;
    c->runs[0].entry = "main";
    c->runs[0].line = expect->line;
    const YamlNode *run = yaml_node_get(n, "run");
    if (run != NULL)
        load_call(ld, run, &c->runs[0], false);
    load_expect(ld, expect, case_index, &c->runs[0].expect);
    check_run_fits(ld, run != NULL ? run : expect, &c->runs[0]);
}

/* The raw libyaml node under `key` of a raw mapping (for the ast: reader). */
static yaml_node_t *raw_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    if (map == NULL || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k != NULL && k->type == YAML_SCALAR_NODE && strlen(key) == k->data.scalar.length &&
            memcmp(k->data.scalar.value, key, k->data.scalar.length) == 0)
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

/* libyaml's node of the case at `index`: the ast: reader reads libyaml's document, which only
 * a file holding ast: forms has read, once, when its first such case needs it. The text read
 * as nodes reads the same as a document, and the node of a case is found the way its
 * YamlNode was (the first cases: key). */
static yaml_node_t *raw_case(Loader *ld, int index)
{
    if (!ld->have_doc) {
        yaml_parser_t parser;
        yaml_parser_initialize(&parser);
        yaml_parser_set_input_string(&parser, (const unsigned char *)ld->text, strlen(ld->text));
        bool loaded = yaml_parser_load(&parser, &ld->doc);
        yaml_parser_delete(&parser);
        if (!loaded)
            fail_at(ld, 1, 1, "YamlSyntax", "cannot read YAML");
        ld->have_doc = true;
    }
    yaml_node_t *cases = raw_get(&ld->doc, yaml_document_get_root_node(&ld->doc), "cases");
    return yaml_document_get_node(&ld->doc, cases->data.sequence.items.start[index]);
}

/* The ast: form is read now, while libyaml's document is alive; its errors belong to the
 * case (they are parse errors a case may even expect), not to the file. */
static void load_ast(Loader *ld, int case_index, Case *c)
{
    yaml_node_t *raw = raw_get(&ld->doc, raw_case(ld, case_index), "ast");
    rule_record_clear(); /* the rules the reading applies are the case's (--rules-fired) */
    ErrorTrap t;
    if (setjmp(t.jmp) == 0) {
        c->ast = astform_read(ld->path, &ld->doc, raw, &t);
    } else {
        c->ast = NULL;
        c->ast_failed = true;
        c->ast_error = t.error;
    }
    c->read_fired = rule_recording ? rule_fired_text() : NULL;
}

static bool valid_id(const char *id)
{
    if (*id == '\0')
        return false;
    for (const char *p = id; *p; p++) {
        if (isspace((unsigned char)*p) || *p == '#')
            return false;
    }
    return true;
}

static const char *const CASE_KEYS[] = {"id",    "description", "spec", "tags",   "program",
                                        "ast",   "run",         "runs", "expect", "tolerance",
                                        "exact", "result",      NULL};

static void load_program(Loader *ld, const YamlNode *n, int case_index, Case *c)
{
    const YamlNode *program = yaml_node_get(n, "program");
    const YamlNode *ast = yaml_node_get(n, "ast");
    if ((program == NULL) == (ast == NULL))
        FAIL(ld, n, "case '%s' needs exactly one of program and ast", c->id);
    if (program != NULL) {
        c->program = need_string(ld, program, "program");
        return;
    }
    need_map(ld, ast, "ast");
    load_ast(ld, case_index, c);
}

static void load_tolerance(Loader *ld, const YamlNode *n, Case *c)
{
    static const char *const TOL_KEYS[] = {"rtol", "atol", NULL};
    const YamlNode *tol = yaml_node_get(n, "tolerance");
    const YamlNode *exact = yaml_node_get(n, "exact");
    c->rtol = CASE_DEFAULT_RTOL;
    c->atol = CASE_DEFAULT_ATOL;
    if (tol != NULL) {
        need_map(ld, tol, "tolerance");
        check_keys(ld, tol, TOL_KEYS, "tolerance");
        if (yaml_node_get(tol, "rtol") != NULL)
            c->rtol = need_tolerance(ld, yaml_node_get(tol, "rtol"), "rtol");
        if (yaml_node_get(tol, "atol") != NULL)
            c->atol = need_tolerance(ld, yaml_node_get(tol, "atol"), "atol");
    }
    if (exact != NULL && !yaml_node_bool(exact, &c->exact))
        FAIL(ld, exact, "exact must be true or false");
}

/* RESULT-1: result: defined (the default) | implementation-defined | undefined. */
static void load_result_kind(Loader *ld, const YamlNode *n, Case *c)
{
    const YamlNode *r = yaml_node_get(n, "result");
    c->result = RESULT_DEFINED;
    if (r == NULL)
        return;
    const char *k = need_string(ld, r, "result");
    if (strcmp(k, "implementation-defined") == 0)
        c->result = RESULT_IMPL_DEFINED;
    else if (strcmp(k, "undefined") == 0)
        c->result = RESULT_UNDEFINED;
    else if (strcmp(k, "defined") != 0)
        FAIL(ld, r, "result must be defined, implementation-defined or undefined");
    if (c->result == RESULT_UNDEFINED) {
        for (int i = 0; i < c->nruns; i++)
            if (!c->runs[i].has_call)
                FAIL(ld, r, "result: undefined needs run: (it is about evaluation)");
    }
}

/* The float dtypes an expected value holds, as the loosest of the TOL-1 defaults. */
static int loosest_float(const YamlNode *v, int worst)
{
    if (v == NULL)
        return worst;
    if (v->kind == YAML_NODE_MAP && (yaml_node_get(v, "tensor") || yaml_node_get(v, "prim"))) {
        const YamlNode *b = v->items[0];
        const YamlNode *d = b->kind == YAML_NODE_MAP ? yaml_node_get(b, "dtype") : NULL;
        DataType t;
        if (d != NULL && d->kind == YAML_NODE_SCALAR && dtype_parse(d->scalar, &t) &&
            dtype_is_float(t)) {
            int rank = t.code == DT_BFLOAT ? 3 : t.bits == 16 ? 2 : t.bits == 64 ? 0 : 1;
            return rank > worst ? rank : worst;
        }
        return worst;
    }
    for (int i = 0; i < (v->kind == YAML_NODE_SCALAR ? 0 : v->nitems); i++)
        worst = loosest_float(v->items[i], worst);
    return worst;
}

/* TOL-1: without tolerance:, the defaults follow the expected value's float dtype (the loosest
 * where several appear): float64 1e-12/1e-15, float32 1e-5/1e-6, float16 1e-3/1e-5,
 * bfloat16 1e-2/1e-5 (rtol/atol). */
static void default_tolerance(Case *c)
{
    static const double RTOL[] = {1e-12, CASE_DEFAULT_RTOL, 1e-3, 1e-2};
    static const double ATOL[] = {1e-15, CASE_DEFAULT_ATOL, 1e-5, 1e-5};
    int worst = -1;
    for (int i = 0; i < c->nruns; i++)
        if (c->runs[i].expect.kind == EXPECT_VALUE)
            worst = loosest_float(c->runs[i].expect.value, worst);
    if (worst < 0)
        return;
    c->rtol = RTOL[worst];
    c->atol = ATOL[worst];
}

static Case *load_case(Loader *ld, const YamlNode *n, int index)
{
    need_map(ld, n, "a case");
    check_keys(ld, n, CASE_KEYS, "a case");
    Case *c = MEM_NEW(Case);
    c->file = ld->path;
    c->line = n->line;
    const YamlNode *id = yaml_node_get(n, "id");
    if (id == NULL)
        FAIL(ld, n, "case without id");
    c->id = need_string(ld, id, "id");
    if (!valid_id(c->id))
        FAIL(ld, id, "id '%s' must be non-empty without spaces or '#'", c->id);
    c->global_id = mem_printf("%s#%s", ld->path, c->id);
    const YamlNode *desc = yaml_node_get(n, "description");
    if (desc == NULL)
        FAIL(ld, n, "case '%s' has no description", c->id);
    c->description = need_string(ld, desc, "description");
    int spec_cap = 0;
    for (int i = 0; i < ld->cf->nspec; i++)
        VEC_PUSH(c->spec, c->nspec, spec_cap, ld->cf->spec[i]);
    if (yaml_node_get(n, "spec") != NULL)
        add_string_list(ld, yaml_node_get(n, "spec"), "spec", &c->spec, &c->nspec);
    if (c->nspec == 0)
        FAIL(ld, n, "case '%s' names no rule id (spec:)", c->id);
    int tag_cap = 0;
    for (int i = 0; i < ld->cf->ntags; i++)
        VEC_PUSH(c->tags, c->ntags, tag_cap, ld->cf->tags[i]);
    if (yaml_node_get(n, "tags") != NULL)
        add_string_list(ld, yaml_node_get(n, "tags"), "tags", &c->tags, &c->ntags);
    load_program(ld, n, index, c);
    load_tolerance(ld, n, c);
    load_runs(ld, n, index, c);
    load_result_kind(ld, n, c);
    if (yaml_node_get(n, "tolerance") == NULL)
        default_tolerance(c);
    return c;
}

static const char *const FILE_KEYS[] = {"format", "spec", "tags", "cases", NULL};

/* FNV-1a of a case id, for the table of ids seen so far. */
static uint32_t id_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The earlier case with c's id, or NULL after recording c: an open-addressing table of cap
 * slots (a power of two above twice the cases), so 20,000 cases take linear time. */
static const Case *seen_id(const Case **table, uint32_t cap, const Case *c)
{
    for (uint32_t k = id_hash(c->id) & (cap - 1);; k = (k + 1) & (cap - 1)) {
        if (table[k] == NULL) {
            table[k] = c;
            return NULL;
        }
        if (strcmp(table[k]->id, c->id) == 0)
            return table[k];
    }
}

static void load_cases(Loader *ld, const YamlNode *cases)
{
    if (cases->kind != YAML_NODE_SEQ || cases->nitems == 0)
        FAIL(ld, cases, "cases must be a non-empty list");
    CaseFile *cf = ld->cf;
    int cap = 0;
    uint32_t slots = 16;
    while (slots < 2 * (uint32_t)cases->nitems)
        slots *= 2;
    const Case **ids = MEM_ARRAY(const Case *, slots);
    for (int i = 0; i < cases->nitems; i++) {
        Case *c = load_case(ld, cases->items[i], i);
        const YamlNode *id = yaml_node_get(cases->items[i], "id");
        const Case *before = seen_id(ids, slots, c);
        if (before != NULL)
            fail_at(ld, id->line, id->col, "DuplicateCaseId",
                    "case id '%s' already used at line %d", c->id, before->line);
        VEC_PUSH(cf->cases, cf->ncases, cap, c);
    }
}

static void load_root(Loader *ld, const YamlNode *root)
{
    if (root->kind != YAML_NODE_MAP)
        FAIL(ld, root, "a case file is a mapping with format and cases");
    check_keys(ld, root, FILE_KEYS, "the file");
    const YamlNode *format = yaml_node_get(root, "format");
    if (format == NULL)
        FAIL(ld, root, "missing format: 1");
    long long version;
    if (!yaml_node_int(format, &version) || version != 1)
        fail_at(ld, format->line, format->col, "CaseVersion",
                "unsupported format '%s' (this runner reads format 1)",
                format->kind == YAML_NODE_SCALAR ? format->scalar : "?");
    if (yaml_node_get(root, "spec") != NULL)
        add_string_list(ld, yaml_node_get(root, "spec"), "spec", &ld->cf->spec, &ld->cf->nspec);
    if (yaml_node_get(root, "tags") != NULL)
        add_string_list(ld, yaml_node_get(root, "tags"), "tags", &ld->cf->tags, &ld->cf->ntags);
    const YamlNode *cases = yaml_node_get(root, "cases");
    if (cases == NULL)
        FAIL(ld, root, "missing cases:");
    load_cases(ld, cases);
}

CaseFile *case_file_parse(const char *path, const char *text, ErrorTrap *trap)
{
    YamlLoadError err;
    const YamlNode *root = yaml_node_load(text, strlen(text), &err);
    if (root == NULL && err.message != NULL && err.syntax)
        error_raise(trap, PHASE_CASE, "YamlSyntax", NULL, span_make(path, err.line, err.col), "%s",
                    err.message);
    CaseFile *cf = MEM_NEW(CaseFile);
    cf->path = mem_strdup(path);
    /* In GC memory, not a local: the trap's longjmp leaves a local's fields indeterminate. */
    Loader *const ld = MEM_NEW(Loader);
    ld->path = cf->path;
    ld->text = text;
    ld->cf = cf;
    ErrorTrap inner;
    ld->trap = &inner;
    if (setjmp(inner.jmp) == 0) {
        if (root == NULL && err.message != NULL) /* SPEC_NOTES "Resource limits" */
            fail_at(ld, err.line, err.col, "CaseLimit", "%s", err.message);
        if (root == NULL)
            fail_at(ld, 1, 1, "CaseSchema", "empty file: a case file needs format and cases");
        load_root(ld, root);
    } else {
        if (ld->have_doc)
            yaml_document_delete(&ld->doc);
        Error e = inner.error;
        error_raise(trap, e.phase, e.code, e.rule, e.span, "%s", e.message);
    }
    if (ld->have_doc)
        yaml_document_delete(&ld->doc);
    return cf;
}

CaseFile *case_file_load(const char *path, ErrorTrap *trap)
{
    return case_file_parse(path, source_read_file(path, trap), trap);
}

Case *case_file_find(const CaseFile *cf, const char *id)
{
    for (int i = 0; i < cf->ncases; i++) {
        if (strcmp(cf->cases[i]->id, id) == 0)
            return cf->cases[i];
    }
    return NULL;
}

bool case_has_tag(const Case *c, const char *tag)
{
    for (int i = 0; i < c->ntags; i++) {
        if (strcmp(c->tags[i], tag) == 0)
            return true;
    }
    return false;
}

const char *case_expect_kind_name(ExpectKind kind)
{
    switch (kind) {
    case EXPECT_VALUE:
        return "value";
    case EXPECT_VALID:
        return "valid";
    case EXPECT_STRUCT_INFO:
        return "struct_info";
    case EXPECT_ERROR:
        return "error";
    case EXPECT_ROUNDTRIP:
        return "roundtrip";
    case EXPECT_NORMAL_FORM:
        return "normal_form";
    case EXPECT_NORMALIZES_TO:
        return "normalizes_to";
    }
    return "?";
}
