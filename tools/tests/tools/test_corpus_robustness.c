/* test_corpus_robustness: every prefix and every one-character deletion of every corpus
 * program either parses or fails with a parse error that has a code and a line; never a
 * crash (this runs under AddressSanitizer). SPEC_NOTES: "Parse errors (phase parse)". */
#include <stdio.h>
#include <string.h>

#include "ast/mem.h"
#include "ast/script/script.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/tests/unit.h"

/* Programs used besides the corpus, so the test means something while the corpus is small. */
static const char *const BUILTIN_PROGRAMS[] = {
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2, 3), dtype=\"float32\"), y: R.Tensor((2, 3), "
    "dtype=\"float32\")) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
    "        with R.dataflow():\n"
    "            lv: R.Tensor((2, 3), dtype=\"float32\") = R.add(x, y)\n"
    "            gv: R.Tensor((2, 3), dtype=\"float32\") = R.multiply(lv, y)\n"
    "            R.output(gv)\n"
    "        return gv\n",

    "@R.function\n"
    "def f(c: R.Tensor((), dtype=\"bool\"), x: R.Tensor((\"n\",), dtype=\"float32\")) -> "
    "R.Tensor((\"n\",), dtype=\"float32\"):\n"
    "    n = T.int64()\n"
    "    if c:\n"
    "        y: R.Tensor((n,), dtype=\"float32\") = R.add(x, x)\n"
    "    else:\n"
    "        y: R.Tensor((n,), dtype=\"float32\") = x\n"
    "    t = (y, R.shape([n]), R.prim_value(3), R.str('s'))\n"
    "    z = t[0]\n"
    "    return z\n",

    "@I.ir_module\n"
    "class Module:\n"
    "    @T.prim_func\n"
    "    def add_one(A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"float32\")):\n"
    "        for i in range(4):\n"
    "            with T.block(\"b\"):\n"
    "                vi = T.axis.spatial(4, i)\n"
    "                B[vi] = A[vi] + T.float32(1)\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((4,), dtype=\"float32\")) -> R.Tensor((4,), dtype=\"float32\"):\n"
    "        cls = Module\n"
    "        y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), dtype=\"float32\"))\n"
    "        z = R.const([[1.5, 2], [3, -4e3]], \"float32\")\n"
    "        return y\n",
};

/* Positions checked per program at most, and over the whole test; beyond them positions
 * are sampled with a stride. */
#define MAX_POSITIONS_PER_PROGRAM 1500
#define MAX_POSITIONS_TOTAL 60000

typedef struct Probe {
    int parses;
    int bad; /* errors without phase parse, code or line */
} Probe;

static void probe(Probe *p, const char *name, const char *text)
{
    ErrorTrap trap;
    p->parses++;
    if (setjmp(trap.jmp) == 0) {
        script_parse(name, text, &trap);
        return;
    }
    const Error *e = &trap.error;
    if (e->phase == PHASE_PARSE && e->code != NULL && e->span.line > 0)
        return;
    if (p->bad++ < 10)
        printf("\n%s: bad error for text of %zu chars: %s", name, strlen(text), error_format(e));
}

static void probe_program(Probe *p, const char *name, const char *text, int stride)
{
    size_t n = strlen(text);
    char *buf = mem_alloc_atomic(n + 1);
    for (size_t k = 0; k <= n; k += (size_t)stride) {
        memcpy(buf, text, k);
        buf[k] = '\0';
        probe(p, name, buf);
    }
    for (size_t k = 0; k < n; k += (size_t)stride) {
        memcpy(buf, text, k);
        memcpy(buf + k, text + k + 1, n - k);
        probe(p, name, buf);
    }
}

typedef struct Programs {
    const char **names;
    const char **texts;
    int len, cap, names_cap;
    size_t total_chars;
} Programs;

static void add_program(Programs *ps, const char *name, const char *text)
{
    VEC_PUSH(ps->texts, ps->len, ps->cap, text);
    int len = ps->len - 1;
    VEC_PUSH(ps->names, len, ps->names_cap, name);
    ps->total_chars += strlen(text);
}

static void collect_corpus(Programs *ps)
{
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    for (int i = 0; i < n; i++) {
        CaseFile *cf = unit_case_file(paths[i], NULL);
        if (cf == NULL)
            continue; /* a broken case file is the round-trip test's and the runner's to report */
        for (int k = 0; k < cf->ncases; k++) {
            if (cf->cases[k]->program != NULL)
                add_program(ps, cf->cases[k]->global_id, cf->cases[k]->program);
        }
    }
}

static void test_prefixes_and_deletions(void)
{
    Programs ps;
    memset(&ps, 0, sizeof ps);
    for (size_t i = 0; i < sizeof BUILTIN_PROGRAMS / sizeof BUILTIN_PROGRAMS[0]; i++)
        add_program(&ps, mem_printf("builtin-%zu", i), BUILTIN_PROGRAMS[i]);
    collect_corpus(&ps);
    /* Each position is probed twice (prefix and deletion). */
    int global_stride = (int)(2 * ps.total_chars / MAX_POSITIONS_TOTAL) + 1;
    Probe p = {0, 0};
    for (int i = 0; i < ps.len; i++) {
        int n = (int)strlen(ps.texts[i]);
        int stride = n / MAX_POSITIONS_PER_PROGRAM + 1;
        probe_program(&p, ps.names[i], ps.texts[i],
                      stride > global_stride ? stride : global_stride);
    }
    CU_ASSERT_TRUE(p.parses > 0);
    CU_ASSERT_EQUAL(p.bad, 0);
}

UNIT_SUITE(corpus_robustness)
{
    CU_pSuite s = CU_add_suite("corpus_robustness", 0, 0);
    CU_add_test(s, "prefixes and deletions parse or fail cleanly", test_prefixes_and_deletions);
}
