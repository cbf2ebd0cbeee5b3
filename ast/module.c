/* module: the IRModule container and GlobalVar lookup.
 * SPEC_NOTES: "Grammar" (Program). */
#include "ast/module.h"

#include <string.h>

#include "ast/dist.h"
#include "ast/mem.h"

IRModule *module_new(const char *file)
{
    IRModule *m = MEM_NEW(IRModule);
    m->global_infos_other = attrs_new();
    m->attrs = attrs_new();
    m->file = file;
    return m;
}

ModuleFunc *module_add(IRModule *mod, GlobalVar *gvar, ModuleFuncKind kind)
{
    ModuleFunc *f = MEM_NEW(ModuleFunc);
    f->gvar = gvar;
    f->kind = kind;
    f->span = gvar->span;
    bool indexed = mod->nindexed == mod->nfuncs && mod->indexed_funcs == mod->funcs;
    VEC_PUSH(mod->funcs, mod->nfuncs, mod->cap, f);
    if (indexed) {
        strmap_put_first(&mod->index, gvar->name, mod->nfuncs - 1);
        mod->nindexed = mod->nfuncs;
        mod->indexed_funcs = mod->funcs;
    }
    return f;
}

/* The first function of that name, as a scan in order finds it; through the index when it
 * covers the module (linear time for a module of many functions, Resource limits). */
int module_index(const IRModule *mod, const char *name)
{
    if (mod->nindexed == mod->nfuncs && mod->indexed_funcs == mod->funcs && mod->nfuncs > 0) {
        int64_t i;
        if (!strmap_get(&mod->index, name, &i))
            return -1;
        if (i < mod->nfuncs && strcmp(mod->funcs[i]->gvar->name, name) == 0)
            return (int)i;
    }
    for (int i = 0; i < mod->nfuncs; i++)
        if (strcmp(mod->funcs[i]->gvar->name, name) == 0)
            return i;
    return -1;
}

ModuleFunc *module_lookup(const IRModule *mod, const char *name)
{
    int i = module_index(mod, name);
    return i >= 0 ? mod->funcs[i] : NULL;
}

GlobalVar *globalvar_new(const char *name, Span span)
{
    GlobalVar *g = MEM_NEW(GlobalVar);
    g->name = name;
    g->span = span;
    return g;
}

struct DeviceMesh *module_device_mesh(const IRModule *mod, const char *name, int index)
{
    for (int i = 0; mod != NULL && i < mod->nmesh_groups; i++) {
        const MeshGroup *g = &mod->mesh_groups[i];
        if (strcmp(g->name, name) == 0)
            return index >= 0 && index < g->n ? g->meshes[index] : NULL;
    }
    return NULL;
}
