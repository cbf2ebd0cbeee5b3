/* test_wellformed: every well-formedness rule WF-1..WF-24 accepted and rejected, from
 * TVMScript text or the ast: form, and the normal-form check NF-1..NF-5.
 * SPEC_NOTES: "Well-formedness" and "Normal form". */
#include <stdio.h>
#include <string.h>

#include "ast/astform/astform.h"
#include "ast/mem.h"
#include "ast/script/script.h"
#include "interp/diag.h"
#include "interp/wellformed/wellformed.h"
#include "tools/conform/case_file.h"
#include "tools/conform/corpus.h"
#include "tools/tests/unit.h"

typedef struct WfCase {
    const char *name;
    bool ast; /* the source is an ast: YAML text, else TVMScript */
    const char *src;
    const char *code; /* the first error's code, or NULL: well-formed */
    const char *rule;
} WfCase;

static IRModule *load_or_null(const char *name, bool ast, const char *src, bool report)
{
    ErrorTrap trap;
    if (setjmp(trap.jmp) != 0) {
        if (report)
            printf("\n%s: %s\n", name, error_format(&trap.error));
        return NULL;
    }
    return ast ? astform_read_text(name, src, &trap) : script_parse(name, src, &trap);
}

static IRModule *load(const char *name, bool ast, const char *src)
{
    return load_or_null(name, ast, src, true);
}

static const Error *first_error(const IRModule *mod, bool normal_form)
{
    DiagList errors;
    diag_init(&errors);
    if (normal_form)
        wellformed_check_normal_form(mod, &errors);
    else
        wellformed_check(mod, &errors);
    return diag_first(&errors);
}

