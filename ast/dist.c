/* dist: device meshes, placements and the DTensor StructInfo of the distributed dialect.
 * SPEC_NOTES §4.24 (DIST-1, DIST-2). */
#include "ast/dist.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

/* TVM's Placement::FromText: 'R' is a replica, 'S[i]' shards tensor axis i; commas and
 * blanks between specs are skipped. */
const char *dist_placement_parse(const char *text, Placement *out)
{
    int n = 0, cap = 0;
    int *axes = NULL;
    for (const char *c = text; *c;) {
        if (*c == ',' || *c == ' ') {
            c++;
            continue;
        }
        if (*c == 'R') {
            VEC_PUSH(axes, n, cap, -1);
            c++;
            continue;
        }
        if (*c != 'S')
            return "a placement is a list of R and S[axis]";
        if (c[1] != '[')
            return "S must be followed by [axis]";
        c += 2;
        /* A negative axis is refused: TVM reads it and never shards along it. */
        const char *start = c;
        while (isdigit((unsigned char)*c))
            c++;
        if (c == start || *c != ']' || c - start > 9)
            return "S[...] takes a non-negative integer axis";
        VEC_PUSH(axes, n, cap, (int)strtol(start, NULL, 10));
        c++;
    }
    out->axes = axes;
    out->n = n;
    return NULL;
}

const char *dist_placement_str(const Placement *p)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < p->n; i++) {
        if (i > 0)
            strbuf_add(&sb, ", ");
        if (p->axes[i] == -1)
            strbuf_addc(&sb, 'R');
        else
            strbuf_addf(&sb, "S[%d]", p->axes[i]);
    }
    return strbuf_str(&sb);
}

bool dist_placement_equal(const Placement *a, const Placement *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (a->axes[i] != b->axes[i])
            return false;
    return true;
}

Placement *dist_placement_replicated(int n)
{
    Placement *p = MEM_NEW(Placement);
    p->axes = MEM_ARRAY(int, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        p->axes[i] = -1;
    p->n = n;
    return p;
}

bool dist_mesh_ref_parse(const char *text, const char **name, int *index)
{
    const char *lb = strchr(text, '[');
    if (lb == NULL || lb == text)
        return false;
    const char *c = lb + 1;
    if (!isdigit((unsigned char)*c))
        return false;
    while (isdigit((unsigned char)*c))
        c++;
    if (c[0] != ']' || c[1] != '\0' || c - lb > 8)
        return false;
    *name = mem_strndup(text, (size_t)(lb - text));
    *index = (int)strtol(lb + 1, NULL, 10);
    return true;
}

/* TVM compares meshes structurally: shape, device ids and the range they came from. */
bool dist_mesh_equal(const DeviceMesh *a, const DeviceMesh *b)
{
    if (a == b)
        return true;
    if (a == NULL || b == NULL || a->ndim != b->ndim || a->ndevices != b->ndevices ||
        a->has_range != b->has_range)
        return false;
    if (a->has_range && (a->range_begin != b->range_begin || a->range_end != b->range_end))
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    for (int i = 0; i < a->ndevices; i++)
        if (a->device_ids[i] != b->device_ids[i])
            return false;
    return true;
}

StructInfo *sinfo_dtensor(StructInfo *tensor, const char *mesh_name, int mesh_index,
                          DeviceMesh *mesh, Placement *placement, Span span)
{
    StructInfo *s = MEM_NEW(StructInfo);
    s->kind = SINFO_DTENSOR;
    s->span = span;
    s->u.dtensor.tensor = tensor;
    s->u.dtensor.mesh_name = mesh_name;
    s->u.dtensor.mesh_index = mesh_index;
    s->u.dtensor.mesh = mesh;
    s->u.dtensor.placement = placement;
    return s;
}
