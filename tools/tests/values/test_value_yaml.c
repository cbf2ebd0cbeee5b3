/* test_value_yaml: reading the case-file value notation, and every BadValue error.
 * SPEC_NOTES: "Value notation errors". */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ast/error.h"
#include "tools/tests/unit.h"
#include "values/compare.h"
#include "values/render.h"
#include "values/value_yaml.h"

static Value *parse_as(const char *text, bool expectation)
{
    ValueYamlOptions opt = {"v.yaml", expectation};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0)
        return value_yaml_parse_text(text, &opt, &trap);
    fprintf(stderr, "\nunexpected: %s\n", error_format(&trap.error));
    return NULL;
}

static Value *parse(const char *text)
{
    Value *v = parse_as(text, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    return v;
}

/* The error a text raises: its line and column, checked, and the phase and code. */
static void expect_error(const char *text, bool expectation, int line, int col)
{
    ValueYamlOptions opt = {"v.yaml", expectation};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        value_yaml_parse_text(text, &opt, &trap);
        fprintf(stderr, "\nno error for: %s\n", text);
        CU_FAIL("no error raised");
        return;
    }
    if (trap.error.span.line != line || trap.error.span.col != col)
        fprintf(stderr, "\n%s -> %s (expected %d:%d)\n", text, error_format(&trap.error), line,
                col);
    CU_ASSERT_EQUAL(trap.error.phase, PHASE_CASE);
    CU_ASSERT_STRING_EQUAL(trap.error.code, "BadValue");
    CU_ASSERT_STRING_EQUAL(trap.error.span.file, "v.yaml");
    CU_ASSERT_EQUAL(trap.error.span.line, line);
    CU_ASSERT_EQUAL(trap.error.span.col, col);
}

/* The message an error raises: the format's arguments are in it (the line and column alone
 * would not show a message built from garbage). */
static void expect_message(const char *text, const char *message)
{
    ValueYamlOptions opt = {"v.yaml", false};
    ErrorTrap trap;
    if (setjmp(trap.jmp) == 0) {
        value_yaml_parse_text(text, &opt, &trap);
        CU_FAIL("no error raised");
        return;
    }
    if (strcmp(trap.error.message, message) != 0)
        fprintf(stderr, "\n%s -> %s (expected %s)\n", text, trap.error.message, message);
    CU_ASSERT_STRING_EQUAL(trap.error.code, "BadValue");
    CU_ASSERT_STRING_EQUAL(trap.error.message, message);
}

static void test_error_messages(void)
{
    expect_message("{tuple: {a: 1}}", "a tuple must be a sequence, not a mapping");
    expect_message("{tuple: 5}", "a tuple must be a sequence, not a scalar");
    expect_message("{tensor: {dtype: int32, shape: [2, 2], data: [[1, 2], [3]]}}",
                   "tensor data has 1 items at axis 1, the shape says 2");
    expect_message("{tensor: {dtype: int32, shape: [2, 2], data: [1, 2, 3]}}",
                   "tensor data has 3 items, the shape holds 4");
    expect_message("{tensor: {dtype: int32, shape: [2, 2], data: [1, 2]}}",
                   "flat tensor data has 2 elements, the shape holds 4");
    expect_message("{prim: {dtype: int32, value: [1]}}",
                   "a prim value must be a scalar, not a sequence");
}

