/* ext_protocol: the requests and responses of the external adapter protocol (version 1), as
 * YAML documents: writing and reading both, for the runner's side and an implementation's.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include "tools/conform/ext_protocol.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "ast/mem.h"
#include "tools/conform/case_value.h"

static const char *const REQUEST_NAMES[EXT_REQUEST_COUNT] = {
    "load", "wellformed", "struct_info", "run", "print", "roundtrip", "normal_form", "normalize",
};

const char *ext_protocol_request_name(ExtRequestKind kind)
{
    return REQUEST_NAMES[kind];
}

Phase ext_protocol_request_phase(ExtRequestKind kind)
{
    switch (kind) {
    case EXT_REQUEST_LOAD:
    case EXT_REQUEST_PRINT:
    case EXT_REQUEST_ROUNDTRIP:
        return PHASE_PARSE;
    case EXT_REQUEST_WELLFORMED:
    case EXT_REQUEST_NORMAL_FORM:
    case EXT_REQUEST_NORMALIZE:
        return PHASE_WELLFORMED;
    case EXT_REQUEST_STRUCT_INFO:
        return PHASE_STRUCT_INFO;
    case EXT_REQUEST_RUN:
        return PHASE_RUNTIME;
    }
    return PHASE_PARSE;
}

/* ---- writing ---- */

char *ext_protocol_quote(const char *s)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addc(&sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            strbuf_addf(&sb, "\\%c", *p);
        else if (*p == '\n')
            strbuf_add(&sb, "\\n");
        else if (*p == '\t')
            strbuf_add(&sb, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            strbuf_addf(&sb, "\\x%02x", *p);
        else
            strbuf_addc(&sb, (char)*p);
    }
    strbuf_addc(&sb, '"');
    return strbuf_str(&sb);
}

/* Text a literal block scalar keeps exactly: no control characters but newline and tab, no
 * line ending in blanks (block scalars keep them, but editors and eyes do not). */
static bool fits_literal(const char *s)
{
    if (s[strspn(s, "\n")] == '\0')
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
            return false;
        if ((*p == ' ' || *p == '\t') && (p[1] == '\n' || p[1] == '\0'))
            return false;
    }
    return true;
}

/* `key: text` at the top level: a literal block (readable) when the text allows, else a
 * double-quoted scalar. */
static void write_text(StrBuf *sb, const char *key, const char *text)
{
    if (!fits_literal(text)) {
        strbuf_addf(sb, "%s: %s\n", key, ext_protocol_quote(text));
        return;
    }
    size_t n = strlen(text), trailing = 0;
    while (trailing < n && text[n - 1 - trailing] == '\n')
        trailing++;
    const char *chomp = trailing == 0 ? "-" : trailing == 1 ? "" : "+";
    strbuf_addf(sb, "%s: |2%s\n", key, chomp);
    bool line_start = true;
    for (const char *p = text; *p; p++) {
        if (line_start && *p != '\n')
            strbuf_add(sb, "  ");
        strbuf_addc(sb, *p);
        line_start = *p == '\n';
    }
    if (trailing == 0)
        strbuf_addc(sb, '\n');
}

/* A plain scalar that reads back as the same plain scalar in flow context. */
static bool safe_plain(const char *s)
{
    if (*s == '\0' || (s[0] == '-' && s[1] == '\0'))
        return false;
    for (const char *p = s; *p; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || strchr("_.+-", *p) != NULL;
        if (!ok)
            return false;
    }
    return true;
}

static void write_node(StrBuf *sb, const YamlNode *n)
{
    switch (n->kind) {
    case YAML_NODE_SCALAR:
        strbuf_add(sb,
                   n->plain && safe_plain(n->scalar) ? n->scalar : ext_protocol_quote(n->scalar));
        return;
    case YAML_NODE_SEQ:
        strbuf_addc(sb, '[');
        for (int i = 0; i < n->nitems; i++) {
            strbuf_add(sb, i ? ", " : "");
            write_node(sb, n->items[i]);
        }
        strbuf_addc(sb, ']');
        return;
    case YAML_NODE_MAP:
        strbuf_addc(sb, '{');
        for (int i = 0; i < n->nitems; i++) {
            strbuf_add(sb, i ? ", " : "");
            strbuf_add(sb, safe_plain(n->keys[i]) ? n->keys[i] : ext_protocol_quote(n->keys[i]));
            strbuf_add(sb, ": ");
            write_node(sb, n->items[i]);
        }
        strbuf_addc(sb, '}');
        return;
    }
}

