/* kernels_einsum: the einsum equation reader and kernel, as TVM v0.22's topi/einsum.cc.
 * SPEC_NOTES: "Operators" (OP-einsum). */
#include "values/kernels/kernels_einsum.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "ast/checked.h"
#include "ast/mem.h"
#include "values/kernels/kernels_manip.h"

/* The ellipsis while reading: one character standing for "...". */
#define ELLIPSIS '.'
#define MAX_TERMS TENSOR_MAX_NDIM
/* The label assignments one call may walk (each operand keeps an offset per assignment). */
#define EINSUM_MAX_SPACE (INT64_C(1) << 28)

bool kernel_einsum_is_ellipsis(char label)
{
    return label > 0 && label < 'A';
}

typedef struct Terms {
    char *term[MAX_TERMS + 1];
    int n;
    char *out; /* NULL: implicit */
} Terms;

static const char *push_term(Terms *t, StrBuf *cur)
{
    if (t->n == MAX_TERMS)
        return "the equation has too many terms";
    t->term[t->n++] = mem_strdup(strbuf_str(cur));
    strbuf_init(cur);
    return NULL;
}

/* OP-einsum: the equation's terms as EinsumEquation::FromString splits them: spaces ignored,
 * one "->" whose right side is the output, "," between inputs, "..." at most once a term,
 * every other character a letter. */
static const char *read_terms(const char *eq, Terms *t)
{
    StrBuf cur;
    strbuf_init(&cur);
    bool arrow = false, ellipsis = false;
    const char *why = NULL;
    t->n = 0;
    for (const char *p = eq; *p != '\0' && why == NULL; p++) {
        if (*p == ' ')
            continue;
        if (*p == '-' || *p == ',') {
            if (*p == '-' && (arrow || p[1] != '>'))
                return arrow ? "the equation has two arrows" : "a '-' that is no arrow";
            arrow = arrow || *p == '-';
            p += *p == '-';
            ellipsis = false;
            why = push_term(t, &cur);
        } else if (*p == '.') {
            if (ellipsis || p[1] != '.' || p[2] != '.')
                return ellipsis ? "a term has two ellipses" : "a '.' that is no ellipsis";
            strbuf_addc(&cur, ELLIPSIS);
            ellipsis = true;
            p += 2;
        } else if (isalpha((unsigned char)*p)) {
            strbuf_addc(&cur, *p);
        } else {
            return "the equation has a character that is no label";
        }
    }
    if (why != NULL)
        return why;
    t->out = arrow ? mem_strdup(strbuf_str(&cur)) : NULL;
    return arrow ? NULL : push_term(t, &cur);
}

/* numpy's implicit output, as FromString: the ellipsis first when an input has one, then the
 * labels used once, in character order. */
static char *implicit_output(const Terms *t)
{
    int uses[128] = {0};
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < t->n; i++)
        for (const char *q = t->term[i]; *q; q++)
            uses[(unsigned char)*q]++;
    if (uses[ELLIPSIS] > 0)
        strbuf_addc(&sb, ELLIPSIS);
    for (int c = 'A'; c <= 'z'; c++)
        if (uses[c] == 1)
            strbuf_addc(&sb, (char)c);
    return mem_strdup(strbuf_str(&sb));
}

static int letter_count(const char *term)
{
    int k = 0;
    for (; *term; term++)
        k += *term != ELLIPSIS;
    return k;
}

/* A term with its ellipsis replaced by the last `k` of `width` ellipsis labels. */
static char *expand(const char *term, int k, int width)
{
    StrBuf sb;
    strbuf_init(&sb);
    for (; *term; term++) {
        if (*term != ELLIPSIS) {
            strbuf_addc(&sb, *term);
            continue;
        }
        for (int j = width - k; j < width; j++)
            strbuf_addc(&sb, (char)(1 + j));
    }
    return mem_strdup(strbuf_str(&sb));
}

