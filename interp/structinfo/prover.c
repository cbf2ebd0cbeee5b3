/* prover: PrimExpr equality by canonical polynomials over atoms.
 * SPEC_NOTES: "StructInfo" (PROVER-1) and §4 "The shape prover". */
#include "interp/structinfo/prover.h"

#include <stdlib.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/rule.h"

/* A polynomial bigger than this is given up on: the prover answers "unknown". */
#define MAX_TERMS 256

/* coef * atoms[0] * atoms[1] * ...; atoms sorted, so `key` (their product written out) is
 * canonical. */
typedef struct Term {
    const char **atoms;
    int natoms;
    const char *key;
    int64_t coef;
} Term;

typedef struct Poly {
    Term *terms;
    int n;
    int cap;
} Poly;

/* Normalization state: `failed` is set on overflow or a polynomial grown too large. */
typedef struct Norm {
    bool failed;
} Norm;

static char *join_atoms(const char **atoms, int n)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, "");
    for (int i = 0; i < n; i++)
        strbuf_addf(&sb, "%s%s", i ? "*" : "", atoms[i]);
    return strbuf_str(&sb);
}

static void poly_add_term(Norm *nm, Poly *p, const Term *t)
{
    for (int i = 0; i < p->n; i++) {
        if (strcmp(p->terms[i].key, t->key) != 0)
            continue;
        if (__builtin_add_overflow(p->terms[i].coef, t->coef, &p->terms[i].coef))
            nm->failed = true;
        return;
    }
    if (p->n >= MAX_TERMS) {
        nm->failed = true;
        return;
    }
    VEC_PUSH(p->terms, p->n, p->cap, *t);
}

static Poly poly_const(Norm *nm, int64_t v)
{
    Poly p = {NULL, 0, 0};
    Term t = {NULL, 0, "", v};
    poly_add_term(nm, &p, &t);
    return p;
}

static Poly poly_atom(Norm *nm, const char *key)
{
    Poly p = {NULL, 0, 0};
    const char **atoms = MEM_ARRAY(const char *, 1);
    atoms[0] = key;
    Term t = {atoms, 1, key, 1};
    poly_add_term(nm, &p, &t);
    return p;
}

/* a + sign * b */
static Poly poly_add(Norm *nm, const Poly *a, const Poly *b, int64_t sign)
{
    Poly p = {NULL, 0, 0};
    for (int i = 0; i < a->n; i++)
        poly_add_term(nm, &p, &a->terms[i]);
    for (int i = 0; i < b->n; i++) {
        Term t = b->terms[i];
        if (__builtin_mul_overflow(t.coef, sign, &t.coef))
            nm->failed = true;
        poly_add_term(nm, &p, &t);
    }
    return p;
}

static int cmp_atom(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static Term term_mul(Norm *nm, const Term *a, const Term *b)
{
    Term t;
    t.natoms = a->natoms + b->natoms;
    t.atoms = MEM_ARRAY(const char *, t.natoms + 1);
    /* A constant term has no atoms (and a NULL array): memcpy and qsort must not see it. */
    if (a->natoms > 0)
        memcpy(t.atoms, a->atoms, sizeof(char *) * (size_t)a->natoms);
    if (b->natoms > 0)
        memcpy(t.atoms + a->natoms, b->atoms, sizeof(char *) * (size_t)b->natoms);
    if (t.natoms > 1)
        qsort(t.atoms, (size_t)t.natoms, sizeof(char *), cmp_atom);
    t.key = join_atoms(t.atoms, t.natoms);
    if (__builtin_mul_overflow(a->coef, b->coef, &t.coef))
        nm->failed = true;
    return t;
}

static Poly poly_mul(Norm *nm, const Poly *a, const Poly *b)
{
    Poly p = {NULL, 0, 0};
    for (int i = 0; i < a->n; i++) {
        for (int k = 0; k < b->n; k++) {
            Term t = term_mul(nm, &a->terms[i], &b->terms[k]);
            poly_add_term(nm, &p, &t);
        }
    }
    return p;
}

/* True when every non-constant coefficient is zero; *v gets the constant. */
static bool poly_is_const(const Poly *p, int64_t *v)
{
    int64_t c = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->terms[i].natoms == 0)
            c = p->terms[i].coef;
        else if (p->terms[i].coef != 0)
            return false;
    }
    *v = c;
    return true;
}

