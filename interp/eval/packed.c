/* packed: the registry of packed functions, a hash map from global symbol to function value.
 * SPEC_NOTES: "Packed functions" (E-11: ExternFunc names a registered packed function). */
#include "interp/eval/packed.h"

#include <stdint.h>
#include <string.h>

#include "ast/mem.h"

typedef struct PackedEntry {
    const char *name; /* NULL: empty slot */
    Value *fn;
} PackedEntry;

/* Open addressing with linear probing; the table is at most half full, so a probe always
 * ends at an empty slot. Entries are never removed. */
struct PackedRegistry {
    PackedEntry *slots;
    int cap; /* a power of two */
    int n;
};

#define PACKED_INITIAL_CAP 32

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static PackedEntry *find_slot(PackedEntry *slots, int cap, const char *name)
{
    uint64_t mask = (uint64_t)cap - 1;
    for (uint64_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
        PackedEntry *e = &slots[i];
        if (!e->name || strcmp(e->name, name) == 0)
            return e;
    }
}

static void grow(PackedRegistry *r)
{
    int cap = r->cap * 2;
    PackedEntry *slots = MEM_ARRAY(PackedEntry, cap);
    for (int i = 0; i < r->cap; i++) {
        if (r->slots[i].name)
            *find_slot(slots, cap, r->slots[i].name) = r->slots[i];
    }
    r->slots = slots;
    r->cap = cap;
}

PackedRegistry *packed_registry_new(void)
{
    PackedRegistry *r = MEM_NEW(PackedRegistry);
    r->cap = PACKED_INITIAL_CAP;
    r->slots = MEM_ARRAY(PackedEntry, r->cap);
    return r;
}

/* A later registration under the same name replaces the earlier one, so an embedder can
 * override a spectest function. */
void packed_register(PackedRegistry *r, const char *name, bool is_pure, PackedFn fn)
{
    if (2 * (r->n + 1) > r->cap)
        grow(r);
    PackedEntry *e = find_slot(r->slots, r->cap, name);
    if (!e->name) {
        e->name = mem_strdup(name);
        r->n++;
    }
    e->fn = value_packed(e->name, is_pure, fn);
}

Value *packed_lookup(const PackedRegistry *r, const char *name)
{
    if (!r || !name)
        return NULL;
    PackedEntry *e = find_slot(r->slots, r->cap, name);
    return e->name ? e->fn : NULL;
}