static void test_tensors(void)
{
    Value *v = parse("{tensor: {dtype: float32, shape: [2, 2], data: [[1, 2], [3, 4.5]]}}");
    CU_ASSERT_EQUAL_FATAL(v->kind, VAL_TENSOR);
    Tensor *t = v->u.tensor;
    CU_ASSERT_EQUAL(t->ndim, 2);
    CU_ASSERT_EQUAL(t->shape[1], 2);
    CU_ASSERT_EQUAL(tensor_get_f64(t, 3), 4.5);
    Value *flat = parse("{tensor: {dtype: float32, shape: [2, 2], data: [1, 2, 3, 4.5]}}");
    CU_ASSERT_TRUE(compare_values(flat, v, NULL, NULL));
    Value *s = parse("{tensor: {dtype: int64, shape: [], data: -9223372036854775808}}");
    CU_ASSERT_EQUAL(s->u.tensor->ndim, 0);
    CU_ASSERT_EQUAL(tensor_get_i64(s->u.tensor, 0), INT64_MIN);
    Value *u = parse("{tensor: {dtype: uint64, shape: [1], data: [18446744073709551615]}}");
    CU_ASSERT_EQUAL(tensor_get_u64(u->u.tensor, 0), UINT64_MAX);
    Value *b = parse("{tensor: {dtype: bool, shape: [3], data: [true, false, True]}}");
    CU_ASSERT_EQUAL(tensor_get_i64(b->u.tensor, 0), 1);
    CU_ASSERT_EQUAL(tensor_get_i64(b->u.tensor, 1), 0);
    Value *sp = parse("{tensor: {dtype: float64, shape: [6], "
                      "data: [nan, .nan, inf, -inf, .inf, -.inf]}}");
    CU_ASSERT_TRUE(isnan(tensor_get_f64(sp->u.tensor, 0)) &&
                   isnan(tensor_get_f64(sp->u.tensor, 1)));
    CU_ASSERT_EQUAL(tensor_get_f64(sp->u.tensor, 2), INFINITY);
    CU_ASSERT_EQUAL(tensor_get_f64(sp->u.tensor, 3), -INFINITY);
    CU_ASSERT_EQUAL(tensor_get_f64(sp->u.tensor, 4), INFINITY);
    CU_ASSERT_EQUAL(tensor_get_f64(sp->u.tensor, 5), -INFINITY);
    Value *h = parse("{tensor: {dtype: float16, shape: [2], data: [0.1, 1e-8]}}");
    CU_ASSERT_EQUAL(tensor_get_f64(h->u.tensor, 0), 0.0999755859375);
    CU_ASSERT_EQUAL(tensor_get_f64(h->u.tensor, 1), 0.0); /* underflow is fine, overflow not */
    /* float32 rounds straight from the decimal text: this literal lies just above a float32
     * halfway point, so a detour through float64 (which rounds it onto the tie) would round
     * down to 1. */
    Value *f = parse("{tensor: {dtype: float32, shape: [1], data: [1.00000005960464477539063]}}");
    CU_ASSERT_EQUAL(tensor_get_f64(f->u.tensor, 0), 1.0 + ldexp(1, -23));
    Value *e = parse("{tensor: {dtype: int8, shape: [2, 0], data: [[], []]}}");
    CU_ASSERT_EQUAL(e->u.tensor->numel, 0);
    Value *e2 = parse("{tensor: {dtype: int8, shape: [0, 3], data: []}}");
    CU_ASSERT_EQUAL(e2->u.tensor->shape[1], 3);
    Value *one = parse("{tensor: {dtype: bfloat16, shape: [], data: [1.5]}}");
    CU_ASSERT_EQUAL(tensor_get_f64(one->u.tensor, 0), 1.5);
}

static void test_other_forms(void)
{
    Value *s = parse("{shape: [2, 3, -1]}");
    CU_ASSERT_EQUAL_FATAL(s->kind, VAL_SHAPE);
    CU_ASSERT_EQUAL(s->u.shape.ndim, 3);
    CU_ASSERT_EQUAL(s->u.shape.dims[2], -1);
    CU_ASSERT_EQUAL(parse("{shape: []}")->u.shape.ndim, 0);
    Value *p = parse("{prim: {dtype: int64, value: 3}}");
    CU_ASSERT_EQUAL(p->kind, VAL_PRIM);
    CU_ASSERT_EQUAL(p->u.prim.i, 3);
    CU_ASSERT_EQUAL(parse("{prim: {value: -inf, dtype: float32}}")->u.prim.f, -INFINITY);
    CU_ASSERT_EQUAL(parse("{prim: {dtype: bool, value: true}}")->u.prim.i, 1);
    CU_ASSERT_EQUAL(parse("{prim: {dtype: float32, value: 0.1}}")->u.prim.f, (double)0.1f);
    Value *t =
        parse("{tuple: [{string: \"a b\"}, {tuple: []}, {dtype: \"float16\"}, {null: true}]}");
    CU_ASSERT_EQUAL_FATAL(t->u.tuple.n, 4);
    CU_ASSERT_STRING_EQUAL(t->u.tuple.fields[0]->u.str, "a b");
    CU_ASSERT_EQUAL(t->u.tuple.fields[1]->u.tuple.n, 0);
    CU_ASSERT_STRING_EQUAL(dtype_str(t->u.tuple.fields[2]->u.dtype), "float16");
    CU_ASSERT_EQUAL(t->u.tuple.fields[3]->kind, VAL_NULL);
    CU_ASSERT_STRING_EQUAL(parse("{string: plain text}")->u.str, "plain text");
    Value *c = parse_as("{callable: true}", true);
    CU_ASSERT_TRUE(c != NULL && c->kind == VAL_OBJECT && c->u.object.callable_pattern);
    Value *o = parse_as("{object: \"spectest.Object\"}", true);
    CU_ASSERT_TRUE(o != NULL && o->kind == VAL_OBJECT && !o->u.object.callable_pattern);
    CU_ASSERT_STRING_EQUAL(o->u.object.name, "spectest.Object");
    /* Block style is YAML too. */
    Value *blk = parse("tensor:\n  dtype: int32\n  shape: [2]\n  data:\n    - 5\n    - 6\n");
    CU_ASSERT_EQUAL(tensor_get_i64(blk->u.tensor, 1), 6);
}