static void run_case(const WfCase *c, bool normal_form)
{
    IRModule *mod = load(c->name, c->ast, c->src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    const Error *e = first_error(mod, normal_form);
    bool ok = c->code == NULL
                  ? e == NULL
                  : e != NULL && strcmp(e->code, c->code) == 0 && strcmp(e->rule, c->rule) == 0;
    if (!ok)
        printf("\n%s: expected %s %s, got %s\n", c->name, c->code ? c->code : "no error",
               c->rule ? c->rule : "", e ? error_format(e) : "no error");
    CU_ASSERT_TRUE(ok);
}

#define FN_X                                                                                       \
    "@R.function\ndef main(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), \"float32\"):\n"
#define AST_MAIN "Function:\n  attrs: {global_symbol: main}\n"
#define AST_X                                                                                      \
    AST_MAIN "  params: [{Var: x, struct_info: {TensorStructInfo: {shape: [2], dtype: "            \
             "float32}}}]\n"

static const WfCase CASES[] = {
    {"wf1-ok", false,
     FN_X "    with R.dataflow():\n        lv = x\n        gv = lv\n        R.output(gv)\n"
          "    return gv\n",
     NULL, NULL},
    {"wf1-bound-outside", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {DataflowVar: y}, "
           "value: {Var: x}}}]}], body: {Var: x}}}\n",
     "DataflowVarOutsideBlock", "WF-1"},
    {"wf1-used-after", true,
     AST_X "  body: {SeqExpr: {blocks: [{DataflowBlock: [{VarBinding: {var: {DataflowVar: y}, "
           "value: {Var: x}}}]}], body: {DataflowVar: y}}}\n",
     "DataflowVarScope", "WF-1"},
    {"wf2-twice", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Var: x}}}, {VarBinding: {var: {Var: y}, value: {Var: x}}}]}], body: {Var: y}}}\n",
     "VarBoundTwice", "WF-2"},
    {"wf2-unbound", true, AST_X "  body: {SeqExpr: {body: {Var: nobody}}}\n", "UnboundVar", "WF-2"},
    {"wf2-self", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Tuple: [{Var: y}]}}}]}], body: {Var: y}}}\n",
     "RecursiveNonFunction", "WF-2"},
    {"wf3-before", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: a}, value: "
           "{Var: b}}}, {VarBinding: {var: {Var: b}, value: {Var: x}}}]}], body: {Var: a}}}\n",
     "UseBeforeDef", "WF-3"},
    {"wf4-ret", true,
     AST_MAIN "  ret_struct_info: {ShapeStructInfo: [{ShapeVar: m}]}\n"
              "  body: {SeqExpr: {body: {ShapeExpr: [1]}}}\n",
     "ReturnShapeVarScope", "WF-4"},
    {"wf5-shape-expr", true, AST_MAIN "  body: {SeqExpr: {body: {ShapeExpr: [{ShapeVar: m}]}}}\n",
     "ShapeVarUnbound", "WF-5"},
    {"wf5-match-cast-then-use", false,
     "@R.function\ndef main(x: R.Tensor(ndim=1)) -> R.Shape(ndim=1):\n    m = T.int64()\n"
     "    y = R.match_cast(x, R.Tensor((m,)))\n    s = R.shape([m + 1])\n    return s\n",
     NULL, NULL},
    {"wf6-compound-only", true,
     AST_MAIN "  params: [{Var: x, struct_info: {TensorStructInfo: {shape: [{Mul: [2, {ShapeVar: "
              "n}]}], dtype: float32}}}]\n  body: {SeqExpr: {body: {Var: x}}}\n",
     "ShapeVarNoBindingPosition", "WF-6"},
    {"wf6-any-order", false,
     "@R.function\ndef main(x: R.Tensor((\"m * n\",)), y: R.Tensor((\"m\", \"n\"))) -> "
     "R.Shape([\"m\", \"n\"]):\n    s = R.shape_of(y)\n    return s\n",
     NULL, NULL},
    {"wf7-if", true,
     AST_MAIN "  params: [{Var: c, struct_info: {PrimStructInfo: bool}}]\n"
              "  body: {SeqExpr: {blocks: [{DataflowBlock: [{VarBinding: {var: {Var: r}, value: "
              "{If: {cond: {Var: c}, true_branch: {SeqExpr: {body: {Var: c}}}, false_branch: "
              "{SeqExpr: {body: {Var: c}}}}}}}]}], body: {Var: r}}}\n",
     "IfInDataflow", "WF-7"},
    {"wf7-recursion", false,
     "@I.ir_module\nclass M:\n    @R.function\n    def main(x: R.Object) -> R.Object:\n"
     "        cls = M\n        with R.dataflow():\n            gv = cls.main(x)\n"
     "            R.output(gv)\n        return gv\n",
     "DataflowRecursion", "WF-7"},
    {"wf8-unannotated", false,
     "@I.ir_module\nclass M:\n    @R.function\n    def main(x: R.Object):\n        cls = M\n"
     "        y = cls.main(x)\n        return y\n",
     "RecursionNeedsReturnAnnotation", "WF-8"},
    {"wf9-op-value", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: f}, value: "
           "{Op: relax.add}}}]}], body: {Var: x}}}\n",
     "OpPosition", "WF-9"},
    {"wf10-ndim", true,
     AST_MAIN "  params: [{Var: s, struct_info: {ShapeStructInfo: {ndim: 2}}}, {Var: x, "
              "struct_info: {TensorStructInfo: {shape: {Var: s}, ndim: 1}}}]\n"
              "  body: {SeqExpr: {body: {Var: s}}}\n",
     "NdimMismatch", "WF-10"},
    {"wf11-capture", true,
     AST_X "  body: {SeqExpr: {blocks: [{DataflowBlock: [{VarBinding: {var: {DataflowVar: lv}, "
           "value: {Var: x}}}, {VarBinding: {var: {Var: f}, value: {Function: {body: {SeqExpr: "
           "{body: {DataflowVar: lv}}}}}}}]}], body: {Var: f}}}\n",
     "DataflowCapture", "WF-11"},
    {"wf12-no-entry", true,
     "IRModule:\n  funcs:\n    main:\n      Function:\n        params: [{Var: x}]\n"
     "        body: {SeqExpr: {body: {Var: x}}}\n",
     "NoEntryPoint", "WF-12"},
    /* A lone function is checked as a function: WF-12 and WF-13 speak of modules. */
    {"wf12-lone-function", true,
     "Function:\n  params: [{Var: x}]\n  body: {SeqExpr: {body: {Var: x}}}\n", NULL, NULL},
    {"wf13-lone-symbol", false,
     FN_X "    R.func_attr({\"global_symbol\": \"other\"})\n    return x\n", NULL, NULL},
    {"wf13-symbol", false,
     "@I.ir_module\nclass Module:\n"
     "    @R.function\n    def main(x: R.Tensor((2,), \"float32\")):\n"
     "        R.func_attr({\"global_symbol\": \"other\"})\n        return x\n",
     "GlobalSymbolMismatch", "WF-13"},
    {"wf14-annotation", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y, struct_info: "
           "{TensorStructInfo: {shape: [{ShapeVar: k}]}}}, value: {Var: x}}}]}], body: {Var: "
           "y}}}\n",
     "ShapeVarUnbound", "WF-14"},
    {"wf15-shape-annotation", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y, struct_info: "
           "{ShapeStructInfo: [{ShapeVar: k}]}}, value: {ShapeExpr: [1]}}}]}], body: {Var: "
           "y}}}\n",
     "ShapeVarUnbound", "WF-15"},
    {"wf16-prim-annotation", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y, struct_info: "
           "{PrimStructInfo: {value: {ShapeVar: k}}}}, value: {PrimValue: 1}}}]}], body: {Var: "
           "y}}}\n",
     "ShapeVarUnbound", "WF-16"},
    {"wf18-lanes", true,
     AST_MAIN "  body: {SeqExpr: {body: {PrimValue: {IntImm: {value: 1, dtype: int32x4}}}}}\n",
     "PrimValueForm", "WF-18"},
    {"wf19-handle", false,
     "@R.function\ndef main(p: R.Prim(\"handle\")) -> R.Object:\n    return p\n", "PrimSInfoDType",
     "WF-19"},
    {"wf20-int4", false,
     "@R.function\ndef main(p: R.Tensor((1,), \"int4\")) -> R.Object:\n    return p\n",
     "DTypeAnnotation", "WF-20"},
    {"wf21-force-pure", false,
     "@R.function(pure=False)\ndef main(x: R.Object) -> R.Object:\n"
     "    R.func_attr({\"relax.force_pure\": True})\n    return x\n",
     "ForcePureNotPure", "WF-21"},
    {"wf22-value-dtype", false,
     "@R.function\ndef main(s: R.Shape([\"n\"]), p: R.Prim(\"float32\", value=\"n\")) -> "
     "R.Object:\n    return s\n",
     "PrimValueDType", "WF-22"},
    {"wf23-tuple-var", true,
     AST_MAIN "  ret_struct_info: {ObjectStructInfo: {}}\n  params: [{Var: t, struct_info: "
              "{TupleStructInfo: [{TensorStructInfo: {shape: "
              "[2], dtype: float32}}]}}]\n"
              "  body: {Call: {op: {Op: relax.call_tir}, args: [{GlobalVar: main}, {Var: t}], "
              "sinfo_args: [{TensorStructInfo: {shape: [2], dtype: float32}}]}}\n",
     "OpNotNormalized", "WF-23"},
    {"wf24-vdevice", false,
     "@R.function\ndef main(x: R.Tensor((2,), \"float32\", \"cuda\")) -> R.Object:\n"
     "    return x\n",
     "UnknownVDevice", "WF-24"},
    {"nested-text-is-well-formed", false,
     FN_X "    y = R.call_pure_packed(\"f\", R.call_pure_packed(\"g\", (x, x), "
          "sinfo_args=R.Object), sinfo_args=R.Object)\n    return x\n",
     NULL, NULL},
};

