/* render: case-file notation and R.print text for values, numpy's array str included.
 * SPEC_NOTES: "Values" (value notation), "R.print and assert_op rendering". */
#include "values/render.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/expr.h"
#include "ast/print/literal.h"
#include "ast/tir.h"

static void add_exponent(StrBuf *sb, int exp, int min_digits)
{
    strbuf_addf(sb, "e%c%0*d", exp < 0 ? '-' : '+', min_digits, exp < 0 ? -exp : exp);
}

static bool add_nonfinite(StrBuf *sb, double v)
{
    if (isnan(v))
        strbuf_add(sb, "nan");
    else if (isinf(v))
        strbuf_add(sb, v < 0 ? "-inf" : "inf");
    return !isfinite(v);
}

char *render_float_repr(double v, DataType dtype)
{
    StrBuf sb;
    strbuf_init(&sb);
    literal_add_float(&sb, v, dtype, false);
    return strbuf_str(&sb);
}

/* ---- numpy's element formats ---- */

typedef enum ElemClass {
    EC_BOOL,
    EC_INT,
    EC_UINT,
    EC_FLOAT,
} ElemClass;

/* numpy's FloatingFormat/IntegerFormat/BoolFormat state for one array. */
typedef struct NumFormat {
    const Tensor *t;
    ElemClass cls;
    int width;     /* integers */
    bool exp_mode; /* floats: scientific */
    int pad_left;
    int pad_right;
    int precision; /* scientific: fraction digits of every element */
    int exp_size;  /* scientific: exponent digits */
} NumFormat;

#define NUMPY_PRECISION 8
#define NUMPY_LINE_WIDTH 75
#define NUMPY_THRESHOLD 1000
#define NUMPY_EDGE_ITEMS 3

/* One float in numpy's unique mode cut at NUMPY_PRECISION digits: in positional form
 * `ip`.`fp`; in scientific form `ip`.`fp` e `exp`. The sign goes into ip. */
static void float_parts(const NumFormat *f, double v, StrBuf *ip, StrBuf *fp, int *exp)
{
    double a = fabs(v);
    LiteralDecimal d;
    char text[400];
    literal_decimal_shortest(a, f->t->dtype, &d);
    if (signbit(v))
        strbuf_addc(ip, '-');
    if (f->exp_mode) {
        if (d.n > NUMPY_PRECISION + 1) {
            snprintf(text, sizeof text, "%.*e", NUMPY_PRECISION, a);
            literal_decimal_from_sci(text, &d);
        }
        strbuf_addc(ip, d.digits[0]);
        strbuf_add(fp, d.n > 1 ? d.digits + 1 : "");
        *exp = a == 0.0 ? 0 : d.exp;
        return;
    }
    /* The fraction gets as many digits as the shortest form needs, at most 8, and the
     * digits come from the exact value: numpy never rounds away integer digits here. */
    int frac = d.n - 1 - d.exp;
    frac = frac < 0 ? 0 : frac > NUMPY_PRECISION ? NUMPY_PRECISION : frac;
    snprintf(text, sizeof text, "%.*f", frac, a);
    char *dot = strchr(text, '.');
    if (dot == NULL) {
        strbuf_add(ip, text);
        return;
    }
    *dot = '\0';
    size_t n = strlen(dot + 1);
    while (n > 0 && dot[n] == '0')
        dot[n--] = '\0';
    strbuf_add(ip, text);
    strbuf_add(fp, dot + 1);
}

static int exp_digits(int exp)
{
    int n = 0;
    for (int e = exp < 0 ? -exp : exp; e > 0; e /= 10)
        n++;
    return n < 2 ? 2 : n;
}

/* numpy switches to scientific when the finite non-zero magnitudes span too much. */
static bool wants_exp(const double *vals, int64_t n, DataType dtype)
{
    double lo = INFINITY, hi = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double a = fabs(vals[i]);
        if (!isfinite(a) || a == 0.0)
            continue;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    if (hi == 0.0)
        return false;
    return hi >= 1e8 || lo < 0.0001 || tensor_round_f64(dtype, hi / lo) > 1000.0;
}

