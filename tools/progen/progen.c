/* progen: random Relax programs, well-formed and StructInfo-valid by construction.
 *
 * A program is a module of helper functions and an entry `main` whose body is a sequence of
 * segments: dataflow blocks (operators, MatchCast with fresh and bound shape variables,
 * tuples, calls of module functions), `if`s on a data-dependent condition, and closures that
 * capture Relax variables. The generator tracks every visible variable's StructInfo (dtype,
 * and each dim as a constant or a multiple of a shape variable) and only writes an operator
 * whose operands that StructInfo admits, so every program it writes is valid (GEN-1) and
 * can be run with the arguments it also writes (GEN-2). SPEC_NOTES: "Generated programs". */
#include "tools/progen/progen.h"

#include <stdbool.h>
#include <string.h>

#include "ast/mem.h"

#define MAX_VALS 512
#define MAX_SYMS 24
#define MAX_NDIM 3

/* A dim: `coef` when sym < 0, else coef * syms[sym]. */
typedef struct Dim {
    int64_t coef;
    int sym;
} Dim;

typedef enum GenDType { GEN_F32, GEN_I32 } GenDType;

typedef struct GVal {
    char *name;
    GenDType dtype;
    int ndim;
    Dim dims[MAX_NDIM];
    bool visible;
    bool in_block; /* bound in the dataflow block being written */
} GVal;

typedef struct Gen {
    uint64_t rng;
    GenProgram *prog;
    GenDType dtype;
    int features;
    GVal vals[MAX_VALS];
    int nvals;
    const char *syms[MAX_SYMS];
    int nsyms;
    int nparam_syms; /* syms[0..nparam_syms) are bound by main's parameters */
    int64_t param_sym_value[MAX_SYMS];
    int fresh;
    bool helper_made[MAX_NDIM + 1];
    bool uses_cls;
    StrBuf helpers;
    StrBuf body;
} Gen;

static const char *const DTYPE_NAME[] = {"float32", "int32"};

/* splitmix64: small, fast and the same on every platform. */
static uint64_t next_u64(Gen *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int pick(Gen *g, int n)
{
    return (int)(next_u64(g) % (uint64_t)n);
}

static bool chance(Gen *g, int percent)
{
    return pick(g, 100) < percent;
}

static char *fresh_name(Gen *g, const char *stem)
{
    return mem_printf("%s%d", stem, g->fresh++);
}

static bool dim_equal(Dim a, Dim b)
{
    return a.coef == b.coef && a.sym == b.sym;
}

static bool dims_static(const GVal *v)
{
    for (int i = 0; i < v->ndim; i++)
        if (v->dims[i].sym >= 0)
            return false;
    return true;
}

static int count_sym_dims(const GVal *v)
{
    int n = 0;
    for (int i = 0; i < v->ndim; i++)
        n += v->dims[i].sym >= 0;
    return n;
}

/* The dim as TVM prints it: `3`, `n`, `n * 2`. */
static void print_dim(Gen *g, StrBuf *sb, Dim d)
{
    if (d.sym < 0)
        strbuf_addf(sb, "%lld", (long long)d.coef);
    else if (d.coef == 1)
        strbuf_add(sb, g->syms[d.sym]);
    else
        strbuf_addf(sb, "%s * %lld", g->syms[d.sym], (long long)d.coef);
}

static void print_shape(Gen *g, StrBuf *sb, const GVal *v, bool quote_syms)
{
    strbuf_addc(sb, '(');
    for (int i = 0; i < v->ndim; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        if (quote_syms && v->dims[i].sym >= 0 && v->dims[i].coef == 1)
            strbuf_addf(sb, "\"%s\"", g->syms[v->dims[i].sym]);
        else
            print_dim(g, sb, v->dims[i]);
    }
    if (v->ndim == 1)
        strbuf_addc(sb, ',');
    strbuf_addc(sb, ')');
}

static void print_tensor_sinfo(Gen *g, StrBuf *sb, const GVal *v, bool quote_syms)
{
    strbuf_add(sb, "R.Tensor(");
    print_shape(g, sb, v, quote_syms);
    strbuf_addf(sb, ", dtype=\"%s\")", DTYPE_NAME[v->dtype]);
}

static GVal *new_val(Gen *g, const char *stem, const GVal *like)
{
    if (g->nvals == MAX_VALS)
        return NULL;
    GVal *v = &g->vals[g->nvals++];
    *v = *like;
    v->name = fresh_name(g, stem);
    v->visible = true;
    return v;
}

/* A visible value chosen uniformly; NULL when there is none that `ok` accepts. */
static GVal *pick_val(Gen *g, bool (*ok)(const GVal *, const GVal *), const GVal *other)
{
    int cands[MAX_VALS];
    int n = 0;
    for (int i = 0; i < g->nvals; i++)
        if (g->vals[i].visible && (ok == NULL || ok(&g->vals[i], other)))
            cands[n++] = i;
    return n == 0 ? NULL : &g->vals[cands[pick(g, n)]];
}

static bool same_sinfo(const GVal *a, const GVal *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim)
        return false;
    for (int i = 0; i < a->ndim; i++)
        if (!dim_equal(a->dims[i], b->dims[i]))
            return false;
    return true;
}

