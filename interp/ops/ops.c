/* ops: the operator registry, the union of the family tables, and the error report every
 * inference shares. SPEC_NOTES: "Operators" (OP-REGISTRY, Op* codes). */
#include "interp/ops/ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"

typedef const OpImpl *(*FamilyTable)(int *n);

static const FamilyTable FAMILIES[] = {ops_elemwise,       ops_manip,        ops_nn,     ops_layout,
                                       ops_lowered_memory, ops_lowered_view, ops_window, ops_act,
                                       ops_scatter,        ops_norm,         ops_misc,   ops_ccl};
#define NFAMILIES ((int)(sizeof(FAMILIES) / sizeof(FAMILIES[0])))

const OpImpl *ops_lookup(const char *name)
{
    for (int f = 0; f < NFAMILIES; f++) {
        int n = 0;
        const OpImpl *table = FAMILIES[f](&n);
        for (int i = 0; i < n; i++)
            if (strcmp(table[i].name, name) == 0)
                return &table[i];
    }
    return NULL;
}

const OpImpl *const *ops_all(int *n)
{
    int total = 0;
    for (int f = 0; f < NFAMILIES; f++) {
        int k = 0;
        FAMILIES[f](&k);
        total += k;
    }
    const OpImpl **all = MEM_ARRAY(const OpImpl *, total > 0 ? total : 1);
    int at = 0;
    for (int f = 0; f < NFAMILIES; f++) {
        int k = 0;
        const OpImpl *table = FAMILIES[f](&k);
        for (int i = 0; i < k; i++)
            all[at++] = &table[i];
    }
    *n = total;
    return all;
}

StructInfo *ops_infer(const OpImpl *impl, OpInferCtx *ctx)
{
    StructInfo *s = impl->infer(ctx);
    if (s == NULL) {
        fprintf(stderr, "relax: internal error: the inference of %s returned no StructInfo\n",
                impl->name);
        abort();
    }
    return s;
}

StructInfo *ops_infer_fail(OpInferCtx *ctx, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    StrBuf sb;
    strbuf_init(&sb);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const Expr *op = ctx->call->u.call.op;
    strbuf_addf(&sb, "%s: %s", op->kind == EXPR_OP ? op->u.op_name : "operator", buf);
    diag_add(ctx->errors, PHASE_STRUCT_INFO, code, ctx->rule, ctx->call->span, "%s",
             strbuf_str(&sb));
    return sinfo_object(ctx->call->span);
}