static void float_format_init(NumFormat *f, const double *vals, int64_t n)
{
    f->exp_mode = wants_exp(vals, n, f->t->dtype);
    bool nonfinite = false, neginf = false;
    int frac_max = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(vals[i])) {
            nonfinite = true;
            neginf = neginf || (isinf(vals[i]) && vals[i] < 0);
            continue;
        }
        StrBuf ip = {0}, fp = {0};
        int exp = 0;
        float_parts(f, vals[i], &ip, &fp, &exp);
        f->pad_left = (int)ip.len > f->pad_left ? (int)ip.len : f->pad_left;
        frac_max = (int)fp.len > frac_max ? (int)fp.len : frac_max;
        if (f->exp_mode && exp_digits(exp) > f->exp_size)
            f->exp_size = exp_digits(exp);
    }
    f->precision = frac_max;
    f->pad_right = f->exp_mode ? f->exp_size + 2 + frac_max : frac_max;
    if (nonfinite) {
        int offset = f->pad_right + 1;
        int need = 3 + (neginf ? 1 : 0) - offset;
        f->pad_left = need > f->pad_left ? need : f->pad_left;
    }
}

static void pad_to(StrBuf *sb, const char *s, int width, bool left)
{
    int n = (int)strlen(s);
    if (!left)
        strbuf_add(sb, s);
    for (int i = n; i < width; i++)
        strbuf_addc(sb, ' ');
    if (left)
        strbuf_add(sb, s);
}

static void format_float_elem(const NumFormat *f, double v, StrBuf *out)
{
    if (!isfinite(v)) {
        StrBuf s = {0};
        add_nonfinite(&s, v);
        pad_to(out, s.data, f->pad_left + f->pad_right + 1, true);
        return;
    }
    StrBuf ip = {0}, fp = {0};
    int exp = 0;
    if (!f->exp_mode) {
        float_parts(f, v, &ip, &fp, &exp);
        pad_to(out, strbuf_str(&ip), f->pad_left, true);
        strbuf_addc(out, '.');
        pad_to(out, strbuf_str(&fp), f->pad_right, false);
        return;
    }
    /* Every element shows `precision` fraction digits; numpy generates the digits past the
     * shortest unique ones from the exact value, so this is plain correct rounding. */
    char text[64];
    snprintf(text, sizeof text, "%.*e", f->precision, fabs(v));
    char *e = strchr(text, 'e');
    *e = '\0';
    pad_to(out, mem_printf("%s%c", signbit(v) ? "-" : "", text[0]), f->pad_left, true);
    strbuf_addc(out, '.');
    if (f->precision > 0)
        strbuf_add(out, text + 2);
    add_exponent(out, atoi(e + 1), f->exp_size);
}

static void int_text(const NumFormat *f, int64_t i, char *buf, size_t size)
{
    if (f->cls == EC_UINT)
        snprintf(buf, size, "%" PRIu64, tensor_get_u64(f->t, i));
    else
        snprintf(buf, size, "%" PRId64, tensor_get_i64(f->t, i));
}

static char *format_elem(const NumFormat *f, int64_t i)
{
    StrBuf sb;
    strbuf_init(&sb);
    char buf[32];
    switch (f->cls) {
    case EC_BOOL:
        strbuf_add(&sb, tensor_get_i64(f->t, i) ? " True" : "False");
        break;
    case EC_INT:
    case EC_UINT:
        int_text(f, i, buf, sizeof buf);
        pad_to(&sb, buf, f->width, true);
        break;
    case EC_FLOAT:
        format_float_elem(f, tensor_get_f64(f->t, i), &sb);
        break;
    }
    return sb.data;
}

/* ---- numpy's array layout (line wrapping, summarisation) ---- */