/* b broadcasts onto a without changing a's shape: b's dims are a's trailing dims. */
static bool broadcasts_onto(const GVal *b, const GVal *a)
{
    if (a->dtype != b->dtype || b->ndim > a->ndim)
        return false;
    for (int i = 0; i < b->ndim; i++)
        if (!dim_equal(b->dims[i], a->dims[a->ndim - b->ndim + i]))
            return false;
    return true;
}

static bool has_rank_ge1(const GVal *v, const GVal *unused)
{
    (void)unused;
    return v->ndim >= 1;
}

static bool has_rank2(const GVal *v, const GVal *unused)
{
    (void)unused;
    return v->ndim == 2;
}

static bool is_static(const GVal *v, const GVal *unused)
{
    (void)unused;
    return dims_static(v);
}

static bool flattenable(const GVal *v, const GVal *unused)
{
    (void)unused;
    return v->ndim >= 2 && count_sym_dims(v) <= 1;
}

static void indent(StrBuf *sb, int depth)
{
    for (int i = 0; i < depth; i++)
        strbuf_add(sb, "    ");
}

static const char *const_text(Gen *g)
{
    if (g->dtype == GEN_F32) {
        static const char *const F[] = {"0.5", "1.5", "-2.0", "2.0", "0.25"};
        return mem_printf("R.const(%s, \"float32\")", F[pick(g, 5)]);
    }
    return mem_printf("R.const(%d, \"int32\")", pick(g, 5) - 2);
}

/* Unary operators of both dtypes first; the float-only ones after them. */
static const char *const UNARY[] = {"R.negative", "R.abs", "R.tanh", "R.sigmoid", "R.floor"};
/* Integer operands avoid multiply: chains of products overflow, and int32 overflow is
 * undefined in TVM (SPEC_NOTES 4.19), which an adapter comparison must not meet. */
static const char *const BINARY[] = {"R.add", "R.subtract", "R.maximum", "R.minimum",
                                     "R.multiply"};

