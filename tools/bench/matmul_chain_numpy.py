"""A chain of 200 matmuls of 16x16 float32 matrices: the numpy twin of matmul_chain.relax.py."""
import numpy as np


def inputs():
    x = np.array([[(i * 16 + j) % 7 for j in range(16)] for i in range(16)], dtype=np.float32)
    w = np.full((16, 16), 1.0 / 16, dtype=np.float32)
    return x, w


def main():
    x, w = inputs()
    y = x
    for _ in range(200):
        y = np.matmul(y, w)
    print(y[0, :4])


main()