typedef struct ArrayLayout {
    const Tensor *t;
    int64_t *strides;
    bool summarize;
    NumFormat fmt;
} ArrayLayout;

static bool axis_summarized(const ArrayLayout *l, int axis)
{
    return l->summarize && 2 * NUMPY_EDGE_ITEMS < l->t->shape[axis];
}

/* The flat indices numpy shows (all of them, or the edge items of long axes). */
static void collect_shown(const ArrayLayout *l, int axis, int64_t base, int64_t **out, int64_t *n,
                          int64_t *cap)
{
    if (axis == l->t->ndim) {
        if (*n == *cap) {
            *out = mem_grow(*out, sizeof(int64_t) * (size_t)*cap,
                            sizeof(int64_t) * (size_t)(*cap * 2));
            *cap *= 2;
        }
        (*out)[(*n)++] = base;
        return;
    }
    int64_t len = l->t->shape[axis];
    for (int64_t i = 0; i < len; i++) {
        if (axis_summarized(l, axis) && i == NUMPY_EDGE_ITEMS)
            i = len - NUMPY_EDGE_ITEMS;
        collect_shown(l, axis + 1, base + i * l->strides[axis], out, n, cap);
    }
}

static void layout_init_format(ArrayLayout *l)
{
    NumFormat *f = &l->fmt;
    DataType dt = l->t->dtype;
    f->t = l->t;
    f->cls = dtype_is_bool(dt)    ? EC_BOOL
             : dtype_is_float(dt) ? EC_FLOAT
             : dtype_is_uint(dt)  ? EC_UINT
                                  : EC_INT;
    int64_t cap = 16, n = 0;
    int64_t *idx = MEM_ARRAY(int64_t, cap);
    collect_shown(l, 0, 0, &idx, &n, &cap);
    if (f->cls == EC_FLOAT) {
        double *vals = mem_alloc_atomic(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < n; i++)
            vals[i] = tensor_get_f64(l->t, idx[i]);
        float_format_init(f, vals, n);
        return;
    }
    char buf[32];
    for (int64_t i = 0; i < n; i++) {
        int_text(f, idx[i], buf, sizeof buf);
        f->width = (int)strlen(buf) > f->width ? (int)strlen(buf) : f->width;
    }
}

/* numpy's _extendLine: wrap before `word` when it would pass the width, unless the line
 * holds nothing but the indent. */
static void extend_line(StrBuf *s, StrBuf *line, const char *word, int width, const char *indent)
{
    if ((int)(line->len + strlen(word)) > width && line->len > strlen(indent)) {
        size_t n = line->len;
        while (n > 0 && line->data[n - 1] == ' ')
            n--;
        strbuf_addn(s, line->data, n);
        strbuf_addc(s, '\n');
        line->len = 0;
        strbuf_add(line, indent);
    }
    strbuf_add(line, word);
}

static char *layout_axis(const ArrayLayout *l, int axis, int64_t base, const char *indent,
                         int width);

static void layout_row(const ArrayLayout *l, int axis, int64_t base, const char *indent, int width,
                       StrBuf *s)
{
    int64_t len = l->t->shape[axis];
    char *next_indent = mem_printf("%s ", indent);
    StrBuf line;
    strbuf_init(&line);
    strbuf_add(&line, indent);
    for (int64_t i = 0; i < len; i++) {
        if (axis_summarized(l, axis) && i == NUMPY_EDGE_ITEMS) {
            extend_line(s, &line, "...", width - 1, indent);
            strbuf_addc(&line, ' ');
            i = len - NUMPY_EDGE_ITEMS;
        }
        char *word = layout_axis(l, axis + 1, base + i * l->strides[axis], next_indent, width - 1);
        extend_line(s, &line, word, width - 1, indent);
        if (i + 1 < len)
            strbuf_addc(&line, ' ');
    }
    strbuf_add(s, strbuf_str(&line));
}

