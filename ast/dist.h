/* dist: the distributed dialect's static objects: device meshes (a module's global info),
 * placements ("S[1], R") and the DTensor StructInfo. SPEC_NOTES §4.24 (DIST-*). */
#ifndef RELAX_AST_DIST_H
#define RELAX_AST_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "ast/error.h"
#include "ast/sinfo.h"

/* R.device_mesh(shape, device_ids): an n-d array of device ids, given as a list or as
 * I.Range(begin, end). */
typedef struct DeviceMesh {
    int64_t *shape;
    int ndim;
    int64_t *device_ids;
    int ndevices;
    bool has_range; /* written as I.Range(range_begin, range_end) */
    int64_t range_begin;
    int64_t range_end;
    Span span;
} DeviceMesh;

/* One entry per mesh dimension: the tensor axis sharded along it, or -1 for a replica. */
typedef struct Placement {
    int *axes;
    int n;
} Placement;

/* A named list of meshes of the module's global infos: "mesh": [R.device_mesh(...), ...]. */
typedef struct MeshGroup {
    const char *name;
    DeviceMesh **meshes;
    int n;
} MeshGroup;

/* DIST-2: reads TVM's placement text ("S[0], R"; specs separated by commas or blanks).
 * NULL on success, else why the text is malformed. */
const char *dist_placement_parse(const char *text, Placement *out);
/* The canonical text, specs joined by ", ". */
const char *dist_placement_str(const Placement *p);
bool dist_placement_equal(const Placement *a, const Placement *b);
/* Every spec a replica. */
Placement *dist_placement_replicated(int n);

/* "name[i]" -> name and index; false when the text has another form. */
bool dist_mesh_ref_parse(const char *text, const char **name, int *index);
bool dist_mesh_equal(const DeviceMesh *a, const DeviceMesh *b);

/* The DTensor StructInfo: a tensor StructInfo (SINFO_TENSOR), its mesh (the global info
 * `mesh_name[mesh_index]`) and its placement. */
StructInfo *sinfo_dtensor(StructInfo *tensor, const char *mesh_name, int mesh_index,
                          DeviceMesh *mesh, Placement *placement, Span span);

#endif
