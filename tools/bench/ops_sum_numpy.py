"""R.sum of a float32 array of 10^7 elements: the numpy twin of ops_sum.relax.py.
With the argument `baseline` it only builds the input, as the `baseline` entry does.

The timed operator is np.sum, what a numpy user calls. np.sum adds pairwise, whereas a
Relax float32 sum adds in index order with every step rounded to float32 (SPEC_NOTES 4.19,
OP-sum), so their results differ; the checksum printed is therefore the sum in index order,
computed by np.add.accumulate in float32 in both modes (its time cancels in the difference)."""
import os
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end; run.sh
# asks for more through REPS, as ten sums take less time than the check's noise.
REPS = int(os.environ.get("REPS", "10"))


def main(baseline):
    a = np.arange(0, 10000000, 1, dtype=np.float32)
    s = np.float32(0) if baseline else [np.sum(a) for _ in range(REPS)][-1]
    in_order = np.add.accumulate(a, dtype=np.float32)[-1]
    print(repr(float(in_order if not baseline else s)))


main(sys.argv[1:] == ["baseline"])
