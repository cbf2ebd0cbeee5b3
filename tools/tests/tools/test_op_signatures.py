#!/usr/bin/python3
"""tools/lint/op_signatures.py finds a constructor whose default differs from TVM's, and
accepts one that agrees, on a stand-in TVM tree with two operators.
Run: /usr/bin/python3 tools/tests/tools/test_op_signatures.py RELAX"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
RELAX = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "relax")
SCRIPT = os.path.join(ROOT, "tools", "lint", "op_signatures.py")


def run(tvm_src):
    return subprocess.run(["/usr/bin/python3", SCRIPT, tvm_src, "--relax", RELAX],
                          capture_output=True, text=True)


def tree(tmp, statistical):
    op = os.path.join(tmp, "python", "tvm", "relax", "op")
    os.makedirs(os.path.join(op, "nn"))
    with open(os.path.join(op, "statistical.py"), "w") as f:
        f.write(statistical)
    with open(os.path.join(op, "nn", "nn.py"), "w") as f:
        f.write("def softmax(data, axis=-1):\n    pass\n")
    return tmp


class OpSignatures(unittest.TestCase):
    def test_planted_default_is_found(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run(tree(tmp, "def sum(x, axis=None, keepdims=True):\n    pass\n"))
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("DIFFERS relax.sum: `keepdims`: default False in the schema, True in TVM",
                          p.stdout)
            self.assertNotIn("DIFFERS relax.nn.softmax", p.stdout)

    def test_renamed_parameter_is_found(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run(tree(tmp, "def sum(data, axis=None, keepdims=False):\n    pass\n"))
            self.assertIn("DIFFERS relax.sum: parameters ['x', 'axis', 'keepdims'] in the schema, "
                          "['data', 'axis', 'keepdims'] in TVM", p.stdout)

    def test_agreeing_constructor_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = run(tree(tmp, "def sum(x, axis=None, keepdims=False):\n    pass\n"))
            self.assertNotIn("relax.sum:", p.stdout)
            self.assertNotIn("relax.nn.softmax:", p.stdout)


if __name__ == "__main__":
    unittest.main()
