/* progen: random Relax programs that are well-formed and StructInfo-valid by construction,
 * with arguments for their entry function, for differential checking (`relax gen`).
 * SPEC_NOTES: "Generated programs" (GEN-1..GEN-4). */
#ifndef RELAX_TOOLS_PROGEN_H
#define RELAX_TOOLS_PROGEN_H

#include <stdint.h>

/* What one seed generates: a module whose entry is `main`, and its arguments in the value
 * notation of the conformance cases (one YAML flow text each). */
typedef struct GenProgram {
    uint64_t seed;
    int size;
    char *text;
    char **args;
    int nargs;
    /* Which constructs the program holds, for the summary of `relax gen --check`. */
    int n_dataflow, n_if, n_closure, n_call, n_match_cast, n_tuple, n_ops;
} GenProgram;

/* The constructs a program may hold beyond operator bindings in main's body. */
enum {
    GEN_DATAFLOW = 1 << 0,
    GEN_IF = 1 << 1,
    GEN_CLOSURE = 1 << 2,
    GEN_CALL = 1 << 3, /* calls of module functions */
    GEN_MATCH_CAST = 1 << 4,
    GEN_TUPLE = 1 << 5,
    GEN_ALL = (1 << 6) - 1,
};

/* The flag of a construct's name ("dataflow", "if", "closure", "call", "match-cast",
 * "tuple"), or 0. */
int progen_feature(const char *name);

/* The program of `seed`. `size` (1..50) bounds the number of segments (blocks, ifs,
 * closures, calls) in main; `features` (GEN_*) the constructs it may use. The same seed,
 * size and features always give the same program. */
GenProgram *progen_program(uint64_t seed, int size, int features);

#endif