/* numpy's _formatArray recurser: one axis, its hanging indent and remaining width. */
static char *layout_axis(const ArrayLayout *l, int axis, int64_t base, const char *indent,
                         int width)
{
    if (axis == l->t->ndim)
        return format_elem(&l->fmt, base);
    StrBuf s;
    strbuf_init(&s);
    if (axis == l->t->ndim - 1) {
        layout_row(l, axis, base, indent, width, &s);
    } else {
        int64_t len = l->t->shape[axis];
        char *next_indent = mem_printf("%s ", indent);
        for (int64_t i = 0; i < len; i++) {
            if (axis_summarized(l, axis) && i == NUMPY_EDGE_ITEMS) {
                strbuf_addf(&s, "%s...", indent);
                for (int k = 0; k < l->t->ndim - axis - 1; k++)
                    strbuf_addc(&s, '\n');
                i = len - NUMPY_EDGE_ITEMS;
            }
            strbuf_add(&s, indent);
            strbuf_add(
                &s, layout_axis(l, axis + 1, base + i * l->strides[axis], next_indent, width - 1));
            for (int k = 0; i + 1 < len && k < l->t->ndim - axis - 1; k++)
                strbuf_addc(&s, '\n');
        }
    }
    return mem_printf("[%s]", s.data + strlen(indent));
}

/* numpy prints a 0-d array as its scalar: str(np.float32(x)), str(np.int8(x)), ... */
static char *numpy_scalar(const Tensor *t)
{
    DataType dt = t->dtype;
    if (dtype_is_bool(dt))
        return mem_strdup(tensor_get_i64(t, 0) ? "True" : "False");
    if (dtype_is_uint(dt))
        return mem_printf("%" PRIu64, tensor_get_u64(t, 0));
    if (dtype_is_int(dt))
        return mem_printf("%" PRId64, tensor_get_i64(t, 0));
    return render_float_repr(tensor_get_f64(t, 0), dt);
}

char *render_tensor_numpy(const Tensor *t)
{
    if (t->ndim == 0)
        return numpy_scalar(t);
    if (t->numel == 0)
        return mem_strdup("[]");
    ArrayLayout l = {.t = t, .summarize = t->numel > NUMPY_THRESHOLD};
    l.strides = MEM_ARRAY(int64_t, t->ndim);
    int64_t stride = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        l.strides[i] = stride;
        stride *= t->shape[i];
    }
    layout_init_format(&l);
    return layout_axis(&l, 0, 0, " ", NUMPY_LINE_WIDTH);
}

/* ---- R.print rendering ---- */

static void print_to(StrBuf *sb, const Value *v);

static void print_prim(StrBuf *sb, const Value *v)
{
    DataType dt = v->u.prim.dtype;
    if (dtype_is_bool(dt))
        strbuf_add(sb, v->u.prim.i ? "True" : "False");
    else if (dtype_is_float(dt))
        literal_add_float(sb, v->u.prim.f, dt, false);
    else if (dtype_is_uint(dt))
        strbuf_addf(sb, "%" PRIu64, (uint64_t)v->u.prim.i);
    else
        strbuf_addf(sb, "%" PRId64, v->u.prim.i);
}

