/* prim_eval: PrimExprs with TIR semantics: integers wrap to their dtype, floats round to
 * theirs. SPEC_NOTES: "TIR semantics" (TIR-INT, TIR-CAST, TIR-INTRIN). */
#include "interp/tir/prim_eval.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "ast/rule.h"
#include "interp/eval/eval_internal.h"
#include "interp/eval/interp.h"
#include "interp/tir/tir_exec.h"
#include "values/tensor.h"
#include "values/value.h"

/* TIR-INT: integer results are computed in uint64 (no C overflow) and wrapped to the
 * dtype's width, sign-extended for signed types. */
static int64_t wrap_bits(DataType t, uint64_t x)
{
    int b = t.bits;
    if (b >= 64 || b <= 0)
        return (int64_t)x;
    uint64_t mask = ((uint64_t)1 << b) - 1;
    x &= mask;
    if (dtype_is_uint(t))
        return (int64_t)x;
    uint64_t sign = (uint64_t)1 << (b - 1);
    return (int64_t)((x ^ sign) - sign);
}

Scalar prim_scalar_int(DataType dtype, int64_t v)
{
    if (dtype_is_float(dtype))
        return prim_scalar_float(dtype, (double)v);
    Scalar s = {dtype, wrap_bits(dtype, (uint64_t)v), 0};
    s.f = (double)s.i;
    return s;
}

Scalar prim_scalar_float(DataType dtype, double v)
{
    Scalar s = {dtype, 0, v};
    if (dtype_is_float(dtype) && tensor_dtype_supported(dtype))
        s.f = tensor_round_f64(dtype, v);
    return s;
}

static double as_double(Scalar s)
{
    if (dtype_is_float(s.dtype))
        return s.f;
    if (dtype_is_uint(s.dtype) && s.dtype.bits == 64)
        return (double)(uint64_t)s.i;
    return (double)s.i;
}

bool prim_scalar_truth(Scalar v)
{
    return dtype_is_float(v.dtype) ? v.f != 0 : v.i != 0;
}

/* TIR-CAST: float to integer truncates toward zero, NaN becomes 0, and a value outside the
 * target's range saturates to its minimum or maximum; integer to integer wraps; anything to
 * bool is "non-zero" (NaN is non-zero). */
static int64_t float_to_int(DataType to, double d)
{
    if (isnan(d))
        return 0;
    d = trunc(d);
    int b = to.bits >= 64 ? 64 : to.bits;
    if (dtype_is_uint(to)) {
        double hi = ldexp(1.0, b); /* exclusive */
        if (d <= 0)
            return 0;
        if (d >= hi)
            return b == 64 ? (int64_t)UINT64_MAX : (int64_t)(((uint64_t)1 << b) - 1);
        return (int64_t)(uint64_t)d;
    }
    double lim = ldexp(1.0, b - 1);
    if (d >= lim)
        return b == 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << (b - 1)) - 1);
    if (d < -lim)
        return b == 64 ? INT64_MIN : -(int64_t)((uint64_t)1 << (b - 1));
    return (int64_t)d;
}

Scalar prim_cast(DataType to, Scalar v)
{
    rule_fired("TIR-CAST");
    if (dtype_is_float(to))
        return prim_scalar_float(to, as_double(v));
    if (dtype_is_bool(to))
        return prim_scalar_int(to, prim_scalar_truth(v) ? 1 : 0);
    if (dtype_is_float(v.dtype))
        return prim_scalar_int(to, float_to_int(to, v.f));
    return prim_scalar_int(to, v.i);
}

static bool is_unsigned(DataType t)
{
    return dtype_is_uint(t);
}

static noreturn void div_zero(const PrimEvalCtx *pc, const PrimExpr *e)
{
    interp_fail(pc->interp, "DivByZero", "TIR-INT", e->span, "integer division or modulo by zero");
}

