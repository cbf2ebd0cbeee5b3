# R.nn.softmax over the last axis of a 1000x1000 float32 tensor, x = ((0, 1, ...) mod 17) / 4
# row-major, built in the program. Entry `main` applies softmax ten times, keeping the ten
# results (one is too short to time against process start-up); entry `baseline` only builds
# the input. Both return the float64 sum of squares of a 1000x1000 tensor (the last result,
# or x): a plain sum of a softmax is just the row count.
# Run: relax run ops_softmax.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float64"):
        i = R.arange(0, 1000000, 1, dtype="float32")
        x = R.reshape(R.multiply(R.floor_mod(i, R.const(17, "float32")), R.const(0.25, "float32")), (1000, 1000))
        y0 = R.nn.softmax(x, axis=-1)
        y1 = R.nn.softmax(x, axis=-1)
        y2 = R.nn.softmax(x, axis=-1)
        y3 = R.nn.softmax(x, axis=-1)
        y4 = R.nn.softmax(x, axis=-1)
        y5 = R.nn.softmax(x, axis=-1)
        y6 = R.nn.softmax(x, axis=-1)
        y7 = R.nn.softmax(x, axis=-1)
        y8 = R.nn.softmax(x, axis=-1)
        y9 = R.nn.softmax(x, axis=-1)
        d = R.astype(y9, "float64")
        s = R.sum(R.multiply(d, d))
        return s

    @R.function
    def baseline() -> R.Tensor((), "float64"):
        i = R.arange(0, 1000000, 1, dtype="float32")
        x = R.reshape(R.multiply(R.floor_mod(i, R.const(17, "float32")), R.const(0.25, "float32")), (1000, 1000))
        d = R.astype(x, "float64")
        s = R.sum(R.multiply(d, d))
        return s
