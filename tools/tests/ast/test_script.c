/* test_script: the Relax TVMScript translator: module and lone forms, statements, dataflow,
 * if/else, shape variables, call forms, constants and annotations (the parse error codes are
 * in test_script_errors.c). SPEC_NOTES: TS-1 to TS-8. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ast/scalar.h"
#include "ast/script/script.h"
#include "tools/tests/ast/script_fixture.h"
#include "tools/tests/unit.h"

#define HDR "from tvm.script import ir as I, relax as R, tir as T\n\n"

static IRModule *parse(const char *text)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        return script_parse("test.py", text, &trap);
    fprintf(stderr, "\nunexpected error: %s\n", error_format(&trap.error));
    return NULL;
}

/* A lone function with parameter x; its body starts on line 3. */
#define FN(body) "@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n" body

static void expect_error(const char *text, const char *code, const char *rule)
{
    script_fixture_expect_error(text, code, rule, 0);
}

static Function *func(IRModule *m, const char *name)
{
    ModuleFunc *f = module_lookup(m, name);
    if (!f || f->kind != MODFUNC_RELAX)
        return NULL;
    return f->u.relax;
}

/* The only function of a lone-function module. */
static Function *lone(const char *text)
{
    IRModule *m = parse(text);
    if (!m || m->nfuncs != 1 || m->funcs[0]->kind != MODFUNC_RELAX)
        return NULL;
    return m->funcs[0]->u.relax;
}

static Binding *bind_at(Function *f, int block, int i)
{
    Expr *body = f->body;
    if (body->kind != EXPR_SEQ || block >= body->u.seq.nblocks)
        return NULL;
    BindingBlock *b = body->u.seq.blocks[block];
    return i < b->n ? b->bindings[i] : NULL;
}

static bool is_op_call(const Expr *e, const char *op)
{
    return e && e->kind == EXPR_CALL && e->u.call.op->kind == EXPR_OP &&
           strcmp(e->u.call.op->u.op_name, op) == 0;
}

static bool is_var(const Expr *e, const Var *v)
{
    return e && e->kind == EXPR_VAR && e->u.var == v;
}

static bool is_int_dim(const PrimExpr *p, int64_t v)
{
    return p->kind == PE_INT && p->u.int_value == v && dtype_equal(p->dtype, dtype_int64());
}

/* ---- outer structure ----------------------------------------------------------------- */

static void test_module_form(void)
{
    expect_error("# from tvm.script import ir as I\n"
                 "# from tvm.script import relax as R\n\n"
                 "@I.ir_module\n"
                 "class Module:\n"
                 "    @R.function\n"
                 "    def main(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), "
                 "dtype=\"float32\"):\n"
                 "        return cls.helper(x)\n"
                 "    @R.function(private=True)\n"
                 "    def helper(x: R.Tensor((2, 3), dtype=\"float32\")):\n"
                 "        cls = Module\n"
                 "        return Module.main(x)\n",
                 "UnknownName", "TS-1"); /* `cls` is unknown in main: aliases are per function */
    IRModule *m;
    m = parse(HDR "@I.ir_module\n"
                  "class Module:\n"
                  "    @R.function\n"
                  "    def main(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), "
                  "dtype=\"float32\"):\n"
                  "        cls = Module\n"
                  "        return cls.helper(x)\n"
                  "    @R.function(private=True)\n"
                  "    def helper(x: R.Tensor((2, 3), dtype=\"float32\")):\n"
                  "        return Module.main(x)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_FALSE(m->is_lone_function);
    CU_ASSERT_EQUAL(m->nfuncs, 2);
    Function *main = func(m, "main");
    Function *helper = func(m, "helper");
    CU_ASSERT_PTR_NOT_NULL_FATAL(main);
    CU_ASSERT_PTR_NOT_NULL_FATAL(helper);
    CU_ASSERT_STRING_EQUAL(function_global_symbol(main), "main");
    CU_ASSERT_PTR_NULL(function_global_symbol(helper));
    CU_ASSERT_PTR_NULL(helper->ret);
    /* cls = Module is no binding: the body has no blocks. */
    CU_ASSERT_EQUAL(main->body->u.seq.nblocks, 0);
    Expr *ret = main->body->u.seq.body;
    CU_ASSERT_EQUAL_FATAL(ret->kind, EXPR_CALL);
    CU_ASSERT_EQUAL_FATAL(ret->u.call.op->kind, EXPR_GLOBAL_VAR);
    CU_ASSERT_PTR_EQUAL(ret->u.call.op->u.gvar, module_lookup(m, "helper")->gvar);
    CU_ASSERT_TRUE(is_var(ret->u.call.args[0], main->params[0]));
    Expr *hret = helper->body->u.seq.body;
    CU_ASSERT_PTR_EQUAL(hret->u.call.op->u.gvar, module_lookup(m, "main")->gvar);
    CU_ASSERT_EQUAL(ret->span.line, 8);
}

static void test_module_body(void)
{
    IRModule *m =
        parse("import tvm\n"
              "@tvm.script.ir_module\n"
              "class Mod:\n"
              "    I.module_attrs({\"system_lib_prefix\": \"lib\", \"n\": 3})\n"
              "    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), "
              "I.vdevice(\"cuda\", 0), I.vdevice({\"kind\": \"cuda\", \"arch\": \"sm_80\"}, 1, "
              "\"global\")]})\n"
              "    ext = R.ExternFunc(\"my_ext\")\n"
              "    @T.prim_func\n"
              "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
              "        for i in range(4):\n"
              "            B[i] = A[i] + T.float32(1)\n"
              "    @R.function\n"
              "    def main(x: R.Tensor((4,), \"float32\", vdevice=\"cuda:1\"), "
              "y: R.Tensor((4,), \"float32\", \"llvm\"), z: R.Tensor((4,), \"float32\", "
              "\"vdevice:1\")):\n"
              "        a = R.call_tir(Mod.add_one, (x,), out_sinfo=R.Tensor((4,), \"float32\"))\n"
              "        b = Mod.ext(a)\n"
              "        return b\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->nfuncs, 3);
    CU_ASSERT_EQUAL(module_lookup(m, "ext")->kind, MODFUNC_EXTERN);
    CU_ASSERT_STRING_EQUAL(module_lookup(m, "ext")->u.extern_symbol, "my_ext");
    CU_ASSERT_EQUAL(module_lookup(m, "add_one")->kind, MODFUNC_PRIM);
    CU_ASSERT_EQUAL(attrs_get(m->attrs, "n")->u.i, 3);
    CU_ASSERT_STRING_EQUAL(attrs_get(m->attrs, "system_lib_prefix")->u.s, "lib");
    CU_ASSERT_EQUAL_FATAL(m->nvdevices, 3);
    CU_ASSERT_STRING_EQUAL(m->vdevices[2]->target_kind, "cuda");
    CU_ASSERT_PTR_NOT_NULL(m->vdevices[2]->target_config);
    CU_ASSERT_EQUAL(m->vdevices[2]->vdevice_id, 1);
    Function *f = func(m, "main");
    CU_ASSERT_PTR_EQUAL(f->params[0]->annotation->u.tensor.vdevice, m->vdevices[2]);
    CU_ASSERT_PTR_EQUAL(f->params[1]->annotation->u.tensor.vdevice, m->vdevices[0]);
    CU_ASSERT_PTR_EQUAL(f->params[2]->annotation->u.tensor.vdevice, m->vdevices[1]);
    Binding *b = bind_at(f, 0, 1);
    CU_ASSERT_EQUAL(b->value->u.call.op->kind, EXPR_GLOBAL_VAR);
    CU_ASSERT_PTR_EQUAL(b->value->u.call.op->u.gvar, module_lookup(m, "ext")->gvar);
}

static void test_lone_form(void)
{
    IRModule *m = parse("@R.function\n"
                        "def f(x: R.Tensor):\n"
                        "    return x\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_TRUE(m->is_lone_function);
    CU_ASSERT_EQUAL(m->nfuncs, 1);
    CU_ASSERT_STRING_EQUAL(m->funcs[0]->gvar->name, "f");
    Function *f = m->funcs[0]->u.relax;
    CU_ASSERT_STRING_EQUAL(function_global_symbol(f), "f");
    CU_ASSERT_EQUAL(f->params[0]->annotation->kind, SINFO_TENSOR);
    CU_ASSERT_EQUAL(f->params[0]->annotation->u.tensor.ndim, -1);
    CU_ASSERT_TRUE(dtype_is_void(f->params[0]->annotation->u.tensor.dtype));
    CU_ASSERT_TRUE(is_var(f->body->u.seq.body, f->params[0]));
    f = lone("@R.function(private=True, pure=False)\n"
             "def g(x: R.Object) -> None:\n"
             "    R.func_attr({\"some_attr\": 1, \"l\": [1, 2.5, \"s\"], \"d\": {\"k\": True}})\n"
             "    return x\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_FALSE(f->is_pure);
    CU_ASSERT_PTR_NULL(function_global_symbol(f));
    CU_ASSERT_TRUE(sinfo_is_void(f->ret));
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "some_attr")->u.i, 1);
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "l")->u.list.n, 3);
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "l")->u.list.items[1]->kind, ATTR_FLOAT);
    CU_ASSERT_EQUAL(attrs_get(f->attrs, "d")->kind, ATTR_DICT);
    f = lone("@R.function\n"
             "def g(x: R.Object):\n"
             "    R.func_attr({\"global_symbol\": \"other\"})\n"
             "    return x\n");
    CU_ASSERT_STRING_EQUAL(function_global_symbol(f), "other");
}

