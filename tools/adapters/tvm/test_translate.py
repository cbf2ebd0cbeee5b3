#!/usr/bin/python3
"""Unit tests of translate.py, the TVM adapter's translation functions; no TVM needed.
Run: /usr/bin/python3 tools/adapters/tvm/test_translate.py"""
import math
import os
import sys
import unittest

import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import translate as tr  # noqa: E402


class FakeRT:
    """Stands in for TVM's runtime: records what it was asked to build."""
    @staticmethod
    def tensor(arr):
        return ("tensor", arr)

    @staticmethod
    def shape(dims):
        return ("shape", tuple(dims))

    @staticmethod
    def prim(dtype, value):
        return int(value) if dtype.startswith(("int", "uint", "bool")) else float(value)

    @staticmethod
    def string(s):
        return ("string", s)

    @staticmethod
    def dtype(s):
        return ("dtype", s)


class FakeTensor:
    def __init__(self, arr):
        self.arr = arr
        self.dtype = str(arr.dtype)

    def numpy(self):
        return self.arr


class FakeShape(tuple):
    """TVM's Shape derives from tuple: it must still come back as a shape."""


def kind_of(obj):
    if isinstance(obj, FakeTensor):
        return "tensor"
    if isinstance(obj, FakeShape):
        return "shape"
    return ("object", "Map")


def case(text):
    return yaml.safe_load(text)


class ValuesIn(unittest.TestCase):
    def test_tensor_nested_flat_and_scalar(self):
        nested = tr.tensor_to_numpy({"dtype": "float32", "shape": [2, 2], "data": [[1, 2], [3, 4]]})
        flat = tr.tensor_to_numpy({"dtype": "float32", "shape": [2, 2], "data": [1, 2, 3, 4]})
        self.assertEqual(nested.dtype, np.float32)
        self.assertEqual(nested.shape, (2, 2))
        self.assertTrue((nested == flat).all())
        scalar = tr.tensor_to_numpy({"dtype": "int64", "shape": [], "data": 7})
        self.assertEqual(scalar.shape, ())
        self.assertEqual(int(scalar), 7)

    def test_float_words(self):
        arr = tr.tensor_to_numpy(case("{dtype: float64, shape: [3], data: [nan, inf, -inf]}"))
        self.assertTrue(math.isnan(arr[0]))
        self.assertEqual(arr[1], math.inf)
        self.assertEqual(arr[2], -math.inf)

    def test_bool_tensor(self):
        arr = tr.tensor_to_numpy(case("{dtype: bool, shape: [2], data: [true, false]}"))
        self.assertEqual(arr.dtype, np.bool_)
        self.assertEqual(list(arr), [True, False])

    def test_each_kind(self):
        rt = FakeRT
        self.assertEqual(tr.value_to_tvm(case("{shape: [2, 3]}"), rt), ("shape", (2, 3)))
        self.assertEqual(tr.value_to_tvm(case("{prim: {dtype: int64, value: 3}}"), rt), 3)
        self.assertEqual(tr.value_to_tvm(case("{prim: {dtype: float32, value: 2.5}}"), rt), 2.5)
        self.assertEqual(tr.value_to_tvm(case("{string: hi}"), rt), ("string", "hi"))
        self.assertEqual(tr.value_to_tvm(case("{dtype: float16}"), rt), ("dtype", "float16"))
        self.assertIsNone(tr.value_to_tvm(case("{null: true}"), rt))
        got = tr.value_to_tvm(case("{tuple: [{shape: []}, {tuple: []}]}"), rt)
        self.assertEqual(got, [("shape", ()), []])

    def test_unsendable(self):
        with self.assertRaises(tr.Unsendable):
            tr.value_to_tvm(case("{callable: true}"), FakeRT)
        with self.assertRaises(tr.Unsendable):
            tr.value_to_tvm(case("{shape: [1], tensor: 2}"), FakeRT)


