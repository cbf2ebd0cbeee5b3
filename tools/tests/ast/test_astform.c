/* test_astform: the `ast:` form: every node kind read into the tree, variable identity by
 * name and #k suffix, every BadAst error with its line and column, write-read round trips.
 * SPEC_NOTES: "The ast: form" (AST-1). */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/equal/equal.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/tests/unit.h"

/* Split in two: C99 promises string literals of 4095 characters only. */
static const char *const full_module_head =
    "IRModule:\n"
    "  global_info:\n"
    "    vdevice:\n"
    "    - VDevice: {target: llvm, vdevice_id: 0, memory_scope: global}\n"
    "    - VDevice: {target: {kind: cuda, arch: sm_80}, vdevice_id: 1}\n"
    "  attrs: {system_lib_prefix: \"lib_\", count: 3}\n"
    "  funcs:\n"
    "    ext: {ExternFunc: my_ext}\n"
    "    helper:\n"
    "      Function:\n"
    "        params:\n"
    "        - Var: a\n"
    "          struct_info: {PrimStructInfo: {value: {ShapeVar: n}}}\n"
    "        ret_struct_info: {PrimStructInfo: int64}\n"
    "        is_pure: false\n"
    "        body: {SeqExpr: {body: {Var: a}}}\n"
    "    main:\n"
    "      Function:\n"
    "        params:\n"
    "        - Var: x\n"
    "          struct_info:\n"
    "            TensorStructInfo: {shape: [{ShapeVar: n}, 4], dtype: float32, vdevice: 0}\n"
    "        - Var: s\n"
    "          struct_info: {ShapeStructInfo: {ndim: 2}}\n"
    "        - Var: t\n"
    "          struct_info_annotation:\n"
    "            TupleStructInfo: [{ObjectStructInfo: {}},\n"
    "                              {ShapeStructInfo: [{ShapeVar: m, dtype: int32}]}]\n"
    "        - Var: f\n"
    "          struct_info:\n"
    "            FuncStructInfo: {params: [{PrimStructInfo: bool}],\n"
    "                             ret: {ObjectStructInfo: {}}, purity: false}\n"
    "        - Var: g\n"
    "          struct_info:\n"
    "            FuncStructInfo: {ret: {TensorStructInfo: {ndim: 1}}, derive_func: my.derive}\n"
    "        ret_struct_info: {TensorStructInfo: {shape: {Var: s}, dtype: float32}}\n"
    "        attrs: {global_symbol: main, num_input: 1, ratio: 0.5, flag: true,\n"
    "                nothing: null, items: [1, \"two\"], sub: {k: v}}\n"
    "        body:\n";

