/* rule: the rules that fire; ids are interned once, then each firing sets one bit of the
 * current set. SPEC_NOTES: "Rule ids". */
/* The state is process-wide, not in a context struct: rule_fired is called from every layer
 * (the parser, the checkers, the evaluator's thread), none of which carries a context the
 * others share, and a recording spans all of them. The evaluator's thread runs while its
 * caller waits, so the set needs no lock. */
#include "ast/rule.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

bool rule_recording;

/* The interned ids: an open-addressing table of indices into `ids`, grown at half full. */
static const char **ids;
static int nids, ids_cap;
static int *slots; /* -1: empty */
static int nslots;
/* The set: one bit per interned id, and the indices set, to empty it quickly. */
static uint64_t *bits;
static int nbits_words;
static int *set_list;
static int nset, set_cap;

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void rehash(int new_slots)
{
    slots = MEM_ARRAY(int, new_slots);
    nslots = new_slots;
    for (int i = 0; i < nslots; i++)
        slots[i] = -1;
    for (int k = 0; k < nids; k++) {
        uint32_t at = hash(ids[k]) & (uint32_t)(nslots - 1);
        while (slots[at] >= 0)
            at = (at + 1) & (uint32_t)(nslots - 1);
        slots[at] = k;
    }
}

static void grow_bits(void)
{
    int words = (nids + 63) / 64;
    if (words <= nbits_words)
        return;
    bits = mem_grow(bits, sizeof *bits * (size_t)nbits_words, sizeof *bits * (size_t)words * 2);
    nbits_words = words * 2;
}

/* The index of `id`, interned on first sight. */
static int intern(const char *id)
{
    if (slots == NULL)
        rehash(1024);
    uint32_t at = hash(id) & (uint32_t)(nslots - 1);
    for (; slots[at] >= 0; at = (at + 1) & (uint32_t)(nslots - 1)) {
        if (strcmp(ids[slots[at]], id) == 0)
            return slots[at];
    }
    int k = nids;
    VEC_PUSH(ids, nids, ids_cap, mem_strdup(id));
    slots[at] = k;
    if (2 * nids > nslots)
        rehash(2 * nslots);
    grow_bits();
    return k;
}

void rule_record(const char *id)
{
    int k = intern(id);
    uint64_t mask = (uint64_t)1 << (k % 64);
    if (bits[k / 64] & mask)
        return;
    bits[k / 64] |= mask;
    VEC_PUSH(set_list, nset, set_cap, k);
}

void rule_record_text(const char *text)
{
    while (rule_recording && text != NULL && *text != '\0') {
        const char *end = strchr(text, ' ');
        size_t len = end ? (size_t)(end - text) : strlen(text);
        if (len > 0)
            rule_record(mem_strndup(text, len));
        text += len + (end ? 1 : 0);
    }
}

void rule_record_clear(void)
{
    for (int i = 0; i < nset; i++)
        bits[set_list[i] / 64] &= ~((uint64_t)1 << (set_list[i] % 64));
    nset = 0;
}

void rule_record_start(void)
{
    rule_record_clear();
    rule_recording = true;
}

void rule_record_stop(void)
{
    rule_recording = false;
}

bool rule_has_fired(const char *id)
{
    if (slots == NULL)
        return false;
    uint32_t at = hash(id) & (uint32_t)(nslots - 1);
    for (; slots[at] >= 0; at = (at + 1) & (uint32_t)(nslots - 1)) {
        int k = slots[at];
        if (strcmp(ids[k], id) == 0)
            return (bits[k / 64] >> (k % 64)) & 1;
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **rule_fired_list(int *n)
{
    const char **out = MEM_ARRAY(const char *, nset + 1);
    for (int i = 0; i < nset; i++)
        out[i] = ids[set_list[i]];
    qsort(out, (size_t)nset, sizeof *out, cmp_str);
    *n = nset;
    return out;
}

const char *rule_fired_text(void)
{
    int n = 0;
    const char **list = rule_fired_list(&n);
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++)
        strbuf_addf(&sb, "%s%s", i > 0 ? " " : "", list[i]);
    return strbuf_str(&sb);
}