/* ---- statements ---------------------------------------------------------------------- */

static void test_bindings(void)
{
    Function *f =
        lone("@R.function\n"
             "def f(x: R.Tensor((2,), \"float32\"), t: R.Tuple(R.Tensor, R.Object)):\n"
             "    a = R.add(x, x)\n"
             "    b: R.Tensor((2,), \"float32\") = R.multiply(a, x)\n"
             "    c = R.match_cast(b, R.Tensor((2,), \"float32\"))\n"
             "    d: R.Tensor((2,), \"float32\") = R.match_cast(c, R.Tensor((2,), \"float32\"))\n"
             "    p, q = t\n"
             "    r, s = R.split(x, 2)\n"
             "    x = R.add(x, x)\n"
             "    x = R.add(x, x)\n"
             "    k = 1\n"
             "    fl = 1.5\n"
             "    bo = True\n"
             "    tu = (a, b)\n"
             "    em = ()\n"
             "    R.print(x, format=\"{}\")\n"
             "    return R.multiply(R.add(x, x), x)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL_FATAL(f->body->u.seq.nblocks, 1);
    BindingBlock *blk = f->body->u.seq.blocks[0];
    CU_ASSERT_FALSE(blk->is_dataflow);
    CU_ASSERT_EQUAL_FATAL(blk->n, 17);
    Binding *a = blk->bindings[0];
    CU_ASSERT_EQUAL(a->kind, BIND_VAR);
    CU_ASSERT_STRING_EQUAL(a->var->name, "a");
    CU_ASSERT_PTR_NULL(a->var->annotation);
    CU_ASSERT_FALSE(a->var->is_dataflow);
    CU_ASSERT_TRUE(is_op_call(a->value, "relax.add"));
    CU_ASSERT_TRUE(is_var(a->value->u.call.args[0], f->params[0]));
    CU_ASSERT_EQUAL(a->span.line, 3);
    Binding *b = blk->bindings[1];
    CU_ASSERT_PTR_NOT_NULL(b->var->annotation);
    CU_ASSERT_TRUE(is_var(b->value->u.call.args[0], a->var));
    Binding *c = blk->bindings[2];
    CU_ASSERT_EQUAL(c->kind, BIND_MATCH_CAST);
    CU_ASSERT_EQUAL(c->struct_info->kind, SINFO_TENSOR);
    CU_ASSERT_TRUE(is_var(c->value, b->var));
    CU_ASSERT_EQUAL(blk->bindings[3]->kind, BIND_MATCH_CAST);
    CU_ASSERT_PTR_NOT_NULL(blk->bindings[3]->var->annotation);
    /* p, q = t: get items of the parameter itself */
    Binding *p = blk->bindings[4];
    CU_ASSERT_EQUAL(p->value->kind, EXPR_TUPLE_GET_ITEM);
    CU_ASSERT_TRUE(is_var(p->value->u.get_item.tuple, f->params[1]));
    CU_ASSERT_EQUAL(blk->bindings[5]->value->u.get_item.index, 1);
    /* r, s = R.split(...): the call is bound first */
    Binding *hidden = blk->bindings[6];
    CU_ASSERT_TRUE(is_op_call(hidden->value, "relax.split"));
    CU_ASSERT_TRUE(is_var(blk->bindings[7]->value->u.get_item.tuple, hidden->var));
    CU_ASSERT_EQUAL(blk->bindings[8]->value->u.get_item.index, 1);
    /* shadowing: distinct Var objects */
    Binding *x1 = blk->bindings[9];
    Binding *x2 = blk->bindings[10];
    CU_ASSERT_PTR_NOT_EQUAL(x1->var, x2->var);
    CU_ASSERT_PTR_NOT_EQUAL(x1->var, f->params[0]);
    CU_ASSERT_TRUE(is_var(x1->value->u.call.args[0], f->params[0]));
    CU_ASSERT_TRUE(is_var(x2->value->u.call.args[0], x1->var));
    ConstData *k = blk->bindings[11]->value->u.constant;
    CU_ASSERT_EQUAL(blk->bindings[11]->value->kind, EXPR_CONSTANT);
    CU_ASSERT_TRUE(dtype_equal(k->dtype, dtype_int32()));
    CU_ASSERT_EQUAL(k->ndim, 0);
    CU_ASSERT_EQUAL(((int32_t *)k->data)[0], 1);
    CU_ASSERT_TRUE(dtype_equal(blk->bindings[12]->value->u.constant->dtype, dtype_float32()));
    CU_ASSERT_TRUE(dtype_is_bool(blk->bindings[13]->value->u.constant->dtype));
    CU_ASSERT_EQUAL(blk->bindings[14]->value->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL(blk->bindings[14]->value->u.tuple.n, 2);
    CU_ASSERT_EQUAL(blk->bindings[15]->value->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL(blk->bindings[15]->value->u.tuple.n, 0);
    Binding *pr = blk->bindings[16];
    CU_ASSERT_TRUE(pr->from_expr_stmt);
    CU_ASSERT_STRING_EQUAL(pr->var->name, "_");
    CU_ASSERT_TRUE(is_op_call(pr->value, "relax.print"));
    /* TVM's layout: the format is the first argument, a StringImm. */
    CU_ASSERT_EQUAL_FATAL(pr->value->u.call.nargs, 2);
    CU_ASSERT_EQUAL(pr->value->u.call.args[0]->kind, EXPR_STRING);
    CU_ASSERT_EQUAL(pr->value->u.call.attrs->n, 0);
    /* nested calls stay nested */
    Expr *ret = f->body->u.seq.body;
    CU_ASSERT_TRUE(is_op_call(ret, "relax.multiply"));
    CU_ASSERT_TRUE(is_op_call(ret->u.call.args[0], "relax.add"));
    CU_ASSERT_TRUE(is_var(ret->u.call.args[1], x2->var));
}

static void test_dataflow(void)
{
    Function *f = lone("@R.function\n"
                       "def f(x: R.Tensor((2,), \"float32\")):\n"
                       "    y = R.add(x, x)\n"
                       "    with R.dataflow():\n"
                       "        lv = R.add(y, x)\n"
                       "        lv1 = R.match_cast(lv, R.Tensor((2,), \"float32\"))\n"
                       "        gv = R.multiply(lv, lv1)\n"
                       "        R.output(gv, lv1)\n"
                       "    z = R.add(gv, lv1)\n"
                       "    with R.dataflow():\n"
                       "        lv = R.add(z, z)\n"
                       "        w = R.add(lv, lv)\n"
                       "        return w\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL_FATAL(f->body->u.seq.nblocks, 4);
    BindingBlock **bl = f->body->u.seq.blocks;
    CU_ASSERT_FALSE(bl[0]->is_dataflow);
    CU_ASSERT_TRUE(bl[1]->is_dataflow);
    CU_ASSERT_FALSE(bl[2]->is_dataflow);
    CU_ASSERT_TRUE(bl[3]->is_dataflow);
    CU_ASSERT_EQUAL(bl[1]->n, 3);
    CU_ASSERT_TRUE(bl[1]->bindings[0]->var->is_dataflow);
    CU_ASSERT_FALSE(bl[1]->bindings[1]->var->is_dataflow);
    CU_ASSERT_FALSE(bl[1]->bindings[2]->var->is_dataflow);
    CU_ASSERT_TRUE(is_var(bl[2]->bindings[0]->value->u.call.args[0], bl[1]->bindings[2]->var));
    CU_ASSERT_TRUE(bl[3]->bindings[0]->var->is_dataflow);
    CU_ASSERT_FALSE(bl[3]->bindings[1]->var->is_dataflow);
    CU_ASSERT_TRUE(is_var(f->body->u.seq.body, bl[3]->bindings[1]->var));
    /* a dataflow name that was not output vanishes, uncovering the outer one */
    f = lone("@R.function\n"
             "def f(x: R.Tensor((2,), \"float32\")):\n"
             "    with R.dataflow():\n"
             "        x = R.add(x, x)\n"
             "        R.output()\n"
             "    return x\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(is_var(f->body->u.seq.body, f->params[0]));
}

static void test_if_else(void)
{
    Function *f = lone("@R.function\n"
                       "def f(c: R.Tensor((), \"bool\"), x: R.Tensor((2,), \"float32\")):\n"
                       "    if c:\n"
                       "        a = R.add(x, x)\n"
                       "        y: R.Tensor((2,), \"float32\") = R.multiply(a, a)\n"
                       "    else:\n"
                       "        y = R.match_cast(x, R.Tensor((2,), \"float32\"))\n"
                       "    z = R.add(y, y)\n"
                       "    if c:\n"
                       "        w = x\n"
                       "    elif c:\n"
                       "        w = z\n"
                       "    else:\n"
                       "        w = y\n"
                       "    return w\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    BindingBlock *blk = f->body->u.seq.blocks[0];
    CU_ASSERT_EQUAL_FATAL(blk->n, 3);
    Binding *y = blk->bindings[0];
    CU_ASSERT_STRING_EQUAL(y->var->name, "y");
    CU_ASSERT_PTR_NOT_NULL(y->var->annotation);
    CU_ASSERT_EQUAL_FATAL(y->value->kind, EXPR_IF);
    CU_ASSERT_TRUE(is_var(y->value->u.if_.cond, f->params[0]));
    Expr *then_b = y->value->u.if_.then_branch;
    CU_ASSERT_EQUAL_FATAL(then_b->kind, EXPR_SEQ);
    CU_ASSERT_EQUAL(then_b->u.seq.nblocks, 1);
    CU_ASSERT_EQUAL(then_b->u.seq.blocks[0]->n, 1);
    CU_ASSERT_TRUE(is_op_call(then_b->u.seq.body, "relax.multiply"));
    Expr *else_b = y->value->u.if_.else_branch;
    CU_ASSERT_EQUAL(else_b->u.seq.nblocks, 1);
    Binding *mc = else_b->u.seq.blocks[0]->bindings[0];
    CU_ASSERT_EQUAL(mc->kind, BIND_MATCH_CAST);
    CU_ASSERT_TRUE(is_var(else_b->u.seq.body, mc->var));
    CU_ASSERT_PTR_NOT_EQUAL(mc->var, y->var);
    CU_ASSERT_TRUE(is_var(blk->bindings[1]->value->u.call.args[0], y->var));
    /* elif: the else branch holds the nested If bound to a branch-local w */
    Binding *w = blk->bindings[2];
    Expr *inner = w->value->u.if_.else_branch;
    CU_ASSERT_EQUAL(inner->u.seq.nblocks, 1);
    Binding *w2 = inner->u.seq.blocks[0]->bindings[0];
    CU_ASSERT_EQUAL(w2->value->kind, EXPR_IF);
    CU_ASSERT_TRUE(is_var(inner->u.seq.body, w2->var));
    CU_ASSERT_TRUE(is_var(w->value->u.if_.then_branch->u.seq.body, f->params[1]));
    CU_ASSERT_EQUAL(w->value->u.if_.then_branch->u.seq.nblocks, 0);
    /* a condition over shape variables is a PrimValue; void branches bind `_` */
    f = lone("@R.function\n"
             "def f(x: R.Tensor((\"n\",), \"float32\")):\n"
             "    n = T.int64()\n"
             "    if n > 2:\n"
             "        R.print(x)\n"
             "    else:\n"
             "        R.print(x, format=\"small\")\n"
             "    return x\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Binding *v = bind_at(f, 0, 0);
    CU_ASSERT_EQUAL(v->value->u.if_.cond->kind, EXPR_PRIM_VALUE);
    CU_ASSERT_EQUAL(v->value->u.if_.cond->u.prim->kind, PE_GT);
    CU_ASSERT_TRUE(v->from_expr_stmt);
}

static void test_nested_functions(void)
{
    Function *f = lone("@R.function\n"
                       "def f(x: R.Tensor((\"n\",), \"float32\")):\n"
                       "    n = T.int64()\n"
                       "    @R.function\n"
                       "    def inner(y: R.Tensor((n,), \"float32\"), k: R.Prim(\"int64\")) -> "
                       "R.Tensor((n,), \"float32\"):\n"
                       "        z = inner(R.add(y, x), k)\n"
                       "        return z\n"
                       "    @R.function(pure=False)\n"
                       "    def other(y: R.Tensor((\"n\",), \"float32\")):\n"
                       "        return y\n"
                       "    r = inner(x, R.prim_value(1))\n"
                       "    return r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    BindingBlock *blk = f->body->u.seq.blocks[0];
    CU_ASSERT_EQUAL_FATAL(blk->n, 3);
    Binding *b = blk->bindings[0];
    CU_ASSERT_EQUAL_FATAL(b->value->kind, EXPR_FUNCTION);
    Function *inner = b->value->u.func;
    CU_ASSERT_STRING_EQUAL(inner->name, "inner");
    CU_ASSERT_PTR_NULL(function_global_symbol(inner));
    /* the recursive call refers to the binding's own Var; x is captured */
    Expr *call = inner->body->u.seq.blocks[0]->bindings[0]->value;
    CU_ASSERT_TRUE(is_var(call->u.call.op, b->var));
    CU_ASSERT_TRUE(is_var(call->u.call.args[0]->u.call.args[1], f->params[0]));
    /* n in the inner signature is the outer shape variable */
    TirVar *n = f->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_PTR_EQUAL(inner->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var, n);
    /* a string dim in a nested signature is a fresh variable */
    Function *other = blk->bindings[1]->value->u.func;
    CU_ASSERT_FALSE(other->is_pure);
    TirVar *n2 = other->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_PTR_NOT_EQUAL(n2, n);
    CU_ASSERT_STRING_EQUAL(n2->name, "n");
    CU_ASSERT_TRUE(is_var(blk->bindings[2]->value->u.call.op, b->var));
}

/* ---- shape variables ----------------------------------------------------------------- */

/* `k = T.int64(16)` names a PrimExpr (no binding); R.ExternFunc keeps a written R.Callable. */
static void test_aliases_and_extern(void)
{
    Function *f = lone("@R.function(pure=False)\n"
                       "def f(x: R.Tensor((\"n\",), \"float32\")):\n"
                       "    n = T.int64()\n"
                       "    N, k = T.int64(), T.int64(16)\n"
                       "    y = R.match_cast(x, R.Tensor((k,), \"float32\"))\n"
                       "    m = n * 2\n"
                       "    p = m\n"
                       "    q = (p,)\n"
                       "    g = R.ExternFunc(\"sym\", R.Callable([R.Object], R.Object, purity=True))\n"
                       "    h = R.ExternFunc(\"sym\")\n"
                       "    return q\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Expr *y = bind_at(f, 0, 0)->value;
    CU_ASSERT_EQUAL(bind_at(f, 0, 0)->struct_info->u.tensor.shape->u.shape.values[0]->kind, PE_INT);
    CU_ASSERT_EQUAL(y->kind, EXPR_VAR);
    /* m and p are aliases of n * 2: q is the first binding after y. */
    Expr *q = bind_at(f, 0, 1)->value;
    CU_ASSERT_EQUAL_FATAL(q->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL_FATAL(q->u.tuple.fields[0]->kind, EXPR_PRIM_VALUE);
    CU_ASSERT_EQUAL(q->u.tuple.fields[0]->u.prim->kind, PE_MUL);
    Expr *g = bind_at(f, 0, 2)->value;
    CU_ASSERT_EQUAL_FATAL(g->kind, EXPR_EXTERN_FUNC);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g->extern_sinfo);
    CU_ASSERT_EQUAL(g->extern_sinfo->kind, SINFO_FUNC);
    CU_ASSERT_TRUE(g->extern_sinfo->u.func.purity);
    CU_ASSERT_PTR_NULL(bind_at(f, 0, 3)->value->extern_sinfo);
}

static void test_shape_vars(void)
{
    Function *f = lone("@R.function\n"
                       "def f(x: R.Tensor((\"m + 1\", \"n * 2\"), \"float32\"), y: "
                       "R.Tensor((\"m\", \"T.max(n, 20)\")), "
                       "s: R.Shape([\"n\", 4]), p: R.Prim(value=\"k\")) -> R.Tensor((m, \"n\")):\n"
                       "    k = T.int64()\n"
                       "    n = T.int64()\n"
                       "    q = T.int64()\n"
                       "    a, b = T.int64(), T.int32()\n"
                       "    z = R.match_cast(x, R.Tensor((q, a + 1), \"float32\"))\n"
                       "    w: R.Tensor((q,)) = R.reshape(z, R.shape([q * 2]))\n"
                       "    return y\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    StructInfo *x = f->params[0]->annotation;
    StructInfo *y = f->params[1]->annotation;
    PrimExpr *m1 = x->u.tensor.shape->u.shape.values[0];
    CU_ASSERT_EQUAL_FATAL(m1->kind, PE_ADD);
    TirVar *m = y->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_PTR_EQUAL(m1->u.bin.a->u.var, m);
    CU_ASSERT_STRING_EQUAL(m->name, "m");
    CU_ASSERT_TRUE(dtype_equal(m->dtype, dtype_int64()));
    PrimExpr *mx = y->u.tensor.shape->u.shape.values[1];
    CU_ASSERT_EQUAL(mx->kind, PE_MAX);
    TirVar *n = f->params[2]->annotation->u.shape.values[0]->u.var;
    CU_ASSERT_PTR_EQUAL(mx->u.bin.a->u.var, n);
    CU_ASSERT_TRUE(is_int_dim(f->params[2]->annotation->u.shape.values[1], 4));
    TirVar *k = f->params[3]->annotation->u.prim.value->u.var;
    CU_ASSERT_TRUE(dtype_equal(f->params[3]->annotation->u.prim.dtype, dtype_int64()));
    /* return annotation: quoted and unquoted refer to the signature's variables */
    CU_ASSERT_PTR_EQUAL(f->ret->u.tensor.shape->u.shape.values[0]->u.var, m);
    CU_ASSERT_PTR_EQUAL(f->ret->u.tensor.shape->u.shape.values[1]->u.var, n);
    /* body declarations: signature vars unify, others are fresh */
    Binding *z = bind_at(f, 0, 0);
    TirVar *q = z->struct_info->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_STRING_EQUAL(q->name, "q");
    PrimExpr *a1 = z->struct_info->u.tensor.shape->u.shape.values[1];
    CU_ASSERT_EQUAL(a1->kind, PE_ADD);
    Binding *w = bind_at(f, 0, 1);
    CU_ASSERT_PTR_EQUAL(w->var->annotation->u.tensor.shape->u.shape.values[0]->u.var, q);
    Expr *sh = w->value->u.call.args[1];
    CU_ASSERT_EQUAL(sh->kind, EXPR_SHAPE);
    CU_ASSERT_EQUAL(sh->u.shape.values[0]->kind, PE_MUL);
    (void)k;
    /* the declaration may come before the signature var is used in the body */
    f = lone("@R.function\n"
             "def f(x: R.Tensor((\"n\",), \"float32\")) -> R.Shape([\"n\"]):\n"
             "    n = T.int64()\n"
             "    return R.shape([n])\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    TirVar *sn = f->params[0]->annotation->u.tensor.shape->u.shape.values[0]->u.var;
    CU_ASSERT_PTR_EQUAL(f->body->u.seq.body->u.shape.values[0]->u.var, sn);
    /* shape variables defined in a dataflow block stay visible after it */
    f = lone("@R.function\n"
             "def f(x: R.Tensor(ndim=1)):\n"
             "    n = T.int64()\n"
             "    with R.dataflow():\n"
             "        y = R.match_cast(x, R.Tensor((n,)))\n"
             "        R.output(y)\n"
             "    return R.shape([n])\n");
    CU_ASSERT_PTR_NOT_NULL(f);
}

/* ---- call forms ---------------------------------------------------------------------- */

static Expr *ret_of(const char *text)
{
    Function *f = lone(text);
    return f ? f->body->u.seq.body : NULL;
}

static void test_call_tir(void)
{
    IRModule *m = parse(
        HDR
        "@I.ir_module\n"
        "class Module:\n"
        "    @T.prim_func\n"
        "    def k(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
        "        for i in range(4):\n"
        "            B[i] = A[i]\n"
        "    @R.function\n"
        "    def main(x: R.Tensor((\"n\",), \"float32\"), t: R.Tuple(R.Tensor, R.Tensor)):\n"
        "        n = T.int64()\n"
        "        cls = Module\n"
        "        a = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((4,), \"float32\"))\n"
        "        b = R.call_tir(cls.k, x, [R.Tensor((4,), \"float32\"), R.Tensor((n,), "
        "\"float32\")], tir_vars=(n, 2))\n"
        "        c = R.call_tir(cls.k, t, out_sinfo=[R.Tensor((4,), \"float32\")], "
        "tir_vars=R.shape([n]))\n"
        "        d = R.call_tir_inplace(cls.k, (x, a), 0, out_sinfo=R.Tensor((4,), \"float32\"))\n"
        "        e = R.call_tir_inplace(cls.k, x, [0, -1], [R.Tensor((4,), \"float32\"), "
        "R.Tensor((4,), \"float32\")])\n"
        "        g = R.call_tir_with_grad(cls.k, (x,), out_sinfo=R.Tensor((4,), \"float32\"), "
        "te_grad_name=\"k_grad\", te_grad_kwargs={\"a\": 1})\n"
        "        return g\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    Function *f = func(m, "main");
    GlobalVar *k = module_lookup(m, "k")->gvar;
    Expr *a = bind_at(f, 0, 0)->value;
    CU_ASSERT_TRUE(is_op_call(a, "relax.call_tir"));
    CU_ASSERT_EQUAL(a->u.call.nargs, 2);
    CU_ASSERT_PTR_EQUAL(a->u.call.args[0]->u.gvar, k);
    CU_ASSERT_EQUAL(a->u.call.args[1]->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL(a->u.call.nsinfo_args, 1);
    CU_ASSERT_EQUAL(a->u.call.sinfo_args[0]->kind, SINFO_TENSOR);
    Expr *b = bind_at(f, 0, 1)->value;
    CU_ASSERT_EQUAL(b->u.call.nargs, 3);
    CU_ASSERT_EQUAL(b->u.call.args[1]->kind, EXPR_TUPLE); /* x wrapped in a 1-tuple */
    CU_ASSERT_EQUAL(b->u.call.args[1]->u.tuple.n, 1);
    CU_ASSERT_EQUAL(b->u.call.args[2]->kind, EXPR_SHAPE);
    CU_ASSERT_EQUAL(b->u.call.args[2]->u.shape.n, 2);
    CU_ASSERT_EQUAL(b->u.call.sinfo_args[0]->kind, SINFO_TUPLE);
    CU_ASSERT_EQUAL(b->u.call.sinfo_args[0]->u.tuple.n, 2);
    Expr *c = bind_at(f, 0, 2)->value;
    CU_ASSERT_TRUE(is_var(c->u.call.args[1], f->params[1])); /* a tuple-annotated var */
    CU_ASSERT_EQUAL(c->u.call.sinfo_args[0]->kind, SINFO_TENSOR);
    CU_ASSERT_EQUAL(c->u.call.args[2]->kind, EXPR_SHAPE);
    Expr *d = bind_at(f, 0, 3)->value;
    CU_ASSERT_TRUE(is_op_call(d, "relax.call_tir_inplace"));
    AttrValue *ii = attrs_get(d->u.call.attrs, "inplace_indices");
    CU_ASSERT_EQUAL_FATAL(ii->kind, ATTR_LIST);
    CU_ASSERT_EQUAL(ii->u.list.n, 1);
    Expr *e = bind_at(f, 0, 4)->value;
    ii = attrs_get(e->u.call.attrs, "inplace_indices");
    CU_ASSERT_EQUAL(ii->u.list.n, 2);
    CU_ASSERT_EQUAL(ii->u.list.items[1]->u.i, -1);
    Expr *g = bind_at(f, 0, 5)->value;
    CU_ASSERT_TRUE(is_op_call(g, "relax.call_tir_with_grad"));
    CU_ASSERT_STRING_EQUAL(attrs_get(g->u.call.attrs, "te_grad_name")->u.s, "k_grad");
    CU_ASSERT_EQUAL(attrs_get(g->u.call.attrs, "te_grad_kwargs")->kind, ATTR_DICT);
}

static void test_packed_forms(void)
{
    expect_error(
        "@R.function(pure=False)\n"
        "def f(x: R.Tensor((3, 4), \"float32\"), clo: R.Object):\n"
        "    a = R.call_dps_packed(\"ext\", (x,), out_sinfo=R.Tensor((3, 4), \"float32\"))\n"
        "    b = R.call_packed(\"pk\", x, 1, 2.5, \"s\", sinfo_args=R.Tensor((3, 4), \"float32\"), "
        "key=3)\n"
        "    c = R.call_pure_packed(\"pp\", x, sinfo_args=(R.Tensor((3, 4), \"float32\"), "
        "R.Object))\n"
        "    d = R.call_inplace_packed(\"ip\", x, inplace_indices=[0], sinfo_args=[R.Tensor((3, "
        "4), \"float32\")])\n"
        "    e = R.call_builtin_with_ctx(\"vm.builtin.x\", (x,), sinfo_args=R.Object)\n"
        "    g = R.invoke_closure(clo, (x,), sinfo_args=[R.Object])\n"
        "    h = R.invoke_pure_closure(clo, (x,), sinfo_args=[R.Object])\n"
        "    i = R.make_closure(f, (x,))\n"
        "    j = R.ExternFunc(\"sym\")\n"
        "    k = R.call_dps_packed(j, (x,), R.Tensor((3, 4), \"float32\"))\n"
        "    R.assert_op(R.const(True), x, format=R.str(\"x: {}\"))\n"
        "    l = R.nn.softmax(x, axis=-1)\n"
        "    o = R.sum(x, axis=[1], keepdims=False)\n"
        "    p = R.permute_dims(x, axes=None)\n"
        "    q = x.astype(\"float16\")\n"
        "    return (a, b)\n",
        "UnknownName", "TS-1"); /* a lone function cannot name itself */
    Function *f;
    f = lone("@R.function(pure=False)\n"
             "def f(x: R.Tensor((3, 4), \"float32\"), clo: R.Object):\n"
             "    a = R.call_dps_packed(\"ext\", (x,), out_sinfo=R.Tensor((3, 4), \"float32\"))\n"
             "    b = R.call_packed(\"pk\", x, 1, 2.5, \"s\", sinfo_args=R.Tensor((3, 4), "
             "\"float32\"), key=3)\n"
             "    c = R.call_pure_packed(\"pp\", x, sinfo_args=(R.Tensor((3, 4), \"float32\"), "
             "R.Object))\n"
             "    d = R.call_inplace_packed(\"ip\", x, inplace_indices=[0], "
             "sinfo_args=[R.Tensor((3, 4), \"float32\")])\n"
             "    e = R.call_builtin_with_ctx(\"vm.builtin.x\", (x,), sinfo_args=R.Object)\n"
             "    g = R.invoke_closure(clo, (x,), sinfo_args=[R.Object])\n"
             "    h = R.invoke_pure_closure(clo, (x,), sinfo_args=[R.Object])\n"
             "    i = R.make_closure(clo, (x,))\n"
             "    j = R.ExternFunc(\"sym\")\n"
             "    k = R.call_dps_packed(j, (x,), R.Tensor((3, 4), \"float32\"))\n"
             "    R.assert_op(R.const(True), x, format=R.str(\"x: {}\"))\n"
             "    l = R.nn.softmax(x, axis=-1)\n"
             "    o = R.sum(x, axis=[1], keepdims=False)\n"
             "    p = R.permute_dims(x, axes=None)\n"
             "    q = x.astype(\"float16\")\n"
             "    return (a, b)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Expr *a = bind_at(f, 0, 0)->value;
    CU_ASSERT_TRUE(is_op_call(a, "relax.call_dps_packed"));
    CU_ASSERT_EQUAL(a->u.call.args[0]->kind, EXPR_EXTERN_FUNC);
    CU_ASSERT_STRING_EQUAL(a->u.call.args[0]->u.extern_symbol, "ext");
    CU_ASSERT_EQUAL(a->u.call.args[1]->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL(a->u.call.nsinfo_args, 1);
    Expr *b = bind_at(f, 0, 1)->value;
    CU_ASSERT_EQUAL(b->u.call.op->kind, EXPR_EXTERN_FUNC);
    CU_ASSERT_STRING_EQUAL(b->u.call.op->u.extern_symbol, "pk");
    CU_ASSERT_EQUAL_FATAL(b->u.call.nargs, 4);
    CU_ASSERT_EQUAL(b->u.call.args[1]->kind, EXPR_PRIM_VALUE);
    CU_ASSERT_TRUE(dtype_equal(b->u.call.args[1]->u.prim->dtype, dtype_int64()));
    CU_ASSERT_TRUE(dtype_equal(b->u.call.args[2]->u.prim->dtype, dtype_float64()));
    CU_ASSERT_EQUAL(b->u.call.args[3]->kind, EXPR_STRING);
    CU_ASSERT_EQUAL(b->u.call.nsinfo_args, 1);
    CU_ASSERT_EQUAL(attrs_get(b->u.call.attrs, "key")->u.i, 3);
    Expr *c = bind_at(f, 0, 2)->value;
    CU_ASSERT_TRUE(is_op_call(c, "relax.call_pure_packed"));
    CU_ASSERT_EQUAL(c->u.call.nargs, 2);
    CU_ASSERT_EQUAL(c->u.call.args[0]->kind, EXPR_EXTERN_FUNC);
    CU_ASSERT_EQUAL(c->u.call.nsinfo_args, 2);
    Expr *d = bind_at(f, 0, 3)->value;
    CU_ASSERT_TRUE(is_op_call(d, "relax.call_inplace_packed"));
    CU_ASSERT_EQUAL(attrs_get(d->u.call.attrs, "inplace_indices")->u.list.n, 1);
    Expr *e = bind_at(f, 0, 4)->value;
    CU_ASSERT_TRUE(is_op_call(e, "relax.call_builtin_with_ctx"));
    CU_ASSERT_EQUAL(e->u.call.args[0]->kind, EXPR_EXTERN_FUNC);
    CU_ASSERT_EQUAL(e->u.call.args[1]->kind, EXPR_TUPLE);
    Expr *g = bind_at(f, 0, 5)->value;
    CU_ASSERT_TRUE(is_op_call(g, "relax.invoke_closure"));
    CU_ASSERT_TRUE(is_var(g->u.call.args[0], f->params[1]));
    CU_ASSERT_TRUE(is_op_call(bind_at(f, 0, 6)->value, "relax.invoke_pure_closure"));
    Expr *i = bind_at(f, 0, 7)->value;
    CU_ASSERT_TRUE(is_op_call(i, "relax.make_closure"));
    CU_ASSERT_EQUAL(i->u.call.nsinfo_args, 0);
    Binding *j = bind_at(f, 0, 8);
    CU_ASSERT_EQUAL(j->value->kind, EXPR_EXTERN_FUNC);
    Expr *k = bind_at(f, 0, 9)->value;
    CU_ASSERT_TRUE(is_var(k->u.call.args[0], j->var));
    Binding *as = bind_at(f, 0, 10);
    CU_ASSERT_TRUE(as->from_expr_stmt);
    CU_ASSERT_TRUE(is_op_call(as->value, "relax.assert_op"));
    /* TVM's layout: [cond, format StringImm, values...]. */
    CU_ASSERT_EQUAL_FATAL(as->value->u.call.nargs, 3);
    CU_ASSERT_EQUAL(as->value->u.call.args[1]->kind, EXPR_STRING);
    CU_ASSERT_EQUAL(as->value->u.call.attrs->n, 0);
    Expr *l = bind_at(f, 0, 11)->value;
    CU_ASSERT_TRUE(is_op_call(l, "relax.nn.softmax"));
    CU_ASSERT_EQUAL(attrs_get(l->u.call.attrs, "axis")->u.i, -1);
    Expr *o = bind_at(f, 0, 12)->value;
    CU_ASSERT_EQUAL(attrs_get(o->u.call.attrs, "axis")->kind, ATTR_LIST);
    CU_ASSERT_EQUAL(attrs_get(o->u.call.attrs, "keepdims")->kind, ATTR_BOOL);
    CU_ASSERT_EQUAL(attrs_get(bind_at(f, 0, 13)->value->u.call.attrs, "axes")->kind, ATTR_NONE);
    Expr *q = bind_at(f, 0, 14)->value;
    CU_ASSERT_TRUE(is_op_call(q, "relax.astype"));
    CU_ASSERT_STRING_EQUAL(attrs_get(q->u.call.attrs, "dtype")->u.s, "float16");
    CU_ASSERT_EQUAL(f->body->u.seq.body->kind, EXPR_TUPLE);
}

static void test_leaves_and_sugar(void)
{
    Function *f = lone("@R.function\n"
                       "def f(x: R.Tensor((2,), \"float32\"), s: R.Shape([\"n\"])):\n"
                       "    n = T.int64()\n"
                       "    a = R.prim_value(1)\n"
                       "    b = R.prim_value(1.5)\n"
                       "    c = R.prim_value(True)\n"
                       "    d = R.prim_value(n + 1)\n"
                       "    e = R.str(\"hi\")\n"
                       "    g = R.dtype(\"float16\")\n"
                       "    h = R.shape([n, 4])\n"
                       "    i = R.tuple(x, s)\n"
                       "    j = R.tuple()\n"
                       "    k = (x, s)[1]\n"
                       "    l = R.TupleGetItem(i, 0)\n"
                       "    m = -x\n"
                       "    o = x + x * x - x / x // x ** x\n"
                       "    p = x < x\n"
                       "    q = x >= x\n"
                       "    r = x + n\n"
                       "    return 1\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Expr *a = bind_at(f, 0, 0)->value;
    CU_ASSERT_EQUAL(a->kind, EXPR_PRIM_VALUE);
    CU_ASSERT_TRUE(is_int_dim(a->u.prim, 1));
    /* relax.PrimValue(1.5) makes a float32 TIR constant (a bare 1.5 would be float64) */
    CU_ASSERT_TRUE(dtype_equal(bind_at(f, 0, 1)->value->u.prim->dtype, dtype_float32()));
    /* True is a Python int: relax.PrimValue(True) is the int64 1 */
    CU_ASSERT_TRUE(dtype_equal(bind_at(f, 0, 2)->value->u.prim->dtype, dtype_int64()));
    CU_ASSERT_EQUAL(bind_at(f, 0, 3)->value->u.prim->kind, PE_ADD);
    CU_ASSERT_STRING_EQUAL(bind_at(f, 0, 4)->value->u.str, "hi");
    CU_ASSERT_EQUAL(bind_at(f, 0, 5)->value->kind, EXPR_DTYPE);
    CU_ASSERT_EQUAL(bind_at(f, 0, 5)->value->u.dtype.bits, 16);
    Expr *h = bind_at(f, 0, 6)->value;
    CU_ASSERT_EQUAL(h->kind, EXPR_SHAPE);
    CU_ASSERT_TRUE(is_int_dim(h->u.shape.values[1], 4));
    CU_ASSERT_EQUAL(bind_at(f, 0, 7)->value->u.tuple.n, 2);
    CU_ASSERT_EQUAL(bind_at(f, 0, 8)->value->u.tuple.n, 0);
    Expr *k = bind_at(f, 0, 9)->value;
    CU_ASSERT_EQUAL(k->kind, EXPR_TUPLE_GET_ITEM);
    CU_ASSERT_EQUAL(k->u.get_item.tuple->kind, EXPR_TUPLE);
    CU_ASSERT_EQUAL(k->u.get_item.index, 1);
    CU_ASSERT_EQUAL(bind_at(f, 0, 10)->value->kind, EXPR_TUPLE_GET_ITEM);
    CU_ASSERT_TRUE(is_op_call(bind_at(f, 0, 11)->value, "relax.negative"));
    Expr *o = bind_at(f, 0, 12)->value;
    CU_ASSERT_TRUE(is_op_call(o, "relax.subtract"));
    CU_ASSERT_TRUE(is_op_call(o->u.call.args[0], "relax.add"));
    CU_ASSERT_TRUE(is_op_call(o->u.call.args[1], "relax.floor_divide"));
    CU_ASSERT_TRUE(is_op_call(o->u.call.args[1]->u.call.args[1], "relax.power"));
    CU_ASSERT_TRUE(is_op_call(bind_at(f, 0, 13)->value, "relax.less"));
    CU_ASSERT_TRUE(is_op_call(bind_at(f, 0, 14)->value, "relax.greater_equal"));
    Expr *r = bind_at(f, 0, 15)->value;
    CU_ASSERT_EQUAL(r->u.call.args[1]->kind, EXPR_PRIM_VALUE);
    Expr *ret = f->body->u.seq.body;
    CU_ASSERT_EQUAL(ret->kind, EXPR_PRIM_VALUE);
    CU_ASSERT_TRUE(is_int_dim(ret->u.prim, 1));
}

/* ---- constants ----------------------------------------------------------------------- */

static ConstData *const_of(const char *value)
{
    char text[512];
    snprintf(text, sizeof text, "@R.function\ndef f():\n    return %s\n", value);
    Expr *e = ret_of(text);
    return e && e->kind == EXPR_CONSTANT ? e->u.constant : NULL;
}

static void test_constants(void)
{
    ConstData *c = const_of("R.const(1)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(dtype_equal(c->dtype, dtype_int32()));
    c = const_of("R.const(1.5)");
    CU_ASSERT_TRUE(dtype_equal(c->dtype, dtype_float32()));
    CU_ASSERT_EQUAL(((float *)c->data)[0], 1.5f);
    c = const_of("R.const(True)");
    CU_ASSERT_TRUE(dtype_is_bool(c->dtype));
    CU_ASSERT_EQUAL(((uint8_t *)c->data)[0], 1);
    c = const_of("R.const([[1, 2, 3], [4, 5, 6]])");
    CU_ASSERT_TRUE(dtype_equal(c->dtype, dtype_int32()));
    CU_ASSERT_EQUAL(c->ndim, 2);
    CU_ASSERT_EQUAL(c->shape[0], 2);
    CU_ASSERT_EQUAL(c->shape[1], 3);
    CU_ASSERT_EQUAL(((int32_t *)c->data)[5], 6);
    c = const_of("R.const([1, 2.5])");
    CU_ASSERT_TRUE(dtype_equal(c->dtype, dtype_float32()));
    c = const_of("R.const([-1, 2], \"int8\")");
    CU_ASSERT_EQUAL(((int8_t *)c->data)[0], -1);
    c = const_of("R.const(1.0, dtype=\"float16\")");
    CU_ASSERT_EQUAL(((uint16_t *)c->data)[0], 0x3c00);
    c = const_of("R.const(1.0, \"bfloat16\")");
    CU_ASSERT_EQUAL(((uint16_t *)c->data)[0], 0x3f80);
    c = const_of("R.const(2, \"float64\")");
    CU_ASSERT_EQUAL(((double *)c->data)[0], 2.0);
    c = const_of(
        "R.const([float(\"nan\"), float(\"inf\"), -float(\"inf\"), float(\"-inf\")], \"float32\")");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(isnan(((float *)c->data)[0]));
    CU_ASSERT_TRUE(isinf(((float *)c->data)[1]) && ((float *)c->data)[1] > 0);
    CU_ASSERT_TRUE(((float *)c->data)[2] < 0 && ((float *)c->data)[3] < 0);
    c = const_of("R.const(1, \"bool\")");
    CU_ASSERT_TRUE(dtype_is_bool(c->dtype));
    c = const_of("R.const(255, \"uint8\")");
    CU_ASSERT_EQUAL(((uint8_t *)c->data)[0], 255);
    c = const_of("R.const([], \"float32\")");
    CU_ASSERT_EQUAL(c->ndim, 1);
    CU_ASSERT_EQUAL(c->numel, 0);
}

/* ---- annotations --------------------------------------------------------------------- */

static StructInfo *ann_of(const char *ann)
{
    char text[512];
    snprintf(text, sizeof text, "@R.function\ndef f(sh: R.Shape(ndim=2), x: %s):\n    return x\n",
             ann);
    Function *f = lone(text);
    return f ? f->params[1]->annotation : NULL;
}

static void test_annotations(void)
{
    StructInfo *s = ann_of("R.Tensor((\"n\", 4), \"float32\")");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(s->kind, SINFO_TENSOR);
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 2);
    CU_ASSERT_EQUAL(s->u.tensor.shape->kind, EXPR_SHAPE);
    CU_ASSERT_TRUE(is_int_dim(s->u.tensor.shape->u.shape.values[1], 4));
    s = ann_of("R.Tensor(sh, dtype=\"float32\")");
    CU_ASSERT_EQUAL(s->u.tensor.shape->kind, EXPR_VAR);
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 2);
    s = ann_of("R.Tensor(\"float32\", ndim=2)");
    CU_ASSERT_PTR_NULL(s->u.tensor.shape);
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 2);
    CU_ASSERT_TRUE(dtype_equal(s->u.tensor.dtype, dtype_float32()));
    s = ann_of("R.Tensor(ndim=3)");
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 3);
    CU_ASSERT_TRUE(dtype_is_void(s->u.tensor.dtype));
    s = ann_of("R.Tensor(())");
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 0);
    CU_ASSERT_PTR_NOT_NULL(s->u.tensor.shape);
    s = ann_of("R.Tensor(None, \"int8\", ndim=1)");
    CU_ASSERT_EQUAL(s->u.tensor.ndim, 1);
    s = ann_of("R.Tensor((2, 3), dtype=None)");
    CU_ASSERT_TRUE(dtype_is_void(s->u.tensor.dtype));
    s = ann_of("R.Tensor((2,), \"float32\", vdevice=\"cuda:0\")");
    CU_ASSERT_PTR_NOT_NULL(s->u.tensor.vdevice);
    CU_ASSERT_STRING_EQUAL(s->u.tensor.vdevice->target_kind, "cuda");
    s = ann_of("R.Shape([1, \"n\", 3])");
    CU_ASSERT_EQUAL(s->kind, SINFO_SHAPE);
    CU_ASSERT_EQUAL(s->u.shape.ndim, 3);
    s = ann_of("R.Shape(ndim=3)");
    CU_ASSERT_PTR_NULL(s->u.shape.values);
    CU_ASSERT_EQUAL(s->u.shape.ndim, 3);
    s = ann_of("R.Shape");
    CU_ASSERT_EQUAL(s->u.shape.ndim, -1);
    s = ann_of("R.Shape([])"); /* the project reads this as 0-d (TVM: ndim -1) */
    CU_ASSERT_EQUAL(s->u.shape.ndim, 0);
    CU_ASSERT_PTR_NOT_NULL(s->u.shape.values);
    s = ann_of("R.Prim(\"int64\")");
    CU_ASSERT_EQUAL(s->kind, SINFO_PRIM);
    CU_ASSERT_PTR_NULL(s->u.prim.value);
    s = ann_of("R.Prim(value=\"n\")");
    CU_ASSERT_EQUAL(s->u.prim.value->kind, PE_VAR);
    s = ann_of("R.Prim(value=3)");
    CU_ASSERT_TRUE(is_int_dim(s->u.prim.value, 3));
    s = ann_of("R.Prim(dtype=\"bool\", value=True)");
    CU_ASSERT_TRUE(dtype_is_bool(s->u.prim.dtype));
    s = ann_of("R.Tuple(R.Tensor, R.Object)");
    CU_ASSERT_EQUAL(s->kind, SINFO_TUPLE);
    CU_ASSERT_EQUAL(s->u.tuple.n, 2);
    s = ann_of("R.Tuple([R.Tensor, R.Object, R.Shape])");
    CU_ASSERT_EQUAL(s->u.tuple.n, 3);
    s = ann_of("R.Tuple");
    CU_ASSERT_TRUE(sinfo_is_void(s));
    s = ann_of("R.Tuple()");
    CU_ASSERT_TRUE(sinfo_is_void(s));
    s = ann_of("R.Callable((R.Tensor, R.Object), R.Tensor, True)");
    CU_ASSERT_EQUAL(s->kind, SINFO_FUNC);
    CU_ASSERT_TRUE(s->u.func.has_params);
    CU_ASSERT_EQUAL(s->u.func.nparams, 2);
    CU_ASSERT_TRUE(s->u.func.purity);
    s = ann_of("R.Callable(R.Tensor, R.Tensor, purity=False)");
    CU_ASSERT_EQUAL(s->u.func.nparams, 1);
    CU_ASSERT_FALSE(s->u.func.purity);
    s = ann_of("R.Callable([R.Tensor], R.Tensor)");
    CU_ASSERT_TRUE(s->u.func.purity);
    s = ann_of("R.Callable");
    CU_ASSERT_FALSE(s->u.func.has_params);
    CU_ASSERT_FALSE(s->u.func.purity);
    CU_ASSERT_EQUAL(s->u.func.ret->kind, SINFO_OBJECT);
    s = ann_of("R.Callable(ret=R.Tensor, purity=True)");
    CU_ASSERT_FALSE(s->u.func.has_params);
    CU_ASSERT_TRUE(s->u.func.purity);
    CU_ASSERT_EQUAL(s->u.func.ret->kind, SINFO_TENSOR);
    s = ann_of("R.Object");
    CU_ASSERT_EQUAL(s->kind, SINFO_OBJECT);
    CU_ASSERT_EQUAL(s->span.line, 2);
}

static void test_scopes_and_spans(void)
{
    Function *f = lone("@R.function\n"
                       "def f(x: R.Tensor((2, 3), \"float32\", ndim=-1)):\n"
                       "    n, m = T.int64(), T.int64()\n"
                       "    with R.dataflow():\n"
                       "        cls_x = R.match_cast(x, R.Tensor((n, m), \"float32\"))\n"
                       "        lv = R.add(cls_x, cls_x)\n"
                       "        R.output(cls_x)\n"
                       "    y: R.Tensor((n, m), \"float32\") = cls_x\n"
                       "    a, b = y, x\n"
                       "    b, a = a, b\n"
                       "    return R.tuple(a, b)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->params[0]->annotation->u.tensor.ndim, 2);
    Binding *mc = bind_at(f, 0, 0);
    CU_ASSERT_TRUE(mc->var->span.line == 5 && mc->var->span.col == 9);
    CU_ASSERT_EQUAL(mc->span.line, 5);
    CU_ASSERT_EQUAL(mc->value->span.line, 5);
    CU_ASSERT_EQUAL(mc->struct_info->span.line, 5);
    PrimExpr *n = mc->struct_info->u.tensor.shape->u.shape.values[0];
    CU_ASSERT_EQUAL(n->span.line, 5);
    CU_ASSERT_TRUE(n->span.col > 0);
    Binding *y = bind_at(f, 1, 0);
    CU_ASSERT_PTR_EQUAL(y->var->annotation->u.tensor.shape->u.shape.values[0]->u.var, n->u.var);
    /* `b, a = a, b` evaluates the right side before binding */
    Binding *a1 = bind_at(f, 1, 1);
    Binding *b1 = bind_at(f, 1, 2);
    Binding *b2 = bind_at(f, 1, 3);
    Binding *a2 = bind_at(f, 1, 4);
    CU_ASSERT_TRUE(is_var(b2->value, a1->var));
    CU_ASSERT_TRUE(is_var(a2->value, b1->var));
    Expr *ret = f->body->u.seq.body;
    CU_ASSERT_TRUE(is_var(ret->u.tuple.fields[0], a2->var));
    CU_ASSERT_EQUAL(ret->span.line, 11);
    CU_ASSERT_EQUAL(ret->span.col, 12);
    expect_error(
        FN("    with R.dataflow():\n        lv = R.add(x, x)\n        R.output()\n    return lv\n"),
        "UnknownName", "TS-1");
    expect_error(
        FN("    if x:\n        n = T.int64()\n        y = R.match_cast(x, R.Tensor((n,)))\n"
           "    else:\n        y = x\n    return R.shape([n])\n"),
        "UnknownName", "TS-1");
}

UNIT_SUITE(script)
{
    CU_pSuite s = CU_add_suite("script", 0, 0);
    CU_add_test(s, "module form", test_module_form);
    CU_add_test(s, "module body", test_module_body);
    CU_add_test(s, "lone form", test_lone_form);
    CU_add_test(s, "bindings", test_bindings);
    CU_add_test(s, "dataflow", test_dataflow);
    CU_add_test(s, "if else", test_if_else);
    CU_add_test(s, "nested functions", test_nested_functions);
    CU_add_test(s, "shape variables", test_shape_vars);
    CU_add_test(s, "call_tir forms", test_call_tir);
    CU_add_test(s, "packed forms and op calls", test_packed_forms);
    CU_add_test(s, "leaves and operator sugar", test_leaves_and_sugar);
    CU_add_test(s, "constants", test_constants);
    CU_add_test(s, "annotations", test_annotations);
    CU_add_test(s, "scopes and spans", test_scopes_and_spans);
    CU_add_test(s, "PrimExpr aliases and typed ExternFuncs", test_aliases_and_extern);
}