static const char *const full_module_body =
    "          SeqExpr:\n"
    "            blocks:\n"
    "            - DataflowBlock:\n"
    "                bindings:\n"
    "                - VarBinding:\n"
    "                    var: {DataflowVar: y}\n"
    "                    value:\n"
    "                      Call:\n"
    "                        op: {Op: relax.add}\n"
    "                        args:\n"
    "                        - {Var: x}\n"
    "                        - Constant: {dtype: float32, shape: [4],\n"
    "                                     data: [1, 2.5, nan, -inf]}\n"
    "                - VarBinding:\n"
    "                    var: {Var: z}\n"
    "                    value: {Call: {op: {Op: relax.nn.softmax}, args: [{DataflowVar: y}],\n"
    "                                   attrs: {axis: -1}}}\n"
    "            - BindingBlock:\n"
    "              - MatchCast:\n"
    "                  var: {Var: w}\n"
    "                  struct_info: {TensorStructInfo: {shape: [{ShapeVar: k}, 4], dtype: "
    "float32}}\n"
    "                  value: {Var: z}\n"
    "              - MatchCast:\n"
    "                  struct_info: {ShapeStructInfo: [{ShapeVar: k}, 4]}\n"
    "                  value: {Var: s}\n"
    "              - VarBinding:\n"
    "                  var: {Var: c}\n"
    "                  value:\n"
    "                    If:\n"
    "                      cond: {PrimValue: {LT: [{ShapeVar: n}, 3]}}\n"
    "                      true_branch: {SeqExpr: {body: {Tuple: []}}}\n"
    "                      false_branch:\n"
    "                        SeqExpr: {blocks: [], body: {Tuple: [{Var: x}, {StringImm: "
    "\"hi\"}]}}\n"
    "              - VarBinding:\n"
    "                  var: {Var: p}\n"
    "                  value:\n"
    "                    PrimValue:\n"
    "                      Select: [{EQ: [{ShapeVar: n}, 1]}, {Add: [{ShapeVar: n}, 1]},\n"
    "                               {Mul: [{FloorDiv: [{ShapeVar: n}, 2]}, {Max: {a: 7, b: 2}}]}]\n"
    "              - VarBinding:\n"
    "                  var: {Var: d}\n"
    "                  value:\n"
    "                    Tuple:\n"
    "                    - {DataTypeImm: float16}\n"
    "                    - {ShapeExpr: [1, {Sub: [{ShapeVar: n}, 1]}]}\n"
    "                    - {TupleGetItem: {tuple_value: {Var: t}, index: 1}}\n"
    "                    - {GlobalVar: helper}\n"
    "                    - {ExternFunc: {global_symbol: spectest.print}}\n"
    "              - VarBinding:\n"
    "                  var: {Var: q}\n"
    "                  value: {PrimValue: {Cast: {dtype: float32,\n"
    "                                             value: {IntImm: {value: 3, dtype: int32}}}}}\n"
    "              - VarBinding:\n"
    "                  var: {Var: r}\n"
    "                  value:\n"
    "                    PrimValue:\n"
    "                      Or: [{Not: {IntImm: {value: true, dtype: bool}}},\n"
    "                           {NE: [{FloatImm: {value: 1.5, dtype: float32}}, {FloatImm: 2}]}]\n"
    "              - VarBinding:\n"
    "                  var: {Var: inner}\n"
    "                  value:\n"
    "                    Function:\n"
    "                      params: [{Var: u, struct_info: {ObjectStructInfo: {}}}]\n"
    "                      body: {Var: u}\n"
    "              - VarBinding:\n"
    "                  var: {Var: cl}\n"
    "                  value: {Call: {op: {Var: inner}, args: [{Var: x}],\n"
    "                                 sinfo_args: [{ObjectStructInfo: {}}]}}\n"
    "            body: {Var: w}\n";

static const char *const identity_doc =
    "Function:\n"
    "  params:\n"
    "  - {Var: x}\n"
    "  - {Var: x#2}\n"
    "  - {DataflowVar: x}\n"
    "  body:\n"
    "    Tuple: [{Var: x}, {Var: x#2}, {DataflowVar: x},\n"
    "            {ShapeExpr: [{ShapeVar: n}, {ShapeVar: n#2}, {ShapeVar: n}]}]\n";

static const char *full_module(void)
{
    return mem_printf("%s%s", full_module_head, full_module_body);
}

static IRModule *read_ok(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "\n%s\n", error_format(&trap.error));
        CU_FAIL_FATAL("unexpected error");
        return NULL;
    }
    return astform_read_text("t.yaml", text, &trap);
}

static const Binding *binding_at(const Expr *seq, int block, int i)
{
    return seq->u.seq.blocks[block]->bindings[i];
}

