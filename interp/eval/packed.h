/* packed: the registry of packed functions reachable through ExternFunc, call_packed and
 * friends, including every spectest.* function of CASE_FORMAT. SPEC_NOTES: "Packed functions". */
#ifndef RELAX_INTERP_PACKED_H
#define RELAX_INTERP_PACKED_H

#include "values/value.h"

struct Interp;

typedef struct PackedRegistry PackedRegistry;

PackedRegistry *packed_registry_new(void);
void packed_register(PackedRegistry *r, const char *name, bool is_pure, PackedFn fn);
/* The packed function value named `name`, or NULL. */
Value *packed_lookup(const PackedRegistry *r, const char *name);
/* Registers spectest.print, identity, copy, add, add_one_inplace, counter, fail,
 * make_object, dps_add, dps_tile2. Packed functions receive the Interp as ctx. */
void packed_register_spectest(PackedRegistry *r);

#endif