static int cmp_term(const void *x, const void *y)
{
    return strcmp(((const Term *)x)->key, ((const Term *)y)->key);
}

/* The canonical text: nonzero terms sorted by monomial. */
static char *poly_key(const Poly *p)
{
    Term *sorted = MEM_ARRAY(Term, p->n + 1);
    int n = 0;
    for (int i = 0; i < p->n; i++)
        if (p->terms[i].coef != 0)
            sorted[n++] = p->terms[i];
    qsort(sorted, (size_t)n, sizeof(Term), cmp_term);
    if (n == 0)
        return mem_strdup("0");
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++) {
        const Term *t = &sorted[i];
        strbuf_addf(&sb, "%s%lld", i ? " + " : "", (long long)t->coef);
        if (t->natoms > 0)
            strbuf_addf(&sb, "*%s", t->key);
    }
    return strbuf_str(&sb);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    return a - floor_div(a, b) * b;
}

static Poly normalize(Norm *nm, const PrimExpr *e);

static const char *kind_name(PrimExprKind k)
{
    static const char *const names[] = {
        [PE_INT] = "int",
        [PE_FLOAT] = "float",
        [PE_VAR] = "var",
        [PE_ADD] = "add",
        [PE_SUB] = "sub",
        [PE_MUL] = "mul",
        [PE_DIV] = "div",
        [PE_MOD] = "mod",
        [PE_FLOORDIV] = "floordiv",
        [PE_FLOORMOD] = "floormod",
        [PE_MIN] = "min",
        [PE_MAX] = "max",
        [PE_EQ] = "eq",
        [PE_NE] = "ne",
        [PE_LT] = "lt",
        [PE_LE] = "le",
        [PE_GT] = "gt",
        [PE_GE] = "ge",
        [PE_AND] = "and",
        [PE_OR] = "or",
        [PE_NOT] = "not",
        [PE_SELECT] = "select",
        [PE_CAST] = "cast",
        [PE_LOAD] = "load",
        [PE_CALL] = "call",
    };
    return names[k];
}

/* An atom that stands for a term the prover does not look into; two such atoms are the same
 * when their operation, dtype and normalized operands are. */
static Poly opaque(Norm *nm, const char *op, const PrimExpr *e, const char **parts, int n)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_addf(&sb, "%s<%s>(", op, dtype_str(e->dtype));
    for (int i = 0; i < n; i++)
        strbuf_addf(&sb, "%s%s", i ? ", " : "", parts[i]);
    strbuf_addc(&sb, ')');
    return poly_atom(nm, strbuf_str(&sb));
}

static const char *child_key(Norm *nm, const PrimExpr *e)
{
    Poly p = normalize(nm, e);
    return poly_key(&p);
}

/* floordiv(x, c) and floormod(x, c) for a positive constant c: x = c*Q + R with every
 * coefficient of R in [0, c), so floordiv = Q + floordiv(R, c) and floormod = floormod(R, c),
 * and a constant R folds. */
static Poly div_by_const(Norm *nm, const PrimExpr *e, const Poly *x, int64_t c, bool mod)
{
    Poly q = {NULL, 0, 0}, r = {NULL, 0, 0};
    for (int i = 0; i < x->n; i++) {
        Term tq = x->terms[i], tr = x->terms[i];
        tq.coef = floor_div(tq.coef, c);
        tr.coef = floor_mod(tr.coef, c);
        poly_add_term(nm, &q, &tq);
        poly_add_term(nm, &r, &tr);
    }
    int64_t rc;
    Poly rest;
    if (poly_is_const(&r, &rc)) {
        rest = poly_const(nm, mod ? rc : 0);
    } else {
        const char *parts[2] = {poly_key(&r), mem_printf("%lld", (long long)c)};
        rest = opaque(nm, mod ? "floormod" : "floordiv", e, parts, 2);
    }
    if (mod)
        return rest;
    return poly_add(nm, &q, &rest, 1);
}