static void test_node_api(void)
{
    static const char text[] = "args: [{prim: {dtype: int32, value: 7}}]\n";
    yaml_parser_t parser;
    yaml_document_t doc;
    CU_ASSERT_FATAL(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    CU_ASSERT_FATAL(yaml_parser_load(&parser, &doc));
    yaml_parser_delete(&parser);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    yaml_node_t *args = yaml_document_get_node(&doc, root->data.mapping.pairs.start->value);
    yaml_node_t *first = yaml_document_get_node(&doc, args->data.sequence.items.start[0]);
    ValueYamlOptions opt = {"case.yaml", false};
    ErrorTrap trap;
    Value *v = NULL;
    if (setjmp(trap.jmp) == 0)
        v = value_yaml_parse_node(&doc, first, &opt, &trap);
    yaml_document_delete(&doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->u.prim.i, 7);
    CU_ASSERT_STRING_EQUAL(dtype_str(v->u.prim.dtype), "int32");
}

static void test_errors(void)
{
    expect_error("[1, 2]", false, 1, 1);
    expect_error("{}", false, 1, 1);
    expect_error("{shape: [1], prim: 2}", false, 1, 1);
    expect_error("{vector: [1]}", false, 1, 2);
    expect_error("{tensor: {dtype: float32, shape: [1]}}", false, 1, 10);
    expect_error("{tensor: {dtype: float32, shape: [1], data: [1], extra: 1}}", false, 1, 50);
    expect_error("{tensor: {dtype: int32, dtype: int32, shape: [], data: 1}}", false, 1, 25);
    expect_error("{tensor: {dtype: float, shape: [1], data: [1]}}", false, 1, 18);
    expect_error("{tensor: {dtype: float32x4, shape: [1], data: [1]}}", false, 1, 18);
    expect_error("{tensor: {dtype: int32, shape: [-1], data: []}}", false, 1, 33);
    expect_error("{tensor: {dtype: int32, shape: [1.5], data: []}}", false, 1, 33);
    expect_error("{tensor: {dtype: int8, shape: [4294967296, 4294967296], data: []}}", false, 1,
                 31);
    expect_error("{tensor: {dtype: int32, shape: [2, 2], data: [[1, 2], [3]]}}", false, 1, 55);
    expect_error("{tensor: {dtype: int32, shape: [2, 2], data: [[1, 2]]}}", false, 1, 46);
    expect_error("{tensor: {dtype: int32, shape: [2, 2], data: [1, 2, 3]}}", false, 1, 46);
    expect_error("{tensor: {dtype: int32, shape: [2], data: [[1], [2]]}}", false, 1, 44);
    expect_error("{tensor: {dtype: int32, shape: [], data: [1, 2]}}", false, 1, 42);
    expect_error("{tensor: {dtype: int8, shape: [2], data: [1, 128]}}", false, 1, 46);
    expect_error("{tensor: {dtype: uint8, shape: [1], data: [-1]}}", false, 1, 44);
    /* An unsigned dtype narrower than 64 bits holds up to 2^bits - 1 and no more. */
    expect_error("{tensor: {dtype: uint8, shape: [1], data: [256]}}", false, 1, 44);
    expect_error("{tensor: {dtype: uint16, shape: [1], data: [65536]}}", false, 1, 45);
    expect_error("{tensor: {dtype: uint32, shape: [1], data: [4294967296]}}", false, 1, 45);
    Value *umax = parse("{tensor: {dtype: uint32, shape: [2], data: [4294967295, 0]}}");
    CU_ASSERT_EQUAL(tensor_get_u64(umax->u.tensor, 0), UINT64_C(4294967295));
    expect_error("{tensor: {dtype: int32, shape: [1], data: [1.0]}}", false, 1, 44);
    expect_error("{tensor: {dtype: int32, shape: [1], data: [\"1\"]}}", false, 1, 44);
    expect_error("{tensor: {dtype: bool, shape: [1], data: [yes]}}", false, 1, 43);
    expect_error("{tensor: {dtype: float16, shape: [1], data: [70000]}}", false, 1, 46);
    expect_error("{tensor: {dtype: float64, shape: [1], data: [1e400]}}", false, 1, 46);
    expect_error("{tensor: {dtype: float32, shape: [1], data: [0x10]}}", false, 1, 46);
    expect_error("{tensor: {dtype: int64, shape: [1], data: [9223372036854775808]}}", false, 1, 44);
    expect_error("{shape: 3}", false, 1, 9);
    /* A mapping or a list where a scalar goes: the message names it by its brackets (it once
     * read a mapping's fields as a string: found by fuzz_value). */
    expect_error("{shape: [{}]}", false, 1, 10);
    expect_error("{shape: [[1]]}", false, 1, 10);
    expect_error("{tensor: {dtype: int32, shape: [1], data: [{a: 1}]}}", false, 1, 44);
    expect_error("{tensor: {dtype: float32, shape: [1], data: [[]]}}", false, 1, 46);
    expect_error("{prim: {dtype: int32}}", false, 1, 8);
    expect_error("{prim: {dtype: int32, value: [1]}}", false, 1, 30);
    expect_error("{tuple: {a: 1}}", false, 1, 9);
    expect_error("{tuple: [{shape: [1]}, 5]}", false, 1, 24);
    expect_error("{string: [a]}", false, 1, 10);
    expect_error("{dtype: \"floaty\"}", false, 1, 9);
    expect_error("{null: false}", false, 1, 8);
    expect_error("{callable: true}", false, 1, 2);
    expect_error("{callable: yes}", true, 1, 12);
    expect_error("{object: \"x\"}", false, 1, 2);
    expect_error("{object: [x]}", true, 1, 10);
    expect_error("\n  {tensor: {dtype: int32, shape: [1], data: [a]}}", false, 2, 46);
    expect_error("{tensor: [1, 2", false, 2, 1); /* YAML syntax: libyaml marks the end */
    expect_error("", false, 1, 1);
}

/* What the renderer writes reads back to an equal value, bit for bit. */
static void test_roundtrip(void)
{
    static const char *const texts[] = {
        "{tensor: {dtype: float32, shape: [2, 2], data: [[0.1, -0.0], [nan, -inf]]}}",
        "{tensor: {dtype: float16, shape: [3], data: [0.1, 65504, 6e-08]}}",
        "{tensor: {dtype: bfloat16, shape: [2], data: [0.1, -3.3895314e+38]}}",
        "{tensor: {dtype: float64, shape: [3], data: [0.1, 1e+300, 5e-324]}}",
        "{tensor: {dtype: uint64, shape: [1], data: [18446744073709551615]}}",
        "{tuple: [{shape: [1, 2]}, {prim: {dtype: float32, value: 3.4028235e+38}}]}",
        "{tuple: [{string: \"q\\\"\\\\\\n\\t\"}, {dtype: \"bool\"}, {null: true}]}",
    };
    Tolerance exact = {0, 0, true};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        Value *v = parse(texts[i]);
        char *written = render_value_case(v);
        Value *back = parse(written);
        char *why = NULL;
        CU_ASSERT_TRUE(compare_values(back, v, &exact, &why));
        if (why != NULL)
            fprintf(stderr, "\n%s -> %s: %s\n", texts[i], written, why);
        CU_ASSERT_STRING_EQUAL(render_value_case(back), written);
    }
}

UNIT_SUITE(value_yaml)
{
    CU_pSuite s = CU_add_suite("value_yaml", NULL, NULL);
    CU_add_test(s, "tensors", test_tensors);
    CU_add_test(s, "other_forms", test_other_forms);
    CU_add_test(s, "node_api", test_node_api);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "error_messages", test_error_messages);
    CU_add_test(s, "roundtrip", test_roundtrip);
}
