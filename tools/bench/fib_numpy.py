"""Recursive Fibonacci on rank-0 int64 arrays: the numpy twin of fib.relax.py."""
import sys

import numpy as np


def fib(n):
    if np.less(n, np.int64(2)):
        return n
    f1 = fib(np.subtract(n, np.int64(1)))
    f2 = fib(np.subtract(n, np.int64(2)))
    return np.add(f1, f2)


def main():
    n = np.array(int(sys.argv[1]) if len(sys.argv) > 1 else 22, dtype=np.int64)
    print(int(fib(n)))


main()
