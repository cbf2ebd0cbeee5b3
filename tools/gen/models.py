#!/usr/bin/python3
"""Generates the whole-model conformance cases in spec-tests/models/ from numpy.

Each model is a module in TVMScript as TVM prints it (every binding annotated, dataflow
blocks, attributes in their canonical order) with its weights as parameters, run on fixed
random inputs. The oracle is numpy, rounding to float32 after every operator as the
interpreter does.

    /usr/bin/python3 tools/gen/models.py           # write spec-tests/models/*.yaml
    /usr/bin/python3 tools/gen/models.py --check   # compare with the committed files
"""

import difflib
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_ops  # noqa: E402  (the YAML emitter shared with the operator cases)

sys.modules.setdefault("gen_ops", gen_ops)
import ops_nn  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(ROOT, "spec-tests", "models")
SEED = 20260506
TOL = {"rtol": 1e-4, "atol": 1e-5}

HEADER = """# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
"""


def f32(a):
    return np.asarray(a, dtype=np.float64).astype(np.float32)


def t(shape):
    """A canonical tensor annotation inside a body."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    return 'R.Tensor((%s), dtype="float32")' % dims


def sig(shape):
    """A signature annotation: symbolic dims print as strings."""
    dims = ", ".join('"%s"' % d if isinstance(d, str) else str(d) for d in shape)
    dims += "," if len(shape) == 1 else ""
    return 'R.Tensor((%s), dtype="float32")' % dims


def module(params, ret, symvars, bindings, out="gv"):
    """main(params) -> ret with one dataflow block of (var, shape, expr) bindings."""
    lines = [HEADER.rstrip("\n"), "    @R.function"]
    ps = ", ".join("%s: %s" % (n, sig(s)) for n, s in params)
    lines.append("    def main(%s) -> %s:" % (ps, sig(ret)))
    lines += ["        %s = T.int64()" % v for v in symvars]
    lines.append("        with R.dataflow():")
    for var, shape, expr in bindings:
        lines.append("            %s: %s = %s" % (var, t(shape), expr))
    lines += ["            R.output(%s)" % out, "        return %s" % out, ""]
    return "\n".join(lines)


def matmul(a, b):
    return 'R.matmul(%s, %s, out_dtype="void")' % (a, b)


# ---- the models -------------------------------------------------------------------------


def mlp_program():
    params = [("x", ("n", 4)), ("w1", (4, 8)), ("b1", (8,)), ("w2", (8, 3)), ("b2", (3,))]
    bindings = [
        ("lv", ("n", 8), matmul("x", "w1")),
        ("lv1", ("n", 8), "R.add(lv, b1)"),
        ("lv2", ("n", 8), "R.nn.relu(lv1)"),
        ("lv3", ("n", 3), matmul("lv2", "w2")),
        ("gv", ("n", 3), "R.add(lv3, b2)"),
    ]
    return module(params, ("n", 3), ["n"], bindings)


def mlp_eval(x, w1, b1, w2, b2):
    h = f32(np.maximum(f32(f32(x.astype(np.float64) @ w1) + b1), 0))
    return f32(f32(h.astype(np.float64) @ w2) + b2)


def mlp_cases(rng):
    weights = [ops_nn.floats(rng, s) for s in ((4, 8), (8,), (8, 3), (3,))]
    out = []
    for n in (5, 1):
        x = ops_nn.floats(rng, (n, 4))
        out.append({
            "id": "mlp-batch-%d" % n,
            "description": "A two-layer perceptron (matmul, add, relu, matmul, add) on a batch of "
                           "symbolic size n, run with n = %d." % n,
            "spec": ["OP-matmul", "OP-add", "OP-nn.relu", "TS-4.4"],
            "program": mlp_program(),
            "args": [x] + weights,
            "value": mlp_eval(x, *weights),
            "tolerance": TOL,
        })
    return out


POOL = ('R.nn.max_pool2d(lv2, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], '
        'padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", '
        'out_layout="NCHW")')
CONV = ('R.nn.conv2d(x, cw, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, '
        'data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")')


def cnn_program():
    params = [("x", (1, 2, 8, 8)), ("cw", (4, 2, 3, 3)), ("cb", (1, 4, 1, 1)),
              ("fw", (5, 64)), ("fb", (5,))]
    bindings = [
        ("lv", (1, 4, 8, 8), CONV),
        ("lv1", (1, 4, 8, 8), "R.add(lv, cb)"),
        ("lv2", (1, 4, 8, 8), "R.nn.relu(lv1)"),
        ("lv3", (1, 4, 4, 4), POOL),
        ("lv4", (64,), "R.flatten(lv3)"),
        ("lv5", (64, 5), "R.permute_dims(fw, axes=None)"),
        ("lv6", (5,), matmul("lv4", "lv5")),
        ("gv", (5,), "R.add(lv6, fb)"),
    ]
    return module(params, (5,), [], bindings)


def cnn_cases(rng):
    x = ops_nn.floats(rng, (1, 2, 8, 8))
    cw, cb = ops_nn.floats(rng, (4, 2, 3, 3)), ops_nn.floats(rng, (1, 4, 1, 1))
    fw, fb = ops_nn.floats(rng, (5, 64)), ops_nn.floats(rng, (5,))
    conv = f32(ops_nn.np_conv2d(x, cw, padding=1))
    act = f32(np.maximum(f32(conv + cb), 0))
    pooled = f32(ops_nn.np_pool2d(act, "max", (2, 2), (2, 2)))
    y = f32(f32(pooled.reshape(-1).astype(np.float64) @ fw.T.astype(np.float64)) + fb)
    return [{
        "id": "cnn",
        "description": "A small convolutional network: conv2d (padding 1), bias add, relu, "
                       "2x2 max pooling, flatten and a linear layer.",
        "spec": ["OP-nn.conv2d", "OP-nn.relu", "OP-nn.max_pool2d", "OP-flatten",
                 "OP-permute_dims", "OP-matmul", "OP-add", "TS-4.4"],
        "program": cnn_program(),
        "args": [x, cw, cb, fw, fb],
        "value": y,
        "tolerance": TOL,
    }]


LN = ('R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1.0000000000000001e-05, center=True, '
      'scale=True)')


def attention_program():
    params = [("x", (1, "n", 8)), ("g", (8,)), ("b", (8,))] + \
             [(w, (8, 8)) for w in ("wq", "wk", "wv", "wo")]
    s, h = (1, "n", 8), (1, "n", 2, 4)
    heads = (1, 2, "n", 4)
    bindings = [
        ("lv", s, LN),
        ("lv1", s, matmul("lv", "wq")),
        ("lv2", s, matmul("lv", "wk")),
        ("lv3", s, matmul("lv", "wv")),
        ("lv4", h, "R.reshape(lv1, R.shape([1, n, 2, 4]))"),
        ("lv5", heads, "R.permute_dims(lv4, axes=[0, 2, 1, 3])"),
        ("lv6", h, "R.reshape(lv2, R.shape([1, n, 2, 4]))"),
        ("lv7", (1, 2, 4, "n"), "R.permute_dims(lv6, axes=[0, 2, 3, 1])"),
        ("lv8", h, "R.reshape(lv3, R.shape([1, n, 2, 4]))"),
        ("lv9", heads, "R.permute_dims(lv8, axes=[0, 2, 1, 3])"),
        ("lv10", (1, 2, "n", "n"), matmul("lv5", "lv7")),
        ("lv11", (1, 2, "n", "n"), 'R.multiply(lv10, R.const(0.5, "float32"))'),
        ("lv12", (1, 2, "n", "n"), "R.nn.softmax(lv11, axis=-1)"),
        ("lv13", heads, matmul("lv12", "lv9")),
        ("lv14", h, "R.permute_dims(lv13, axes=[0, 2, 1, 3])"),
        ("lv15", s, "R.reshape(lv14, R.shape([1, n, 8]))"),
        ("lv16", s, matmul("lv15", "wo")),
        ("gv", s, "R.add(x, lv16)"),
    ]
    return module(params, s, ["n"], bindings)


def attention_eval(x, g, b, wq, wk, wv, wo):
    n = x.shape[1]
    ln = f32(ops_nn.np_layer_norm(x, g, b, [2]))
    q, k, v = (f32(ln.astype(np.float64) @ w) for w in (wq, wk, wv))
    qh = q.reshape(1, n, 2, 4).transpose(0, 2, 1, 3)
    kt = k.reshape(1, n, 2, 4).transpose(0, 2, 3, 1)
    vh = v.reshape(1, n, 2, 4).transpose(0, 2, 1, 3)
    scores = f32(f32(qh.astype(np.float64) @ kt) * 0.5)
    probs = f32(ops_nn.np_softmax(scores.astype(np.float64), -1))
    ctx = f32(probs.astype(np.float64) @ vh).transpose(0, 2, 1, 3).reshape(1, n, 8)
    return f32(x + f32(ctx.astype(np.float64) @ wo))


def attention_cases(rng):
    x = ops_nn.floats(rng, (1, 3, 8))
    g, b = ops_nn.floats(rng, (8,)), ops_nn.floats(rng, (8,))
    ws = [f32(ops_nn.floats(rng, (8, 8)) / 2) for _ in range(4)]
    return [{
        "id": "attention-block",
        "description": "One pre-norm self-attention block with two heads over a sequence of "
                       "symbolic length n (layer_norm, q/k/v projections, reshape and "
                       "permute_dims into heads, scaled scores, softmax, residual add), run "
                       "with n = 3.",
        "spec": ["OP-nn.layer_norm", "OP-matmul", "OP-reshape", "OP-permute_dims",
                 "OP-multiply", "OP-nn.softmax", "OP-add", "TS-4.4"],
        "program": attention_program(),
        "args": [x, g, b] + ws,
        "value": attention_eval(x, g, b, *ws),
        "tolerance": TOL,
    }]


# ---- output -------------------------------------------------------------------------------

MODELS = [("mlp", mlp_cases), ("cnn", cnn_cases), ("attention", attention_cases)]


def render():
    rng = np.random.default_rng(SEED)
    files = {}
    for name, make in MODELS:
        lines = ["# Generated by tools/gen/models.py; do not edit.", "format: 1",
                 "tags: [models]", "cases:"]
        for i, case in enumerate(make(rng)):
            if i:
                lines.append("")
            lines.extend(gen_ops.emit_case(case))
        files[name + ".yaml"] = "\n".join(lines) + "\n"
    return files


def main(argv):
    files = render()
    status = 0
    for name, text in sorted(files.items()):
        path = os.path.join(OUT_DIR, name)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if "--check" not in argv[1:]:
            os.makedirs(OUT_DIR, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        elif text != old:
            status = 1
            diff = difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                        "spec-tests/models/" + name, "generated")
            sys.stdout.writelines(list(diff)[:40])
            print("models: spec-tests/models/%s is stale; run tools/gen/models.py" % name)
    if "--check" not in argv[1:]:
        print("models: wrote %d files" % len(files))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
