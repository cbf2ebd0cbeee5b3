/* ext_protocol: the requests and responses of the external adapter protocol (version 1), as
 * YAML documents: writing and reading both, for the runner's side and an implementation's.
 * SPEC_NOTES: "The conformance runner"; the contract is tools/adapters/README.md. */
#ifndef RELAX_TOOLS_EXT_PROTOCOL_H
#define RELAX_TOOLS_EXT_PROTOCOL_H

#include <stdbool.h>

#include "ast/error.h"
#include "tools/conform/yaml_node.h"

#define EXT_PROTOCOL_VERSION 1
/* Protocol 2: one persistent process, a `hello` handshake, each message one YAML document
 * ended by a line `...` (EXT_PROTOCOL_END). */
#define EXT_PROTOCOL_PERSISTENT 2
#define EXT_PROTOCOL_END "...\n"

typedef enum ExtRequestKind {
    EXT_REQUEST_LOAD,
    EXT_REQUEST_WELLFORMED,
    EXT_REQUEST_STRUCT_INFO,
    EXT_REQUEST_RUN,
    EXT_REQUEST_PRINT,
    EXT_REQUEST_ROUNDTRIP,
    EXT_REQUEST_NORMAL_FORM,
    EXT_REQUEST_NORMALIZE,
} ExtRequestKind;

#define EXT_REQUEST_COUNT (EXT_REQUEST_NORMALIZE + 1)

typedef struct ExtRequest {
    ExtRequestKind kind;
    const char *name;      /* "<path>#<id>": for the implementation's messages only */
    const char *program;   /* TVMScript text; NULL when `ast` is given */
    const char *ast;       /* the ast: form as YAML text; NULL when `program` is given */
    const char *entry;     /* run */
    YamlNode *const *args; /* run: CASE_FORMAT values */
    int nargs;
    const char *const *bindings; /* struct_info: the bindings whose StructInfo is asked for */
    int nbindings;
    int protocol; /* 1 or 2; 0 writes as 1 */
} ExtRequest;

typedef enum ExtResponseKind {
    EXT_RESPONSE_OK,
    EXT_RESPONSE_ERROR,
    EXT_RESPONSE_UNSUPPORTED,
} ExtResponseKind;

typedef struct ExtResponse {
    ExtResponseKind kind;
    int protocol; /* the version written (0: 1) or read */
    /* EXT_RESPONSE_ERROR: phase, code, rule, message and (when given) line and col. The phase
     * defaults to the request's own; a roundtrip failure needs only the message. */
    Error error;
    YamlNode *value;         /* run, ok: the result as a CASE_FORMAT value */
    const char *stdout_text; /* run: what the program printed (also on error); NULL: none */
    const char **warnings;   /* struct_info: warning codes */
    int nwarnings;
    const char **errors; /* struct_info, error: every error code in source order (optional) */
    int nerrors;
    const char **sinfo_names; /* struct_info: binding -> StructInfo text, in order */
    const char **sinfo_texts;
    int nsinfo;
    const char *printed;    /* print, roundtrip: the (first) canonical print */
    const char *normalized; /* normalize: the program in normal form, as TVMScript text */
} ExtResponse;

const char *ext_protocol_request_name(ExtRequestKind kind);
/* The phase a request checks, which is the default phase of its errors. */
Phase ext_protocol_request_phase(ExtRequestKind kind);

/* The request as one YAML document. */
char *ext_protocol_write_request(const ExtRequest *req);
/* Reads a request; false with *why when it is not one. */
bool ext_protocol_read_request(const char *text, ExtRequest *req, const char **why);

/* The response as one YAML document. */
char *ext_protocol_write_response(const ExtResponse *res);
/* Reads the response to a request of kind `kind`; false with *why (one line) when it is not
 * a valid response to it. */
bool ext_protocol_read_response(const char *text, ExtRequestKind kind, ExtResponse *res,
                                const char **why);

/* The same for a response to a request of protocol `version` (1 or 2): its `protocol` field,
 * when given, must be that version. */
bool ext_protocol_read_response_as(const char *text, ExtRequestKind kind, int version,
                                   ExtResponse *res, const char **why);

/* What an implementation says of itself in answer to protocol 2's `hello`. */
typedef struct ExtHello {
    const char *name;    /* implementation name */
    const char *version; /* implementation version */
    bool supports[EXT_REQUEST_COUNT];
    /* `reports: [phase, code, rule]`: what its errors carry in the spec's terms. Without the
     * field both are true (full strictness); the phase is always judged. */
    bool reports_code;
    bool reports_rule;
    bool reports_canonical_print; /* `canonical-print`: its `printed` is the spec's text */
    /* `syntax: [current, legacy]`: the surface syntaxes it reads; without the field both. A
     * program in the legacy syntax (LEG-1) is not sent to one that reads only `current`. */
    bool reads_legacy;
} ExtHello;

/* The handshake request (`protocol: 2`, `request: hello`) and the reading of its answer. */
char *ext_protocol_write_hello(void);
bool ext_protocol_read_hello(const char *text, ExtHello *hello, const char **why);
/* Whether a request text is the handshake (the serving side's first question). */
bool ext_protocol_is_hello(const char *text);

/* A YAML double-quoted scalar holding `s` exactly. */
char *ext_protocol_quote(const char *s);

#endif
