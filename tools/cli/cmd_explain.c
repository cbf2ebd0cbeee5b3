/* cmd_explain: `relax explain`: each binding's and parameter's derived StructInfo with the
 * rule that derived it (SI-n, and the operator whose inference a call used).
 * SPEC_NOTES: "StructInfo" (SI-*). */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/print/printer.h"
#include "interp/diag.h"
#include "interp/wellformed/wellformed.h"
#include "tools/cli/cli.h"
#include "tools/cli/source.h"

const char CMD_EXPLAIN_USAGE[] =
    "usage: relax explain FILE\n"
    "\n"
    "Checks the program in FILE (as 'relax check' does) and prints, for every parameter and\n"
    "binding in derivation order, its derived StructInfo and the rule that derived it:\n"
    "'line:col: func.var: <StructInfo>  (SI-n ...)'. A call names the operator whose\n"
    "inference gave its result; an annotation or a MatchCast adds SI-11. FILE as for\n"
    "'relax print'. Exit codes as for 'relax check'.\n";

typedef struct BindingList {
    const Binding **items;
    int n;
    int cap;
} BindingList;

static void collect_expr(BindingList *l, const Expr *e);

static void collect_seq(BindingList *l, const Expr *seq)
{
    for (int i = 0; i < seq->u.seq.nblocks; i++) {
        const BindingBlock *blk = seq->u.seq.blocks[i];
        for (int k = 0; k < blk->n; k++) {
            VEC_PUSH(l->items, l->n, l->cap, blk->bindings[k]);
            collect_expr(l, blk->bindings[k]->value);
        }
    }
    collect_expr(l, seq->u.seq.body);
}

/* Bindings live in SeqExprs: a function's body, an If's branches, nested functions. */
static void collect_expr(BindingList *l, const Expr *e)
{
    if (e == NULL)
        return;
    if (e->kind == EXPR_SEQ)
        collect_seq(l, e);
    else if (e->kind == EXPR_FUNCTION)
        collect_expr(l, e->u.func->body);
    else if (e->kind == EXPR_IF) {
        collect_expr(l, e->u.if_.then_branch);
        collect_expr(l, e->u.if_.else_branch);
    }
}

/* The SI rule of an expression's StructInfo (SPEC_NOTES 1.3). */
static const char *expr_rule(const Expr *e)
{
    switch (e->kind) {
    case EXPR_VAR:
    case EXPR_GLOBAL_VAR:
        return "SI-2";
    case EXPR_CONSTANT:
        return "SI-3";
    case EXPR_PRIM_VALUE:
        return "SI-4";
    case EXPR_STRING:
        return "SI-5";
    case EXPR_DTYPE:
        return "SI-6";
    case EXPR_TUPLE:
        return "SI-7";
    case EXPR_SHAPE:
        return "SI-8";
    case EXPR_IF:
        return "SI-9";
    case EXPR_SEQ:
        return "SI-10";
    case EXPR_TUPLE_GET_ITEM:
        return "SI-12";
    case EXPR_EXTERN_FUNC:
        return "SI-13";
    case EXPR_CALL:
        if (e->u.call.op->kind == EXPR_OP)
            return mem_printf("SI-14, %s inference", e->u.call.op->u.op_name);
        return "SI-14";
    case EXPR_FUNCTION:
        return "SI-15";
    case EXPR_OP:
        return "SI-2";
    }
    return "SI-2";
}

static const Binding *find_binding(const BindingList *l, const SinfoBinding *sb)
{
    for (int i = 0; i < l->n; i++) {
        const Binding *b = l->items[i];
        if (b->var != NULL && b->span.line == sb->span.line && b->span.col == sb->span.col &&
            strcmp(b->var->name, sb->var) == 0)
            return b;
    }
    return NULL;
}

/* "func.var: SINFO  (RULE)" for one derived binding or parameter. */
static char *explain_one(const BindingList *l, const SinfoBinding *sb)
{
    const Binding *b = find_binding(l, sb);
    const char *rule = "SI-15, a parameter";
    if (b != NULL && b->kind == BIND_MATCH_CAST)
        rule = mem_printf("SI-11 MatchCast, after %s", expr_rule(b->value));
    else if (b != NULL && b->var->annotation != NULL)
        rule = mem_printf("%s, SI-11 annotation", expr_rule(b->value));
    else if (b != NULL)
        rule = expr_rule(b->value);
    return mem_printf("%s.%s: %s  (%s)", sb->func, sb->var, printer_print_sinfo(sb->sinfo), rule);
}

void cli_explain(const IRModule *mod, const SinfoBindings *bindings, CliExplainFn emit,
                 void *ctx)
{
    BindingList l = {NULL, 0, 0};
    for (int i = 0; i < mod->nfuncs; i++)
        if (mod->funcs[i]->kind == MODFUNC_RELAX)
            collect_expr(&l, mod->funcs[i]->u.relax->body);
    for (int i = 0; i < bindings->n; i++)
        emit(ctx, bindings->items[i].span, explain_one(&l, &bindings->items[i]));
}

static void print_line(void *ctx, Span span, const char *text)
{
    (void)ctx;
    if (span.line > 0)
        printf("%d:%d: ", span.line, span.col);
    printf("%s\n", text);
}

int cmd_explain(int argc, char **argv)
{
    bool unused;
    const char *file_arg;
    int rc = cli_parse_flag_file(argc, argv, NULL, &unused, &file_arg);
    if (rc != 0)
        return rc;
    const char *volatile file = file_arg;
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0)
        return cli_report_error(&trap.error);
    IRModule *mod = source_load_program(file, &trap);
    DiagList errors, warnings;
    diag_init(&errors);
    diag_init(&warnings);
    wellformed_check(mod, &errors);
    SinfoBindings bindings = {NULL, 0, 0};
    if (errors.n == 0)
        sinfo_check_module_report(mod, &errors, &warnings, &bindings);
    cli_explain(mod, &bindings, print_line, NULL);
    fflush(stdout);
    for (int i = 0; i < warnings.n; i++) {
        CliDiag d = {&warnings.items[i], true, NULL, mod};
        cli_print_diag(stderr, &d);
    }
    for (int i = 0; i < errors.n; i++) {
        CliDiag d = {&errors.items[i], false, NULL, mod};
        cli_print_diag(stderr, &d);
    }
    return errors.n == 0 ? 0 : error_exit_code(diag_first(&errors)->phase);
}