static void write_strings(StrBuf *sb, const char *key, const char *const *items, int n)
{
    strbuf_addf(sb, "%s: [", key);
    for (int i = 0; i < n; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", ext_protocol_quote(items[i]));
    strbuf_add(sb, "]\n");
}

char *ext_protocol_write_request(const ExtRequest *req)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "protocol: %d\nrequest: %s\n", req->protocol ? req->protocol : 1,
                ext_protocol_request_name(req->kind));
    if (req->name != NULL)
        strbuf_addf(&sb, "name: %s\n", ext_protocol_quote(req->name));
    if (req->program != NULL)
        write_text(&sb, "program", req->program);
    if (req->ast != NULL)
        write_text(&sb, "ast", req->ast);
    if (req->kind == EXT_REQUEST_RUN) {
        strbuf_addf(&sb, "entry: %s\nargs:%s\n",
                    ext_protocol_quote(req->entry ? req->entry : "main"),
                    req->nargs == 0 ? " []" : "");
        for (int i = 0; i < req->nargs; i++) {
            strbuf_add(&sb, "  - ");
            write_node(&sb, req->args[i]);
            strbuf_addc(&sb, '\n');
        }
    }
    if (req->kind == EXT_REQUEST_STRUCT_INFO)
        write_strings(&sb, "bindings", req->bindings, req->nbindings);
    return strbuf_str(&sb);
}

static void write_error(StrBuf *sb, const Error *e)
{
    strbuf_addf(sb, "ok: false\nphase: %s\n", error_phase_name(e->phase));
    if (e->code != NULL)
        strbuf_addf(sb, "code: %s\n", ext_protocol_quote(e->code));
    if (e->rule != NULL)
        strbuf_addf(sb, "rule: %s\n", ext_protocol_quote(e->rule));
    if (e->span.line > 0)
        strbuf_addf(sb, "line: %d\ncol: %d\n", e->span.line, e->span.col);
    strbuf_addf(sb, "message: %s\n", ext_protocol_quote(e->message ? e->message : ""));
}

char *ext_protocol_write_response(const ExtResponse *res)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "protocol: %d\n", res->protocol ? res->protocol : EXT_PROTOCOL_VERSION);
    if (res->kind == EXT_RESPONSE_UNSUPPORTED) {
        strbuf_add(&sb, "unsupported: true\n");
        return strbuf_str(&sb);
    }
    if (res->kind == EXT_RESPONSE_ERROR)
        write_error(&sb, &res->error);
    else
        strbuf_add(&sb, "ok: true\n");
    if (res->value != NULL) {
        strbuf_add(&sb, "value: ");
        write_node(&sb, res->value);
        strbuf_addc(&sb, '\n');
    }
    if (res->stdout_text != NULL)
        write_text(&sb, "stdout", res->stdout_text);
    if (res->nwarnings > 0)
        write_strings(&sb, "warnings", res->warnings, res->nwarnings);
    if (res->nerrors > 0)
        write_strings(&sb, "errors", res->errors, res->nerrors);
    if (res->nsinfo > 0)
        strbuf_add(&sb, "struct_info:\n");
    for (int i = 0; i < res->nsinfo; i++)
        strbuf_addf(&sb, "  %s: %s\n", ext_protocol_quote(res->sinfo_names[i]),
                    ext_protocol_quote(res->sinfo_texts[i]));
    if (res->printed != NULL)
        write_text(&sb, "printed", res->printed);
    if (res->normalized != NULL)
        write_text(&sb, "normalized", res->normalized);
    return strbuf_str(&sb);
}

/* ---- reading ---- */

/* The one YAML document of `text` as a tree; NULL with *why when it is not YAML, is empty or
 * holds more than one document. */
