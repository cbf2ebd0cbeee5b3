"""R.sum of a float32 array of 10^7 elements: the numpy twin of ops_sum.relax.py.
With the argument `baseline` it only builds the input, as the `baseline` entry does."""
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end.
REPS = 10


def main(baseline):
    a = np.arange(0, 10000000, 1, dtype=np.float32)
    s = np.float32(0) if baseline else [np.sum(a) for _ in range(REPS)][-1]
    print(repr(float(s)))


main(sys.argv[1:] == ["baseline"])