/* Truncating (Div, Mod) and flooring (FloorDiv, FloorMod) integer division. */
static int64_t int_divmod(const PrimEvalCtx *pc, const PrimExpr *e, int64_t a, int64_t b)
{
    /* A size (checked arithmetic, E-8): a divisor that overflowed stands as 0, so the overflow
     * already noted is the error, not a division by zero; INT64_MIN / -1 overflows too. */
    if (pc->overflow != NULL && *pc->overflow)
        return 0;
    if (pc->overflow != NULL && dtype_is_int(e->dtype) && e->dtype.bits == 64 && a == INT64_MIN &&
        b == -1) {
        *pc->overflow = true;
        return 0;
    }
    if (b == 0)
        div_zero(pc, e);
    bool is_div = e->kind == PE_DIV || e->kind == PE_FLOORDIV;
    if (is_unsigned(e->u.bin.a->dtype)) {
        uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
        return (int64_t)(is_div ? ua / ub : ua % ub);
    }
    if (a == INT64_MIN && b == -1)
        return is_div ? INT64_MIN : 0;
    int64_t q = a / b, r = a % b;
    bool floor = e->kind == PE_FLOORDIV || e->kind == PE_FLOORMOD;
    if (floor && r != 0 && ((r < 0) != (b < 0))) {
        q -= 1;
        r += b;
    }
    return is_div ? q : r;
}

/* Integer Add..Ge; the caller dispatches only binary kinds here. */
static Scalar int_binary(const PrimEvalCtx *pc, const PrimExpr *e, Scalar a, Scalar b)
{
    rule_fired("TIR-INT");
    uint64_t ua = (uint64_t)a.i, ub = (uint64_t)b.i;
    bool lt = is_unsigned(a.dtype) ? ua < ub : a.i < b.i;
    DataType t = e->dtype, bl = dtype_bool();
    PrimExprKind k = e->kind;
    if (pc->overflow != NULL && dtype_is_int(t) && t.bits == 64 &&
        (k == PE_ADD || k == PE_SUB || k == PE_MUL)) {
        bool over = false;
        int64_t r = k == PE_ADD   ? checked_add(a.i, b.i, &over)
                    : k == PE_SUB ? checked_sub(a.i, b.i, &over)
                                  : checked_mul(a.i, b.i, &over);
        *pc->overflow = *pc->overflow || over;
        return prim_scalar_int(t, r);
    }
    if (k == PE_ADD)
        return prim_scalar_int(t, (int64_t)(ua + ub));
    if (k == PE_SUB)
        return prim_scalar_int(t, (int64_t)(ua - ub));
    if (k == PE_MUL)
        return prim_scalar_int(t, (int64_t)(ua * ub));
    if (k == PE_DIV || k == PE_MOD || k == PE_FLOORDIV || k == PE_FLOORMOD)
        return prim_scalar_int(t, int_divmod(pc, e, a.i, b.i));
    if (k == PE_MIN)
        return lt ? a : b;
    if (k == PE_MAX)
        return lt ? b : a;
    if (k == PE_EQ || k == PE_NE)
        return prim_scalar_int(bl, (a.i == b.i) == (k == PE_EQ));
    if (k == PE_LT || k == PE_GE)
        return prim_scalar_int(bl, lt == (k == PE_LT));
    /* PE_LE, PE_GT */
    return prim_scalar_int(bl, (lt || a.i == b.i) == (k == PE_LE));
}

static Scalar float_binary(const PrimExpr *e, double a, double b)
{
    rule_fired("TIR-INT");
    DataType t = e->dtype, bl = dtype_bool();
    PrimExprKind k = e->kind;
    if (k == PE_ADD)
        return prim_scalar_float(t, a + b);
    if (k == PE_SUB)
        return prim_scalar_float(t, a - b);
    if (k == PE_MUL)
        return prim_scalar_float(t, a * b);
    if (k == PE_DIV)
        return prim_scalar_float(t, a / b);
    if (k == PE_MOD)
        return prim_scalar_float(t, fmod(a, b));
    if (k == PE_FLOORDIV)
        return prim_scalar_float(t, floor(a / b));
    if (k == PE_FLOORMOD)
        return prim_scalar_float(t, a - floor(a / b) * b);
    if (k == PE_MIN)
        return prim_scalar_float(t, b < a ? b : a);
    if (k == PE_MAX)
        return prim_scalar_float(t, a < b ? b : a);
    if (k == PE_EQ)
        return prim_scalar_int(bl, a == b);
    if (k == PE_NE)
        return prim_scalar_int(bl, a != b);
    if (k == PE_LT)
        return prim_scalar_int(bl, a < b);
    if (k == PE_LE)
        return prim_scalar_int(bl, a <= b);
    if (k == PE_GT)
        return prim_scalar_int(bl, a > b);
    return prim_scalar_int(bl, a >= b); /* PE_GE */
}