static void check_signature(const IRModule *m, const Function *f)
{
    CU_ASSERT_EQUAL_FATAL(f->nparams, 5);
    const StructInfo *xs = f->params[0]->annotation;
    CU_ASSERT_EQUAL_FATAL(xs->kind, SINFO_TENSOR);
    CU_ASSERT_EQUAL(xs->u.tensor.ndim, 2);
    CU_ASSERT_EQUAL(xs->u.tensor.vdevice, m->vdevices[0]);
    CU_ASSERT_STRING_EQUAL(dtype_str(xs->u.tensor.dtype), "float32");
    CU_ASSERT_EQUAL_FATAL(xs->u.tensor.shape->kind, EXPR_SHAPE);
    const PrimExpr *n = xs->u.tensor.shape->u.shape.values[0];
    CU_ASSERT_TRUE(n->kind == PE_VAR && strcmp(n->u.var->name, "n") == 0);
    CU_ASSERT_TRUE(dtype_equal(n->u.var->dtype, dtype_int64()));
    const StructInfo *ss = f->params[1]->annotation;
    CU_ASSERT_TRUE(ss->kind == SINFO_SHAPE && ss->u.shape.ndim == 2 && !ss->u.shape.values);
    const StructInfo *ts = f->params[2]->annotation;
    CU_ASSERT_TRUE(ts->kind == SINFO_TUPLE && ts->u.tuple.n == 2);
    CU_ASSERT_EQUAL(ts->u.tuple.fields[0]->kind, SINFO_OBJECT);
    const PrimExpr *mv = ts->u.tuple.fields[1]->u.shape.values[0];
    CU_ASSERT_TRUE(dtype_equal(mv->u.var->dtype, dtype_int32()));
    const StructInfo *fs = f->params[3]->annotation;
    CU_ASSERT_TRUE(fs->kind == SINFO_FUNC && fs->u.func.has_params && !fs->u.func.purity);
    CU_ASSERT_TRUE(dtype_is_bool(fs->u.func.params[0]->u.prim.dtype));
    const StructInfo *gs = f->params[4]->annotation;
    CU_ASSERT_TRUE(!gs->u.func.has_params && gs->u.func.purity);
    CU_ASSERT_STRING_EQUAL(gs->u.func.derive_func, "my.derive");
    CU_ASSERT_EQUAL(gs->u.func.ret->u.tensor.ndim, 1);
    /* ret shape is the parameter s itself; ndim comes from s's annotation */
    CU_ASSERT_EQUAL(f->ret->u.tensor.shape->kind, EXPR_VAR);
    CU_ASSERT_EQUAL(f->ret->u.tensor.shape->u.var, f->params[1]);
    CU_ASSERT_EQUAL(f->ret->u.tensor.ndim, 2);
}

static void check_attrs(const Function *f)
{
    const Attrs *a = f->attrs;
    CU_ASSERT_EQUAL(attrs_get(a, "global_symbol")->kind, ATTR_STR);
    CU_ASSERT_EQUAL(attrs_get(a, "num_input")->u.i, 1);
    CU_ASSERT_EQUAL(attrs_get(a, "ratio")->kind, ATTR_FLOAT);
    CU_ASSERT_DOUBLE_EQUAL(attrs_get(a, "ratio")->u.f, 0.5, 0);
    CU_ASSERT_TRUE(attrs_get(a, "flag")->kind == ATTR_BOOL && attrs_get(a, "flag")->u.b);
    CU_ASSERT_EQUAL(attrs_get(a, "nothing")->kind, ATTR_NONE);
    const AttrValue *items = attrs_get(a, "items");
    CU_ASSERT_TRUE(items->kind == ATTR_LIST && items->u.list.n == 2);
    CU_ASSERT_EQUAL(items->u.list.items[1]->kind, ATTR_STR);
    CU_ASSERT_STRING_EQUAL(attrs_get(attrs_get(a, "sub")->u.dict, "k")->u.s, "v");
}

static void check_dataflow_block(const Function *f)
{
    const Expr *body = f->body;
    CU_ASSERT_EQUAL_FATAL(body->kind, EXPR_SEQ);
    CU_ASSERT_EQUAL_FATAL(body->u.seq.nblocks, 2);
    CU_ASSERT_TRUE(body->u.seq.blocks[0]->is_dataflow && !body->u.seq.blocks[1]->is_dataflow);
    const Binding *b0 = binding_at(body, 0, 0);
    CU_ASSERT_TRUE(b0->var->is_dataflow && strcmp(b0->var->name, "y") == 0);
    const Expr *call = b0->value;
    CU_ASSERT_STRING_EQUAL(call->u.call.op->u.op_name, "relax.add");
    CU_ASSERT_EQUAL(call->u.call.args[0]->u.var, f->params[0]);
    const ConstData *c = call->u.call.args[1]->u.constant;
    CU_ASSERT_TRUE(c->ndim == 1 && c->numel == 4);
    CU_ASSERT_EQUAL(((float *)c->data)[1], 2.5f);
    CU_ASSERT_TRUE(isnan(((float *)c->data)[2]));
    CU_ASSERT_EQUAL(((float *)c->data)[3], -INFINITY);
    const Binding *b1 = binding_at(body, 0, 1);
    CU_ASSERT_EQUAL(b1->value->u.call.args[0]->u.var, b0->var);
    CU_ASSERT_EQUAL(attrs_get(b1->value->u.call.attrs, "axis")->u.i, -1);
}

