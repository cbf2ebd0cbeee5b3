/* adapter_serve: `relax adapter-serve`: the reference interpreter on the implementation's side
 * of the external adapter protocol: one request on stdin, its response on stdout.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/mem.h"
#include "ast/print/printer.h"
#include "tools/cli/cli.h"
#include "tools/conform/adapter.h"
#include "tools/conform/ext_protocol.h"

const char CMD_ADAPTER_SERVE_USAGE[] =
    "usage: relax adapter-serve\n"
    "\n"
    "Answers the conformance adapter protocol on stdin and stdout with the reference\n"
    "interpreter: what tools/adapters/relax-ref runs for 'relax conform --adapter'.\n"
    "Protocol 1: stdin holds one request; its response is written and the command exits.\n"
    "Protocol 2: the first request is 'hello'; then one request after another, each ended\n"
    "by a line '...', each answered the same way, until stdin ends.\n"
    "See tools/adapters/README.md. Exit: 0 when every request was answered, 2 when stdin\n"
    "holds no valid request.\n";

/* One message: the lines up to a line `...` (protocol 2), or to the end of input (protocol 1).
 * NULL at the end of input with nothing read. */
static char *read_message(FILE *in)
{
    StrBuf sb;
    strbuf_init(&sb);
    char line[8192];
    bool any = false;
    while (fgets(line, sizeof line, in) != NULL) {
        any = true;
        if (strcmp(line, EXT_PROTOCOL_END) == 0)
            return strbuf_str(&sb);
        strbuf_add(&sb, line);
    }
    return any ? strbuf_str(&sb) : NULL;
}

static void set_error(ExtResponse *res, const Error *e)
{
    res->kind = EXT_RESPONSE_ERROR;
    res->error = *e;
}

/* The request's program through the reference adapter's load; NULL with the error set. */
static AdapterProgram *load(const Adapter *ref, const ExtRequest *req, ExtResponse *res)
{
    const char *name = req->name ? req->name : "<request>";
    ProgramSource src = {name, req->program, NULL};
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        set_error(res, &trap.error);
        return NULL;
    }
    if (req->ast != NULL)
        src.ast = astform_read_text(name, req->ast, &trap);
    Error err;
    memset(&err, 0, sizeof err);
    AdapterProgram *prog = ref->load(ref->self, &src, &err);
    if (prog == NULL)
        set_error(res, &err);
    return prog;
}

static void answer_struct_info(const Adapter *ref, AdapterProgram *prog, const ExtRequest *req,
                               ExtResponse *res)
{
    StaticReport report;
    memset(&report, 0, sizeof report);
    report.names = req->bindings;
    report.nnames = req->nbindings;
    Error err;
    memset(&err, 0, sizeof err);
    if (!ref->check_struct_info(ref->self, prog, &report, &err))
        set_error(res, &err);
    res->warnings = report.warnings;
    res->nwarnings = report.nwarnings;
    res->errors = report.errors;
    res->nerrors = report.nerrors;
    res->sinfo_names = MEM_ARRAY(const char *, report.nnames + 1);
    res->sinfo_texts = MEM_ARRAY(const char *, report.nnames + 1);
    for (int i = 0; i < report.nnames; i++) {
        if (report.sinfo_texts == NULL || report.sinfo_texts[i] == NULL)
            continue;
        res->sinfo_names[res->nsinfo] = report.names[i];
        res->sinfo_texts[res->nsinfo++] = report.sinfo_texts[i];
    }
}

static void answer_run(const Adapter *ref, AdapterProgram *prog, const ExtRequest *req,
                       ExtResponse *res)
{
    RunRequest call = {req->entry ? req->entry : "main", req->args, req->nargs};
    RunResult out = {NULL, NULL};
    Error err;
    memset(&err, 0, sizeof err);
    if (ref->run(ref->self, prog, &call, &out, &err))
        res->value = out.value;
    else
        set_error(res, &err);
    res->stdout_text = out.stdout_text;
}

static void answer_roundtrip(const Adapter *ref, AdapterProgram *prog, ExtResponse *res)
{
    const char *printed = NULL, *why = NULL;
    bool ok = ref->roundtrip(ref->self, prog, &printed, &why);
    res->printed = printed;
    if (ok)
        return;
    res->kind = EXT_RESPONSE_ERROR;
    res->error.phase = PHASE_PARSE;
    res->error.message = why ? why : "the round trip failed";
}

static void answer_normalize(const Adapter *ref, AdapterProgram *prog, ExtResponse *res)
{
    Error err;
    memset(&err, 0, sizeof err);
    IRModule *mod = ref->normalize(ref->self, prog, &err);
    if (mod == NULL)
        set_error(res, &err);
    else
        res->normalized = printer_print_module(mod);
}

