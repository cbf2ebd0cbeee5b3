/* simplify: integer PrimExprs as sums of monomials, printed back in TVM's canonical order.
 * SPEC_NOTES: "Symbolic dimensions" (ARITH-1). */
#include "ast/arith/simplify.h"

#include <stdlib.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/rule.h"

/* A monomial: coef * atoms[0] * ... * atoms[n-1]; an atom is a variable or an expression the
 * sum form does not look into (a non-exact division, a min, a product of sums). */
typedef struct Mono {
    const PrimExpr **atoms;
    int natoms;
    const char *key; /* the atoms' keys sorted: like terms have equal keys */
    int64_t coef;
} Mono;

typedef struct Sum {
    Mono *terms;
    int n;
    int64_t base;
    DataType dtype;
    bool overflow; /* a coefficient or the constant left int64 here or in an operand */
} Sum;

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
    return a - floor_div(a, b) * b;
}

/* ---- atom keys: structural identity (variables by object) ---- */

static void key_into(StrBuf *sb, const PrimExpr *e)
{
    if (e->kind == PE_INT) {
        strbuf_addf(sb, "%lld", (long long)e->u.int_value);
    } else if (e->kind == PE_VAR) {
        strbuf_addf(sb, "v%p", (void *)e->u.var);
    } else if (primexpr_is_binary(e->kind)) {
        strbuf_addf(sb, "(%d ", (int)e->kind);
        key_into(sb, e->u.bin.a);
        strbuf_addc(sb, ' ');
        key_into(sb, e->u.bin.b);
        strbuf_addc(sb, ')');
    } else {
        strbuf_addf(sb, "#%p", (const void *)e); /* anything else: by object */
    }
}

static const char *atom_key(const PrimExpr *e)
{
    StrBuf sb;
    strbuf_init(&sb);
    key_into(&sb, e);
    return strbuf_str(&sb);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static const char *mono_key(const PrimExpr **atoms, int n)
{
    const char **keys = MEM_ARRAY(const char *, n + 1);
    for (int i = 0; i < n; i++)
        keys[i] = atom_key(atoms[i]);
    qsort(keys, (size_t)n, sizeof *keys, cmp_str);
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++) {
        strbuf_add(&sb, keys[i]);
        strbuf_addc(&sb, '*');
    }
    return strbuf_str(&sb);
}

/* ---- sums ---- */

static Sum sum_const(int64_t v, DataType t)
{
    Sum s = {NULL, 0, v, t, false};
    return s;
}

/* Adds coef * m to s (collecting a like term). */
static void sum_add_mono(Sum *s, const Mono *m, int64_t scale)
{
    int64_t c = checked_mul(m->coef, scale, &s->overflow);
    for (int i = 0; i < s->n; i++) {
        if (strcmp(s->terms[i].key, m->key) == 0) {
            s->terms[i].coef = checked_add(s->terms[i].coef, c, &s->overflow);
            return;
        }
    }
    Mono *grown = MEM_ARRAY(Mono, s->n + 1);
    if (s->n > 0)
        memcpy(grown, s->terms, sizeof(Mono) * (size_t)s->n);
    grown[s->n] = *m;
    grown[s->n].coef = c;
    s->terms = grown;
    s->n++;
}

static Sum sum_atom(const PrimExpr *atom, DataType t)
{
    Sum s = sum_const(0, t);
    Mono m = {MEM_ARRAY(const PrimExpr *, 1), 1, NULL, 1};
    m.atoms[0] = atom;
    m.key = mono_key(m.atoms, 1);
    sum_add_mono(&s, &m, 1);
    return s;
}

static Sum sum_combine(const Sum *a, const Sum *b, int64_t scale_b)
{
    bool over = a->overflow || b->overflow;
    Sum s = sum_const(checked_add(a->base, checked_mul(b->base, scale_b, &over), &over), a->dtype);
    s.overflow = over;
    for (int i = 0; i < a->n; i++)
        sum_add_mono(&s, &a->terms[i], 1);
    for (int i = 0; i < b->n; i++)
        sum_add_mono(&s, &b->terms[i], scale_b);
    return s;
}

static Sum sum_scale(const Sum *a, int64_t k)
{
    Sum zero = sum_const(0, a->dtype);
    return sum_combine(&zero, a, k);
}

/* Terms with a zero coefficient dropped. */
static int live_terms(const Sum *s)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += s->terms[i].coef != 0;
    return n;
}