static Scalar eval_binary(const PrimEvalCtx *pc, const PrimExpr *e)
{
    Scalar a = prim_eval(pc, e->u.bin.a);
    Scalar b = prim_eval(pc, e->u.bin.b);
    bool fl = dtype_is_float(a.dtype) || dtype_is_float(b.dtype) || dtype_is_float(e->dtype);
    if (fl)
        return float_binary(e, as_double(a), as_double(b));
    return int_binary(pc, e, a, b);
}

/* And/Or short-circuit, so `i < n && A[i] > 0` never loads out of bounds. */
static Scalar eval_logic(const PrimEvalCtx *pc, const PrimExpr *e)
{
    rule_fired("TIR-INT");
    bool a = prim_scalar_truth(prim_eval(pc, e->u.bin.a));
    if (e->kind == PE_AND && !a)
        return prim_scalar_int(dtype_bool(), 0);
    if (e->kind == PE_OR && a)
        return prim_scalar_int(dtype_bool(), 1);
    return prim_scalar_int(dtype_bool(), prim_scalar_truth(prim_eval(pc, e->u.bin.b)));
}

static Scalar eval_var(const PrimEvalCtx *pc, const PrimExpr *e)
{
    Scalar s;
    if (pc->lookup == NULL || !pc->lookup(pc->ctx, e->u.var, &s))
        interp_fail(pc->interp, "UnboundShapeVar", "E-4", e->span,
                    "shape variable '%s' has no value", e->u.var->name);
    return s;
}

static Scalar eval_load(const PrimEvalCtx *pc, const PrimExpr *e)
{
    if (pc->load == NULL)
        interp_fail(pc->interp, "OpNotImplemented", "TIR-INTRIN", e->span,
                    "a buffer load outside TIR");
    int n = e->u.load.nindices;
    Scalar small[8];
    Scalar *idx = n <= 8 ? small : mem_alloc_atomic(sizeof(Scalar) * (size_t)n);
    for (int i = 0; i < n; i++)
        idx[i] = prim_eval(pc, e->u.load.indices[i]);
    return pc->load(pc->ctx, e, idx);
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}
static double rsqrt(double x)
{
    return 1.0 / sqrt(x);
}

typedef struct Unary {
    const char *name;
    double (*fn)(double);
} Unary;

static const Unary UNARY[] = {
    {"tir.exp", exp},         {"tir.log", log},         {"tir.sqrt", sqrt},   {"tir.rsqrt", rsqrt},
    {"tir.tanh", tanh},       {"tir.sigmoid", sigmoid}, {"tir.sin", sin},     {"tir.cos", cos},
    {"tir.tan", tan},         {"tir.fabs", fabs},       {"tir.floor", floor}, {"tir.ceil", ceil},
    {"tir.round", nearbyint}, {"tir.trunc", trunc},     {"tir.erf", erf},     {"tir.exp2", exp2},
    {"tir.log2", log2},
};

static Scalar from_double(DataType t, double r)
{
    if (dtype_is_float(t))
        return prim_scalar_float(t, r);
    return prim_cast(t, prim_scalar_float(dtype_float64(), r));
}

static Scalar eval_classify(const PrimEvalCtx *pc, const PrimExpr *e, const char *name)
{
    Scalar a = prim_eval(pc, e->u.call.args[0]);
    double d = as_double(a);
    bool fl = dtype_is_float(a.dtype);
    bool r = strcmp(name, "tir.isnan") == 0   ? fl && isnan(d)
             : strcmp(name, "tir.isinf") == 0 ? fl && isinf(d)
                                              : !fl || isfinite(d);
    return prim_scalar_int(dtype_bool(), r);
}

static noreturn void bad_intrin(const PrimEvalCtx *pc, const PrimExpr *e)
{
    interp_fail(pc->interp, "OpNotImplemented", "TIR-INTRIN", e->span,
                "intrinsic %s with %d arguments is not supported", e->u.call.name, e->u.call.nargs);
}