/* One operator binding at `depth`; returns the new value or NULL when none was possible. */
static GVal *gen_op(Gen *g, StrBuf *sb, int depth, bool in_block)
{
    GVal *a = pick_val(g, NULL, NULL);
    if (a == NULL)
        return NULL;
    GVal res = *a;
    res.in_block = in_block;
    const char *rhs = NULL;
    int kind = pick(g, 9);
    if ((kind == 7 && !(g->features & GEN_TUPLE)) ||
        (kind == 8 && !(g->features & GEN_MATCH_CAST)))
        kind = 2;
    switch (kind) {
    case 0:
    case 1: { /* binary, same shape or broadcast */
        int nops = g->dtype == GEN_F32 ? 5 : 4;
        GVal *b = pick_val(g, broadcasts_onto, a);
        const char *other = b != NULL ? b->name : a->name;
        if (chance(g, 25))
            other = const_text(g);
        bool swap = chance(g, 30) && b != NULL && same_sinfo(a, b);
        rhs = mem_printf("%s(%s, %s)", BINARY[pick(g, nops)], swap ? other : a->name,
                         swap ? a->name : other);
        break;
    }
    case 2: { /* unary */
        int nops = g->dtype == GEN_F32 ? 5 : 2;
        rhs = mem_printf("%s(%s)", UNARY[pick(g, nops)], a->name);
        break;
    }
    case 3: { /* reduction over one axis */
        GVal *r = pick_val(g, has_rank_ge1, NULL);
        if (r == NULL)
            return NULL;
        int axis = pick(g, r->ndim);
        bool keep = chance(g, 30);
        const char *op = chance(g, 50) ? "R.sum" : "R.max";
        rhs = mem_printf("%s(%s, axis=[%d], keepdims=%s)", op, r->name, axis,
                         keep ? "True" : "False");
        res = *r;
        res.in_block = in_block;
        if (keep) {
            res.dims[axis] = (Dim){1, -1};
        } else {
            for (int i = axis; i + 1 < r->ndim; i++)
                res.dims[i] = r->dims[i + 1];
            res.ndim--;
        }
        break;
    }
    case 4: { /* permute_dims, then maybe matmul with the original */
        GVal *m = pick_val(g, has_rank2, NULL);
        if (m == NULL)
            return NULL;
        res = *m;
        res.in_block = in_block;
        res.dims[0] = m->dims[1];
        res.dims[1] = m->dims[0];
        GVal *t = new_val(g, "t", &res);
        if (t == NULL)
            return NULL;
        indent(sb, depth);
        strbuf_addf(sb, "%s = R.permute_dims(%s, axes=[1, 0])\n", t->name, m->name);
        g->prog->n_ops++;
        if (chance(g, 50))
            return t;
        rhs = mem_printf("R.matmul(%s, %s)", m->name, t->name);
        res.dims[0] = m->dims[0];
        res.dims[1] = m->dims[0];
        break;
    }
    case 5: { /* concat with itself along one axis */
        GVal *c = pick_val(g, has_rank_ge1, NULL);
        if (c == NULL)
            return NULL;
        int axis = pick(g, c->ndim);
        rhs = mem_printf("R.concat((%s, %s), axis=%d)", c->name, c->name, axis);
        res = *c;
        res.in_block = in_block;
        res.dims[axis].coef *= 2;
        break;
    }
    case 6: { /* flatten with reshape: one symbolic dim at most, so the size is k * n */
        GVal *f = pick_val(g, flattenable, NULL);
        if (f == NULL)
            return NULL;
        Dim size = {1, -1};
        for (int i = 0; i < f->ndim; i++) {
            size.coef *= f->dims[i].coef;
            if (f->dims[i].sym >= 0)
                size.sym = f->dims[i].sym;
        }
        res = *f;
        res.in_block = in_block;
        res.ndim = 1;
        res.dims[0] = size;
        StrBuf s;
        strbuf_init(&s);
        print_shape(g, &s, &res, false);
        rhs = mem_printf("R.reshape(%s, %s)", f->name, strbuf_str(&s));
        break;
    }
    case 7: { /* a tuple, and one of its fields */
        GVal *b = pick_val(g, NULL, NULL);
        char *tname = fresh_name(g, "tup");
        indent(sb, depth);
        strbuf_addf(sb, "%s = (%s, %s)\n", tname, a->name, b->name);
        g->prog->n_tuple++;
        int i = pick(g, 2);
        rhs = mem_printf("%s[%d]", tname, i);
        res = i == 0 ? *a : *b;
        res.in_block = in_block;
        break;
    }
    case 8: { /* MatchCast: each dim a fresh shape variable or its known value */
        StrBuf s;
        strbuf_init(&s);
        for (int i = 0; i < a->ndim; i++) {
            if (g->nsyms < MAX_SYMS && chance(g, 40)) {
                g->syms[g->nsyms] = fresh_name(g, "m");
                res.dims[i] = (Dim){1, g->nsyms++};
            }
        }
        print_tensor_sinfo(g, &s, &res, false);
        rhs = mem_printf("R.match_cast(%s, %s)", a->name, strbuf_str(&s));
        g->prog->n_match_cast++;
        break;
    }
    }
    GVal *v = new_val(g, "v", &res);
    if (v == NULL)
        return NULL;
    indent(sb, depth);
    strbuf_addf(sb, "%s = %s\n", v->name, rhs);
    g->prog->n_ops++;
    return v;
}