class ValuesOut(unittest.TestCase):
    def roundtrip(self, obj):
        return yaml.safe_load(tr.result_to_case(obj, kind_of))

    def test_tensor(self):
        got = self.roundtrip(FakeTensor(np.array([[1.5, 2], [3, 4]], dtype="float32")))
        self.assertEqual(got, {"tensor": {"dtype": "float32", "shape": [2, 2],
                                          "data": [[1.5, 2.0], [3.0, 4.0]]}})

    def test_special_floats_are_case_words(self):
        text = tr.result_to_case(FakeTensor(np.array([np.nan, np.inf, -np.inf])), kind_of)
        self.assertIn("data: [nan, inf, -inf]", text)

    def test_int_and_bool_tensors(self):
        self.assertIn("data: [1, -2]", tr.result_to_case(FakeTensor(np.array([1, -2])), kind_of))
        got = self.roundtrip(FakeTensor(np.array(True)))
        self.assertEqual(got["tensor"]["data"], True)
        self.assertEqual(got["tensor"]["shape"], [])

    def test_shape_before_tuple(self):
        self.assertEqual(self.roundtrip(FakeShape([2, 3])), {"shape": [2, 3]})
        self.assertEqual(self.roundtrip((FakeShape([]),)), {"tuple": [{"shape": []}]})

    def test_scalars_strings_and_objects(self):
        self.assertEqual(self.roundtrip(3), {"prim": {"dtype": "int64", "value": 3}})
        self.assertEqual(self.roundtrip(True), {"prim": {"dtype": "bool", "value": True}})
        self.assertEqual(self.roundtrip("a: \"b\"\n"), {"string": "a: \"b\"\n"})
        self.assertEqual(tr.result_to_case(None, kind_of), "{null: true}")
        self.assertEqual(self.roundtrip(object()), {"object": "Map"})


class PrimStructInfo:
    def __init__(self, dtype):
        self.dtype = dtype


class TupleStructInfo:
    def __init__(self, *fields):
        self.fields = list(fields)


class PrimDTypes(unittest.TestCase):
    """TVM's VM returns a PrimValue as a bare Python number: its dtype is the signature's."""

    def test_hint_from_the_return_struct_info(self):
        self.assertEqual(tr.prim_dtype_hint(PrimStructInfo("bool")), "bool")
        self.assertEqual(tr.prim_dtype_hint(TupleStructInfo(PrimStructInfo("int32"), object())),
                         ["int32", None])
        self.assertIsNone(tr.prim_dtype_hint(None))

    def test_results_take_the_hint(self):
        self.assertEqual(case(tr.result_to_case(1, kind_of, "bool")),
                         {"prim": {"dtype": "bool", "value": True}})
        self.assertEqual(case(tr.result_to_case(3, kind_of, "int32")),
                         {"prim": {"dtype": "int32", "value": 3}})
        self.assertEqual(case(tr.result_to_case(3, kind_of)),
                         {"prim": {"dtype": "int64", "value": 3}})
        self.assertEqual(case(tr.result_to_case([1, 2.5], kind_of, ["bool", "float32"])),
                         {"tuple": [{"prim": {"dtype": "bool", "value": True}},
                                    {"prim": {"dtype": "float32", "value": 2.5}}]})