static void check_binding_block(const IRModule *m, const Function *f)
{
    const Expr *body = f->body;
    CU_ASSERT_EQUAL_FATAL(body->u.seq.blocks[1]->n, 9);
    const Binding *mc = binding_at(body, 1, 0);
    CU_ASSERT_EQUAL(mc->kind, BIND_MATCH_CAST);
    CU_ASSERT_EQUAL(body->u.seq.body->u.var, mc->var);
    const Binding *mc2 = binding_at(body, 1, 1);
    CU_ASSERT_TRUE(mc2->kind == BIND_MATCH_CAST && mc2->var == NULL);
    /* the k of both MatchCasts, and the n of the If condition, are shared objects */
    CU_ASSERT_EQUAL(mc->struct_info->u.tensor.shape->u.shape.values[0]->u.var,
                    mc2->struct_info->u.shape.values[0]->u.var);
    const Expr *ife = binding_at(body, 1, 2)->value;
    CU_ASSERT_EQUAL_FATAL(ife->kind, EXPR_IF);
    const TirVar *n = f->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_EQUAL(ife->u.if_.cond->u.prim->u.bin.a->u.var, n);
    CU_ASSERT_EQUAL(ife->u.if_.cond->u.prim->kind, PE_LT);
    CU_ASSERT_TRUE(dtype_is_bool(ife->u.if_.cond->u.prim->dtype));
    CU_ASSERT_EQUAL(ife->u.if_.else_branch->u.seq.body->u.tuple.fields[1]->kind, EXPR_STRING);
    const PrimExpr *sel = binding_at(body, 1, 3)->value->u.prim;
    CU_ASSERT_TRUE(sel->kind == PE_SELECT && sel->u.select.else_value->kind == PE_MUL);
    CU_ASSERT_EQUAL(sel->u.select.else_value->u.bin.b->kind, PE_MAX);
    const Expr *tup = binding_at(body, 1, 4)->value;
    CU_ASSERT_EQUAL(tup->u.tuple.fields[0]->u.dtype.bits, 16);
    CU_ASSERT_EQUAL(tup->u.tuple.fields[1]->u.shape.values[1]->kind, PE_SUB);
    CU_ASSERT_EQUAL(tup->u.tuple.fields[2]->u.get_item.index, 1);
    CU_ASSERT_EQUAL(tup->u.tuple.fields[3]->u.gvar, module_lookup(m, "helper")->gvar);
    CU_ASSERT_STRING_EQUAL(tup->u.tuple.fields[4]->u.extern_symbol, "spectest.print");
    const PrimExpr *cast = binding_at(body, 1, 5)->value->u.prim;
    CU_ASSERT_TRUE(cast->kind == PE_CAST && cast->dtype.code == DT_FLOAT);
    CU_ASSERT_TRUE(dtype_equal(cast->u.operand->dtype, dtype_int32()));
    const PrimExpr *orr = binding_at(body, 1, 6)->value->u.prim;
    CU_ASSERT_EQUAL(orr->u.bin.a->u.operand->u.int_value, 1);
    const Binding *inner = binding_at(body, 1, 7);
    CU_ASSERT_STRING_EQUAL(inner->value->u.func->name, "inner");
    CU_ASSERT_EQUAL(binding_at(body, 1, 8)->value->u.call.op->u.var, inner->var);
    CU_ASSERT_EQUAL(binding_at(body, 1, 8)->value->u.call.nsinfo_args, 1);
}

