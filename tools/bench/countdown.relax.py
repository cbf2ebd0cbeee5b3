# A 10^5-step tail-recursive loop carrying a tensor: each step adds one to a float32[4].
# Run: relax run countdown.relax.py --max-depth 1000000 \
#        --arg '{tensor: {dtype: int64, shape: [], data: 100000}}' \
#        --arg '{tensor: {dtype: float32, shape: [4], data: [0, 0, 0, 0]}}'
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def subtract(a: T.Buffer((), "int64"), b: T.Buffer((), "int64"), c: T.Buffer((), "int64")):
        c[()] = a[()] - b[()]

    @T.prim_func
    def less(a: T.Buffer((), "int64"), b: T.Buffer((), "int64"), c: T.Buffer((), "bool")):
        c[()] = a[()] < b[()]

    @T.prim_func
    def add_one(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        for i in range(4):
            b[i] = a[i] + T.float32(1)

    @R.function
    def loop(i: R.Tensor((), "int64"), acc: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        one = R.const(1, "int64")
        done = R.call_tir(cls.less, (i, one), out_sinfo=R.Tensor((), "bool"))
        if done:
            r = acc
        else:
            i1 = R.call_tir(cls.subtract, (i, one), out_sinfo=R.Tensor((), "int64"))
            acc1 = R.call_tir(cls.add_one, (acc,), out_sinfo=R.Tensor((4,), "float32"))
            r = cls.loop(i1, acc1)
        return r

    @R.function
    def main(n: R.Tensor((), "int64"), acc: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        return cls.loop(n, acc)
