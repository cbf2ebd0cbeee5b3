/* lowered: the lowered IR that TVM's memory planning and VM lowering print: storage as a
 * value, tensors as views of it, kill operators, views, inspection. SPEC_NOTES: "The lowered IR".
 */
#ifndef RELAX_INTERP_LOWERED_H
#define RELAX_INTERP_LOWERED_H

#include "interp/eval/packed.h"
#include "interp/ops/ops.h"

/* The operator tables of the lowered IR (declared with the other families in ops.h):
 * ops_lowered_memory (lowered_memory.c: storage, allocation, kill, call_tir_dyn,
 * call_builtin_with_ctx) and ops_lowered_view (lowered_view.c: views, inspection). */

/* The vm.builtin.* packed functions a lowered program reaches through
 * R.call_builtin_with_ctx or R.call_packed (the context argument is implicit). */
void lowered_register_packed(PackedRegistry *r);

#endif