static void test_every_node(void)
{
    IRModule *m = read_ok(full_module());
    CU_ASSERT_FALSE(m->is_lone_function);
    CU_ASSERT_EQUAL_FATAL(m->nfuncs, 3);
    CU_ASSERT_EQUAL(m->funcs[0]->kind, MODFUNC_EXTERN);
    CU_ASSERT_STRING_EQUAL(m->funcs[0]->u.extern_symbol, "my_ext");
    CU_ASSERT_EQUAL_FATAL(m->nvdevices, 2);
    CU_ASSERT_STRING_EQUAL(m->vdevices[1]->target_kind, "cuda");
    CU_ASSERT_EQUAL(m->vdevices[1]->vdevice_id, 1);
    CU_ASSERT_STRING_EQUAL(m->vdevices[1]->memory_scope, "global");
    CU_ASSERT_STRING_EQUAL(attrs_get(m->attrs, "system_lib_prefix")->u.s, "lib_");
    const Function *helper = module_lookup(m, "helper")->u.relax;
    CU_ASSERT_FALSE(helper->is_pure);
    CU_ASSERT_STRING_EQUAL(helper->name, "helper");
    const Function *f = module_lookup(m, "main")->u.relax;
    check_signature(m, f);
    /* one shape variable n per case: helper's and main's are the same object */
    CU_ASSERT_EQUAL(helper->params[0]->annotation->u.prim.value->u.var,
                    f->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var);
    check_attrs(f);
    check_dataflow_block(f);
    check_binding_block(m, f);
}

static void test_identity(void)
{
    IRModule *m = read_ok(identity_doc);
    CU_ASSERT_TRUE(m->is_lone_function);
    CU_ASSERT_EQUAL_FATAL(m->nfuncs, 1);
    CU_ASSERT_STRING_EQUAL(m->funcs[0]->gvar->name, "main");
    const Function *f = m->funcs[0]->u.relax;
    CU_ASSERT_STRING_EQUAL(f->name, "main");
    CU_ASSERT_PTR_NOT_EQUAL(f->params[0], f->params[1]);
    CU_ASSERT_PTR_NOT_EQUAL(f->params[0], f->params[2]);
    CU_ASSERT_STRING_EQUAL(f->params[1]->name, "x");
    CU_ASSERT_TRUE(f->params[2]->is_dataflow && strcmp(f->params[2]->name, "x") == 0);
    Expr **fields = f->body->u.tuple.fields;
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(fields[i]->u.var, f->params[i]);
    PrimExpr **dims = fields[3]->u.shape.values;
    CU_ASSERT_PTR_NOT_EQUAL(dims[0]->u.var, dims[1]->u.var);
    CU_ASSERT_EQUAL(dims[0]->u.var, dims[2]->u.var);
    CU_ASSERT_STRING_EQUAL(dims[1]->u.var->name, "n");
    /* the spec's field-form spelling of a variable */
    IRModule *m2 =
        read_ok("Function:\n  params:\n"
                "  - Var: {name_hint: a, struct_info_annotation: {PrimStructInfo: int32}}\n"
                "  body: {Var: a}\n");
    const Function *f2 = m2->funcs[0]->u.relax;
    CU_ASSERT_EQUAL(f2->body->u.var, f2->params[0]);
    CU_ASSERT_TRUE(dtype_equal(f2->params[0]->annotation->u.prim.dtype, dtype_int32()));
}

typedef struct ErrCase {
    const char *text;
    int line;
    int col;
    const char *words; /* a fragment of the message */
} ErrCase;