static void print_to(StrBuf *sb, const Value *v)
{
    switch (v->kind) {
    case VAL_TENSOR:
        strbuf_add(sb, render_tensor_numpy(v->u.tensor));
        return;
    case VAL_TUPLE:
        strbuf_addc(sb, '(');
        for (int i = 0; i < v->u.tuple.n; i++) {
            if (i > 0)
                strbuf_add(sb, ", ");
            print_to(sb, v->u.tuple.fields[i]);
        }
        strbuf_addc(sb, ')');
        return;
    case VAL_SHAPE: /* a Python tuple of ints */
        strbuf_addc(sb, '(');
        for (int i = 0; i < v->u.shape.ndim; i++)
            strbuf_addf(sb, "%s%" PRId64, i > 0 ? ", " : "", v->u.shape.dims[i]);
        strbuf_add(sb, v->u.shape.ndim == 1 ? ",)" : ")");
        return;
    case VAL_PRIM:
        print_prim(sb, v);
        return;
    case VAL_STRING:
        strbuf_add(sb, v->u.str);
        return;
    case VAL_DTYPE:
        strbuf_add(sb, dtype_str(v->u.dtype));
        return;
    case VAL_CLOSURE:
        strbuf_addf(sb, "<closure %s>",
                    v->u.closure.func && v->u.closure.func->name ? v->u.closure.func->name
                                                                 : "anonymous");
        return;
    case VAL_PACKED:
        strbuf_addf(sb, "<packed function %s>", v->u.packed.name);
        return;
    case VAL_PRIMFUNC:
        strbuf_addf(sb, "<prim_func %s>", v->u.primfunc->name);
        return;
    case VAL_NULL:
        strbuf_add(sb, "None");
        return;
    case VAL_OBJECT:
        strbuf_addf(sb, "<object %s>", v->u.object.name);
        return;
    }
}

char *render_value_print(const Value *v)
{
    StrBuf sb;
    strbuf_init(&sb);
    print_to(&sb, v);
    return strbuf_str(&sb);
}

/* ---- case-file notation ---- */

static void case_element(StrBuf *sb, const Tensor *t, int64_t i)
{
    DataType dt = t->dtype;
    if (dtype_is_bool(dt))
        strbuf_add(sb, tensor_get_i64(t, i) ? "true" : "false");
    else if (dtype_is_float(dt))
        literal_add_float(sb, tensor_get_f64(t, i), dt, true);
    else if (dtype_is_uint(dt))
        strbuf_addf(sb, "%" PRIu64, tensor_get_u64(t, i));
    else
        strbuf_addf(sb, "%" PRId64, tensor_get_i64(t, i));
}

/* Writes the elements of one axis as a nested flow sequence; returns the next flat index. */
static int64_t case_data(StrBuf *sb, const Tensor *t, int axis, int64_t flat)
{
    if (axis == t->ndim) {
        case_element(sb, t, flat);
        return flat + 1;
    }
    strbuf_addc(sb, '[');
    for (int64_t i = 0; i < t->shape[axis]; i++) {
        if (i > 0)
            strbuf_add(sb, ", ");
        flat = case_data(sb, t, axis + 1, flat);
    }
    strbuf_addc(sb, ']');
    return flat;
}

static void case_tensor(StrBuf *sb, const Tensor *t)
{
    strbuf_addf(sb, "{tensor: {dtype: %s, shape: [", dtype_str(t->dtype));
    for (int i = 0; i < t->ndim; i++)
        strbuf_addf(sb, "%s%" PRId64, i > 0 ? ", " : "", t->shape[i]);
    strbuf_add(sb, "], data: ");
    /* An empty tensor's data is written flat: nested by shape it would be a list per index of
     * the dims before the first 0, which may be up to 2^63 - 1 of them and hold nothing. */
    if (t->numel == 0 && t->ndim > 0)
        strbuf_add(sb, "[]");
    else
        case_data(sb, t, 0, 0);
    strbuf_add(sb, "}}");
}

static void case_prim(StrBuf *sb, const Value *v)
{
    DataType dt = v->u.prim.dtype;
    strbuf_addf(sb, "{prim: {dtype: %s, value: ", dtype_str(dt));
    if (dtype_is_bool(dt))
        strbuf_add(sb, v->u.prim.i ? "true" : "false");
    else if (dtype_is_float(dt))
        literal_add_float(sb, v->u.prim.f, dt, true);
    else if (dtype_is_uint(dt))
        strbuf_addf(sb, "%" PRIu64, (uint64_t)v->u.prim.i);
    else
        strbuf_addf(sb, "%" PRId64, v->u.prim.i);
    strbuf_add(sb, "}}");
}

