/* adapter_ext: any implementation judged through a subprocess: every phase request is one run
 * of a shell command, speaking the protocol of ext_protocol.h over its stdin and stdout.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include "tools/conform/adapter_ext.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/legacy/legacy.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "ast/text/py_parser.h"
#include "tools/cli/cli.h"
#include "tools/conform/ext_process.h"
#include "tools/conform/ext_protocol.h"
#include "tools/conform/ext_session.h"

/* Marks an Adapter as this one (its name pointer), whatever slots are switched off. */
static const char EXT_NAME[] = "external";

typedef struct Ext {
    Adapter *ad; /* to switch off a slot the implementation answers `unsupported` */
    const char *command;
    double timeout;
    int protocol;
    ExtSession *session; /* protocol 2 */
    const char *dump_dir;
    int dumped;          /* requests of the current case written to dump_dir */
    bool no_ast;         /* a load of an ast: program was answered `unsupported` */
    bool no_legacy;      /* its hello says it reads today's syntax only */
    bool switched_off;   /* a slot was switched off while judging the current case */
    const char *failure; /* the first broken exchange of the current case, or NULL */
} Ext;

/* The implementation keeps nothing between requests: a program is its text, sent again with
 * every request. */
struct AdapterProgram {
    const char *name;
    const char *text;
    const char *ast;
};

/* An Error that matches no expectation (the runner's verdict is replaced by the failure). */
static void broken(Ext *x, const char *reason, ExtResponse *res)
{
    if (x->failure == NULL)
        x->failure = reason;
    memset(res, 0, sizeof *res);
    res->kind = EXT_RESPONSE_ERROR;
    res->error.phase = PHASE_IO;
    res->error.code = "IoError";
    res->error.message = reason;
}

static void switch_off(Ext *x, const ExtRequest *req)
{
    x->switched_off = true;
    switch (req->kind) {
    case EXT_REQUEST_LOAD:
        if (req->ast != NULL)
            x->no_ast = true;
        else
            x->ad->load = NULL;
        return;
    case EXT_REQUEST_WELLFORMED:
        x->ad->check_wellformed = NULL;
        return;
    case EXT_REQUEST_STRUCT_INFO:
        x->ad->check_struct_info = NULL;
        return;
    case EXT_REQUEST_RUN:
        x->ad->run = NULL;
        return;
    case EXT_REQUEST_PRINT:
        x->ad->print = NULL;
        return;
    case EXT_REQUEST_ROUNDTRIP:
        x->ad->roundtrip = NULL;
        return;
    case EXT_REQUEST_NORMAL_FORM:
        x->ad->check_normal_form = NULL;
        return;
    case EXT_REQUEST_NORMALIZE:
        x->ad->normalize = NULL;
        return;
    }
}

/* Why a finished process gave no usable answer, or NULL when it exited 0. */
static const char *process_problem(const Ext *x, const ExtProcessResult *pr, const char *what)
{
    const char *last = ext_process_reason_line(pr->err);
    const char *tail = *last ? mem_printf(": %s", last) : " (nothing on stderr)";
    switch (pr->end) {
    case EXT_END_EXITED:
        if (pr->status == 0)
            return NULL;
        /* A shell reports its command's death by signal N as status 128 + N. */
        if (pr->status > 128 && pr->status < 128 + 32)
            return mem_printf("adapter died of signal %d on the %s request%s", pr->status - 128,
                              what, tail);
        return mem_printf("adapter exited with status %d on the %s request%s", pr->status, what,
                          tail);
    case EXT_END_SIGNALED:
        return mem_printf("adapter killed by signal %d on the %s request%s", pr->status, what,
                          tail);
    case EXT_END_TIMEOUT:
        return mem_printf("timeout: no answer to the %s request within %g s (adapter killed)", what,
                          x->timeout);
    case EXT_END_SPAWN:
        return mem_printf("cannot start the adapter '%s'", x->command);
    case EXT_END_TOO_LONG:
        return mem_printf("adapter wrote more than %u MiB on the %s request (killed)",
                          EXT_PROCESS_MAX_OUTPUT >> 20, what);
    case EXT_END_PROTOCOL:
        return pr->err;
    }
    return "adapter failed";
}

