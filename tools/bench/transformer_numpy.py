"""A pre-norm transformer encoder block (sequence 128, hidden 256, 4 heads of 64,
feed-forward 1024) run four times over its own output: the numpy twin of
transformer.relax.py, in float32 as a numpy user writes it. With the argument `baseline` it
only builds the input and the weights, as the `baseline` entry does."""
import sys

import numpy as np

LAYERS = 4


def pattern(n, m, scale, shape):
    i = np.arange(0, n, 1, dtype=np.float32)
    return ((np.mod(i, np.float32(m)) - np.float32(3)) * np.float32(scale)).reshape(shape)


def layer_norm(x, g, b):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(1e-5)) * g + b


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def gelu_tanh(x):
    c = np.float32(np.sqrt(2.0 / np.pi))
    return np.float32(0.5) * x * (np.float32(1) + np.tanh(c * (x + np.float32(0.044715) * x * x * x)))


def block(x, g, b, wqkv, wo, w1, w2):
    h = layer_norm(x, g, b)
    heads = (h @ wqkv).reshape(128, 3, 4, 64).transpose(1, 2, 0, 3)
    q, k, v = heads[0], heads[1], heads[2]
    p = softmax((q @ k.transpose(0, 2, 1)) * np.float32(0.125))
    att = (p @ v).transpose(1, 0, 2).reshape(128, 256)
    x1 = x + att @ wo
    return x1 + gelu_tanh(layer_norm(x1, g, b) @ w1) @ w2


def main(baseline):
    x = pattern(32768, 7, 0.25, (128, 256))
    g = pattern(256, 5, 0.0625, (256,)) + np.float32(1)
    b = pattern(256, 3, 0.03125, (256,))
    wqkv = pattern(196608, 11, 0.015625, (256, 768))
    wo = pattern(65536, 13, 0.0078125, (256, 256))
    w1 = pattern(262144, 9, 0.015625, (256, 1024))
    w2 = pattern(262144, 7, 0.0078125, (1024, 256))
    y = x
    if not baseline:
        for _ in range(LAYERS):
            y = block(y, g, b, wqkv, wo, w1, w2)
    d = y.astype(np.float64)
    print(repr(float(np.sum(d * d))))


main(sys.argv[1:] == ["baseline"])
