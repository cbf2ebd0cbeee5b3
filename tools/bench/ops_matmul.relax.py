# R.matmul of two 256x256 float32 matrices of small integers (a = (0, 1, ...) mod 7 - 3 and
# b = (0, 1, ...) mod 5 - 2, row-major), built in the program, so every product and sum is
# exact in float32. Entry `main` multiplies them ten times, keeping the ten products (one is
# too short to time against process start-up); entry `baseline` only builds them. Both
# return the float64 sum of squares of a 256x256 tensor (the last product, or a).
# Run: relax run ops_matmul.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float64"):
        i = R.arange(0, 65536, 1, dtype="float32")
        a = R.reshape(R.subtract(R.floor_mod(i, R.const(7, "float32")), R.const(3, "float32")), (256, 256))
        b = R.reshape(R.subtract(R.floor_mod(i, R.const(5, "float32")), R.const(2, "float32")), (256, 256))
        c0 = R.matmul(a, b)
        c1 = R.matmul(a, b)
        c2 = R.matmul(a, b)
        c3 = R.matmul(a, b)
        c4 = R.matmul(a, b)
        c5 = R.matmul(a, b)
        c6 = R.matmul(a, b)
        c7 = R.matmul(a, b)
        c8 = R.matmul(a, b)
        c9 = R.matmul(a, b)
        d = R.astype(c9, "float64")
        s = R.sum(R.multiply(d, d))
        return s

    @R.function
    def baseline() -> R.Tensor((), "float64"):
        i = R.arange(0, 65536, 1, dtype="float32")
        a = R.reshape(R.subtract(R.floor_mod(i, R.const(7, "float32")), R.const(3, "float32")), (256, 256))
        b = R.reshape(R.subtract(R.floor_mod(i, R.const(5, "float32")), R.const(2, "float32")), (256, 256))
        d = R.astype(a, "float64")
        s = R.sum(R.multiply(d, d))
        return s