/* The output's letters each name an input label once. */
static const char *check_output(const Terms *t, const char *out)
{
    for (const char *q = out; *q; q++) {
        if (*q == ELLIPSIS)
            continue;
        bool used = false;
        for (int i = 0; i < t->n && !used; i++)
            used = strchr(t->term[i], *q) != NULL;
        if (!used)
            return "an output label names no input label";
        if (strchr(q + 1, *q) != NULL)
            return "the output repeats a label";
    }
    return NULL;
}

/* Each operand's ellipsis width (its rank less its letters), the widest one in *width. */
static const char *ellipsis_widths(const Terms *t, const int *ranks, int *k, int *width)
{
    *width = 0;
    for (int i = 0; i < t->n; i++) {
        int letters = letter_count(t->term[i]);
        bool has = strchr(t->term[i], ELLIPSIS) != NULL;
        k[i] = ranks[i] - letters;
        if (k[i] < 0 || (!has && k[i] != 0))
            return "an operand's rank differs from its labels";
        if (k[i] > *width)
            *width = k[i];
    }
    return NULL;
}

const char *kernel_einsum_spec(const char *subscripts, const int *ranks, int n, EinsumSpec *out)
{
    Terms t;
    int k[MAX_TERMS + 1], width;
    const char *why = read_terms(subscripts, &t);
    if (why != NULL)
        return why;
    if (t.n != n)
        return "the equation names another number of operands";
    const char *o = t.out != NULL ? t.out : implicit_output(&t);
    if ((why = check_output(&t, o)) != NULL)
        return why;
    out->nin = n;
    out->in = MEM_ARRAY(const char *, n > 0 ? n : 1);
    bool known = true;
    for (int i = 0; i < n; i++)
        known = known && ranks[i] >= 0;
    if (!known) {
        for (int i = 0; i < n; i++)
            out->in[i] = t.term[i];
        out->out = o;
        out->out_ndim = strchr(o, ELLIPSIS) != NULL ? -1 : (int)strlen(o);
        return NULL;
    }
    if ((why = ellipsis_widths(&t, ranks, k, &width)) != NULL)
        return why;
    for (int i = 0; i < n; i++)
        out->in[i] = expand(t.term[i], k[i], width);
    out->out = expand(o, width, width);
    out->out_ndim = (int)strlen(out->out);
    return NULL;
}

/* ---- the kernel -------------------------------------------------------------------------- */

/* Per label its size: equal dims agree, a dim of 1 takes the other (GetBroadcastedExtent). */
static bool label_sizes(const EinsumSpec *s, Tensor *const *xs, int64_t *size, const char **err)
{
    for (int i = 0; i < 128; i++)
        size[i] = -1;
    for (int t = 0; t < s->nin; t++) {
        for (int a = 0; s->in[t][a]; a++) {
            int64_t *z = &size[(unsigned char)s->in[t][a]], d = xs[t]->shape[a];
            if (*z < 0 || *z == 1)
                *z = d;
            else if (d != *z && d != 1) {
                *err = "einsum: a label's dims neither agree nor broadcast";
                return false;
            }
        }
    }
    return true;
}

/* The walk order: output labels, then the summed ones in character order (topi's reduction
 * axes: the ellipsis first, then alphabetical). */
static int walk_labels(const EinsumSpec *s, char *labels)
{
    int n = 0;
    bool seen[128] = {false};
    for (const char *q = s->out; *q; q++) {
        labels[n++] = *q;
        seen[(unsigned char)*q] = true;
    }
    for (int c = 1; c < 128; c++)
        for (int t = 0; t < s->nin && !seen[c]; t++)
            if (strchr(s->in[t], c) != NULL) {
                labels[n++] = (char)c;
                seen[c] = true;
            }
    return n;
}

static int label_at(const char *labels, int n, char c)
{
    for (int i = 0; i < n; i++)
        if (labels[i] == c)
            return i;
    return -1;
}