class Errors(unittest.TestCase):
    def test_load_errors_go_to_the_spec_phase(self):
        self.assertEqual(tr.classify_error("load", "Undefined variable: z"),
                         ("parse", "UnknownName"))
        self.assertEqual(tr.classify_error("load", "Non-void relax expressions must be bound"),
                         ("struct_info", "NonVoidExprStmt"))
        self.assertEqual(tr.classify_error("load", "The program is not well-formed")[0],
                         "wellformed")
        self.assertEqual(tr.classify_error("load", "match_cast: cannot")[0], "struct_info")
        self.assertEqual(tr.classify_error("load", "something odd"), ("parse", None))

    def test_run_errors(self):
        self.assertEqual(tr.classify_error("run", "spectest.fail: boom"),
                         ("runtime", "PackedFuncError"))
        self.assertEqual(tr.classify_error("run", "Cannot find ffi::Function spectest.nope"),
                         ("runtime", "PackedFuncMissing"))
        self.assertEqual(tr.classify_error("run", "ErrorContext(match_cast, ...) mismatch"),
                         ("runtime", "MatchCastShape"))
        self.assertEqual(tr.classify_error("run", "whatever"), ("runtime", None))

    def test_build_errors(self):
        fields = dict(tr.build_error_fields("Cannot find ffi::Function spectest.x in ..."))
        self.assertEqual(fields["code"], '"PackedFuncMissing"')
        fields = dict(tr.build_error_fields("LambdaLift failed"))
        self.assertEqual(fields["code"], '"BuildFailed"')

    def test_operator_inference_errors_are_struct_info(self):
        for msg in ("In Op(relax.mean), the input axes is required to be non-repetitive",
                    "Binary operators must have the same datatype for both operands",
                    "In Op(relax.nn.log_softmax), the input axis 2 is out of range"):
            self.assertEqual(tr.classify_error("load", msg)[0], "struct_info", msg)

    def test_the_parsers_own_checks_are_parse_errors(self):
        for msg in ("Check failed: (block_frame.defined() && block_frame.value()) is false",
                    "Mismatched type on argument #1 when calling: `relax.TupleGetItem(...)`",
                    "match_cast() missing 1 required positional argument: 'struct_info'",
                    "unknown dtype `f32`", "Expected StructInfoProxy but got <class 'int'>."):
            self.assertEqual(tr.classify_error("load", msg)[0], "parse", msg)

    def test_rendered_diagnostic(self):
        """The parser's exception says only that diagnostics were emitted; the rendering on
        stderr names the error and where."""
        stderr = ("error: Binary operators must have the same datatype for both operands.\n"
                  "  However, R.add(x, y) uses float32 and int32.\n"
                  " --> <str>:3:5\n   |  \n 3 |      y = R.add(x, y)\n   |      ^^^^^^\n"
                  "[16:27:04] block_builder.cc:64: Warning: BlockBuilder destroyed\n")
        text, line, col = tr.rendered_diagnostic(stderr)
        self.assertEqual((line, col), (3, 5))
        self.assertTrue(text.startswith("Binary operators must have the same datatype"))
        self.assertIn("However, R.add(x, y)", text)
        fields = dict(tr.load_error_fields("one or more error diagnostics were emitted", stderr))
        self.assertEqual(fields["phase"], "struct_info")
        self.assertEqual((fields["line"], fields["col"]), ("3", "5"))
        self.assertIn("Binary operators", fields["message"])
        self.assertIsNone(tr.rendered_diagnostic("no diagnostic here\n"))
        fields = dict(tr.load_error_fields("Undefined variable: z", ""))
        self.assertEqual(fields["phase"], "parse")
        self.assertNotIn("line", fields)

    def test_first_line_skips_the_traceback(self):
        msg = "Traceback (most recent call last):\n  File x\nValueError: bad shape\n"
        self.assertEqual(tr.first_line(msg), "ValueError: bad shape")
        self.assertEqual(tr.first_line(""), "(no message)")


class Responses(unittest.TestCase):
    def test_error_response_is_yaml(self):
        text = tr.response(2, ok=False, fields=tr.error_fields("run", "spectest.fail: x\"y", "out\n"))
        doc = yaml.safe_load(text)
        self.assertEqual(doc, {"protocol": 2, "ok": False, "phase": "runtime",
                               "code": "PackedFuncError", "message": "spectest.fail: x\"y",
                               "stdout": "out\n"})

    def test_unsupported(self):
        self.assertEqual(yaml.safe_load(tr.response(1, unsupported=True)),
                         {"protocol": 1, "unsupported": True})

    def test_lone_function_name(self):
        self.assertEqual(tr.lone_function_name("@R.function\ndef f(x):\n    return x\n"), "f")
        self.assertIsNone(tr.lone_function_name("@I.ir_module\nclass M:\n    pass\n"))


if __name__ == "__main__":
    unittest.main()
