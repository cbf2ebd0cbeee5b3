/* ptrmap: open addressing over pointer keys, doubling at half full.
 * SPEC_NOTES: "Resource limits" (linear time). */
#include "ast/ptrmap.h"

#include "ast/mem.h"

uint32_t ptrmap_slot(const void *key, uint32_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)key;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ULL;
    return (uint32_t)(x >> 32) & (cap - 1);
}

static PtrMapSlot *probe(PtrMapSlot *slots, uint32_t cap, const void *key)
{
    for (uint32_t i = ptrmap_slot(key, cap);; i = (i + 1) & (cap - 1))
        if (slots[i].key == key || slots[i].key == NULL)
            return &slots[i];
}

static void grow(PtrMap *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 16;
    PtrMapSlot *slots = MEM_ARRAY(PtrMapSlot, cap);
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != NULL)
            *probe(slots, cap, m->slots[i].key) = m->slots[i];
    m->slots = slots;
    m->cap = cap;
}

void ptrmap_put(PtrMap *m, const void *key, int64_t value)
{
    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    PtrMapSlot *s = probe(m->slots, m->cap, key);
    if (s->key == NULL) {
        s->key = key;
        m->n++;
    }
    s->value = value;
}

bool ptrmap_get(const PtrMap *m, const void *key, int64_t *value)
{
    if (m->cap == 0 || key == NULL)
        return false;
    const PtrMapSlot *s = probe(m->slots, m->cap, key);
    if (s->key == NULL)
        return false;
    *value = s->value;
    return true;
}