static const ErrCase err_cases[] = {
    {"Function:\n  params: []\n  body: {Foo: 1}\n", 3, 9, "unknown node"},
    {"Function:\n  params: []\n  body: {TensorStructInfo: {}}\n", 3, 9, "expected an Expr"},
    {"Function:\n  params: []\n  bdy: {Tuple: []}\n", 3, 3, "no field 'bdy'"},
    {"Function:\n  params: []\n", 1, 1, "missing its field 'body'"},
    {"Function:\n  body: {DataTypeImm: floot32}\n", 2, 23, "floot32"},
    {"Function:\n  body: {Constant: {dtype: int8, data: [1, 300]}}\n", 2, 44, "fit"},
    {"Function:\n  body: {Constant: {dtype: int32, shape: [3], data: [1, 2]}}\n", 2, 53, "2 data"},
    {"Function:\n  body: {Constant: {dtype: int32, data: [[1], [2, 3]]}}\n", 2, 41, "ragged"},
    {"- 1\n", 1, 1, "expected a node"},
    {"Function: [\n", 2, 1, "expected"},
    {"", 1, 1, "empty"},
    {"SeqExpr: {body: {Tuple: []}}\n", 1, 1, "expected an IRModule or a Function"},
    {"Function:\n  body: {Var: x, struct_info: {ObjectStructInfo: {}}}\n", 2, 31, "bound"},
    {"Function:\n  params: [{Var: x, struct_info: {ObjectStructInfo: {}}}]\n"
     "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: x, struct_info: "
     "{ObjectStructInfo: {}}}, value: {Tuple: []}}}]}], body: {Tuple: []}}}\n",
     3, 86, "two binding sites"},
    {"Function:\n  body: {ShapeExpr: [n]}\n", 2, 22, "ShapeVar"},
    {"Function:\n  body: {ShapeExpr: [{Var: n}]}\n", 2, 22, "ShapeVar"},
    {"Function:\n  body: {PrimValue: {Add: [{IntImm: {value: 1, dtype: int32}}, 2]}}\n", 2, 21,
     "different dtypes"},
    {"Function:\n  body: {PrimValue: {Add: [1]}}\n", 2, 27, "2 operands"},
    {"Function:\n  body: {Tuple: []}\n  extra: 1\n", 3, 3, "no field 'extra'"},
    {"Function: {body: {Tuple: []}}\nIRModule: {}\n", 2, 1, "beside"},
    {"Function:\n  body: {Var: \"#2\"}\n", 2, 15, "needs a name"},
    {"Function:\n  body: &b {Tuple: [*b]}\n", 2, 9, "deeper"},
    {"Function:\n  body: {TensorStructInfo: {}}\n  body: {Tuple: []}\n", 3, 3, "twice"},
    {"IRModule:\n  funcs:\n    f: {Tuple: []}\n", 3, 8, "expected a Function, PrimFunc"},
    {"IRModule:\n  funcs: {f: {ExternFunc: a}, f: {ExternFunc: b}}\n", 2, 31, "bound twice"},
    {"Function:\n  body: {TensorStructInfo: {ndim: -2}}\n", 2, 9, "expected an Expr"},
    {"Function:\n  params: [{Var: x, struct_info: {TensorStructInfo: {ndim: -2}}}]\n"
     "  body: {Var: x}\n",
     2, 60, "ndim"},
    {"Function:\n  params: [{Var: x, struct_info: {TensorStructInfo: {vdevice: 0}}}]\n"
     "  body: {Var: x}\n",
     2, 63, "not in global_info"},
    {"Function:\n  body: {TupleGetItem: {tuple_value: {Tuple: []}}}\n", 2, 9,
     "missing its field 'index'"},
    {"Function:\n  is_pure: maybe\n  body: {Tuple: []}\n", 2, 12, "true or false"},
    {"Function:\n  body: {Call: {op: {Op: relax.add}, attrs: [1]}}\n", 2, 45, "mapping"},
};

static void test_errors(void)
{
    for (volatile size_t i = 0; i < sizeof err_cases / sizeof err_cases[0]; i++) {
        const ErrCase *c = &err_cases[i];
        ErrorTrap trap;
        if (setjmp(trap.jmp) == 0) {
            astform_read_text("e.yaml", c->text, &trap);
            fprintf(stderr, "\nno error for case %zu\n", i);
            CU_FAIL("expected BadAst");
            continue;
        }
        const Error *e = &trap.error;
        bool ok = e->phase == PHASE_PARSE && strcmp(e->code, "BadAst") == 0 &&
                  strcmp(e->rule, "AST-1") == 0 && e->span.line == c->line &&
                  e->span.col == c->col && strstr(e->message, c->words) != NULL;
        if (!ok)
            fprintf(stderr, "\ncase %zu: %s\n", i, error_format(e));
        CU_ASSERT_TRUE(ok);
    }
}