/* A module function of rank `ndim` in the program's dtype: its own shape variables, a
 * short elementwise body, the same StructInfo out as in. */
static const char *helper_for(Gen *g, int ndim)
{
    const char *name = mem_printf("helper_%d", ndim);
    if (g->helper_made[ndim])
        return name;
    g->helper_made[ndim] = true;
    StrBuf *sb = &g->helpers;
    strbuf_add(sb, "    @R.function\n");
    strbuf_addf(sb, "    def %s(a: R.Tensor((", name);
    for (int i = 0; i < ndim; i++)
        strbuf_addf(sb, "%s\"h%d\"", i > 0 ? ", " : "", i);
    strbuf_addf(sb, "%s), dtype=\"%s\")):\n", ndim == 1 ? "," : "", DTYPE_NAME[g->dtype]);
    for (int i = 0; i < ndim; i++)
        strbuf_addf(sb, "        h%d = T.int64()\n", i);
    const char *op = g->dtype == GEN_F32 ? "R.multiply" : "R.add";
    strbuf_addf(sb, "        b = %s(a, a)\n", op);
    strbuf_add(sb, "        c = R.subtract(b, a)\n");
    strbuf_add(sb, "        return c\n\n");
    return name;
}

static GVal *gen_call(Gen *g, StrBuf *sb, int depth, bool in_block)
{
    GVal *a = pick_val(g, NULL, NULL);
    if (a == NULL)
        return NULL;
    const char *h = helper_for(g, a->ndim);
    g->uses_cls = true;
    GVal *v = new_val(g, "v", a);
    if (v == NULL)
        return NULL;
    v->in_block = in_block;
    indent(sb, depth);
    strbuf_addf(sb, "%s = cls.%s(%s)\n", v->name, h, a->name);
    g->prog->n_call++;
    return v;
}

/* `with R.dataflow():` of a few bindings; some of them leave through R.output. */
static void gen_block(Gen *g, int depth)
{
    StrBuf *sb = &g->body;
    indent(sb, depth);
    strbuf_add(sb, "with R.dataflow():\n");
    int first = g->nvals;
    int n = 1 + pick(g, 4);
    for (int i = 0; i < n; i++)
        if ((g->features & GEN_CALL) && chance(g, 15))
            gen_call(g, sb, depth + 1, true);
        else
            gen_op(g, sb, depth + 1, true);
    while (g->nvals == first) /* nothing was possible yet: the block must not be empty */
        gen_op(g, sb, depth + 1, true);
    /* The last binding always leaves; each other one with even odds. */
    indent(sb, depth + 1);
    strbuf_add(sb, "R.output(");
    bool any = false;
    for (int i = first; i < g->nvals; i++) {
        GVal *v = &g->vals[i];
        if (i == g->nvals - 1 || chance(g, 50)) {
            strbuf_addf(sb, "%s%s", any ? ", " : "", v->name);
            any = true;
        } else {
            v->visible = false;
        }
        v->in_block = false;
    }
    strbuf_add(sb, ")\n");
    g->prog->n_dataflow++;
}

/* An `if` on the sign of a sum: both branches bind `r` to a value of one StructInfo. */
static void gen_if(Gen *g, int depth)
{
    StrBuf *sb = &g->body;
    GVal *a = pick_val(g, NULL, NULL);
    if (a == NULL)
        return;
    char *s = fresh_name(g, "s");
    char *c = fresh_name(g, "cond");
    indent(sb, depth);
    strbuf_addf(sb, "%s = R.sum(%s)\n", s, a->name);
    indent(sb, depth);
    strbuf_addf(sb, "%s = R.greater(%s, %s)\n", c, s,
                g->dtype == GEN_F32 ? "R.const(0.0, \"float32\")" : "R.const(0, \"int32\")");
    char *r = fresh_name(g, "r");
    for (int branch = 0; branch < 2; branch++) {
        indent(sb, depth);
        strbuf_add(sb, branch == 0 ? mem_printf("if %s:\n", c) : "else:\n");
        char *b = fresh_name(g, "b");
        GVal *other = pick_val(g, broadcasts_onto, a);
        int nops = g->dtype == GEN_F32 ? 5 : 4;
        indent(sb, depth + 1);
        if (chance(g, 50))
            strbuf_addf(sb, "%s = %s(%s, %s)\n", b, BINARY[pick(g, nops)], a->name,
                        other != NULL ? other->name : a->name);
        else
            strbuf_addf(sb, "%s = %s(%s)\n", b, UNARY[pick(g, g->dtype == GEN_F32 ? 5 : 2)],
                        a->name);
        indent(sb, depth + 1);
        strbuf_addf(sb, "%s = %s\n", r, b);
    }
    GVal *v = new_val(g, "r", a);
    if (v != NULL)
        v->name = r;
    g->prog->n_if++;
}

