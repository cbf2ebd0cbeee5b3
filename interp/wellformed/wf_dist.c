/* wf_dist: a DTensor annotation's placement against its mesh and tensor (DIST-2).
 * SPEC_NOTES §4.24. */
#include "ast/dist.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/wellformed/wf_internal.h"

/* DIST-2: one placement spec per mesh dimension, and each sharded axis inside the tensor's
 * rank (a tensor of unknown rank shards nothing), as TVM's DTensorStructInfo requires. */
void wf_dist_check_dtensor(WfCtx *ctx, const StructInfo *s)
{
    rule_fired("DIST-2");
    const Placement *p = s->u.dtensor.placement;
    const DeviceMesh *mesh = s->u.dtensor.mesh;
    if (mesh != NULL && p->n != mesh->ndim)
        diag_add(ctx->errors, PHASE_WELLFORMED, "PlacementRank", "DIST-2", s->span,
                 "placement \"%s\" has %d specs, the mesh %s[%d] has %d dimensions",
                 dist_placement_str(p), p->n, s->u.dtensor.mesh_name, s->u.dtensor.mesh_index,
                 mesh->ndim);
    int ndim = s->u.dtensor.tensor->u.tensor.ndim;
    for (int i = 0; i < p->n; i++) {
        if (p->axes[i] >= 0 && p->axes[i] >= ndim)
            diag_add(ctx->errors, PHASE_WELLFORMED, "PlacementAxis", "DIST-2", s->span,
                     "S[%d] shards axis %d of a tensor of %s", p->axes[i], p->axes[i],
                     ndim < 0 ? "unknown rank" : mem_printf("rank %d", ndim));
    }
}