static void test_wf_rules(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run_case(&CASES[i], false);
}

static const WfCase NF_CASES[] = {
    {"nf-ok", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Call: {op: {Op: relax.add}, args: [{Var: x}, {Tuple: [{Var: x}]}]}}}}]}], body: "
           "{Var: y}}}\n",
     NULL, NULL},
    {"nf1-nested-call", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Call: {op: {Op: relax.add}, args: [{Var: x}, {Call: {op: {Op: relax.add}, args: "
           "[{Var: x}]}}]}}}}]}], body: {Var: y}}}\n",
     "NotNormalForm", "NF-1"},
    {"nf1-call-in-tuple", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Tuple: [{Call: {op: {Op: relax.add}, args: [{Var: x}]}}]}}}]}], body: {Var: y}}}\n",
     "NotNormalForm", "NF-1"},
    {"nf2-seq-value", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{SeqExpr: {body: {Var: x}}}}}]}], body: {Var: y}}}\n",
     "NotNormalForm", "NF-2"},
    {"nf3-body", true, AST_X "  body: {Var: x}\n", "NotNormalForm", "NF-3"},
    {"nf4-empty-block", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: []}], body: {Var: x}}}\n", "NotNormalForm",
     "NF-4"},
    {"nf5-call-tir", true,
     AST_X "  body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: {var: {Var: y}, value: "
           "{Call: {op: {Op: relax.call_tir}, args: [{GlobalVar: main}, {Var: x}]}}}}]}], "
           "body: {Var: y}}}\n",
     "NotNormalForm", "NF-5"},
};

static void test_nf_rules(void)
{
    for (size_t i = 0; i < sizeof NF_CASES / sizeof NF_CASES[0]; i++)
        run_case(&NF_CASES[i], true);
}

