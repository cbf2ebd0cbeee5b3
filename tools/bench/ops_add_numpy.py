"""R.add of two float32 arrays of 10^7 elements: the numpy twin of ops_add.relax.py.
With the argument `baseline` it only builds the inputs, as the `baseline` entry does."""
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end.
REPS = 10


def main(baseline):
    a = np.arange(0, 10000000, 1, dtype=np.float32)
    b = np.full(10000000, 0.5, dtype=np.float32)
    c = a if baseline else [np.add(a, b) for _ in range(REPS)][-1]
    print(repr(float(c.astype(np.float64).sum())))


main(sys.argv[1:] == ["baseline"])
