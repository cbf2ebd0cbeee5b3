/* op_schema: the operator signature registry, the union of the family tables.
 * SPEC_NOTES: "Operators" (OP-REGISTRY). */
#include "ast/schema/op_schema.h"

#include <string.h>

#include "ast/mem.h"

typedef const OpSchema *(*FamilyTable)(int *n);

static const FamilyTable FAMILIES[] = {op_schema_elemwise, op_schema_manip,   op_schema_nn,
                                       op_schema_layout,   op_schema_lowered, op_schema_window,
                                       op_schema_act,      op_schema_scatter, op_schema_norm,
                                       op_schema_misc,     op_schema_ccl};
#define NFAMILIES ((int)(sizeof(FAMILIES) / sizeof(FAMILIES[0])))

const OpSchema *op_schema_lookup(const char *name)
{
    for (int f = 0; f < NFAMILIES; f++) {
        int n = 0;
        const OpSchema *table = FAMILIES[f](&n);
        for (int i = 0; i < n; i++)
            if (strcmp(table[i].name, name) == 0)
                return &table[i];
    }
    return NULL;
}

const OpSchema *const *op_schema_all(int *n)
{
    int total = 0;
    for (int f = 0; f < NFAMILIES; f++) {
        int k = 0;
        FAMILIES[f](&k);
        total += k;
    }
    const OpSchema **all = MEM_ARRAY(const OpSchema *, total > 0 ? total : 1);
    int at = 0;
    for (int f = 0; f < NFAMILIES; f++) {
        int k = 0;
        const OpSchema *table = FAMILIES[f](&k);
        for (int i = 0; i < k; i++)
            all[at++] = &table[i];
    }
    *n = total;
    return all;
}
