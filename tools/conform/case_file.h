/* case_file: loading and validating a conformance case file (CASE_FORMAT version 1 and the
 * project's extensions). SPEC_NOTES: "Case file errors (phase case)". */
#ifndef RELAX_TOOLS_CASE_FILE_H
#define RELAX_TOOLS_CASE_FILE_H

#include <stdbool.h>

#include "ast/error.h"
#include "ast/module.h"
#include "tools/conform/yaml_node.h"

typedef enum ExpectKind {
    EXPECT_VALUE,         /* value: <value> */
    EXPECT_VALID,         /* valid: true */
    EXPECT_STRUCT_INFO,   /* struct_info: {var: "text"} */
    EXPECT_ERROR,         /* error: {phase, code?, rule?} */
    EXPECT_ROUNDTRIP,     /* roundtrip: true (extension) */
    EXPECT_NORMAL_FORM,   /* normal_form: true | {rule: NF-n} (extension) */
    EXPECT_NORMALIZES_TO, /* normalizes_to: text | normalizes_to_ast: ast (extension) */
} ExpectKind;

typedef struct SInfoExpect {
    const char *var; /* "x" in the entry function, or "func.x" */
    const char *text;
} SInfoExpect;

typedef struct Expect {
    ExpectKind kind;
    YamlNode *value; /* EXPECT_VALUE */
    SInfoExpect *sinfos;
    int nsinfos;
    Phase error_phase;       /* EXPECT_ERROR */
    const char *error_code;  /* NULL: any */
    const char *error_rule;  /* NULL: any */
    const char *stdout_text; /* NULL: not compared */
    const char **warnings;   /* compared when has_warnings */
    int nwarnings;
    bool has_warnings;
    const char **errors; /* a struct_info error: every error code, in order (has_errors) */
    int nerrors;
    bool has_errors;
    const char *printed; /* EXPECT_ROUNDTRIP: exact first print, or NULL */
    const char *nf_rule; /* EXPECT_NORMAL_FORM: the NF rule the check reports; NULL: in NF */
    /* EXPECT_NORMALIZES_TO: the normalized program as TVMScript text, or (normalizes_to_ast)
     * as read from the ast: form, or the error that form raised. */
    const char *normalized_text;
    IRModule *normalized_ast;
    bool normalized_ast_failed;
    Error normalized_ast_error;
    int line;
} Expect;

/* One call of the entry function with its expectation; a static case has one CaseRun with
 * has_call false. */
typedef struct CaseRun {
    bool has_call;
    const char *entry; /* default "main" */
    YamlNode **args;
    int nargs;
    Expect expect;
    int line;
} CaseRun;

/* RESULT-1: what an expected value promises of another implementation. */
typedef enum ResultKind {
    RESULT_DEFINED,      /* the one value (the default) */
    RESULT_IMPL_DEFINED, /* any of the allowed values ({one_of: [..]} elements) */
    RESULT_UNDEFINED,    /* any value or runtime error; the value is the reference's own */
} ResultKind;

typedef struct Case {
    const char *file; /* the case file's display path */
    const char *id;
    const char *global_id; /* "<file>#<id>" */
    const char *description;
    const char **spec; /* the file's ids, then the case's own */
    int nspec;
    const char **tags;
    int ntags;
    const char *program; /* TVMScript text, or NULL for an ast: case */
    IRModule *ast;       /* the ast: program, when it read without error */
    bool ast_failed;     /* the ast: form itself was rejected: ast_error holds the error */
    Error ast_error;
    const char *read_fired; /* --rules-fired: the rule ids reading the ast: form fired */
    CaseRun *runs;
    int nruns;
    double rtol, atol;
    bool exact;
    ResultKind result;
    int line;
} Case;

typedef struct CaseFile {
    const char *path;
    const char **spec;
    int nspec;
    const char **tags;
    int ntags;
    Case **cases;
    int ncases;
} CaseFile;

#define CASE_DEFAULT_RTOL 1e-5
#define CASE_DEFAULT_ATOL 1e-6

/* Reads and validates the file. YAML syntax errors and schema violations raise a PHASE_CASE
 * error (code YamlSyntax, CaseSchema, CaseVersion, CaseValue or DuplicateCaseId) with the
 * file, line and column; an unreadable file raises PHASE_IO. */
CaseFile *case_file_load(const char *path, ErrorTrap *trap);
/* The same for text already in memory; `path` names it in errors and global ids. */
CaseFile *case_file_parse(const char *path, const char *text, ErrorTrap *trap);

Case *case_file_find(const CaseFile *cf, const char *id);
bool case_has_tag(const Case *c, const char *tag);
const char *case_expect_kind_name(ExpectKind kind);

#endif