/* --dump-requests: `<path>#<id>` as a file name, numbered within its case. */
static void dump_request(Ext *x, const ExtRequest *req, const char *text)
{
    StrBuf name;
    strbuf_init(&name);
    for (const char *p = req->name ? req->name : "request"; *p; p++)
        strbuf_addc(&name, (*p == '/' || *p == '#' || *p == ' ') ? '_' : *p);
    const char *path = mem_printf("%s/%s.%d.%s.yaml", x->dump_dir, strbuf_str(&name), ++x->dumped,
                                  ext_protocol_request_name(req->kind));
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "%s: io error [IoError]: cannot write the request\n", path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

/* One request and its response. A broken exchange and an `unsupported` answer both come back
 * as an error response; the case's verdict is then decided by adapter_ext_run_case. */
static void exchange(Ext *x, const ExtRequest *given, ExtResponse *res)
{
    ExtRequest req = *given;
    req.protocol = x->protocol;
    const char *what = ext_protocol_request_name(req.kind);
    const char *text = ext_protocol_write_request(&req);
    if (x->dump_dir != NULL)
        dump_request(x, &req, text);
    ExtProcessResult pr;
    if (x->session != NULL)
        ext_session_request(x->session, text, what, &pr);
    else
        ext_process_run(x->command, text, x->timeout, &pr);
    const char *problem = process_problem(x, &pr, what);
    if (problem != NULL) {
        broken(x, problem, res);
        return;
    }
    const char *why = NULL;
    if (!ext_protocol_read_response_as(pr.out, req.kind, x->protocol, res, &why)) {
        broken(x, mem_printf("malformed response to the %s request: %s", what, why), res);
        return;
    }
    if (res->kind == EXT_RESPONSE_UNSUPPORTED) {
        switch_off(x, &req);
        res->kind = EXT_RESPONSE_ERROR;
        res->error.phase = PHASE_IO;
        res->error.code = "IoError";
        res->error.message = mem_printf("the %s request is unsupported", what);
    }
}

static ExtRequest request_for(ExtRequestKind kind, const AdapterProgram *prog)
{
    ExtRequest req;
    memset(&req, 0, sizeof req);
    req.kind = kind;
    req.name = prog->name;
    req.program = prog->text;
    req.ast = prog->ast;
    return req;
}

/* The response's error, located in the case's program. */
static void take_error(const AdapterProgram *prog, const ExtResponse *res, Error *err)
{
    *err = res->error;
    err->span.file = prog->name;
    err->span.end_line = err->span.line;
    err->span.end_col = err->span.col;
}

static AdapterProgram *ext_load(void *self, const ProgramSource *src, Error *err)
{
    AdapterProgram *prog = MEM_NEW(AdapterProgram);
    prog->name = src->name;
    prog->text = src->text;
    prog->ast = src->text == NULL && src->ast != NULL ? astform_write(src->ast) : NULL;
    ExtRequest req = request_for(EXT_REQUEST_LOAD, prog);
    ExtResponse res;
    exchange(self, &req, &res);
    if (res.kind == EXT_RESPONSE_OK)
        return prog;
    take_error(prog, &res, err);
    return NULL;
}

static bool ext_check_wellformed(void *self, AdapterProgram *prog, Error *err)
{
    ExtRequest req = request_for(EXT_REQUEST_WELLFORMED, prog);
    ExtResponse res;
    exchange(self, &req, &res);
    if (res.kind == EXT_RESPONSE_OK)
        return true;
    take_error(prog, &res, err);
    return false;
}

static const char *sinfo_of(const ExtResponse *res, const char *name)
{
    for (int i = 0; i < res->nsinfo; i++) {
        if (strcmp(res->sinfo_names[i], name) == 0)
            return res->sinfo_texts[i];
    }
    return NULL;
}

static bool ext_check_struct_info(void *self, AdapterProgram *prog, StaticReport *report,
                                  Error *err)
{
    ExtRequest req = request_for(EXT_REQUEST_STRUCT_INFO, prog);
    req.bindings = report->names;
    req.nbindings = report->nnames;
    ExtResponse res;
    exchange(self, &req, &res);
    report->warnings = res.warnings;
    report->nwarnings = res.nwarnings;
    report->errors = res.errors;
    report->nerrors = res.nerrors;
    report->sinfo_texts = MEM_ARRAY(const char *, report->nnames + 1);
    for (int i = 0; i < report->nnames; i++)
        report->sinfo_texts[i] = sinfo_of(&res, report->names[i]);
    if (res.kind == EXT_RESPONSE_OK)
        return true;
    take_error(prog, &res, err);
    return false;
}

static bool ext_run(void *self, AdapterProgram *prog, const RunRequest *call, RunResult *out,
                    Error *err)
{
    ExtRequest req = request_for(EXT_REQUEST_RUN, prog);
    req.entry = call->entry ? call->entry : "main";
    req.args = call->args;
    req.nargs = call->nargs;
    ExtResponse res;
    exchange(self, &req, &res);
    out->value = res.value;
    out->stdout_text = res.stdout_text;
    if (res.kind == EXT_RESPONSE_OK)
        return true;
    take_error(prog, &res, err);
    return false;
}

static char *ext_print(void *self, AdapterProgram *prog)
{
    ExtRequest req = request_for(EXT_REQUEST_PRINT, prog);
    ExtResponse res;
    exchange(self, &req, &res);
    return res.kind == EXT_RESPONSE_OK ? mem_strdup(res.printed) : NULL;
}

static bool ext_roundtrip(void *self, AdapterProgram *prog, const char **printed, const char **why)
{
    ExtRequest req = request_for(EXT_REQUEST_ROUNDTRIP, prog);
    ExtResponse res;
    exchange(self, &req, &res);
    *printed = res.printed;
    if (res.kind == EXT_RESPONSE_OK)
        return true;
    *why = res.error.message;
    return false;
}

static bool ext_check_normal_form(void *self, AdapterProgram *prog, Error *err)
{
    ExtRequest req = request_for(EXT_REQUEST_NORMAL_FORM, prog);
    ExtResponse res;
    exchange(self, &req, &res);
    if (res.kind == EXT_RESPONSE_OK)
        return true;
    take_error(prog, &res, err);
    return false;
}

/* The implementation's normal form comes back as TVMScript text, read into this project's AST
 * for the comparison; text that does not parse is a broken exchange. */
static IRModule *ext_normalize(void *self, AdapterProgram *prog, Error *err)
{
    Ext *x = self;
    ExtRequest req = request_for(EXT_REQUEST_NORMALIZE, prog);
    ExtResponse res;
    exchange(x, &req, &res);
    if (res.kind != EXT_RESPONSE_OK) {
        take_error(prog, &res, err);
        return NULL;
    }
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        broken(x,
               mem_printf("the normalized program does not parse: %s", error_format(&trap.error)),
               &res);
        take_error(prog, &res, err);
        return NULL;
    }
    return script_parse(mem_printf("%s (normalized)", prog->name), res.normalized, &trap);
}

