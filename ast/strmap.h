/* strmap: a hash map from names (NUL-terminated strings, compared by content) to integers,
 * for the passes that must find a global by name in constant time. SPEC_NOTES: "Resource
 * limits" (linear time). */
#ifndef RELAX_AST_STRMAP_H
#define RELAX_AST_STRMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct StrMapSlot {
    const char *key; /* NULL: empty; the map keeps the pointer, not a copy */
    uint64_t hash;
    int64_t value;
} StrMapSlot;

/* Zero-initialized is an empty map. Entries are never removed. */
typedef struct StrMap {
    StrMapSlot *slots;
    uint32_t cap; /* 0 or a power of two */
    uint32_t n;
} StrMap;

/* Stores `value` for `key` unless the key is there already (the first one put is kept, as a
 * scan in order finds the first of two equal names); returns whether it stored. */
bool strmap_put_first(StrMap *m, const char *key, int64_t value);
/* The value stored for `key`, into *value; false when the key was never put. */
bool strmap_get(const StrMap *m, const char *key, int64_t *value);

#endif
