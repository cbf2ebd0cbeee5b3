/* adapter: what the conformance runner needs from an implementation, one function per phase.
 * Any function may be NULL when the implementation lacks that phase; the runner then skips
 * the cases that need it. SPEC_NOTES: "Exit codes" and CASE_FORMAT "Phases". */
#ifndef RELAX_TOOLS_ADAPTER_H
#define RELAX_TOOLS_ADAPTER_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/module.h"
#include "tools/conform/yaml_node.h"

/* A loaded program, defined by each adapter. */
typedef struct AdapterProgram AdapterProgram;

typedef struct ProgramSource {
    const char *name;    /* "<path>#<id>": the file named in error spans */
    const char *text;    /* TVMScript text, or NULL for an ast: case */
    const IRModule *ast; /* the ast: program as read, or NULL */
} ProgramSource;

/* What the StructInfo phase reports besides success or an error. */
typedef struct StaticReport {
    const char *const *names; /* in: bindings whose StructInfo the case asks for */
    int nnames;
    const char **sinfo_texts; /* out: parallel to names; NULL where no such binding */
    const char **warnings;    /* out: warning codes, in any order */
    int nwarnings;
    const char **errors; /* out: every error code of the phase, in source order (DIAG-1: a
                          * failure is reported once); nerrors 0: the list is not reported */
    int nerrors;
} StaticReport;

typedef struct RunRequest {
    const char *entry;
    YamlNode *const *args; /* CASE_FORMAT values */
    int nargs;
} RunRequest;

typedef struct RunResult {
    YamlNode *value;         /* the result as a CASE_FORMAT value */
    const char *stdout_text; /* what the program printed, also when it failed */
} RunResult;

/* Bits of Adapter.omits: what an implementation's errors do not carry in the spec's terms, so
 * the runner does not compare it (tools/adapters/README.md, "reports"). The phase is always
 * compared. */
#define ADAPTER_OMITS_CODE (1u << 0)
#define ADAPTER_OMITS_RULE (1u << 1)
/* Its print is TVMScript of its own, not the spec's canonical text: a `printed:` expectation is
 * judged by meaning (both texts read and compared structurally), not character by character. */
#define ADAPTER_OMITS_CANONICAL_PRINT (1u << 2)

typedef struct Adapter {
    const char *name;
    unsigned omits; /* ADAPTER_OMITS_* bits; 0 (full strictness) unless the adapter says so */
    void *self;     /* the implementation's own context, passed back to every function */
    /* Text or ast -> program; NULL with *err (phase parse) when rejected. */
    AdapterProgram *(*load)(void *self, const ProgramSource *src, Error *err);
    bool (*check_wellformed)(void *self, AdapterProgram *prog, Error *err);
    bool (*check_struct_info)(void *self, AdapterProgram *prog, StaticReport *report, Error *err);
    bool (*run)(void *self, AdapterProgram *prog, const RunRequest *req, RunResult *out,
                Error *err);
    /* The canonical TVMScript text. */
    char *(*print)(void *self, AdapterProgram *prog);
    /* Print, reparse, compare (alpha-equal, and the second print identical). *printed gets
     * the first print; on failure *why says what broke. */
    bool (*roundtrip)(void *self, AdapterProgram *prog, const char **printed, const char **why);
    /* Optional: structural comparison of StructInfo texts; NULL compares the texts with
     * whitespace ignored. */
    bool (*same_sinfo)(void *self, const char *expected, const char *got);
    /* Optional: the normal-form verdict on the program as written (NF-1..NF-5), asked after
     * well-formedness. True when it is in normal form; else false with *err: phase
     * wellformed, code NotNormalForm, the rule broken (the first violation in source order). */
    bool (*check_normal_form)(void *self, AdapterProgram *prog, Error *err);
    /* Optional: the program brought to normal form, as a module of this project's AST. An
     * implementation with an IR of its own prints its result as TVMScript and reads it with
     * script_parse. NULL with *err when it refuses the program. */
    IRModule *(*normalize)(void *self, AdapterProgram *prog, Error *err);
} Adapter;

/* The reference interpreter: every phase it has built so far. */
void adapter_ref_init(Adapter *ad);

#endif