static YamlNode *read_document(const char *text, const char **why)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    YamlNode *root = NULL;
    if (!yaml_parser_load(&parser, &doc)) {
        *why = mem_printf("not YAML: line %d: %s", (int)parser.problem_mark.line + 1,
                          parser.problem ? parser.problem : "cannot read");
        yaml_parser_delete(&parser);
        return NULL;
    }
    yaml_node_t *top = yaml_document_get_root_node(&doc);
    if (top != NULL) {
        root = yaml_node_copy_checked(&doc, top, why, NULL);
        if (root == NULL) {
            yaml_document_delete(&doc);
            yaml_parser_delete(&parser);
            return NULL;
        }
    }
    yaml_document_delete(&doc);
    if (root != NULL && !yaml_parser_load(&parser, &doc)) {
        *why = "not YAML after the first document";
        root = NULL;
    } else if (root != NULL) {
        if (yaml_document_get_root_node(&doc) != NULL) {
            *why = "more than one YAML document";
            root = NULL;
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (root == NULL && *why == NULL)
        *why = "empty: no YAML document";
    return root;
}

static bool is_null(const YamlNode *n)
{
    return n->kind == YAML_NODE_SCALAR && n->plain &&
           (strcmp(n->scalar, "null") == 0 || strcmp(n->scalar, "~") == 0 || n->scalar[0] == '\0');
}

/* The text under `key`: NULL when absent or null; false when it is not a scalar. */
static bool get_text(const YamlNode *map, const char *key, const char **out, const char **why)
{
    const YamlNode *n = yaml_node_get(map, key);
    *out = NULL;
    if (n == NULL || is_null(n))
        return true;
    if (n->kind != YAML_NODE_SCALAR) {
        *why = mem_printf("'%s' must be a string", key);
        return false;
    }
    *out = n->scalar;
    return true;
}

/* A list of strings under `key` (absent: empty). */
static bool get_strings(const YamlNode *map, const char *key, const char ***out, int *n,
                        const char **why)
{
    const YamlNode *node = yaml_node_get(map, key);
    *out = NULL;
    *n = 0;
    if (node == NULL || is_null(node))
        return true;
    if (node->kind != YAML_NODE_SEQ) {
        *why = mem_printf("'%s' must be a list of strings", key);
        return false;
    }
    *out = MEM_ARRAY(const char *, node->nitems + 1);
    for (int i = 0; i < node->nitems; i++) {
        if (node->items[i]->kind != YAML_NODE_SCALAR) {
            *why = mem_printf("'%s' item %d is not a string", key, i + 1);
            return false;
        }
        (*out)[i] = node->items[i]->scalar;
    }
    *n = node->nitems;
    return true;
}

static bool known_version(long long v)
{
    return v == EXT_PROTOCOL_VERSION || v == EXT_PROTOCOL_PERSISTENT;
}

/* The message's `protocol` (absent: `expected`) must be `expected`, or any known version when
 * `expected` is 0; *got gets it. */
static bool check_version(const YamlNode *root, int expected, int *got, const char **why)
{
    const YamlNode *v = yaml_node_get(root, "protocol");
    long long version = expected ? expected : EXT_PROTOCOL_VERSION;
    if (v != NULL && !yaml_node_int(v, &version))
        version = -1;
    if (expected != 0 && version != expected) {
        *why = mem_printf("protocol %s is not protocol %d", yaml_node_str(v), expected);
        return false;
    }
    if (!known_version(version)) {
        *why = mem_printf("unknown protocol %s", yaml_node_str(v));
        return false;
    }
    *got = (int)version;
    return true;
}

static bool parse_request_kind(const char *name, ExtRequestKind *out)
{
    for (int i = 0; i < EXT_REQUEST_COUNT; i++) {
        if (strcmp(name, REQUEST_NAMES[i]) == 0) {
            *out = (ExtRequestKind)i;
            return true;
        }
    }
    return false;
}

static bool read_request_body(const YamlNode *root, ExtRequest *req, const char **why)
{
    const char *kind = NULL;
    if (!get_text(root, "request", &kind, why))
        return false;
    if (kind == NULL || !parse_request_kind(kind, &req->kind)) {
        *why = mem_printf("unknown request '%s'", kind ? kind : "(none)");
        return false;
    }
    if (!get_text(root, "name", &req->name, why) ||
        !get_text(root, "program", &req->program, why) || !get_text(root, "ast", &req->ast, why) ||
        !get_text(root, "entry", &req->entry, why))
        return false;
    if ((req->program == NULL) == (req->ast == NULL)) {
        *why = "a request carries exactly one of 'program' and 'ast'";
        return false;
    }
    const char **bindings;
    if (!get_strings(root, "bindings", &bindings, &req->nbindings, why))
        return false;
    req->bindings = bindings;
    const YamlNode *args = yaml_node_get(root, "args");
    if (args != NULL && args->kind != YAML_NODE_SEQ && !is_null(args)) {
        *why = "'args' must be a list of values";
        return false;
    }
    if (args != NULL && args->kind == YAML_NODE_SEQ) {
        req->args = args->items;
        req->nargs = args->nitems;
    }
    return true;
}

bool ext_protocol_read_request(const char *text, ExtRequest *req, const char **why)
{
    memset(req, 0, sizeof *req);
    *why = NULL;
    const YamlNode *root = read_document(text, why);
    if (root == NULL)
        return false;
    if (root->kind != YAML_NODE_MAP) {
        *why = "a request is a YAML mapping";
        return false;
    }
    return check_version(root, 0, &req->protocol, why) && read_request_body(root, req, why);
}

static const char *value_problem(const YamlNode *value)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return mem_printf("'value' is not a CASE_FORMAT value: line %d: %s", trap.error.span.line,
                          trap.error.message);
    case_value_validate("response", value, &trap);
    return NULL;
}

