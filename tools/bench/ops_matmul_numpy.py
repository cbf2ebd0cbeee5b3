"""R.matmul of two 256x256 float32 matrices: the numpy twin of ops_matmul.relax.py.
With the argument `baseline` it only builds the inputs, as the `baseline` entry does."""
import os
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end; run.sh
# asks for more through REPS, as ten OpenBLAS products take too little time to measure.
REPS = int(os.environ.get("REPS", "10"))


def main(baseline):
    i = np.arange(0, 65536, 1, dtype=np.float32)
    a = (np.mod(i, np.float32(7)) - np.float32(3)).reshape(256, 256)
    b = (np.mod(i, np.float32(5)) - np.float32(2)).reshape(256, 256)
    c = a if baseline else [np.matmul(a, b) for _ in range(REPS)][-1]
    d = c.astype(np.float64)
    print(repr(float(np.sum(d * d))))


main(sys.argv[1:] == ["baseline"])
