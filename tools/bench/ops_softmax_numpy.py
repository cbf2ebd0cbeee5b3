"""R.nn.softmax over the last axis of a 1000x1000 float32 array: the numpy twin of
ops_softmax.relax.py. With the argument `baseline` it only builds the input, as the
`baseline` entry does."""
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end.
REPS = 10


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def main(baseline):
    i = np.arange(0, 1000000, 1, dtype=np.float32)
    x = (np.mod(i, np.float32(17)) * np.float32(0.25)).reshape(1000, 1000)
    y = x if baseline else [softmax(x) for _ in range(REPS)][-1]
    d = y.astype(np.float64)
    print(repr(float(np.sum(d * d))))


main(sys.argv[1:] == ["baseline"])