/* Writing is deterministic, so read(write(m)) written again gives the same text exactly when
 * the reader rebuilt what the writer saw. */
static void round_trip(const char *text)
{
    IRModule *m = read_ok(text);
    char *w1 = astform_write(m);
    IRModule *m2 = read_ok(w1);
    char *w2 = astform_write(m2);
    CU_ASSERT_STRING_EQUAL(w1, w2);
    CU_ASSERT_EQUAL(m->nfuncs, m2->nfuncs);
    CU_ASSERT_EQUAL(m->is_lone_function, m2->is_lone_function);
    if (strcmp(w1, w2) != 0)
        fprintf(stderr, "\n--- first\n%s\n--- second\n%s\n", w1, w2);
}

static void test_round_trip(void)
{
    round_trip(full_module());
    round_trip(identity_doc);
    IRModule *m = read_ok(identity_doc);
    const char *w = astform_write(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(w, "x#2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(w, "n#2"));
    IRModule *back = read_ok(w);
    const Function *f = back->funcs[0]->u.relax;
    CU_ASSERT_PTR_NOT_EQUAL(f->params[0], f->params[1]);
    CU_ASSERT_STRING_EQUAL(f->params[1]->name, "x");
}

/* Strings that would read as numbers, bools or null are quoted; names ending in #digits keep
 * their text; odd float and integer dtypes survive. */
static void test_write_quoting(void)
{
    const char *doc =
        "Function:\n"
        "  params: [{Var: \"v#7\"}]\n"
        "  attrs: {a: \"1\", b: \"true\", c: \"null\", d: \"1.5\", e: 2.0, f: \"x: y\",\n"
        "          g: \"#c\", h: \"\", i: \"nan\", j: ~}\n"
        "  body:\n"
        "    Tuple:\n"
        "    - {StringImm: \"007\"}\n"
        "    - {StringImm: \"line1\\nline2\"}\n"
        "    - {Constant: {dtype: float16, data: [[0.1, 65504], [-0.0, 1e-7]]}}\n"
        "    - {Constant: {dtype: bool, data: [true, false, 1]}}\n"
        "    - {Constant: {dtype: uint64, data: 18446744073709551615}}\n"
        "    - {Constant: {dtype: bfloat16, shape: [0], data: []}}\n"
        "    - {Constant: {dtype: float64, data: [0.1, 1e300, -inf]}}\n"
        "    - {Var: \"v#7\"}\n";
    IRModule *m = read_ok(doc);
    const Function *f = m->funcs[0]->u.relax;
    CU_ASSERT_STRING_EQUAL(f->params[0]->name, "v");
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "a")->kind, ATTR_STR);
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "e")->kind, ATTR_FLOAT);
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "j")->kind, ATTR_NONE);
    const ConstData *u = f->body->u.tuple.fields[4]->u.constant;
    CU_ASSERT_EQUAL(u->ndim, 0);
    CU_ASSERT_EQUAL(((uint64_t *)u->data)[0], UINT64_MAX);
    round_trip(doc);
    IRModule *back = read_ok(astform_write(m));
    const Function *g = back->funcs[0]->u.relax;
    CU_ASSERT_EQUAL(attrs_get(g->attrs, "a")->kind, ATTR_STR);
    CU_ASSERT_STRING_EQUAL(attrs_get(g->attrs, "f")->u.s, "x: y");
    CU_ASSERT_STRING_EQUAL(g->body->u.tuple.fields[1]->u.str, "line1\nline2");
    CU_ASSERT_EQUAL(((uint16_t *)g->body->u.tuple.fields[2]->u.constant->data)[1], 0x7bff);
}

static const char *const primfunc_doc =
    "IRModule:\n"
    "  funcs:\n"
    "    add_one:\n"
    "      PrimFunc: |\n"
    "        @T.prim_func\n"
    "        def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "            for i in range(4):\n"
    "                with T.block(\"b\"):\n"
    "                    vi = T.axis.spatial(4, i)\n"
    "                    B[vi] = A[vi] + T.float32(1)\n"
    "    main:\n"
    "      Function:\n"
    "        params: [{Var: x, struct_info: {TensorStructInfo: {shape: [4], dtype: float32}}}]\n"
    "        body:\n"
    "          Call:\n"
    "            op: {Op: relax.call_tir}\n"
    "            args: [{GlobalVar: add_one}, {Tuple: [{Var: x}]}]\n"
    "            sinfo_args: [{TensorStructInfo: {shape: [4], dtype: float32}}]\n";

