/* test_script_tir: PrimExpr translation and the @T.prim_func translator, from source text.
 * SPEC_NOTES: "TIR subset" (TS-11) and dims (TS-3.1). */
#include <setjmp.h>
#include <string.h>

#include "ast/text/py_parser.h"
#include "ast/script/script_prim.h"
#include "ast/script/script_tir.h"
#include "tools/tests/unit.h"

/* ---- helpers ------------------------------------------------------------------------ */

static PrimFunc *parse_func(const char *src, ErrorTrap *trap)
{
    PyBody body = py_parse_file("t.py", src, trap);
    for (int i = 0; i < body.n; i++)
        if (body.stmts[i]->kind == PYS_DEF)
            return script_tir_primfunc("t.py", body.stmts[i], trap);
    return NULL;
}

static PrimFunc *parse_ok(const char *src)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        fprintf(stderr, "unexpected error: %s\n", error_format(&trap.error));
        CU_FAIL("unexpected parse error");
        return NULL;
    }
    PrimFunc *f = parse_func(src, &trap);
    CU_ASSERT_PTR_NOT_NULL(f);
    return f;
}

/* The error code the source raises, or "" when it parses. */
static const char *parse_error(const char *src, const char **rule)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        if (rule)
            *rule = trap.error.rule;
        return trap.error.code;
    }
    parse_func(src, &trap);
    return "";
}

static void assert_error(const char *src, const char *code)
{
    const char *rule = NULL;
    const char *got = parse_error(src, &rule);
    if (strcmp(got, code) != 0)
        fprintf(stderr, "expected %s, got '%s' for:\n%s\n", code, got, src);
    CU_ASSERT_STRING_EQUAL(got, code);
}

static bool is_int(const PrimExpr *e, int64_t v, const char *dtype)
{
    return e && e->kind == PE_INT && e->u.int_value == v && strcmp(dtype_str(e->dtype), dtype) == 0;
}

static bool is_var(const PrimExpr *e, const char *name)
{
    return e && e->kind == PE_VAR && strcmp(e->u.var->name, name) == 0;
}

static Stmt *seq_item(Stmt *s, int i)
{
    CU_ASSERT_EQUAL_FATAL(s->kind, STMT_SEQ);
    CU_ASSERT_FATAL(i < s->u.seq.n);
    return s->u.seq.stmts[i];
}

/* ---- PrimExprs in Relax mode ---------------------------------------------------------- */

typedef struct Names {
    TirVar *vars[4];
    int n;
} Names;

static bool names_lookup(void *ctx, const char *name, TirVar **var, Buffer **buffer)
{
    Names *names = ctx;
    for (int i = 0; i < names->n; i++)
        if (strcmp(names->vars[i]->name, name) == 0) {
            *var = names->vars[i];
            *buffer = NULL;
            return true;
        }
    return false;
}

static PrimExpr *prim(const char *text, bool tir, const char **err)
{
    static Names names;
    names.n = 0;
    names.vars[names.n++] = tirvar_new("n", dtype_int64(), span_none());
    names.vars[names.n++] = tirvar_new("m", dtype_int64(), span_none());
    names.vars[names.n++] = tirvar_new("k", dtype_int32(), span_none());
    names.vars[names.n++] = tirvar_new("x", dtype_float32(), span_none());
    PrimEnv env = {.lookup = names_lookup, .ctx = &names, .tir = tir};
    ErrorTrap trap;
    *err = "";
    if (setjmp(trap.jmp) != 0) {
        *err = trap.error.code;
        return NULL;
    }
    PyExpr *e = py_parse_expr("t.py", text, span_make("t.py", 1, 1), &trap);
    return script_prim_expr(e, &env, &trap);
}