/* WF-17 cannot be written in either text form (the readers refuse it): build the node. */
static void test_wf17_built(void)
{
    IRModule *mod = load("wf17", false, FN_X "    return x\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    StructInfo **params = MEM_ARRAY(StructInfo *, 1);
    params[0] = sinfo_object(span_none());
    StructInfo *f = sinfo_func(params, 1, sinfo_object(span_none()), true, span_make("t", 1, 1));
    f->u.func.derive_func = "default_derive";
    mod->funcs[0]->u.relax->ret = f;
    const Error *e = first_error(mod, false);
    CU_ASSERT_TRUE(e != NULL && strcmp(e->code, "FuncSInfoParams") == 0 &&
                   strcmp(e->rule, "WF-17") == 0);
    f->u.func.derive_func = NULL;
    /* An opaque callable without derive_func is TVMScript's bare R.Callable: accepted. */
    mod->funcs[0]->u.relax->ret =
        sinfo_func_opaque(sinfo_object(span_none()), true, NULL, span_none());
    CU_ASSERT_PTR_NULL(first_error(mod, false));
}

/* Every violation is reported, not just the first. */
static void test_reports_all(void)
{
    IRModule *mod = load("all", true,
                         "IRModule:\n  funcs:\n    main:\n      Function:\n"
                         "        body: {SeqExpr: {blocks: [{BindingBlock: [{VarBinding: "
                         "{var: {Var: a}, value: {Var: ghost}}}, {VarBinding: {var: {Var: a}, "
                         "value: {Op: relax.add}}}]}], body: {Var: a}}}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mod);
    DiagList errors;
    diag_init(&errors);
    wellformed_check(mod, &errors);
    bool seen[4] = {false, false, false, false};
    const char *want[4] = {"UnboundVar", "VarBoundTwice", "OpPosition", "NoEntryPoint"};
    for (int i = 0; i < errors.n; i++) {
        CU_ASSERT_EQUAL(errors.items[i].phase, PHASE_WELLFORMED);
        for (int k = 0; k < 4; k++)
            seen[k] = seen[k] || strcmp(errors.items[i].code, want[k]) == 0;
    }
    for (int k = 0; k < 4; k++)
        CU_ASSERT_TRUE(seen[k]);
}

/* The corpus agrees: a case expecting a later phase (or a value) is well-formed, and a case
 * expecting a wellformed error gets that code and rule first. */
static bool expects_wellformed_ok(const Expect *e)
{
    if (e->kind == EXPECT_ROUNDTRIP)
        return false;
    return e->kind != EXPECT_ERROR || e->error_phase > PHASE_WELLFORMED;
}

static void check_corpus_case(const Case *c, int *checked, int *failures)
{
    const Expect *e = &c->runs[0].expect;
    bool wf_error = e->kind == EXPECT_ERROR && e->error_phase == PHASE_WELLFORMED;
    if (!wf_error && !expects_wellformed_ok(e))
        return;
    /* A program this parser refuses (legacy syntax, a parse error the case expects) is the
     * corpus tests' concern, not well-formedness's. */
    IRModule *mod = c->program ? load_or_null(c->global_id, false, c->program, false) : c->ast;
    if (mod == NULL)
        return;
    (*checked)++;
    const Error *got = first_error(mod, false);
    /* Normal-form cases may break WF-23 on purpose: it is NF-5, which they pin. */
    bool nf_kind = e->kind == EXPECT_NORMAL_FORM || e->kind == EXPECT_NORMALIZES_TO;
    if (nf_kind && got != NULL && got->rule != NULL && strcmp(got->rule, "WF-23") == 0)
        got = NULL;
    bool ok = wf_error ? got != NULL && (!e->error_code || strcmp(got->code, e->error_code) == 0) &&
                             (!e->error_rule || strcmp(got->rule, e->error_rule) == 0)
                       : got == NULL;
    if (!ok && (*failures)++ < 10)
        printf("\n%s: %s\n", c->global_id, got ? error_format(got) : "well-formed");
}

static void check_corpus_file(const char *path, int *checked, int *failures)
{
    CaseFile *cf = unit_case_file(path, NULL);
    if (cf == NULL)
        return; /* a broken case file is the corpus tests' concern */
    for (int k = 0; k < cf->ncases; k++) {
        if (!cf->cases[k]->ast_failed)
            check_corpus_case(cf->cases[k], checked, failures);
    }
}

static void test_corpus_agrees(void)
{
    const char **paths = NULL;
    int n = corpus_find_files(mem_printf("%s/spec-tests", unit_source_dir()), &paths, 0);
    int checked = 0, failures = 0;
    for (int i = 0; i < n; i++)
        check_corpus_file(paths[i], &checked, &failures);
    CU_ASSERT_TRUE(checked > 0);
    CU_ASSERT_EQUAL(failures, 0);
}

UNIT_SUITE(wellformed)
{
    CU_pSuite s = CU_add_suite("wellformed", 0, 0);
    CU_add_test(s, "each WF rule accepts and rejects", test_wf_rules);
    CU_add_test(s, "each NF rule accepts and rejects", test_nf_rules);
    CU_add_test(s, "WF-17 on a built FuncStructInfo", test_wf17_built);
    CU_add_test(s, "every violation is reported", test_reports_all);
    CU_add_test(s, "corpus expectations agree with the check", test_corpus_agrees);
}
