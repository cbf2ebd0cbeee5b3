"""R.nn.conv2d (NCHW, 3x3, padding 1): the numpy twin of ops_conv2d.relax.py. numpy has no
convolution, so it sums one matrix product per kernel tap over the padded input. With the
argument `baseline` it only builds the inputs, as the `baseline` entry does."""
import sys

import numpy as np

# As in the Relax program: ten runs of the operator, each result kept until the end.
REPS = 10


def conv2d(x, w):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, o, h, wd), dtype=np.float32)
    for ky in range(kh):
        for kx in range(kw):
            window = padded[:, :, ky:ky + h, kx:kx + wd]
            y += np.einsum("oc,nchw->nohw", w[:, :, ky, kx], window)
    return y


def main(baseline):
    i = np.arange(0, 16384, 1, dtype=np.float32)
    x = (np.mod(i, np.float32(5)) - np.float32(2)).reshape(1, 16, 32, 32)
    j = np.arange(0, 2304, 1, dtype=np.float32)
    w = (np.mod(j, np.float32(3)) - np.float32(1)).reshape(16, 16, 3, 3)
    y = x if baseline else [conv2d(x, w) for _ in range(REPS)][-1]
    d = y.astype(np.float64)
    print(repr(float(np.sum(d * d))))


main(sys.argv[1:] == ["baseline"])