static void case_leaf(StrBuf *sb, const Value *v)
{
    switch (v->kind) {
    case VAL_TENSOR:
        case_tensor(sb, v->u.tensor);
        return;
    case VAL_TUPLE: /* render_value_case_to opens and closes tuples */
        return;
    case VAL_SHAPE:
        strbuf_add(sb, "{shape: [");
        for (int i = 0; i < v->u.shape.ndim; i++)
            strbuf_addf(sb, "%s%" PRId64, i > 0 ? ", " : "", v->u.shape.dims[i]);
        strbuf_add(sb, "]}");
        return;
    case VAL_PRIM:
        case_prim(sb, v);
        return;
    case VAL_STRING:
        strbuf_add(sb, "{string: ");
        literal_add_string(sb, v->u.str);
        strbuf_addc(sb, '}');
        return;
    case VAL_DTYPE:
        strbuf_addf(sb, "{dtype: \"%s\"}", dtype_str(v->u.dtype));
        return;
    case VAL_CLOSURE:
    case VAL_PACKED:
    case VAL_PRIMFUNC:
        strbuf_add(sb, "{callable: true}");
        return;
    case VAL_NULL:
        strbuf_add(sb, "{null: true}");
        return;
    case VAL_OBJECT:
        if (v->u.object.callable_pattern) {
            strbuf_add(sb, "{callable: true}");
            return;
        }
        strbuf_add(sb, "{object: ");
        literal_add_string(sb, v->u.object.name);
        strbuf_addc(sb, '}');
        return;
    }
}

/* Tuples nest as deep as a program makes them (100,000 nested bindings, SPEC_NOTES 4.18): the
 * tuples being written are kept on a stack of their own, not on the C stack. */
typedef struct OpenTuple {
    const Value *tuple;
    int next; /* the field to write next */
} OpenTuple;

void render_value_case_to(StrBuf *sb, const Value *v)
{
    OpenTuple *open = NULL;
    int n = 0, cap = 0;
    for (;;) {
        if (v != NULL && v->kind == VAL_TUPLE) {
            strbuf_add(sb, "{tuple: [");
            VEC_PUSH(open, n, cap, ((OpenTuple){v, 0}));
        } else if (v != NULL) {
            case_leaf(sb, v);
        }
        if (n == 0)
            return;
        OpenTuple *top = &open[n - 1];
        if (top->next == top->tuple->u.tuple.n) {
            strbuf_add(sb, "]}");
            n--;
            v = NULL;
            continue;
        }
        if (top->next > 0)
            strbuf_add(sb, ", ");
        v = top->tuple->u.tuple.fields[top->next++];
    }
}

char *render_value_case(const Value *v)
{
    StrBuf sb;
    strbuf_init(&sb);
    render_value_case_to(&sb, v);
    return strbuf_str(&sb);
}

/* ---- Python's str.format, for R.print and assert_op ---- */

typedef struct Formatter {
    char *const *args;
    int nargs;
    int next_auto; /* -1 once a field was numbered by hand */
    bool manual;
    char *error;
} Formatter;

static bool format_fail(Formatter *f, char *message)
{
    f->error = message;
    return false;
}

/* The widest field a format may ask for (SPEC_NOTES 4.18). */
#define FORMAT_MAX_WIDTH 1000000

/* spec -> [[fill]align]['0'][width]['.' precision]['s'], applied to a string. */
static bool apply_spec(Formatter *f, const char *spec, const char *s, StrBuf *out)
{
    char fill = ' ', align = '<';
    const char *p = spec;
    if (p[0] != '\0' && strchr("<>^=", p[1]) != NULL && p[1] != '\0') {
        fill = p[0];
        align = p[1];
        p += 2;
    } else if (p[0] != '\0' && strchr("<>^=", p[0]) != NULL) {
        align = *p++;
    } else if (p[0] == '0') {
        fill = '0';
    }
    if (align == '=')
        return format_fail(f, mem_strdup("'=' alignment not allowed in string format specifier"));
    char *end;
    long width = strtol(p, &end, 10);
    long prec = -1;
    if (*end == '.')
        prec = strtol(end + 1, &end, 10);
    if (*end == 's')
        end++;
    if (*end != '\0')
        return format_fail(f,
                           mem_printf("Unknown format code '%c' for object of type 'str'", *end));
    /* SPEC_NOTES 4.18: a width is padding the program asks for, not data it computed. */
    if (width > FORMAT_MAX_WIDTH)
        return format_fail(
            f, mem_printf("format width %ld passes the limit of %d", width, FORMAT_MAX_WIDTH));
    long len = (long)strlen(s);
    len = prec >= 0 && prec < len ? prec : len;
    long pad = width > len ? width - len : 0;
    long left = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    for (long i = 0; i < left; i++)
        strbuf_addc(out, fill);
    strbuf_addn(out, s, (size_t)len);
    for (long i = left; i < pad; i++)
        strbuf_addc(out, fill);
    return true;
}