/* Operand t's offsets for every label assignment in walk order; a broadcast dim steps 0. */
static int64_t *operand_offsets(const Tensor *x, const char *term, const char *labels, int n,
                                const int64_t *lsize)
{
    int64_t own[TENSOR_MAX_NDIM], lstride[128] = {0};
    kernel_strides(x->ndim, x->shape, own);
    for (int a = 0; term[a]; a++)
        if (!(x->shape[a] == 1 && lsize[label_at(labels, n, term[a])] != 1))
            lstride[label_at(labels, n, term[a])] += own[a];
    return kernel_view_index(n, lsize, lstride, 0);
}

int64_t kernel_einsum_work(const EinsumSpec *s, Tensor *const *xs)
{
    int64_t size[128];
    char labels[128];
    const char *err = NULL;
    if (!label_sizes(s, xs, size, &err))
        return 0;
    int nl = walk_labels(s, labels);
    bool over = false;
    int64_t space = 1;
    for (int i = 0; i < nl; i++) {
        int64_t d = size[(unsigned char)labels[i]];
        if (d == 0)
            return 0; /* no assignment at all, however large the other labels */
        space = checked_mul(space, d, &over);
    }
    int64_t reads = checked_mul(space, s->nin, &over);
    return over ? -1 : reads;
}

Tensor *kernel_einsum(const EinsumSpec *s, Tensor *const *xs, DataType out_dtype, const char **err)
{
    int64_t size[128], lsize[128], shape[TENSOR_MAX_NDIM];
    char labels[128];
    if (!label_sizes(s, xs, size, err))
        return NULL;
    int nl = walk_labels(s, labels), nout = (int)strlen(s->out);
    int64_t space = 1;
    for (int i = 0; i < nl; i++) {
        lsize[i] = size[(unsigned char)labels[i]];
        if (__builtin_mul_overflow(space, lsize[i], &space) || space > EINSUM_MAX_SPACE) {
            *err = "einsum: the labels span too many assignments";
            return NULL;
        }
    }
    if (nl > TENSOR_MAX_NDIM) {
        *err = "einsum: the equation has too many labels";
        return NULL;
    }
    for (int i = 0; i < nout; i++)
        shape[i] = lsize[i];
    Tensor *out = tensor_new(out_dtype, nout, shape);
    if (!out) {
        *err = "einsum's result dtype or size is not supported";
        return NULL;
    }
    bool fl = dtype_is_float(out_dtype);
    int64_t **offs = MEM_ARRAY(int64_t *, s->nin);
    double **f = MEM_ARRAY(double *, s->nin);
    int64_t **iv = MEM_ARRAY(int64_t *, s->nin);
    for (int t = 0; t < s->nin; t++) {
        fl = fl || dtype_is_float(xs[t]->dtype);
        offs[t] = operand_offsets(xs[t], s->in[t], labels, nl, lsize);
    }
    for (int t = 0; t < s->nin; t++) {
        f[t] = fl ? tensor_scratch(xs[t]->numel, sizeof(double)) : NULL;
        iv[t] = fl ? NULL : tensor_scratch(xs[t]->numel, sizeof(int64_t));
        if (fl)
            tensor_read_f64(xs[t], f[t]);
        else
            tensor_read_i64(xs[t], iv[t]);
    }
    int64_t inner = 1;
    for (int i = nout; i < nl; i++)
        inner *= lsize[i];
    /* Consecutive assignments with the same output labels accumulate into one element. */
    for (int64_t o = 0; o < out->numel; o++) {
        double fs = 0;
        uint64_t is = 0;
        for (int64_t r = 0; r < inner; r++) {
            int64_t k = o * inner + r;
            double fp = 1;
            uint64_t ip = 1;
            for (int t = 0; t < s->nin; t++) {
                if (fl)
                    fp *= f[t][offs[t][k]];
                else
                    ip *= (uint64_t)iv[t][offs[t][k]];
            }
            fs += fp;
            is += ip;
        }
        if (fl)
            tensor_set_f64(out, o, fs);
        else
            tensor_set_i64(out, o, (int64_t)is);
    }
    return out;
}