void adapter_ext_init(Adapter *ad, const AdapterExtOptions *opts)
{
    Ext *x = MEM_NEW(Ext);
    x->ad = ad;
    x->command = opts->command;
    x->timeout = opts->timeout;
    x->protocol = opts->protocol;
    x->dump_dir = opts->dump_dir;
    if (x->protocol == EXT_PROTOCOL_PERSISTENT)
        x->session = ext_session_new(opts->command, opts->timeout);
    memset(ad, 0, sizeof *ad);
    ad->name = EXT_NAME;
    ad->self = x;
    ad->load = ext_load;
    ad->check_wellformed = ext_check_wellformed;
    ad->check_struct_info = ext_check_struct_info;
    ad->run = ext_run;
    ad->print = ext_print;
    ad->roundtrip = ext_roundtrip;
    ad->check_normal_form = ext_check_normal_form;
    ad->normalize = ext_normalize;
}

static CaseResult verdict(Outcome o, const char *reason, unsigned missing)
{
    CaseResult r = {o, reason, missing};
    return r;
}

/* LEG-1: whether the case's program is in the legacy syntax, as the reference's reader in auto
 * mode decides (a text that does not even parse as Python is not). */
static bool is_legacy_program(const Case *c)
{
    if (c->program == NULL)
        return false;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return false;
    PyBody top = py_parse_file(c->global_id, c->program, &trap);
    LegacyForm first;
    return legacy_detect(&top, &first);
}

CaseResult adapter_ext_run_case(Adapter *ad, const Case *c)
{
    if (ad->name != EXT_NAME)
        return runner_run_case(ad, c);
    Ext *x = ad->self;
    /* Each new judgement has one slot fewer, so this ends. */
    for (;;) {
        if (x->no_ast && c->program == NULL && !c->ast_failed)
            return verdict(OUTCOME_SKIP, "needs the ast: form (the implementation reads text only)",
                           RUNNER_NEEDS(PHASE_PARSE));
        if (x->no_legacy && is_legacy_program(c))
            return verdict(OUTCOME_SKIP,
                           "needs the legacy reader (the implementation reads today's syntax only)",
                           RUNNER_NEEDS(PHASE_PARSE));
        x->switched_off = false;
        x->failure = NULL;
        x->dumped = 0;
        CaseResult r = runner_run_case(ad, c);
        if (x->failure != NULL)
            return verdict(OUTCOME_FAIL, x->failure, 0);
        if (!x->switched_off)
            return r;
    }
}

static int parse_timeout(const char *text, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || v <= 0)
        return cli_usage_error("conform",
                               "--adapter-timeout needs a positive number of "
                               "seconds, got '%s'",
                               text);
    *out = v;
    return 0;
}

static int parse_protocol(const char *text, int *out)
{
    if (strcmp(text, "1") != 0 && strcmp(text, "2") != 0)
        return cli_usage_error("conform", "--adapter-protocol is 1 or 2, got '%s'", text);
    *out = text[0] - '0';
    return 0;
}

