/* ptrmap: a hash map from node pointers (a Var, a TirVar, a Function) to integers, for the
 * passes that must find a variable's binding in constant time. SPEC_NOTES: "Resource limits". */
#ifndef RELAX_AST_PTRMAP_H
#define RELAX_AST_PTRMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct PtrMapSlot {
    const void *key; /* NULL: empty */
    int64_t value;
} PtrMapSlot;

/* Zero-initialized is an empty map. Entries are never removed: a pass that pops a scope keeps
 * stale entries and checks them (the value names a stack position it can verify). */
typedef struct PtrMap {
    PtrMapSlot *slots;
    uint32_t cap; /* 0 or a power of two */
    uint32_t n;
} PtrMap;

/* The home slot of a pointer key in a table of `cap` slots (a power of two): the one hash
 * every pointer-keyed table of the project uses (also interp/eval/env.c's). */
uint32_t ptrmap_slot(const void *key, uint32_t cap);

void ptrmap_put(PtrMap *m, const void *key, int64_t value);
/* The value stored for `key`, into *value; false when the key was never put. */
bool ptrmap_get(const PtrMap *m, const void *key, int64_t *value);

#endif
