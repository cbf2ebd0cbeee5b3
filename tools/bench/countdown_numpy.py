"""A 10^5-step tail-recursive loop carrying a float32[4]: the numpy twin of countdown.relax.py."""
import sys
import threading

import numpy as np


def loop(i, acc):
    if np.less(i, np.int64(1)):
        return acc
    return loop(np.subtract(i, np.int64(1)), np.add(acc, np.float32(1)))


def main():
    n = np.array(int(sys.argv[1]) if len(sys.argv) > 1 else 100000, dtype=np.int64)
    print(loop(n, np.zeros(4, dtype=np.float32)))


# Deep recursion needs a deep stack, as the interpreter's does.
sys.setrecursionlimit(1000000)
threading.stack_size(512 * 1024 * 1024)
t = threading.Thread(target=main)
t.start()
t.join()