static bool read_sinfo_map(const YamlNode *root, ExtResponse *res, const char **why)
{
    const YamlNode *m = yaml_node_get(root, "struct_info");
    if (m == NULL || is_null(m))
        return true;
    if (m->kind != YAML_NODE_MAP) {
        *why = "'struct_info' must map binding names to StructInfo text";
        return false;
    }
    res->sinfo_names = MEM_ARRAY(const char *, m->nitems + 1);
    res->sinfo_texts = MEM_ARRAY(const char *, m->nitems + 1);
    for (int i = 0; i < m->nitems; i++) {
        if (m->items[i]->kind != YAML_NODE_SCALAR) {
            *why = mem_printf("'struct_info' of '%s' is not a string", m->keys[i]);
            return false;
        }
        res->sinfo_names[i] = m->keys[i];
        res->sinfo_texts[i] = m->items[i]->scalar;
    }
    res->nsinfo = m->nitems;
    return true;
}

/* What every response may carry besides its verdict: stdout, warnings, every error's code,
 * StructInfo. */
static bool read_extras(const YamlNode *root, ExtResponse *res, const char **why)
{
    return get_text(root, "stdout", &res->stdout_text, why) &&
           get_strings(root, "warnings", &res->warnings, &res->nwarnings, why) &&
           get_strings(root, "errors", &res->errors, &res->nerrors, why) &&
           read_sinfo_map(root, res, why) && get_text(root, "printed", &res->printed, why) &&
           get_text(root, "normalized", &res->normalized, why);
}

static bool read_ok(const YamlNode *root, ExtRequestKind kind, ExtResponse *res, const char **why)
{
    res->kind = EXT_RESPONSE_OK;
    res->value = yaml_node_get(root, "value");
    if (kind == EXT_REQUEST_RUN && res->value == NULL) {
        *why = "a successful run response needs 'value'";
        return false;
    }
    if (kind == EXT_REQUEST_RUN && (*why = value_problem(res->value)) != NULL)
        return false;
    if ((kind == EXT_REQUEST_PRINT || kind == EXT_REQUEST_ROUNDTRIP) && res->printed == NULL) {
        *why =
            mem_printf("a successful %s response needs 'printed'", ext_protocol_request_name(kind));
        return false;
    }
    if (kind == EXT_REQUEST_NORMALIZE && res->normalized == NULL) {
        *why = "a successful normalize response needs 'normalized'";
        return false;
    }
    return true;
}

static bool read_position(const YamlNode *root, const char *key, int *out, const char **why)
{
    const YamlNode *n = yaml_node_get(root, key);
    long long v = 0;
    if (n != NULL && !is_null(n) && (!yaml_node_int(n, &v) || v < 0 || v > 1000000000)) {
        *why = mem_printf("'%s' must be a line or column number", key);
        return false;
    }
    *out = (int)v;
    return true;
}

static bool read_error(const YamlNode *root, ExtRequestKind kind, ExtResponse *res,
                       const char **why)
{
    res->kind = EXT_RESPONSE_ERROR;
    Error *e = &res->error;
    e->phase = ext_protocol_request_phase(kind);
    const char *phase = NULL, *message = NULL;
    if (!get_text(root, "phase", &phase, why) || !get_text(root, "code", &e->code, why) ||
        !get_text(root, "rule", &e->rule, why) || !get_text(root, "message", &message, why))
        return false;
    if (phase != NULL && (error_phase_parse(phase, &e->phase) != 0 || e->phase > PHASE_RUNTIME)) {
        *why = mem_printf("unknown phase '%s'", phase);
        return false;
    }
    e->message = message ? message : "(no message)";
    return read_position(root, "line", &e->span.line, why) &&
           read_position(root, "col", &e->span.col, why);
}

bool ext_protocol_read_response(const char *text, ExtRequestKind kind, ExtResponse *res,
                                const char **why)
{
    return ext_protocol_read_response_as(text, kind, EXT_PROTOCOL_VERSION, res, why);
}

