# R.sum of a float32 tensor of 10^7 elements, a = 0, 1, 2, ..., built in the program. Entry
# `main` sums it ten times (one sum is too short to time against process start-up) and
# returns the last sum; entry `baseline` only builds a and returns a constant.
# Run: relax run ops_sum.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float32"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        s0 = R.sum(a)
        s1 = R.sum(a)
        s2 = R.sum(a)
        s3 = R.sum(a)
        s4 = R.sum(a)
        s5 = R.sum(a)
        s6 = R.sum(a)
        s7 = R.sum(a)
        s8 = R.sum(a)
        s9 = R.sum(a)
        return s9

    @R.function
    def baseline() -> R.Tensor((), "float32"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        s = R.const(0, "float32")
        return s