/* A closure: a local function with a parameter of static shape that captures a variable of
 * the program, called once. */
static void gen_closure(Gen *g, int depth)
{
    StrBuf *sb = &g->body;
    GVal *a = pick_val(g, is_static, NULL);
    if (a == NULL)
        return;
    GVal *cap = pick_val(g, broadcasts_onto, a);
    char *f = fresh_name(g, "f");
    indent(sb, depth);
    strbuf_add(sb, "@R.function\n");
    indent(sb, depth);
    strbuf_addf(sb, "def %s(p: ", f);
    print_tensor_sinfo(g, sb, a, false);
    strbuf_add(sb, "):\n");
    indent(sb, depth + 1);
    int nops = g->dtype == GEN_F32 ? 5 : 4;
    strbuf_addf(sb, "q = %s(p, %s)\n", BINARY[pick(g, nops)], cap != NULL ? cap->name : "p");
    indent(sb, depth + 1);
    strbuf_add(sb, "return q\n");
    GVal *v = new_val(g, "v", a);
    if (v == NULL)
        return;
    indent(sb, depth);
    strbuf_addf(sb, "%s = %s(%s)\n", v->name, f, a->name);
    g->prog->n_closure++;
}

/* main's parameters: two or three tensors over the shape variables n (and k). */
static void gen_params(Gen *g, StrBuf *sig)
{
    g->syms[0] = "n";
    g->param_sym_value[0] = 1 + pick(g, 4);
    g->syms[1] = "k";
    g->param_sym_value[1] = 1 + pick(g, 3);
    g->nsyms = g->nparam_syms = 2;
    int64_t c = 1 + pick(g, 4);
    int nparams = 2 + pick(g, 2);
    static const Dim SHAPES[][2] = {
        {{1, 0}, {0, -2}}, /* (n, c) */
        {{1, 0}, {0, -2}}, /* (n, c) again: same-shape operands are likely */
        {{0, -2}, {0, -3}}, /* (c,) */
        {{1, 1}, {0, -2}}, /* (k, c) */
        {{1, 0}, {0, -3}}, /* (n,) */
        {{2, -1}, {0, -2}}, /* (2, c) */
    };
    int nshapes = (int)(sizeof(SHAPES) / sizeof(SHAPES[0]));
    for (int i = 0; i < nparams; i++) {
        const Dim *s = SHAPES[i == 0 ? 0 : pick(g, nshapes)];
        GVal v = {0};
        v.dtype = g->dtype;
        for (int d = 0; d < 2; d++) {
            if (s[d].sym == -3)
                break;
            v.dims[v.ndim++] = s[d].sym == -2 ? (Dim){c, -1} : s[d];
        }
        GVal *p = new_val(g, "x", &v);
        strbuf_addf(sig, "%s%s: ", i > 0 ? ", " : "", p->name);
        print_tensor_sinfo(g, sig, p, true);
        /* Its argument: small values, exact in both dtypes. */
        StrBuf arg;
        strbuf_init(&arg);
        strbuf_addf(&arg, "{tensor: {dtype: %s, shape: [", DTYPE_NAME[g->dtype]);
        int64_t count = 1;
        for (int d = 0; d < p->ndim; d++) {
            int64_t extent = p->dims[d].sym < 0 ? p->dims[d].coef
                                                : p->dims[d].coef *
                                                      g->param_sym_value[p->dims[d].sym];
            strbuf_addf(&arg, "%s%lld", d > 0 ? ", " : "", (long long)extent);
            count *= extent;
        }
        strbuf_add(&arg, "], data: [");
        for (int64_t e = 0; e < count; e++) {
            int q = pick(g, 9) - 4;
            if (g->dtype == GEN_F32)
                strbuf_addf(&arg, "%s%g", e > 0 ? ", " : "", q * 0.5);
            else
                strbuf_addf(&arg, "%s%d", e > 0 ? ", " : "", q);
        }
        strbuf_add(&arg, "]}}");
        g->prog->args = mem_grow(g->prog->args, sizeof(char *) * (size_t)g->prog->nargs,
                                 sizeof(char *) * (size_t)(g->prog->nargs + 1));
        g->prog->args[g->prog->nargs++] = strbuf_str(&arg);
    }
}

