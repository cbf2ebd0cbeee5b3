# R.add of two float32 tensors of 10^7 elements: a = 0, 1, 2, ... and b = 0.5, 0.5, ..., both
# built in the program. Entry `main` adds them ten times, keeping the ten results (one run of a
# single add is too short to time against process start-up); entry `baseline` only builds
# the inputs. Both return the float64 sum of a 10^7-element tensor (the last result, or a),
# so their difference is ten adds.
# Run: relax run ops_add.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((), "float64"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        b = R.full((10000000,), R.const(0.5, "float32"))
        c0 = R.add(a, b)
        c1 = R.add(a, b)
        c2 = R.add(a, b)
        c3 = R.add(a, b)
        c4 = R.add(a, b)
        c5 = R.add(a, b)
        c6 = R.add(a, b)
        c7 = R.add(a, b)
        c8 = R.add(a, b)
        c9 = R.add(a, b)
        s = R.sum(R.astype(c9, "float64"))
        return s

    @R.function
    def baseline() -> R.Tensor((), "float64"):
        a = R.arange(0, 10000000, 1, dtype="float32")
        b = R.full((10000000,), R.const(0.5, "float32"))
        s = R.sum(R.astype(a, "float64"))
        return s