/* field -> '{' [index] ['!s'] [':' spec] '}' ; `body` is the text between the braces. */
static bool format_field(Formatter *f, char *body, StrBuf *out)
{
    char *spec = strchr(body, ':');
    if (spec != NULL)
        *spec++ = '\0';
    char *conv = strchr(body, '!');
    if (conv != NULL) {
        *conv++ = '\0';
        if (strcmp(conv, "s") != 0)
            return format_fail(f, mem_printf("unsupported conversion '!%s'", conv));
    }
    int index;
    if (body[0] == '\0') {
        if (f->manual)
            return format_fail(f, mem_strdup("cannot switch from manual field specification to "
                                             "automatic field numbering"));
        index = f->next_auto++;
    } else {
        if (f->next_auto > 0)
            return format_fail(f, mem_strdup("cannot switch from automatic field numbering to "
                                             "manual field specification"));
        if (strspn(body, "0123456789") != strlen(body))
            return format_fail(f, mem_printf("KeyError: '%s'", body));
        f->manual = true;
        index = atoi(body);
    }
    if (index >= f->nargs)
        return format_fail(
            f, mem_printf("Replacement index %d out of range for positional args tuple", index));
    return apply_spec(f, spec != NULL ? spec : "", f->args[index], out);
}

char *render_format(const char *fmt, char *const *args, int nargs, char **error)
{
    Formatter f = {args, nargs, 0, false, NULL};
    StrBuf out;
    strbuf_init(&out);
    for (const char *p = fmt; *p != '\0'; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            strbuf_addc(&out, *p++);
            continue;
        }
        if (*p == '}') {
            *error = mem_strdup("Single '}' encountered in format string");
            return NULL;
        }
        if (*p != '{') {
            strbuf_addc(&out, *p);
            continue;
        }
        const char *close = strchr(p, '}');
        if (close == NULL) {
            *error = mem_strdup(p[1] == '\0' ? "Single '{' encountered in format string"
                                             : "expected '}' before end of string");
            return NULL;
        }
        if (!format_field(&f, mem_strndup(p + 1, (size_t)(close - p - 1)), &out)) {
            *error = f.error;
            return NULL;
        }
        p = close;
    }
    return strbuf_str(&out);
}

static char **render_all(Value *const *vals, int n)
{
    char **out = MEM_ARRAY(char *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        out[i] = render_value_print(vals[i]);
    return out;
}

static char *join(char *const *parts, int n, const char *sep)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_add(&sb, sep);
        strbuf_add(&sb, parts[i]);
    }
    return strbuf_str(&sb);
}

char *render_print_line(const char *fmt, Value *const *vals, int n, char **error)
{
    char **parts = render_all(vals, n);
    if (fmt[0] == '\0')
        return join(parts, n, " ");
    return render_format(fmt, parts, n, error);
}

char *render_assert_message(const char *fmt, Value *const *vals, int n, char **error)
{
    char **parts = render_all(vals, n);
    if (fmt[0] != '\0')
        return render_format(fmt, parts, n, error);
    if (n > 0)
        return join(parts, n, ", ");
    return mem_strdup("Assertion Failed");
}
