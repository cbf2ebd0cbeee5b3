/* sinfo: StructInfo, the structural information of Relax values, and VDevices.
 * SPEC_NOTES: "Grammar" (StructInfo, VDevice). */
#ifndef RELAX_AST_SINFO_H
#define RELAX_AST_SINFO_H

#include <stdbool.h>

#include "ast/attrs.h"
#include "ast/dtype.h"
#include "ast/error.h"
#include "ast/primexpr.h"

struct Expr;
struct DeviceMesh;
struct Placement;

/* VDevice(target, vdevice_id, memory_scope). The target is a tag ("llvm", "cuda") or a
 * config dictionary ({"kind": "cuda", ...}); target_kind is the tag or the config's kind. */
typedef struct VDevice {
    const char *target_kind;
    Attrs *target_config; /* NULL for a plain tag */
    int vdevice_id;
    const char *memory_scope;
    Span span;
} VDevice;

typedef enum StructInfoKind {
    SINFO_OBJECT,
    SINFO_PRIM,
    SINFO_SHAPE,
    SINFO_TENSOR,
    SINFO_TUPLE,
    SINFO_FUNC,
    SINFO_DTENSOR, /* the distributed dialect's R.DTensor (ast/dist.h) */
} StructInfoKind;

typedef struct StructInfo {
    StructInfoKind kind;
    Span span;
    /* DIAG-1: an Object derived for an expression whose check already failed. Checks
     * that meet it stay quiet, so one mistake is reported once, not once per later use. */
    bool poisoned;
    union {
        struct {
            DataType dtype;
            PrimExpr *value; /* NULL when not given */
        } prim;
        struct {
            PrimExpr **values; /* NULL when unknown */
            int ndim;          /* -1: unknown; equals the count when values are known */
        } shape;
        struct {
            struct Expr *shape; /* NULL, an EXPR_SHAPE, or an EXPR_VAR with Shape sinfo */
            DataType dtype;     /* Void: unknown */
            VDevice *vdevice;   /* NULL: unspecified */
            int ndim;           /* -1: unknown */
        } tensor;
        struct {
            struct StructInfo **fields;
            int n;
        } tuple;
        struct {
            struct StructInfo **params; /* meaningful when has_params */
            int nparams;
            bool has_params;
            struct StructInfo *ret;
            bool purity;
            const char *derive_func; /* NULL when absent */
        } func;
        struct {
            struct StructInfo *tensor; /* SINFO_TENSOR: shape, dtype, ndim */
            const char *mesh_name;     /* the global info list holding the mesh */
            int mesh_index;
            struct DeviceMesh *mesh;
            struct Placement *placement;
        } dtensor;
    } u;
} StructInfo;

StructInfo *sinfo_object(Span span);
StructInfo *sinfo_poisoned(Span span);
/* Poisoned itself, or a tuple with a poisoned field. */
bool sinfo_has_poison(const StructInfo *s);
StructInfo *sinfo_prim(DataType dtype, PrimExpr *value, Span span);
StructInfo *sinfo_shape(PrimExpr **values, int ndim, Span span);
StructInfo *sinfo_tensor(struct Expr *shape, DataType dtype, VDevice *vdevice, int ndim, Span span);
StructInfo *sinfo_tuple(StructInfo **fields, int n, Span span);
StructInfo *sinfo_func(StructInfo **params, int nparams, StructInfo *ret, bool purity, Span span);
StructInfo *sinfo_func_opaque(StructInfo *ret, bool purity, const char *derive_func, Span span);
bool sinfo_is_void(const StructInfo *s); /* the empty tuple */

#endif