/* TIR-BITS: the shift count of a `bits`-wide value must lie in [0, bits): LLVM, which TVM
 * lowers shifts to, makes any other count poison, so the reference refuses it. */
static int64_t shift_count(const PrimEvalCtx *pc, const PrimExpr *e, Scalar count, int bits)
{
    bool negative = dtype_is_int(count.dtype) && count.i < 0;
    if (negative || (uint64_t)count.i >= (uint64_t)bits)
        interp_fail(pc->interp, "ShiftRange", "TIR-BITS", e->span,
                    "%s by %" PRId64 " of a %s value: the count must lie in [0, %d)",
                    e->u.call.name + strlen("tir."), count.i, dtype_str(e->dtype), bits);
    return count.i;
}

/* TIR-BITS: bitwise operators on the two's-complement bits of their dtype; shift_right is
 * arithmetic for a signed dtype and logical for an unsigned one. NULL name: not one. */
static bool eval_bitwise(const PrimEvalCtx *pc, const PrimExpr *e, Scalar *out)
{
    const char *name = e->u.call.name;
    if (strncmp(name, "tir.bitwise_", 12) != 0 && strncmp(name, "tir.shift_", 10) != 0)
        return false;
    rule_fired("TIR-BITS");
    int n = e->u.call.nargs;
    if (n != (strcmp(name, "tir.bitwise_not") == 0 ? 1 : 2))
        return false;
    Scalar a = prim_eval(pc, e->u.call.args[0]);
    uint64_t ua = (uint64_t)a.i, r;
    if (n == 1) {
        *out = prim_scalar_int(e->dtype, (int64_t)~ua);
        return true;
    }
    Scalar b = prim_eval(pc, e->u.call.args[1]);
    uint64_t ub = (uint64_t)b.i;
    int bits = e->dtype.bits;
    if (strcmp(name, "tir.bitwise_and") == 0)
        r = ua & ub;
    else if (strcmp(name, "tir.bitwise_or") == 0)
        r = ua | ub;
    else if (strcmp(name, "tir.bitwise_xor") == 0)
        r = ua ^ ub;
    else if (strcmp(name, "tir.shift_left") == 0)
        r = ua << shift_count(pc, e, b, bits);
    else if (strcmp(name, "tir.shift_right") == 0) {
        int64_t k = shift_count(pc, e, b, bits);
        /* a.i holds the value sign- or zero-extended to 64 bits (Scalar), so a 64-bit
         * shift gives the dtype's own shift. */
        r = dtype_is_int(e->dtype) && a.i < 0 ? ~(~ua >> k) : ua >> k;
    } else
        return false;
    *out = prim_scalar_int(e->dtype, (int64_t)r);
    return true;
}

/* TIR-CALL: a call of another PrimFunc of the module, by value, for its T.ret value; a
 * call counts toward the call depth limit, as a Relax call does. */
static Scalar eval_global_call(const PrimEvalCtx *pc, const PrimExpr *e)
{
    rule_fired("TIR-CALL");
    Interp *in = pc->interp;
    const ModuleFunc *mf = in != NULL ? module_lookup(in->mod, e->u.call.name + 1) : NULL;
    if (mf == NULL || mf->kind != MODFUNC_PRIM)
        interp_fail(in, "UnboundVariable", "TIR-CALL", e->span, "no PrimFunc '%s' in the module",
                    e->u.call.name + 1);
    int n = e->u.call.nargs;
    Value **args = MEM_ARRAY(Value *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) {
        Scalar a = prim_eval(pc, e->u.call.args[i]);
        args[i] =
            dtype_is_float(a.dtype) ? value_prim_float(a.dtype, a.f) : value_prim_int(a.dtype, a.i);
    }
    interp_check_depth(in, e->span);
    in->depth++;
    Value *r = tir_exec_call(in, mf->u.prim, args, n, e->span);
    in->depth--;
    if (r->kind != VAL_PRIM)
        interp_fail(in, "TirArgMismatch", "TIR-CALL", e->span, "`%s` returned no value",
                    e->u.call.name + 1);
    return dtype_is_float(r->u.prim.dtype) ? prim_scalar_float(r->u.prim.dtype, r->u.prim.f)
                                           : prim_scalar_int(r->u.prim.dtype, r->u.prim.i);
}

