# R.sum of a float32 tensor of 10^7 elements, x = (0, 1, 2, ...) mod 1000, built in the
# program. Entry `main` sums it ten times (one sum is too short to time against process
# start-up) and returns the last sum; entry `baseline` only builds x and returns a constant.
# Run: relax run ops_sum.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float32"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        x = R.floor_mod(a, R.const(1000, "float32"))
        s0 = R.sum(x)
        s1 = R.sum(x)
        s2 = R.sum(x)
        s3 = R.sum(x)
        s4 = R.sum(x)
        s5 = R.sum(x)
        s6 = R.sum(x)
        s7 = R.sum(x)
        s8 = R.sum(x)
        s9 = R.sum(x)
        return s9

    @R.function
    def baseline() -> R.Tensor((), "float32"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        x = R.floor_mod(a, R.const(1000, "float32"))
        s = R.const(0, "float32")
        return s