static void test_prim_relax_dims(void)
{
    const char *err;
    PrimExpr *e = prim("n * 2", false, &err);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT_EQUAL(e->kind, PE_MUL);
    CU_ASSERT(is_var(e->u.bin.a, "n"));
    CU_ASSERT(is_int(e->u.bin.b, 2, "int64"));

    e = prim("T.max(m, 20)", false, &err);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT_EQUAL(e->kind, PE_MAX);
    CU_ASSERT(is_int(e->u.bin.b, 20, "int64"));

    e = prim("T.int64(4)", false, &err);
    CU_ASSERT(is_int(e, 4, "int64"));
    e = prim("16", false, &err);
    CU_ASSERT(is_int(e, 16, "int64"));
    e = prim("-(3 + 4) * 2", false, &err);
    CU_ASSERT(is_int(e, -14, "int64"));

    e = prim("n % 16 == 0", false, &err);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT_EQUAL(e->kind, PE_EQ);
    CU_ASSERT(dtype_is_bool(e->dtype));
    CU_ASSERT_EQUAL(e->u.bin.a->kind, PE_FLOORMOD);
    CU_ASSERT(is_int(e->u.bin.b, 0, "int64"));

    e = prim("tir.min(n // 2, m)", false, &err);
    CU_ASSERT_FATAL(e != NULL);
    CU_ASSERT_EQUAL(e->kind, PE_MIN);
    CU_ASSERT_EQUAL(e->u.bin.a->kind, PE_FLOORDIV);

    CU_ASSERT_PTR_NULL(prim("q + 1", false, &err));
    CU_ASSERT_STRING_EQUAL(err, "UnknownName");
    CU_ASSERT_PTR_NULL(prim("[n]", false, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
}

static void test_prim_tir_literals(void)
{
    const char *err;
    PrimExpr *e = prim("1", true, &err);
    CU_ASSERT(is_int(e, 1, "int32"));
    e = prim("n + 1", true, &err);
    CU_ASSERT_EQUAL_FATAL(e->kind, PE_ADD);
    CU_ASSERT(is_int(e->u.bin.b, 1, "int64"));
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "int64");
    e = prim("1 + k", true, &err);
    CU_ASSERT(is_int(e->u.bin.a, 1, "int32"));
    e = prim("x * 2", true, &err);
    CU_ASSERT_EQUAL_FATAL(e->u.bin.b->kind, PE_FLOAT);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->u.bin.b->dtype), "float32");
    e = prim("1.5", true, &err);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "float32");
    e = prim("T.float16(1.0)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_FLOAT);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "float16");
    e = prim("T.bool(True)", true, &err);
    CU_ASSERT(is_int(e, 1, "bool"));
    e = prim("T.uint8(255)", true, &err);
    CU_ASSERT(is_int(e, 255, "uint8"));
    CU_ASSERT_PTR_NULL(prim("T.int8(300)", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
    e = prim("-x", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_MUL);
    e = prim("3000000000", true, &err);
    CU_ASSERT(is_int(e, 3000000000LL, "int64"));
}

static void test_prim_tir_ops(void)
{
    const char *err;
    PrimExpr *e = prim("k + n", true, &err); /* int32 meets int64: widened by a cast */
    CU_ASSERT_EQUAL_FATAL(e->kind, PE_ADD);
    CU_ASSERT_EQUAL(e->u.bin.a->kind, PE_CAST);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "int64");
    e = prim("x / 2", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_DIV);
    CU_ASSERT_PTR_NULL(prim("n / 2", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
    e = prim("T.truncdiv(n, 2)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_DIV);
    e = prim("T.truncmod(n, 2)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_MOD);
    e = prim("0 < n < 10", true, &err);
    CU_ASSERT_EQUAL_FATAL(e->kind, PE_AND);
    CU_ASSERT_EQUAL(e->u.bin.a->kind, PE_LT);
    CU_ASSERT_EQUAL(e->u.bin.b->kind, PE_LT);
    e = prim("not (n > 1 and m > 1)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_NOT);
    e = prim("(n > 1) | (m > 1)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_OR);
    CU_ASSERT_PTR_NULL(prim("n == k", true, &err)); /* comparisons need equal types */
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
    CU_ASSERT_PTR_NULL(prim("T.nosuch(n)", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "UnknownName");
    CU_ASSERT_PTR_NULL(prim("n if m else k", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
}

static void test_prim_tir_calls(void)
{
    const char *err;
    PrimExpr *e = prim("T.Cast(\"float32\", k)", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_CAST);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "float32");
    e = prim("T.cast(x, \"int32\")", true, &err);
    CU_ASSERT_EQUAL(e->kind, PE_CAST);
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "int32");
    e = prim("T.Select(n > 0, x, 0)", true, &err);
    CU_ASSERT_EQUAL_FATAL(e->kind, PE_SELECT);
    CU_ASSERT_EQUAL(e->u.select.else_value->kind, PE_FLOAT);
    e = prim("T.if_then_else(n > 0, x, T.float32(0))", true, &err);
    CU_ASSERT_EQUAL_FATAL(e->kind, PE_CALL);
    CU_ASSERT_STRING_EQUAL(e->u.call.name, "tir.if_then_else");
    CU_ASSERT_EQUAL(e->u.call.nargs, 3);
    e = prim("T.exp(x)", true, &err);
    CU_ASSERT_STRING_EQUAL(e->u.call.name, "tir.exp");
    CU_ASSERT_STRING_EQUAL(dtype_str(e->dtype), "float32");
    e = prim("T.isnan(x)", true, &err);
    CU_ASSERT(dtype_is_bool(e->dtype));
    e = prim("T.pow(x, 2)", true, &err);
    CU_ASSERT_STRING_EQUAL(e->u.call.name, "tir.pow");
    CU_ASSERT_EQUAL(e->u.call.args[1]->kind, PE_FLOAT);
    e = prim("T.abs(x)", true, &err);
    CU_ASSERT_STRING_EQUAL(e->u.call.name, "tir.fabs");
    CU_ASSERT_PTR_NULL(prim("T.exp(x, x)", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadExpression");
    CU_ASSERT_PTR_NULL(prim("T.Cast(\"floaty\", x)", true, &err));
    CU_ASSERT_STRING_EQUAL(err, "BadDType");
}

/* ---- PrimFuncs -------------------------------------------------------------------------- */

static const char *add_one_src =
    "@T.prim_func\n"
    "def add_one(A: T.Buffer((16,), \"float32\"), B: T.Buffer(16, \"float32\")):\n"
    "    T.func_attr({\"tir.noalias\": True})\n"
    "    for i in range(16):\n"
    "        with T.block(\"compute\"):\n"
    "            vi = T.axis.remap(\"S\", [i])\n"
    "            T.reads(A[vi])\n"
    "            T.writes(B[vi])\n"
    "            B[vi] = A[vi] + T.float32(1)\n";

static void test_add_one(void)
{
    PrimFunc *f = parse_ok(add_one_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(f->name, "add_one");
    CU_ASSERT_FALSE(f->is_private);
    CU_ASSERT_EQUAL_FATAL(f->nparams, 2);
    CU_ASSERT(dtype_is_handle(f->params[0]->dtype));
    Buffer *a = f->param_buffers[0];
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->ndim, 1);
    CU_ASSERT(is_int(a->shape[0], 16, "int32"));
    CU_ASSERT_STRING_EQUAL(dtype_str(a->dtype), "float32");
    CU_ASSERT(is_int(f->param_buffers[1]->shape[0], 16, "int32"));
    CU_ASSERT(attrs_get(f->attrs, "tir.noalias") != NULL);
    CU_ASSERT(dtype_is_void(f->ret_dtype));

    Stmt *loop = f->body;
    CU_ASSERT_EQUAL_FATAL(loop->kind, STMT_FOR);
    CU_ASSERT_EQUAL(loop->u.for_.kind, FOR_SERIAL);
    CU_ASSERT(is_int(loop->u.for_.min, 0, "int32"));
    CU_ASSERT(is_int(loop->u.for_.extent, 16, "int32"));
    Stmt *block = loop->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(block->kind, STMT_BLOCK);
    CU_ASSERT_STRING_EQUAL(block->u.block.name, "compute");
    CU_ASSERT_EQUAL_FATAL(block->u.block.niters, 1);
    IterVar *iv = block->u.block.iters[0];
    CU_ASSERT_EQUAL(iv->kind, ITER_SPATIAL);
    CU_ASSERT_EQUAL(iv->binding->u.var, loop->u.for_.var);
    CU_ASSERT(is_int(iv->extent, 16, "int32"));
    CU_ASSERT(block->u.block.has_reads && block->u.block.nreads == 1);
    CU_ASSERT(block->u.block.has_writes && block->u.block.nwrites == 1);
    CU_ASSERT_PTR_EQUAL(block->u.block.writes[0]->buffer, f->param_buffers[1]);
    CU_ASSERT(is_int(block->u.block.reads[0]->extents[0], 1, "int32"));
    Stmt *store = block->u.block.body;
    CU_ASSERT_EQUAL_FATAL(store->kind, STMT_STORE);
    CU_ASSERT_PTR_EQUAL(store->u.store.buffer, f->param_buffers[1]);
    CU_ASSERT_EQUAL(store->u.store.indices[0]->u.var, iv->var);
    PrimExpr *v = store->u.store.value;
    CU_ASSERT_EQUAL_FATAL(v->kind, PE_ADD);
    CU_ASSERT_EQUAL(v->u.bin.a->kind, PE_LOAD);
    CU_ASSERT_EQUAL(v->u.bin.b->kind, PE_FLOAT);
}

static const char *matmul_src =
    "@T.prim_func(private=True)\n"
    "def matmul(a: T.handle, b: T.handle, c: T.handle):\n"
    "    m = T.int64()\n"
    "    n = T.int64()\n"
    "    k = T.int64()\n"
    "    A = T.match_buffer(a, (m, n))\n"
    "    B = T.match_buffer(b, [n, k], \"float16\")\n"
    "    C = T.match_buffer(c, (m, k), dtype=\"float32\")\n"
    "    # with T.block(\"root\"):\n"
    "    for i, j, kk in T.grid(m, k, n):\n"
    "        with T.block(\"matmul\"):\n"
    "            vi, vj, vk = T.axis.remap(\"SSR\", [i, j, kk])\n"
    "            T.reads(A[vi, vk], B[vk, vj])\n"
    "            T.writes(C[vi, vj])\n"
    "            with T.init():\n"
    "                C[vi, vj] = T.float32(0)\n"
    "            C[vi, vj] += A[vi, vk] * T.Cast(\"float32\", B[vk, vj])\n";

static void test_matmul(void)
{
    PrimFunc *f = parse_ok(matmul_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(f->is_private);
    CU_ASSERT_EQUAL_FATAL(f->nparams, 3);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_PTR_NOT_NULL(f->param_buffers[i]);
    Buffer *b = f->param_buffers[1];
    CU_ASSERT_STRING_EQUAL(b->name, "B");
    CU_ASSERT_STRING_EQUAL(dtype_str(b->dtype), "float16");
    CU_ASSERT(is_var(b->shape[0], "n"));
    CU_ASSERT_STRING_EQUAL(dtype_str(b->shape[0]->dtype), "int64");
    CU_ASSERT_STRING_EQUAL(dtype_str(f->param_buffers[0]->dtype), "float32");
    /* A's n and B's n are the same variable. */
    CU_ASSERT_PTR_EQUAL(f->param_buffers[0]->shape[1]->u.var, b->shape[0]->u.var);

    Stmt *li = f->body, *lj = li->u.for_.body, *lk = lj->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(lk->kind, STMT_FOR);
    CU_ASSERT(is_var(li->u.for_.extent, "m"));
    CU_ASSERT(is_var(lk->u.for_.extent, "n"));
    CU_ASSERT_STRING_EQUAL(dtype_str(li->u.for_.var->dtype), "int64");
    CU_ASSERT(is_int(li->u.for_.min, 0, "int64"));
    Stmt *block = lk->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(block->kind, STMT_BLOCK);
    CU_ASSERT_EQUAL_FATAL(block->u.block.niters, 3);
    CU_ASSERT_EQUAL(block->u.block.iters[0]->kind, ITER_SPATIAL);
    CU_ASSERT_EQUAL(block->u.block.iters[2]->kind, ITER_REDUCE);
    CU_ASSERT_EQUAL(block->u.block.iters[2]->binding->u.var, lk->u.for_.var);
    CU_ASSERT(is_var(block->u.block.iters[2]->extent, "n"));
    CU_ASSERT_EQUAL(block->u.block.nreads, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(block->u.block.init);
    CU_ASSERT_EQUAL(block->u.block.init->kind, STMT_STORE);
    Stmt *store = block->u.block.body;
    CU_ASSERT_EQUAL_FATAL(store->kind, STMT_STORE);
    CU_ASSERT_EQUAL_FATAL(store->u.store.value->kind, PE_ADD);
    CU_ASSERT_EQUAL(store->u.store.value->u.bin.a->kind, PE_LOAD);
    CU_ASSERT_EQUAL(store->u.store.value->u.bin.b->kind, PE_MUL);
}

static const char *copy_src = "@T.prim_func\n"
                              "def copy(var_x: T.handle, var_y: T.handle, n: T.int64):\n"
                              "    X = T.match_buffer(var_x, (n * 2,), dtype=\"float32\")\n"
                              "    Y = T.match_buffer(var_y, (n * 2,), dtype=\"float32\")\n"
                              "    for i in T.serial(n * 2):\n"
                              "        with T.block(\"copy\"):\n"
                              "            vi = T.axis.spatial(n * 2, i)\n"
                              "            Y[vi] = X[vi]\n";

static void test_copy_scalar_param(void)
{
    PrimFunc *f = parse_ok(copy_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL_FATAL(f->nparams, 3);
    CU_ASSERT_PTR_NULL(f->param_buffers[2]);
    CU_ASSERT_STRING_EQUAL(dtype_str(f->params[2]->dtype), "int64");
    PrimExpr *dim = f->param_buffers[0]->shape[0];
    CU_ASSERT_EQUAL_FATAL(dim->kind, PE_MUL);
    CU_ASSERT_PTR_EQUAL(dim->u.bin.a->u.var, f->params[2]);
    CU_ASSERT(is_int(dim->u.bin.b, 2, "int64"));
    Stmt *block = f->body->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(block->kind, STMT_BLOCK);
    CU_ASSERT_FALSE(block->u.block.has_reads);
    IterVar *iv = block->u.block.iters[0];
    CU_ASSERT_STRING_EQUAL(dtype_str(iv->var->dtype), "int64");
    CU_ASSERT_EQUAL(iv->extent->kind, PE_MUL);
    CU_ASSERT(is_int(iv->dom_min, 0, "int64"));
}

static void test_loops_without_blocks(void)
{
    PrimFunc *f = parse_ok("@T.prim_func\n"
                           "def f(x: T.Buffer((T.int64(2), T.int64(3)), \"float32\")):\n"
                           "    for i in T.parallel(T.int64(2)):\n"
                           "        for j in range(1, 3):\n"
                           "            x[i, j] = T.float32(0)\n"
                           "        for j in T.vectorized(T.int64(3)):\n"
                           "            x[i, j] = 1.0\n"
                           "    for u in T.unroll(2, 6):\n"
                           "        T.evaluate(0)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Buffer *x = f->param_buffers[0];
    CU_ASSERT(is_int(x->shape[1], 3, "int64"));
    Stmt *outer = seq_item(f->body, 0);
    CU_ASSERT_EQUAL(outer->u.for_.kind, FOR_PARALLEL);
    CU_ASSERT_STRING_EQUAL(dtype_str(outer->u.for_.var->dtype), "int64");
    Stmt *inner = seq_item(outer->u.for_.body, 0);
    CU_ASSERT(is_int(inner->u.for_.min, 1, "int32"));
    CU_ASSERT(is_int(inner->u.for_.extent, 2, "int32"));
    Stmt *vec = seq_item(outer->u.for_.body, 1);
    CU_ASSERT_EQUAL(vec->u.for_.kind, FOR_VECTORIZED);
    CU_ASSERT_EQUAL(vec->u.for_.body->u.store.value->kind, PE_FLOAT);
    Stmt *unroll = seq_item(f->body, 1);
    CU_ASSERT_EQUAL(unroll->u.for_.kind, FOR_UNROLLED);
    CU_ASSERT(is_int(unroll->u.for_.extent, 4, "int32"));
    CU_ASSERT_EQUAL(unroll->u.for_.body->kind, STMT_EVALUATE);
}

/* TS-11: thread-bound loops keep their axis; `a, b = T.int64(), 2` binds pairwise. */
static void test_thread_binding_and_pairwise(void)
{
    PrimFunc *f = parse_ok("@T.prim_func\n"
                           "def f(a: T.handle):\n"
                           "    n, two = T.int64(), 2\n"
                           "    A = T.match_buffer(a, (n,), \"float32\")\n"
                           "    for tx in T.thread_binding(1, n, thread=\"threadIdx.x\"):\n"
                           "        A[tx] = T.float32(two)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(f->param_buffers[0]->shape[0]->u.var->name, "n");
    Stmt *let = f->body;
    CU_ASSERT_EQUAL_FATAL(let->kind, STMT_LET);
    CU_ASSERT_STRING_EQUAL(let->u.let.var->name, "two");
    Stmt *loop = let->u.let.body;
    CU_ASSERT_EQUAL_FATAL(loop->kind, STMT_FOR);
    CU_ASSERT_EQUAL(loop->u.for_.kind, FOR_THREAD_BINDING);
    CU_ASSERT_STRING_EQUAL(loop->u.for_.thread, "threadIdx.x");
    CU_ASSERT(is_int(loop->u.for_.min, 1, "int64"));
    /* TS-11: a store casts to the buffer's dtype; an immediate folds (truncating). */
    f = parse_ok("@T.prim_func\n"
                 "def g(A: T.Buffer((2,), \"float32\"), B: T.Buffer((2,), \"int32\")):\n"
                 "    A[0] = T.int32(1)\n"
                 "    B[0] = T.float32(2.75)\n"
                 "    B[1] = A[1]\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const PrimExpr *a0 = seq_item(f->body, 0)->u.store.value;
    CU_ASSERT(a0->kind == PE_FLOAT && a0->u.float_value == 1.0);
    CU_ASSERT(is_int(seq_item(f->body, 1)->u.store.value, 2, "int32"));
    const PrimExpr *b1 = seq_item(f->body, 2)->u.store.value;
    CU_ASSERT(b1->kind == PE_CAST && strcmp(dtype_str(b1->dtype), "int32") == 0);
}

static void test_alloc_and_if(void)
{
    PrimFunc *f =
        parse_ok("@T.prim_func\n"
                 "def f(A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")):\n"
                 "    with T.block(\"root\"):\n"
                 "        T.reads()\n"
                 "        T.writes()\n"
                 "        C = T.alloc_buffer((8,), scope=\"local\")\n"
                 "        for i in range(8):\n"
                 "            if i < 4:\n"
                 "                C[i] = A[i]\n"
                 "            else:\n"
                 "                C[i] = T.if_then_else(A[i] > 0, A[i], T.float32(0))\n"
                 "    D = T.alloc_buffer((8,), \"float32\")\n"
                 "    for i in range(8):\n"
                 "        D[i] = T.exp(A[i])\n"
                 "    for i in range(8):\n"
                 "        B[i] = D[i]\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Stmt *root = seq_item(f->body, 0);
    CU_ASSERT_EQUAL_FATAL(root->kind, STMT_BLOCK);
    CU_ASSERT(root->u.block.has_reads && root->u.block.nreads == 0);
    CU_ASSERT_EQUAL_FATAL(root->u.block.nallocs, 1);
    CU_ASSERT_STRING_EQUAL(root->u.block.allocs[0]->scope, "local");
    Stmt *cond = root->u.block.body->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(cond->kind, STMT_IF);
    CU_ASSERT_PTR_NOT_NULL(cond->u.if_.else_stmt);
    CU_ASSERT_EQUAL(cond->u.if_.cond->kind, PE_LT);
    Stmt *alloc = seq_item(f->body, 1);
    CU_ASSERT_EQUAL_FATAL(alloc->kind, STMT_ALLOC);
    CU_ASSERT_STRING_EQUAL(alloc->u.alloc.buffer->name, "D");
    CU_ASSERT_EQUAL(alloc->u.alloc.body->kind, STMT_SEQ);
    CU_ASSERT_EQUAL(alloc->u.alloc.body->u.seq.n, 2);
}

static void test_let_and_return(void)
{
    PrimFunc *f = parse_ok("@T.prim_func\n"
                           "def f(n: T.int64) -> T.int64:\n"
                           "    y = n + 1\n"
                           "    z: T.int64 = y * 2\n"
                           "    return z\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_STRING_EQUAL(dtype_str(f->ret_dtype), "int64");
    Stmt *let = f->body;
    CU_ASSERT_EQUAL_FATAL(let->kind, STMT_LET);
    CU_ASSERT_STRING_EQUAL(let->u.let.var->name, "y");
    CU_ASSERT(is_int(let->u.let.value->u.bin.b, 1, "int64"));
    Stmt *let2 = let->u.let.body;
    CU_ASSERT_EQUAL_FATAL(let2->kind, STMT_LET);
    CU_ASSERT_PTR_EQUAL(let2->u.let.value->u.bin.a->u.var, let->u.let.var);
    Stmt *ret = let2->u.let.body;
    CU_ASSERT_EQUAL_FATAL(ret->kind, STMT_EVALUATE);
    CU_ASSERT_STRING_EQUAL(ret->u.evaluate->u.call.name, "tir.ret");
}

static void test_shadowing_and_axes(void)
{
    PrimFunc *f = parse_ok("@T.prim_func\n"
                           "def f(A: T.Buffer((4, 4), \"int32\")):\n"
                           "    for i in range(4):\n"
                           "        for i in range(2, 4):\n"
                           "            with T.block():\n"
                           "                vi = T.axis.spatial((2, 4), i)\n"
                           "                vj = T.axis.reduce(4, i)\n"
                           "                T.where(vi < 3)\n"
                           "                T.block_attr({\"k\": 1})\n"
                           "                A[vi, vj] = vi + 1\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    Stmt *outer = f->body, *inner = outer->u.for_.body;
    CU_ASSERT_PTR_NOT_EQUAL(outer->u.for_.var, inner->u.for_.var);
    Stmt *block = inner->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(block->kind, STMT_BLOCK);
    CU_ASSERT_STRING_EQUAL(block->u.block.name, "");
    CU_ASSERT_PTR_EQUAL(block->u.block.iters[0]->binding->u.var, inner->u.for_.var);
    CU_ASSERT(is_int(block->u.block.iters[0]->dom_min, 2, "int32"));
    CU_ASSERT(is_int(block->u.block.iters[0]->extent, 2, "int32"));
    CU_ASSERT_EQUAL(block->u.block.iters[1]->kind, ITER_REDUCE);
    CU_ASSERT_PTR_NOT_NULL(block->u.block.predicate);
    CU_ASSERT_EQUAL(block->u.block.annotations->n, 1);
}

static void test_block_let_and_decls(void)
{
    PrimFunc *f = parse_ok("@T.prim_func\n"
                           "def f(a: T.handle):\n"
                           "    n = T.SizeVar(\"n\", \"int64\")\n"
                           "    A = T.match_buffer(a, (n,), \"int64\")\n"
                           "    for i in range(n):\n"
                           "        with T.block(\"b\"):\n"
                           "            vi = T.axis.spatial(n, i)\n"
                           "            y = vi * 2\n"
                           "            T.writes(A[vi])\n"
                           "            A[vi] = y\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_TRUE(f->param_buffers[0]->shape[0]->u.var->is_size_var);
    Stmt *loop = f->body;
    CU_ASSERT_STRING_EQUAL(dtype_str(loop->u.for_.var->dtype), "int64");
    Stmt *block = loop->u.for_.body;
    CU_ASSERT_EQUAL_FATAL(block->kind, STMT_BLOCK);
    CU_ASSERT_TRUE(block->u.block.has_writes);
    Stmt *let = block->u.block.body;
    CU_ASSERT_EQUAL_FATAL(let->kind, STMT_LET);
    CU_ASSERT(is_int(let->u.let.value->u.bin.b, 2, "int64"));
    CU_ASSERT_EQUAL(let->u.let.body->kind, STMT_STORE);
}

static void test_errors(void)
{
    const char *head = "@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n";
    char src[1024];
#define BODY(text) (snprintf(src, sizeof src, "%s%s", head, text), src)
    assert_error(BODY("    for i in range(4):\n"
                      "        with T.block(\"b\"):\n"
                      "            vi, vj = T.axis.remap(\"S\", [i])\n"
                      "            A[vi] = 0.0\n"),
                 "TirSyntax");
    assert_error(BODY("    for i in range(4):\n"
                      "        with T.block(\"b\"):\n"
                      "            vi = T.axis.remap(\"X\", [i])\n"),
                 "TirSyntax");
    assert_error(BODY("    A[0, 1] = 0.0\n"), "TirSyntax");
    assert_error(BODY("    A[0] = A[0, 1]\n"), "TirSyntax");
    assert_error(BODY("    A[0] = q\n"), "UnknownName");
    assert_error(BODY("    Z[0] = 1.0\n"), "UnknownName");
    assert_error(BODY("    assert True\n"), "TirSyntax");
    /* TIR-WHILE: a while condition must be bool */
    assert_error(BODY("    while 1:\n        A[0] = 0.0\n"), "TirSyntax");
    assert_error(BODY("    T.reads(A[0])\n"), "TirSyntax");
    assert_error(BODY("    with T.init():\n        A[0] = 0.0\n"), "TirSyntax");
    /* one name over a grid stands for the loop variables' list, not a value */
    assert_error(BODY("    for i in T.grid(4, 4):\n        A[i] = 0.0\n"), "UnknownName");
    assert_error(BODY("    for i in T.grid(*A.dtype):\n        A[0] = 0.0\n"), "TirSyntax");
    assert_error(BODY("    for i in range(4):\n        A[i] = T.bogus(1)\n"), "UnknownName");
    assert_error(BODY("    B = T.match_buffer(A, (4,))\n"), "TirSyntax");
    assert_error(BODY("    x = 4 / 2 + A\n"), "BadExpression");
    assert_error(BODY("    for i in range(4):\n"
                      "        with T.block(\"b\"):\n"
                      "            vi = T.axis.remap(\"S\", [i])\n"
                      "        A[vi] = 0.0\n"),
                 "UnknownName");
#undef BODY
    assert_error("@T.prim_func\ndef f(A):\n    pass\n", "MissingParamAnnotation");
    assert_error("@R.function\ndef f(n: T.int32):\n    pass\n", "BadDecorator");
    assert_error("@T.prim_func(pure=True)\ndef f(n: T.int32):\n    pass\n", "BadDecorator");
    assert_error("@T.prim_func\ndef f(A: T.Buffer((4,), \"flt\")):\n    pass\n", "BadDType");
    assert_error("@T.prim_func\ndef f(A: R.Tensor((4,), \"float32\")):\n    pass\n", "TirSyntax");
    const char *rule = NULL;
    parse_error("@T.prim_func\ndef f(n: T.int32):\n    x = n + y\n", &rule);
    CU_ASSERT_STRING_EQUAL(rule, "TS-11");
}

UNIT_SUITE(script_tir)
{
    CU_pSuite s = CU_add_suite("script_tir", NULL, NULL);
    CU_add_test(s, "PrimExpr in Relax dims", test_prim_relax_dims);
    CU_add_test(s, "PrimExpr literal types in TIR", test_prim_tir_literals);
    CU_add_test(s, "PrimExpr operators in TIR", test_prim_tir_ops);
    CU_add_test(s, "PrimExpr calls in TIR", test_prim_tir_calls);
    CU_add_test(s, "add_one", test_add_one);
    CU_add_test(s, "matmul with grid, remap and init", test_matmul);
    CU_add_test(s, "copy with a trailing scalar parameter", test_copy_scalar_param);
    CU_add_test(s, "loops without blocks", test_loops_without_blocks);
    CU_add_test(s, "alloc_buffer and if", test_alloc_and_if);
    CU_add_test(s, "let bindings and return", test_let_and_return);
    CU_add_test(s, "shadowing and explicit axes", test_shadowing_and_axes);
    CU_add_test(s, "lets and declarations in blocks", test_block_let_and_decls);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "thread_binding and pairwise declarations", test_thread_binding_and_pairwise);
}