static void test_primfunc(void)
{
    IRModule *m = read_ok(primfunc_doc);
    const ModuleFunc *pf = module_lookup(m, "add_one");
    CU_ASSERT_EQUAL_FATAL(pf->kind, MODFUNC_PRIM);
    CU_ASSERT_STRING_EQUAL(pf->u.prim->name, "add_one");
    CU_ASSERT_EQUAL(pf->u.prim->nparams, 2);
    const Expr *call = module_lookup(m, "main")->u.relax->body;
    CU_ASSERT_EQUAL(call->u.call.args[0]->u.gvar, pf->gvar);
    const char *w = astform_write(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(w, "PrimFunc: |"));
    IRModule *back = read_ok(w);
    const char *why = NULL;
    CU_ASSERT_TRUE(equal_module_explain(m, back, &why));
    if (why != NULL)
        fprintf(stderr, "\n%s\n%s\n", why, w);
    /* an error inside the text keeps its own code; its line is the case file's */
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        astform_read_text("p.yaml",
                          "IRModule:\n  funcs:\n    f:\n      PrimFunc: |\n"
                          "        @T.prim_func\n        def f(:\n",
                          &trap);
        CU_FAIL("expected a parse error");
    } else {
        CU_ASSERT_EQUAL(trap.error.phase, PHASE_PARSE);
        CU_ASSERT_STRING_NOT_EQUAL(trap.error.code, "BadAst");
        CU_ASSERT_EQUAL(trap.error.span.line, 6);
    }
}

/* Every text program of the corpus, parsed, written in the ast: form and read back, is
 * alpha-equivalent to itself. */
static int check_corpus_file(const char *path)
{
    CaseFile *cf = unit_case_file(path, NULL);
    if (cf == NULL)
        return 0;
    int checked = 0;
    for (volatile int i = 0; i < cf->ncases; i++) {
        const Case *c = cf->cases[i];
        ErrorTrap t2;
        if (c->program == NULL || setjmp(t2.jmp) != 0)
            continue;
        IRModule *m = script_parse(c->global_id, c->program, &t2);
        const char *w = astform_write(m);
        /* The spec's grammar, and so the ast: form, has no DTensor (SPEC_NOTES §4.24). */
        if (strstr(w, "DTensorStructInfo") != NULL || m->nmesh_groups > 0)
            continue;
        ErrorTrap t3;
        if (setjmp(t3.jmp) != 0) {
            fprintf(stderr, "\n%s: %s\n", c->global_id, error_format(&t3.error));
            CU_FAIL("written ast: form does not read back");
            continue;
        }
        IRModule *back = astform_read_text(c->global_id, w, &t3);
        const char *why = NULL;
        if (!equal_module_explain(m, back, &why)) {
            fprintf(stderr, "\n%s: %s\n", c->global_id, why ? why : "?");
            CU_FAIL("ast: write then read differs");
        }
        CU_ASSERT_STRING_EQUAL(astform_write(back), w);
        checked++;
    }
    return checked;
}

static void test_corpus_programs(void)
{
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    int checked = 0;
    for (int i = 0; i < n; i++)
        checked += check_corpus_file(paths[i]);
    CU_ASSERT_TRUE(checked > 0);
}

UNIT_SUITE(astform)
{
    CU_pSuite s = CU_add_suite("astform", 0, 0);
    CU_add_test(s, "every node kind", test_every_node);
    CU_add_test(s, "variable identity", test_identity);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "round trip", test_round_trip);
    CU_add_test(s, "write quoting", test_write_quoting);
    CU_add_test(s, "PrimFunc text", test_primfunc);
    CU_add_test(s, "corpus programs through the ast: form", test_corpus_programs);
}
