/* module: the IRModule, a Relax program (global functions, PrimFuncs, extern functions,
 * global_info). SPEC_NOTES: "Grammar" (Program) and "Lone functions". */
#ifndef RELAX_AST_MODULE_H
#define RELAX_AST_MODULE_H

#include <stdbool.h>

#include "ast/attrs.h"
#include "ast/expr.h"
#include "ast/sinfo.h"
#include "ast/strmap.h"
#include "ast/tir.h"

typedef enum ModuleFuncKind {
    MODFUNC_RELAX,
    MODFUNC_PRIM,
    MODFUNC_EXTERN, /* `name = R.ExternFunc("symbol")` at module level */
} ModuleFuncKind;

typedef struct ModuleFunc {
    GlobalVar *gvar;
    ModuleFuncKind kind;
    union {
        Function *relax;
        PrimFunc *prim;
        const char *extern_symbol;
    } u;
    Span span;
} ModuleFunc;

typedef struct IRModule {
    ModuleFunc **funcs; /* in source order */
    int nfuncs;
    int cap;
    VDevice **vdevices; /* global_info["vdevice"], in order */
    int nvdevices;
    struct MeshGroup *mesh_groups; /* global_info lists of R.device_mesh, in order (DIST-1) */
    int nmesh_groups;
    Attrs *global_infos_other; /* other global_info kinds, kept for printing; never NULL */
    Attrs *attrs;              /* I.module_attrs; never NULL */
    bool is_lone_function;     /* parsed from a lone @R.function */
    const char *file;
    /* module_lookup's index of the names, kept by module_add: it holds funcs[0 .. nindexed)
     * while indexed_funcs is still funcs (a module whose array was set otherwise is scanned). */
    StrMap index;
    int nindexed;
    ModuleFunc **indexed_funcs;
} IRModule;

IRModule *module_new(const char *file);
ModuleFunc *module_add(IRModule *mod, GlobalVar *gvar, ModuleFuncKind kind);
/* The position of the first function named `name`, or -1. */
int module_index(const IRModule *mod, const char *name);
/* That function, or NULL. */
ModuleFunc *module_lookup(const IRModule *mod, const char *name);
GlobalVar *globalvar_new(const char *name, Span span);
/* DIST-1: the mesh `name[index]` of the module's global infos, or NULL. */
struct DeviceMesh *module_device_mesh(const IRModule *mod, const char *name, int index);

#endif