static bool sum_is_const(const Sum *s, int64_t *v)
{
    if (live_terms(s) != 0)
        return false;
    *v = s->base;
    return true;
}

/* The one live monomial of a sum with no constant, or NULL. */
static const Mono *single_mono(const Sum *s)
{
    if (s->base != 0 || live_terms(s) != 1)
        return NULL;
    for (int i = 0; i < s->n; i++)
        if (s->terms[i].coef != 0)
            return &s->terms[i];
    return NULL;
}

static Sum sum_of(const PrimExpr *e);
static PrimExpr *expr_of(const Sum *s);

/* Written back, a coefficient or constant is negated: INT64_MIN has no negation. */
static bool unwritable(const Sum *s)
{
    bool min = s->base == INT64_MIN;
    for (int i = 0; i < s->n; i++)
        min = min || s->terms[i].coef == INT64_MIN;
    return min;
}

/* s, marked when an operand it was made from overflowed or cannot be written back. */
static Sum inherit(Sum s, const Sum *a, const Sum *b)
{
    s.overflow = s.overflow || a->overflow || b->overflow || unwritable(a) || unwritable(b);
    return s;
}

/* |v|; INT64_MIN (which `unwritable` marks, so the result is discarded) stays itself. */
static int64_t magnitude(int64_t v)
{
    return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

static PrimExpr *rebuild(PrimExprKind k, const Sum *a, const Sum *b)
{
    return primexpr_binary(k, expr_of(a), expr_of(b), span_none());
}

/* a * b: by a constant distributes; two monomials multiply; two sums stay a product. */
static Sum sum_mul(const Sum *a, const Sum *b)
{
    int64_t k;
    bool over = false;
    if (sum_is_const(b, &k))
        return inherit(sum_scale(a, k), a, b);
    if (sum_is_const(a, &k))
        return inherit(sum_scale(b, k), a, b);
    const Mono *x = single_mono(a), *y = single_mono(b);
    if (x == NULL || y == NULL)
        return inherit(sum_atom(rebuild(PE_MUL, a, b), a->dtype), a, b);
    Mono m = {MEM_ARRAY(const PrimExpr *, x->natoms + y->natoms), x->natoms + y->natoms, NULL,
              checked_mul(x->coef, y->coef, &over)};
    memcpy(m.atoms, x->atoms, sizeof(PrimExpr *) * (size_t)x->natoms);
    memcpy(m.atoms + x->natoms, y->atoms, sizeof(PrimExpr *) * (size_t)y->natoms);
    m.key = mono_key(m.atoms, m.natoms);
    Sum s = sum_const(0, a->dtype);
    s.overflow = over;
    sum_add_mono(&s, &m, 1);
    return inherit(s, a, b);
}

/* a // c and a % c (floor) for a constant c > 0 dividing every coefficient: exact, since
 * floordiv(c*t + b, c) = t + floordiv(b, c) for every integer t. */
static bool exact_floor(const Sum *a, int64_t c, bool mod, Sum *out)
{
    for (int i = 0; i < a->n; i++)
        if (a->terms[i].coef % c != 0)
            return false;
    if (mod) {
        *out = sum_const(floor_mod(a->base, c), a->dtype);
        out->overflow = a->overflow;
        return true;
    }
    *out = sum_const(floor_div(a->base, c), a->dtype);
    out->overflow = a->overflow;
    for (int i = 0; i < a->n; i++) {
        Mono m = a->terms[i];
        m.coef = 1;
        sum_add_mono(out, &m, a->terms[i].coef / c);
    }
    return true;
}

static bool fold_const(PrimExprKind k, int64_t x, int64_t y, int64_t *out)
{
    if (k == PE_MIN || k == PE_MAX) {
        *out = (k == PE_MIN) == (x < y) ? x : y;
        return true;
    }
    if (y == 0 || (x == INT64_MIN && y == -1))
        return false;
    *out = k == PE_FLOORDIV ? floor_div(x, y)
         : k == PE_FLOORMOD ? floor_mod(x, y)
         : k == PE_DIV      ? x / y
                            : x % y;
    return true;
}

/* Division, remainder, min and max: folded, exact, or an atom of the simplified operands. */
static Sum sum_other_binary(const PrimExpr *e)
{
    Sum a = sum_of(e->u.bin.a), b = sum_of(e->u.bin.b), out;
    int64_t x, y, v;
    bool cb = sum_is_const(&b, &y);
    if (cb && sum_is_const(&a, &x) && fold_const(e->kind, x, y, &v))
        return inherit(sum_const(v, e->dtype), &a, &b);
    bool floor = e->kind == PE_FLOORDIV || e->kind == PE_FLOORMOD;
    if (floor && cb && y > 0 && exact_floor(&a, y, e->kind == PE_FLOORMOD, &out))
        return inherit(out, &a, &b);
    if (floor && cb && y == 1)
        return inherit(e->kind == PE_FLOORDIV ? a : sum_const(0, e->dtype), &a, &b);
    return inherit(sum_atom(rebuild(e->kind, &a, &b), e->dtype), &a, &b);
}

static Sum sum_of(const PrimExpr *e)
{
    switch (e->kind) {
    case PE_INT:
        return sum_const(e->u.int_value, e->dtype);
    case PE_ADD:
    case PE_SUB: {
        Sum a = sum_of(e->u.bin.a), b = sum_of(e->u.bin.b);
        return sum_combine(&a, &b, e->kind == PE_ADD ? 1 : -1);
    }
    case PE_MUL: {
        Sum a = sum_of(e->u.bin.a), b = sum_of(e->u.bin.b);
        return sum_mul(&a, &b);
    }
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_MIN:
    case PE_MAX:
        return sum_other_binary(e);
    case PE_FLOAT:
    case PE_VAR:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
    case PE_AND:
    case PE_OR:
    case PE_NOT:
    case PE_SELECT:
    case PE_CAST:
    case PE_LOAD:
    case PE_CALL:
        break;
    }
    return sum_atom(e, e->dtype); /* a variable, or a kind the sum form does not read */
}

/* ---- back to an expression, in TVM's order ---- */

static PrimExpr *int_of(int64_t v, DataType t)
{
    return primexpr_int(v, t, span_none());
}

/* atoms[0] * ... * atoms[n-1] * |coef| (the coefficient omitted when 1). */
static PrimExpr *mono_expr(const Mono *m, DataType t)
{
    PrimExpr *p = (PrimExpr *)m->atoms[0];
    for (int i = 1; i < m->natoms; i++)
        p = primexpr_binary(PE_MUL, p, (PrimExpr *)m->atoms[i], span_none());
    int64_t c = magnitude(m->coef);
    return c == 1 ? p : primexpr_binary(PE_MUL, p, int_of(c, t), span_none());
}

/* Live terms, stably sorted by coefficient, largest first (TVM's canonical order). */
static Mono *ordered_terms(const Sum *s, int *n)
{
    Mono *t = MEM_ARRAY(Mono, s->n + 1);
    *n = 0;
    for (int i = 0; i < s->n; i++)
        if (s->terms[i].coef != 0)
            t[(*n)++] = s->terms[i];
    for (int i = 1; i < *n; i++) { /* insertion sort: stable */
        Mono m = t[i];
        int j = i - 1;
        while (j >= 0 && t[j].coef < m.coef) {
            t[j + 1] = t[j];
            j--;
        }
        t[j + 1] = m;
    }
    return t;
}

static PrimExpr *expr_of(const Sum *s)
{
    int n;
    Mono *t = ordered_terms(s, &n);
    DataType dt = s->dtype;
    if (n == 0)
        return int_of(s->base, dt);
    PrimExpr *acc = NULL;
    if (t[0].coef < 0) /* every term subtracted: the constant (or 0) leads */
        acc = int_of(s->base, dt);
    for (int i = 0; i < n; i++) {
        PrimExpr *m = mono_expr(&t[i], dt);
        if (acc == NULL)
            acc = m;
        else
            acc = primexpr_binary(t[i].coef < 0 ? PE_SUB : PE_ADD, acc, m, span_none());
    }
    if (t[0].coef > 0 && s->base != 0)
        acc = primexpr_binary(s->base < 0 ? PE_SUB : PE_ADD, acc,
                              int_of(magnitude(s->base), dt), span_none());
    return acc;
}

/* ARITH-1: inferred dimensions are written in the analyzer's canonical form. */
PrimExpr *arith_simplify(const PrimExpr *e)
{
    rule_fired("ARITH-1");
    if (e == NULL || !(dtype_is_int(e->dtype) || dtype_is_uint(e->dtype)) ||
        dtype_is_bool(e->dtype))
        return (PrimExpr *)e;
    Sum s = sum_of(e);
    return s.overflow || unwritable(&s) ? NULL : expr_of(&s);
}
