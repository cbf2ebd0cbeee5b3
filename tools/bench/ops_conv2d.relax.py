# R.nn.conv2d, NCHW: data 1x16x32x32, weight 16x16x3x3, padding 1, small integers (data =
# (0, 1, ...) mod 5 - 2 and weight = (0, 1, ...) mod 3 - 1, row-major) built in the program,
# so the result is exact in float32. Entry `main` convolves ten times, keeping the ten
# results (one is too short to time against process start-up); entry `baseline` only builds
# the inputs. Both return the float64 sum of squares of a 1x16x32x32 tensor (the last
# result, or the data).
# Run: relax run ops_conv2d.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float64"):
        i = R.arange(0, 16384, 1, dtype="float32")
        x = R.reshape(R.subtract(R.floor_mod(i, R.const(5, "float32")), R.const(2, "float32")), (1, 16, 32, 32))
        j = R.arange(0, 2304, 1, dtype="float32")
        w = R.reshape(R.subtract(R.floor_mod(j, R.const(3, "float32")), R.const(1, "float32")), (16, 16, 3, 3))
        y0 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y1 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y2 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y3 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y4 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y5 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y6 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y7 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y8 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        y9 = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
        d = R.astype(y9, "float64")
        s = R.sum(R.multiply(d, d))
        return s

    @R.function
    def baseline() -> R.Tensor((), "float64"):
        i = R.arange(0, 16384, 1, dtype="float32")
        x = R.reshape(R.subtract(R.floor_mod(i, R.const(5, "float32")), R.const(2, "float32")), (1, 16, 32, 32))
        j = R.arange(0, 2304, 1, dtype="float32")
        w = R.reshape(R.subtract(R.floor_mod(j, R.const(3, "float32")), R.const(1, "float32")), (16, 16, 3, 3))
        d = R.astype(x, "float64")
        s = R.sum(R.multiply(d, d))
        return s