/* Whether the reference adapter has the phase the request asks for. */
static bool has_slot(const Adapter *ref, ExtRequestKind kind)
{
    switch (kind) {
    case EXT_REQUEST_LOAD:
        return ref->load != NULL;
    case EXT_REQUEST_WELLFORMED:
        return ref->check_wellformed != NULL;
    case EXT_REQUEST_STRUCT_INFO:
        return ref->check_struct_info != NULL;
    case EXT_REQUEST_RUN:
        return ref->run != NULL;
    case EXT_REQUEST_PRINT:
        return ref->print != NULL;
    case EXT_REQUEST_ROUNDTRIP:
        return ref->roundtrip != NULL;
    case EXT_REQUEST_NORMAL_FORM:
        return ref->check_normal_form != NULL;
    case EXT_REQUEST_NORMALIZE:
        return ref->normalize != NULL;
    }
    return false;
}

static void answer(const Adapter *ref, const ExtRequest *req, ExtResponse *res)
{
    memset(res, 0, sizeof *res);
    res->kind = EXT_RESPONSE_OK;
    if (!has_slot(ref, req->kind) || ref->load == NULL) {
        res->kind = EXT_RESPONSE_UNSUPPORTED;
        return;
    }
    AdapterProgram *prog = load(ref, req, res);
    if (prog == NULL)
        return;
    Error err;
    memset(&err, 0, sizeof err);
    switch (req->kind) {
    case EXT_REQUEST_LOAD:
        return;
    case EXT_REQUEST_WELLFORMED:
        if (!ref->check_wellformed(ref->self, prog, &err))
            set_error(res, &err);
        return;
    case EXT_REQUEST_STRUCT_INFO:
        answer_struct_info(ref, prog, req, res);
        return;
    case EXT_REQUEST_RUN:
        answer_run(ref, prog, req, res);
        return;
    case EXT_REQUEST_PRINT:
        res->printed = ref->print(ref->self, prog);
        return;
    case EXT_REQUEST_ROUNDTRIP:
        answer_roundtrip(ref, prog, res);
        return;
    case EXT_REQUEST_NORMAL_FORM:
        if (!ref->check_normal_form(ref->self, prog, &err))
            set_error(res, &err);
        return;
    case EXT_REQUEST_NORMALIZE:
        answer_normalize(ref, prog, res);
        return;
    }
}

/* Answers one request text; false when it is not a request. `version` 0 takes the request's
 * own (a lone request of either protocol, as --dump-requests keeps them). */
static bool serve_one(const Adapter *ref, const char *text, int version)
{
    ExtRequest req;
    const char *why = NULL;
    bool read = ext_protocol_read_request(text, &req, &why);
    if (read && version == 0)
        version = req.protocol;
    if (!read || req.protocol != version) {
        fprintf(stderr, "relax adapter-serve: not a protocol %d request: %s\n",
                version ? version : 1, why ? why : "another protocol version");
        return false;
    }
    ExtResponse res;
    answer(ref, &req, &res);
    res.protocol = version;
    fputs(ext_protocol_write_response(&res), stdout);
    return true;
}

static void write_hello(void)
{
    printf("protocol: %d\nok: true\nimplementation: {name: relax-ref, version: \"%s\"}\n"
           "requests: [",
           EXT_PROTOCOL_PERSISTENT, RELAX_VERSION);
    for (int k = 0; k < EXT_REQUEST_COUNT; k++)
        printf("%s%s", k ? ", " : "", ext_protocol_request_name((ExtRequestKind)k));
    printf("]\nreports: [phase, code, rule, canonical-print]\n%s", EXT_PROTOCOL_END);
}

/* Protocol 2 after the hello: a request, its response and `...`, until stdin ends. A request
 * that cannot be read ends the session (the runner restarts it). */
static int serve_session(const Adapter *ref)
{
    write_hello();
    fflush(stdout);
    for (char *text; (text = read_message(stdin)) != NULL;) {
        if (!serve_one(ref, text, EXT_PROTOCOL_PERSISTENT))
            return 2;
        fputs(EXT_PROTOCOL_END, stdout);
        if (fflush(stdout) != 0)
            return 3;
    }
    return 0;
}

int cmd_adapter_serve(int argc, char **argv)
{
    if (argc > 1)
        return cli_usage_error("adapter-serve", "takes no arguments (the request is on stdin)");
    Adapter ref;
    adapter_ref_init(&ref);
    const char *first = read_message(stdin);
    if (first == NULL) {
        fprintf(stderr, "relax adapter-serve: no request on stdin\n");
        return 2;
    }
    if (ext_protocol_is_hello(first))
        return serve_session(&ref);
    if (!serve_one(&ref, first, 0))
        return 2;
    return fflush(stdout) == 0 ? 0 : 3;
}