static int take_value(AdapterExtOptions *o, const char *opt, const char *value)
{
    if (strcmp(opt, "--adapter-timeout") == 0)
        return parse_timeout(value, &o->timeout);
    if (strcmp(opt, "--adapter-protocol") == 0)
        return parse_protocol(value, &o->protocol);
    if (strcmp(opt, "--dump-requests") == 0) {
        o->dump_dir = value;
        return 0;
    }
    if (value[strspn(value, " \t")] == '\0')
        return cli_usage_error("conform", "--adapter needs a command");
    o->command = value;
    return 0;
}

static bool is_ours(const char *a)
{
    return strcmp(a, "--adapter") == 0 || strcmp(a, "--adapter-timeout") == 0 ||
           strcmp(a, "--adapter-protocol") == 0 || strcmp(a, "--dump-requests") == 0;
}

int adapter_ext_take_options(int *argc, char **argv, const AdapterExtOptions **opts)
{
    AdapterExtOptions *o = MEM_NEW(AdapterExtOptions);
    o->timeout = ADAPTER_EXT_DEFAULT_TIMEOUT;
    o->protocol = 0;
    *opts = NULL;
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (!is_ours(a)) {
            argv[kept++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc)
            return cli_usage_error("conform", "%s needs a value", a);
        int status = take_value(o, a, argv[++i]);
        if (status != 0)
            return status;
    }
    *argc = kept;
    argv[kept] = NULL;
    bool tuned =
        o->timeout != ADAPTER_EXT_DEFAULT_TIMEOUT || o->protocol != 0 || o->dump_dir != NULL;
    if (o->command == NULL && tuned)
        return cli_usage_error("conform", "--adapter-timeout, --adapter-protocol and "
                                          "--dump-requests are for --adapter");
    if (o->protocol == 0)
        o->protocol = EXT_PROTOCOL_VERSION;
    if (o->command != NULL)
        *opts = o;
    return 0;
}

/* A protocol 2 adapter's hello lists the requests it has: the others are switched off up
 * front, as if each had been answered `unsupported`. */
static void apply_hello(Ext *x, const ExtHello *hello)
{
    for (int k = 0; k < EXT_REQUEST_COUNT; k++) {
        if (hello->supports[k])
            continue;
        ExtRequest req;
        memset(&req, 0, sizeof req);
        req.kind = (ExtRequestKind)k;
        switch_off(x, &req);
    }
}

const char *adapter_ext_preflight(Adapter *ad)
{
    if (ad->name != EXT_NAME)
        return NULL;
    Ext *x = ad->self;
    if (x->session != NULL) {
        const char *why = ext_session_start(x->session);
        if (why == NULL) {
            const ExtHello *hello = ext_session_hello(x->session);
            apply_hello(x, hello);
            x->no_legacy = !hello->reads_legacy;
            ad->omits = (hello->reports_code ? 0 : ADAPTER_OMITS_CODE) |
                        (hello->reports_rule ? 0 : ADAPTER_OMITS_RULE) |
                        (hello->reports_canonical_print ? 0 : ADAPTER_OMITS_CANONICAL_PRINT);
        }
        return why;
    }
    static const char program[] = "@R.function\ndef main(x: R.Tensor((2,), \"float32\")):\n"
                                  "    return x\n";
    ExtRequest req;
    memset(&req, 0, sizeof req);
    req.kind = EXT_REQUEST_LOAD;
    req.name = "preflight";
    req.program = program;
    ExtResponse res;
    x->failure = NULL;
    const char *saved = x->dump_dir;
    x->dump_dir = NULL;
    exchange(x, &req, &res);
    x->dump_dir = saved;
    if (x->failure != NULL)
        return x->failure;
    if (res.kind == EXT_RESPONSE_ERROR && !x->switched_off)
        return mem_printf("the adapter rejected a valid two-line program: %s",
                          res.error.message ? res.error.message : "(no message)");
    x->switched_off = false;
    return NULL;
}

const char *adapter_ext_describe(const Adapter *ad)
{
    if (ad->name != EXT_NAME)
        return mem_printf("relax-ref %s (built in)", RELAX_VERSION);
    const Ext *x = ad->self;
    if (x->session == NULL)
        return mem_printf("%s (protocol 1)", x->command);
    const ExtHello *h = ext_session_hello(x->session);
    return h->name ? mem_printf("%s %s (protocol 2)", h->name, h->version)
                   : mem_printf("%s (protocol 2)", x->command);
}

void adapter_ext_stop(Adapter *ad)
{
    Ext *x = ad->self;
    if (ad->name == EXT_NAME && x->session != NULL)
        ext_session_stop(x->session);
}