/* Truncating division and remainder fold only on constants or an exact multiple. */
static Poly trunc_div(Norm *nm, const PrimExpr *e, const Poly *x, int64_t c, bool mod)
{
    int64_t v;
    if (poly_is_const(x, &v) && !(v == INT64_MIN && c == -1))
        return poly_const(nm, mod ? v % c : v / c);
    bool exact = true;
    for (int i = 0; i < x->n; i++)
        exact = exact && x->terms[i].coef % c == 0;
    if (exact && c != -1) {
        if (mod)
            return poly_const(nm, 0);
        Poly p = {NULL, 0, 0};
        for (int i = 0; i < x->n; i++) {
            Term t = x->terms[i];
            t.coef /= c;
            poly_add_term(nm, &p, &t);
        }
        return p;
    }
    const char *parts[2] = {poly_key(x), mem_printf("%lld", (long long)c)};
    return opaque(nm, mod ? "mod" : "div", e, parts, 2);
}

static Poly division(Norm *nm, const PrimExpr *e)
{
    Poly x = normalize(nm, e->u.bin.a);
    Poly y = normalize(nm, e->u.bin.b);
    int64_t c;
    bool floor = e->kind == PE_FLOORDIV || e->kind == PE_FLOORMOD;
    bool mod = e->kind == PE_MOD || e->kind == PE_FLOORMOD;
    if (poly_is_const(&y, &c) && c > 0 && floor)
        return div_by_const(nm, e, &x, c, mod);
    if (poly_is_const(&y, &c) && c != 0 && !floor)
        return trunc_div(nm, e, &x, c, mod);
    int64_t xv;
    if (poly_is_const(&y, &c) && c < 0 && poly_is_const(&x, &xv) && !(xv == INT64_MIN && c == -1))
        return poly_const(nm, mod ? floor_mod(xv, c) : floor_div(xv, c));
    const char *parts[2] = {poly_key(&x), poly_key(&y)};
    return opaque(nm, kind_name(e->kind), e, parts, 2);
}

/* min/max fold when the difference of the operands is a constant. */
static Poly min_max(Norm *nm, const PrimExpr *e)
{
    Poly a = normalize(nm, e->u.bin.a);
    Poly b = normalize(nm, e->u.bin.b);
    Poly d = poly_add(nm, &a, &b, -1);
    int64_t v;
    if (poly_is_const(&d, &v)) {
        bool a_wins = e->kind == PE_MIN ? v <= 0 : v >= 0;
        return a_wins ? a : b;
    }
    const char *parts[2] = {poly_key(&a), poly_key(&b)};
    if (strcmp(parts[0], parts[1]) > 0) {
        const char *t = parts[0];
        parts[0] = parts[1];
        parts[1] = t;
    }
    return opaque(nm, kind_name(e->kind), e, parts, 2);
}

static bool compare_holds(PrimExprKind k, int64_t a, int64_t b)
{
    if (k == PE_EQ)
        return a == b;
    if (k == PE_NE)
        return a != b;
    if (k == PE_LT)
        return a < b;
    if (k == PE_LE)
        return a <= b;
    if (k == PE_GT)
        return a > b;
    if (k == PE_GE)
        return a >= b;
    if (k == PE_AND)
        return a != 0 && b != 0;
    return a != 0 || b != 0; /* PE_OR */
}

/* Comparisons and logic: fold on constants, else an atom over the normalized operands
 * (a comparison is written as its difference against zero, so `n + 1 == m` and
 * `n == m - 1` are the same atom). */
static Poly logic(Norm *nm, const PrimExpr *e)
{
    Poly a = normalize(nm, e->u.bin.a);
    Poly b = normalize(nm, e->u.bin.b);
    int64_t va, vb;
    if (poly_is_const(&a, &va) && poly_is_const(&b, &vb))
        return poly_const(nm, compare_holds(e->kind, va, vb));
    if (e->kind == PE_AND || e->kind == PE_OR) {
        const char *parts[2] = {poly_key(&a), poly_key(&b)};
        return opaque(nm, kind_name(e->kind), e, parts, 2);
    }
    Poly d = poly_add(nm, &a, &b, -1);
    const char *parts[1] = {poly_key(&d)};
    return opaque(nm, kind_name(e->kind), e, parts, 1);
}

/* Intrinsic calls: the name and the normalized arguments. */
static Poly call_atom(Norm *nm, const PrimExpr *e)
{
    StrBuf sb;
    strbuf_init(&sb);
    strbuf_add(&sb, e->u.call.name);
    for (int i = 0; i < e->u.call.nargs; i++)
        strbuf_addf(&sb, ", %s", child_key(nm, e->u.call.args[i]));
    const char *parts[1] = {strbuf_str(&sb)};
    return opaque(nm, "call", e, parts, 1);
}

