"""Conformance cases of the indexing and scatter operators (gather, scatter, index_put, one_hot, nonzero, bucketize, meshgrid).

numpy is the oracle, computing each operator with TVM v0.22's formula. `cases()` returns
the case dicts the driver (gen_ops.py) writes to spec-tests/ops/scatter*.yaml.
"""


def cases():
    return []