int progen_feature(const char *name)
{
    static const struct {
        const char *name;
        int flag;
    } FEATURES[] = {{"dataflow", GEN_DATAFLOW}, {"if", GEN_IF},
                    {"closure", GEN_CLOSURE},   {"call", GEN_CALL},
                    {"match-cast", GEN_MATCH_CAST}, {"tuple", GEN_TUPLE}};
    for (size_t i = 0; i < sizeof FEATURES / sizeof FEATURES[0]; i++)
        if (strcmp(FEATURES[i].name, name) == 0)
            return FEATURES[i].flag;
    return 0;
}

GenProgram *progen_program(uint64_t seed, int size, int features)
{
    Gen *g = MEM_NEW(Gen);
    g->rng = seed * 0x2545f4914f6cdd1dULL + 1;
    g->prog = MEM_NEW(GenProgram);
    g->prog->seed = seed;
    g->prog->size = size < 1 ? 1 : size > 50 ? 50 : size;
    g->features = features;
    g->dtype = chance(g, 75) ? GEN_F32 : GEN_I32;
    strbuf_init(&g->helpers);
    strbuf_init(&g->body);
    StrBuf sig;
    strbuf_init(&sig);
    gen_params(g, &sig);

    int nseg = 1 + pick(g, g->prog->size);
    for (int s = 0; s < nseg; s++) {
        int kind = pick(g, 10);
        if (kind < 5 && (features & GEN_DATAFLOW))
            gen_block(g, 2);
        else if (kind >= 5 && kind < 7 && (features & GEN_IF))
            gen_if(g, 2);
        else if (kind == 7 && (features & GEN_CLOSURE))
            gen_closure(g, 2);
        else if (kind == 8 && (features & GEN_CALL))
            gen_call(g, &g->body, 2, false);
        else
            gen_op(g, &g->body, 2, false);
    }
    /* The result: the last value and up to two others, as a tuple when more than one. */
    GVal *last = NULL;
    for (int i = g->nvals - 1; i >= 0 && last == NULL; i--)
        if (g->vals[i].visible)
            last = &g->vals[i];
    StrBuf ret;
    strbuf_init(&ret);
    int extra = pick(g, 3);
    if (extra == 0) {
        strbuf_addf(&ret, "        return %s\n", last->name);
    } else {
        strbuf_addf(&ret, "        out = (%s", last->name);
        for (int i = 0; i < extra; i++)
            strbuf_addf(&ret, ", %s", pick_val(g, NULL, NULL)->name);
        strbuf_add(&ret, ")\n        return out\n");
    }

    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "# from tvm.script import ir as I, relax as R, tir as T\n\n");
    strbuf_add(&sb, "@I.ir_module\nclass Module:\n");
    strbuf_add(&sb, strbuf_str(&g->helpers));
    strbuf_addf(&sb, "    @R.function\n    def main(%s):\n", strbuf_str(&sig));
    for (int i = 0; i < g->nsyms; i++)
        strbuf_addf(&sb, "        %s = T.int64()\n", g->syms[i]);
    if (g->uses_cls)
        strbuf_add(&sb, "        cls = Module\n");
    strbuf_add(&sb, strbuf_str(&g->body));
    strbuf_add(&sb, strbuf_str(&ret));
    g->prog->text = strbuf_str(&sb);
    return g->prog;
}