/* TIR-INTRIN: computed in double, rounded once to the result dtype. */
static Scalar eval_call(const PrimEvalCtx *pc, const PrimExpr *e)
{
    if (e->u.call.name[0] == '@')
        return eval_global_call(pc, e);
    rule_fired("TIR-INTRIN");
    const char *name = e->u.call.name;
    int n = e->u.call.nargs;
    PrimExpr **args = e->u.call.args;
    Scalar bitwise;
    if (eval_bitwise(pc, e, &bitwise))
        return bitwise;
    if (strcmp(name, "tir.if_then_else") == 0 && n == 3) {
        bool c = prim_scalar_truth(prim_eval(pc, args[0]));
        return prim_eval(pc, c ? args[1] : args[2]);
    }
    /* Hints to the compiler: at run time each is its argument. */
    if ((strcmp(name, "tir.likely") == 0 || strcmp(name, "tir.tvm_thread_invariant") == 0) &&
        n == 1)
        return prim_eval(pc, args[0]);
    /* T.assume(c) informs the compiler only: at run time it holds, true. */
    if (strcmp(name, "tir.assume") == 0 && n == 1)
        return prim_scalar_int(dtype_bool(), 1);
    if (strcmp(name, "tir.pow") == 0 && n == 2) {
        double a = as_double(prim_eval(pc, args[0]));
        return from_double(e->dtype, pow(a, as_double(prim_eval(pc, args[1]))));
    }
    if (n == 1 && (strcmp(name, "tir.isnan") == 0 || strcmp(name, "tir.isinf") == 0 ||
                   strcmp(name, "tir.isfinite") == 0))
        return eval_classify(pc, e, name);
    for (size_t k = 0; n == 1 && k < sizeof UNARY / sizeof UNARY[0]; k++) {
        if (strcmp(name, UNARY[k].name) != 0)
            continue;
        Scalar a = prim_eval(pc, args[0]);
        if (UNARY[k].fn == fabs && !dtype_is_float(e->dtype))
            return prim_scalar_int(e->dtype, a.i < 0 ? (int64_t)(0 - (uint64_t)a.i) : a.i);
        return from_double(e->dtype, UNARY[k].fn(as_double(a)));
    }
    bad_intrin(pc, e);
}

Scalar prim_eval(const PrimEvalCtx *pc, const PrimExpr *e)
{
    switch (e->kind) {
    case PE_INT:
        return prim_scalar_int(e->dtype, e->u.int_value);
    case PE_FLOAT:
        return prim_scalar_float(e->dtype, e->u.float_value);
    case PE_VAR:
        return eval_var(pc, e);
    case PE_ADD:
    case PE_SUB:
    case PE_MUL:
    case PE_DIV:
    case PE_MOD:
    case PE_FLOORDIV:
    case PE_FLOORMOD:
    case PE_MIN:
    case PE_MAX:
    case PE_EQ:
    case PE_NE:
    case PE_LT:
    case PE_LE:
    case PE_GT:
    case PE_GE:
        return eval_binary(pc, e);
    case PE_AND:
    case PE_OR:
        return eval_logic(pc, e);
    case PE_NOT:
        return prim_scalar_int(dtype_bool(), !prim_scalar_truth(prim_eval(pc, e->u.operand)));
    case PE_SELECT: {
        /* Select evaluates both values, as TIR does; only if_then_else is lazy. */
        bool c = prim_scalar_truth(prim_eval(pc, e->u.select.cond));
        Scalar t = prim_eval(pc, e->u.select.then_value);
        Scalar f = prim_eval(pc, e->u.select.else_value);
        return c ? t : f;
    }
    case PE_CAST:
        return prim_cast(e->dtype, prim_eval(pc, e->u.operand));
    case PE_LOAD:
        return eval_load(pc, e);
    case PE_CALL:
        return eval_call(pc, e);
    }
    return prim_scalar_int(e->dtype, 0); /* not reached: every case of the switch returns */
}

int64_t prim_eval_int(const PrimEvalCtx *pc, const PrimExpr *e)
{
    Scalar s = prim_eval(pc, e);
    return dtype_is_float(s.dtype) ? (int64_t)float_to_int(dtype_int64(), s.f) : s.i;
}