bool ext_protocol_read_response_as(const char *text, ExtRequestKind kind, int version,
                                   ExtResponse *res, const char **why)
{
    memset(res, 0, sizeof *res);
    *why = NULL;
    const YamlNode *root = read_document(text, why);
    if (root == NULL)
        return false;
    if (root->kind != YAML_NODE_MAP) {
        *why = mem_printf("a response is a YAML mapping, got %s", yaml_node_str(root));
        return false;
    }
    if (!check_version(root, version, &res->protocol, why))
        return false;
    const YamlNode *unsupported = yaml_node_get(root, "unsupported");
    bool flag = false;
    if (unsupported != NULL && yaml_node_bool(unsupported, &flag) && flag) {
        res->kind = EXT_RESPONSE_UNSUPPORTED;
        return true;
    }
    const YamlNode *okn = yaml_node_get(root, "ok");
    bool ok = false;
    if (okn == NULL || !yaml_node_bool(okn, &ok)) {
        *why = "no 'ok: true', 'ok: false' or 'unsupported: true'";
        return false;
    }
    if (!read_extras(root, res, why))
        return false;
    return ok ? read_ok(root, kind, res, why) : read_error(root, kind, res, why);
}

/* ---- the protocol 2 handshake ---- */

char *ext_protocol_write_hello(void)
{
    return mem_printf("protocol: %d\nrequest: hello\n", EXT_PROTOCOL_PERSISTENT);
}

bool ext_protocol_is_hello(const char *text)
{
    const char *why = NULL;
    const YamlNode *root = read_document(text, &why);
    const YamlNode *kind =
        root && root->kind == YAML_NODE_MAP ? yaml_node_get(root, "request") : NULL;
    return kind != NULL && kind->kind == YAML_NODE_SCALAR && strcmp(kind->scalar, "hello") == 0;
}

static bool read_implementation(const YamlNode *root, ExtHello *hello, const char **why)
{
    const YamlNode *impl = yaml_node_get(root, "implementation");
    if (impl == NULL || impl->kind != YAML_NODE_MAP) {
        *why = "the hello answer needs 'implementation: {name: .., version: ..}'";
        return false;
    }
    if (!get_text(impl, "name", &hello->name, why) ||
        !get_text(impl, "version", &hello->version, why))
        return false;
    if (hello->name == NULL) {
        *why = "the hello answer needs the implementation's 'name'";
        return false;
    }
    if (hello->version == NULL)
        hello->version = "unknown";
    return true;
}

/* `reports`: which of phase, code, rule (of its errors) and canonical-print (its `printed`
 * is the spec's canonical text) the implementation gives in the spec's terms; absent, all of
 * them. Other names are for later runners: ignored. */
static bool read_reports(const YamlNode *root, ExtHello *hello, const char **why)
{
    hello->reports_code = hello->reports_rule = hello->reports_canonical_print = true;
    if (yaml_node_get(root, "reports") == NULL)
        return true;
    const char **names = NULL;
    int n = 0;
    if (!get_strings(root, "reports", &names, &n, why))
        return false;
    hello->reports_code = hello->reports_rule = hello->reports_canonical_print = false;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "code") == 0)
            hello->reports_code = true;
        else if (strcmp(names[i], "rule") == 0)
            hello->reports_rule = true;
        else if (strcmp(names[i], "canonical-print") == 0)
            hello->reports_canonical_print = true;
    }
    return true;
}

/* `syntax`: the surface syntaxes read (`current`, `legacy`); absent, both. */
static bool read_syntax(const YamlNode *root, ExtHello *hello, const char **why)
{
    hello->reads_legacy = true;
    if (yaml_node_get(root, "syntax") == NULL)
        return true;
    const char **names = NULL;
    int n = 0;
    if (!get_strings(root, "syntax", &names, &n, why))
        return false;
    hello->reads_legacy = false;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "legacy") == 0)
            hello->reads_legacy = true;
    }
    return true;
}

bool ext_protocol_read_hello(const char *text, ExtHello *hello, const char **why)
{
    memset(hello, 0, sizeof *hello);
    *why = NULL;
    const YamlNode *root = read_document(text, why);
    if (root == NULL)
        return false;
    int version = 0;
    bool ok = false;
    const YamlNode *okn = root->kind == YAML_NODE_MAP ? yaml_node_get(root, "ok") : NULL;
    if (okn == NULL || !yaml_node_bool(okn, &ok) || !ok) {
        *why = "the hello answer is a mapping with 'ok: true'";
        return false;
    }
    const char **names = NULL;
    int n = 0;
    if (!check_version(root, EXT_PROTOCOL_PERSISTENT, &version, why) ||
        !read_implementation(root, hello, why) || !get_strings(root, "requests", &names, &n, why))
        return false;
    /* Names of later request kinds are for later runners: ignored. */
    for (int i = 0; i < n; i++) {
        ExtRequestKind kind;
        if (parse_request_kind(names[i], &kind))
            hello->supports[kind] = true;
    }
    return read_reports(root, hello, why) && read_syntax(root, hello, why);
}
