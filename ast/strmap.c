/* strmap: open addressing over string keys (FNV-1a), doubling at half full.
 * SPEC_NOTES: "Resource limits" (linear time). */
#include "ast/strmap.h"

#include <string.h>

#include "ast/mem.h"

static uint64_t hash_of(const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

static StrMapSlot *probe(StrMapSlot *slots, uint32_t cap, const char *key, uint64_t hash)
{
    for (uint32_t i = (uint32_t)(hash >> 32) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (slots[i].key == NULL || (slots[i].hash == hash && strcmp(slots[i].key, key) == 0))
            return &slots[i];
}

static void grow(StrMap *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 16;
    StrMapSlot *slots = MEM_ARRAY(StrMapSlot, cap);
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != NULL)
            *probe(slots, cap, m->slots[i].key, m->slots[i].hash) = m->slots[i];
    m->slots = slots;
    m->cap = cap;
}

bool strmap_put_first(StrMap *m, const char *key, int64_t value)
{
    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    uint64_t hash = hash_of(key);
    StrMapSlot *s = probe(m->slots, m->cap, key, hash);
    if (s->key != NULL)
        return false;
    s->key = key;
    s->hash = hash;
    s->value = value;
    m->n++;
    return true;
}

bool strmap_get(const StrMap *m, const char *key, int64_t *value)
{
    if (m->cap == 0 || key == NULL)
        return false;
    const StrMapSlot *s = probe(m->slots, m->cap, key, hash_of(key));
    if (s->key == NULL)
        return false;
    *value = s->value;
    return true;
}
