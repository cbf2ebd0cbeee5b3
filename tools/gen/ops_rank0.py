"""Conformance cases of a rank-0 operand where an operator needs a rank of 1 or more.

Each rank check of the operators' inference (SPEC_NOTES 1.5, the OP-* rows: "1-D operands",
"rank 3 or more", "one dim per normalized axis", ...) must hold for a known rank of 0 as for
any other wrong rank: a rank of 0 is known, not unknown. Each program below was checked
against TVM v0.22, whose inference rejects every one of them (its messages: "requires both
inputs to be 1D tensors", "requires boundary to be 1-D array but got 0", ...). The error code
is the OP-* row's (OpShapeMismatch for a wrong rank). `cases()` returns the case dicts the
driver (gen_ops.py) writes to spec-tests/ops/rank0.yaml.
"""


def ann(shape, dtype="float32"):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    return 'R.Tensor((%s), "%s")' % (dims, dtype)


# (operator, case id, description, params, expression)
PROGRAMS = [
    ("outer", "rank-0-operand", "outer of a rank-0 tensor and a vector is rejected: both "
     "operands must be 1-D.", [("x", ann(())), ("y", ann((3,)))], "R.outer(x, y)"),
    ("bucketize", "rank-0-boundaries", "bucketize with rank-0 boundaries is rejected: they must "
     "be 1-D.", [("x", ann((3,))), ("b", ann(()))], "R.bucketize(x, b)"),
    ("index_put", "rank-0-index", "index_put with a rank-0 index tensor is rejected: index "
     "tensors must be 1-D.", [("x", ann((3,))), ("a", ann((), "int64")), ("v", ann((1,)))],
     "R.index_put(x, R.tuple(a), v)"),
    ("slice_scatter", "rank-0-src", "slice_scatter of a rank-0 src into rank-2 data is "
     "rejected: src needs the data's rank.", [("x", ann((2, 6))), ("s", ann(()))],
     "R.slice_scatter(x, s, 1, 5, 2, axis=1)"),
    ("nn.attention_bias", "rank-0", "attention with a rank-0 bias is rejected: the bias must "
     "have rank 4.", [("q", ann((1, 2, 1, 4))), ("k", ann((1, 3, 1, 4))),
                      ("v", ann((1, 3, 1, 4))), ("b", ann(()))], "R.nn.attention(q, k, v, b)"),
    ("nn.attention", "rank-0-query", "attention of a rank-0 query is rejected: query, key and "
     "value must have rank 4.", [("q", ann(())), ("k", ann((1, 3, 1, 4))),
                                 ("v", ann((1, 3, 1, 4)))], "R.nn.attention(q, k, v)"),
    ("nn.pixel_shuffle", "rank-0", "pixel_shuffle of a rank-0 tensor is rejected: it needs "
     "rank 3 or more.", [("x", ann(()))], "R.nn.pixel_shuffle(x, 2)"),
    ("nn.group_norm", "rank-0-gamma", "group_norm with a rank-0 gamma is rejected: gamma must "
     "be 1-D.", [("x", ann((2, 4, 3))), ("g", ann(())), ("b", ann((4,)))],
     "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])"),
    ("nn.instance_norm", "rank-0-gamma", "instance_norm with a rank-0 gamma is rejected: gamma "
     "must be 1-D.", [("x", ann((2, 4, 3))), ("g", ann(())), ("b", ann((4,)))],
     "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])"),
    ("nn.rms_norm", "rank-0-weight", "rms_norm with a rank-0 weight is rejected: the weight has "
     "one dim per normalized axis.", [("x", ann((2, 3))), ("w", ann(()))],
     "R.nn.rms_norm(x, w, axes=[-1])"),
    ("nn.layer_norm", "rank-0-gamma", "layer_norm with a rank-0 gamma is rejected: gamma has "
     "one dim per normalized axis.", [("x", ann((2, 3))), ("g", ann(())), ("b", ann((3,)))],
     "R.nn.layer_norm(x, g, b, axes=[-1])"),
    ("tril", "rank-0", "tril of a rank-0 tensor is rejected: it needs rank 2 or more.",
     [("x", ann(()))], "R.tril(x)"),
    ("triu", "rank-0", "triu of a rank-0 tensor is rejected: it needs rank 2 or more.",
     [("x", ann(()))], "R.triu(x)"),
    ("take", "rank-0-data-no-axis", "take without an axis from rank-0 data is rejected: "
     "axis=None needs 1-D data.", [("x", ann(())), ("i", ann((1,), "int64"))], "R.take(x, i)"),
    ("dynamic_strided_slice", "rank-0-begin", "dynamic_strided_slice with a rank-0 begin is "
     "rejected: begin, end and strides must be 1-D.",
     [("x", ann((4,))), ("b", ann((), "int64")), ("e", ann((1,), "int64")),
      ("s", ann((1,), "int64"))], "R.dynamic_strided_slice(x, b, e, s)"),
    ("nn.nll_loss", "rank-0-weights", "nll_loss with rank-0 weights is rejected: weights must "
     "be 1-D.", [("p", ann((3, 4))), ("t", ann((3,), "int64")), ("w", ann(()))],
     "R.nn.nll_loss(p, t, w)"),
    ("layout_transform", "rank-0-map-arity", "layout_transform of a rank-0 tensor with a "
     "one-parameter index map is rejected: the map's arity must be the rank.",
     [("x", ann(()))], "R.layout_transform(x, index_map=lambda i: (i,))"),
]


def cases():
    out = []
    for op, cid, desc, params, expr in PROGRAMS:
        sig = ", ".join("%s: %s" % p for p in params)
        out.append({
            "id": "%s-%s" % (op.replace("nn.", "").replace("_", "-"), cid),
            "description": desc,
            "spec": ["OP-" + op],
            "program": "@R.function\ndef main(%s):\n    y = %s\n    return y\n" % (sig, expr),
            "error": {"phase": "struct_info", "code": "OpShapeMismatch", "rule": "OP-" + op},
        })
    return out