/* Not, casts, selects, loads and intrinsic calls are atoms over normalized operands; an
 * int64 cast of a constant folds. */
static Poly other(Norm *nm, const PrimExpr *e)
{
    const char *parts[3];
    int64_t v;
    if (e->kind == PE_CALL)
        return call_atom(nm, e);
    if (e->kind == PE_CAST) {
        Poly x = normalize(nm, e->u.operand);
        if (dtype_is_int(e->dtype) && e->dtype.bits == 64 && poly_is_const(&x, &v))
            return x;
        parts[0] = poly_key(&x);
        return opaque(nm, "cast", e, parts, 1);
    }
    if (e->kind == PE_SELECT) {
        parts[0] = child_key(nm, e->u.select.cond);
        parts[1] = child_key(nm, e->u.select.then_value);
        parts[2] = child_key(nm, e->u.select.else_value);
        return opaque(nm, "select", e, parts, 3);
    }
    if (e->kind == PE_NOT) {
        parts[0] = child_key(nm, e->u.operand);
        return opaque(nm, "not", e, parts, 1);
    }
    /* Buffer loads never appear in Relax shapes; identity is enough. */
    parts[0] = mem_printf("%p", (const void *)e);
    return opaque(nm, kind_name(e->kind), e, parts, 1);
}

static Poly normalize(Norm *nm, const PrimExpr *e)
{
    if (dtype_is_float(e->dtype) && e->kind != PE_FLOAT && e->kind != PE_VAR) {
        const char *parts[2] = {NULL, NULL};
        int n = 0;
        if (primexpr_is_binary(e->kind)) {
            parts[n++] = child_key(nm, e->u.bin.a);
            parts[n++] = child_key(nm, e->u.bin.b);
            return opaque(nm, kind_name(e->kind), e, parts, n);
        }
        return other(nm, e);
    }
    switch (e->kind) {
    case PE_INT:
        return poly_const(nm, e->u.int_value);
    case PE_FLOAT:
        return poly_atom(nm, mem_printf("float<%.17g>", e->u.float_value));
    case PE_VAR:
        return poly_atom(nm, mem_printf("%s#%d", e->u.var->name, e->u.var->id));
    case PE_ADD:
    case PE_SUB: {
        Poly a = normalize(nm, e->u.bin.a);
        Poly b = normalize(nm, e->u.bin.b);
        return poly_add(nm, &a, &b, e->kind == PE_ADD ? 1 : -1);
    }
    case PE_MUL: {
        Poly a = normalize(nm, e->u.bin.a);
        Poly b = normalize(nm, e->u.bin.b);
        return poly_mul(nm, &a, &b);
    }
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
        return division(nm, e);
    case PE_MIN:
    case PE_MAX:
        return min_max(nm, e);
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR:
        return logic(nm, e);
    case PE_NOT:
    case PE_SELECT:
    case PE_CAST:
    case PE_LOAD:
    case PE_CALL:
        return other(nm, e);
    }
    return poly_const(nm, 0); /* not reached: every case of the switch returns */
}

ProveResult prover_compare(const PrimExpr *a, const PrimExpr *b)
{
    rule_fired("PROVER-1");
    if (a == b)
        return PROVE_EQUAL;
    if (a->kind == PE_FLOAT && b->kind == PE_FLOAT)
        return a->u.float_value == b->u.float_value ? PROVE_EQUAL : PROVE_UNEQUAL;
    Norm nm = {false};
    Poly pa = normalize(&nm, a);
    Poly pb = normalize(&nm, b);
    Poly d = poly_add(&nm, &pa, &pb, -1);
    if (nm.failed)
        return PROVE_UNKNOWN;
    int64_t v;
    if (!poly_is_const(&d, &v))
        return PROVE_UNKNOWN;
    return v == 0 ? PROVE_EQUAL : PROVE_UNEQUAL;
}

bool prover_const_int(const PrimExpr *e, int64_t *out)
{
    if (dtype_is_float(e->dtype))
        return false;
    Norm nm = {false};
    Poly p = normalize(&nm, e);
    return !nm.failed && poly_is_const(&p, out);
}

char *prover_canonical(const PrimExpr *e)
{
    Norm nm = {false};
    Poly p = normalize(&nm, e);
    if (nm.failed)
        return mem_strdup("?");
    return poly_key(&p);
}
