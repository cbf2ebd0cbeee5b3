# Recursive Fibonacci on rank-0 int64 tensors; the arithmetic is call_tir into small PrimFuncs.
# Run: relax run fib.relax.py --arg '{tensor: {dtype: int64, shape: [], data: 22}}'
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.Buffer((), "int64"), b: T.Buffer((), "int64"), c: T.Buffer((), "int64")):
        c[()] = a[()] + b[()]

    @T.prim_func
    def subtract(a: T.Buffer((), "int64"), b: T.Buffer((), "int64"), c: T.Buffer((), "int64")):
        c[()] = a[()] - b[()]

    @T.prim_func
    def less(a: T.Buffer((), "int64"), b: T.Buffer((), "int64"), c: T.Buffer((), "bool")):
        c[()] = a[()] < b[()]

    @R.function
    def fib(n: R.Tensor((), "int64")) -> R.Tensor((), "int64"):
        cls = Module
        two = R.const(2, "int64")
        small = R.call_tir(cls.less, (n, two), out_sinfo=R.Tensor((), "bool"))
        if small:
            r = n
        else:
            one = R.const(1, "int64")
            n1 = R.call_tir(cls.subtract, (n, one), out_sinfo=R.Tensor((), "int64"))
            n2 = R.call_tir(cls.subtract, (n, two), out_sinfo=R.Tensor((), "int64"))
            f1 = cls.fib(n1)
            f2 = cls.fib(n2)
            r = R.call_tir(cls.add, (f1, f2), out_sinfo=R.Tensor((), "int64"))
        return r

    @R.function
    def main(n: R.Tensor((), "int64")) -> R.Tensor((), "int64"):
        cls = Module
        return cls.fib(n)
