"""spectest_funcs: the corpus's spectest.* packed functions (spec-tests/README.md, "Packed
functions every implementation provides"), registered in TVM's global function registry so
that corpus programs calling them run on TVM's Relax VM."""
import os


def render(v, np):
    """A value's rendering as R.print writes it: tensors numpy-style, shapes and tuples in
    parentheses, strings as they are."""
    if hasattr(v, "numpy"):
        arr = v.numpy()
        if arr.ndim == 0:
            return str(arr.item())
        return np.array2string(arr, separator=" ")
    if isinstance(v, str):
        return v
    if type(v).__name__ == "ShapeTuple" or isinstance(v, (list, tuple)) or \
            type(v).__name__ == "Array":
        items = [render(x, np) for x in v]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return str(v)


def register(tvm, np):
    counter = {"n": 0}
    reg = tvm.register_global_func

    def sp_print(*args):
        os.write(1, (" ".join(render(a, np) for a in args) + "\n").encode())
        return []

    def identity(v):
        return v

    def copy(t):
        return tvm.runtime.tensor(t.numpy().copy())

    def add(a, b):
        x = a.numpy()
        if x.dtype != b.numpy().dtype:
            raise ValueError("dtypes differ")
        return tvm.runtime.tensor((x + b.numpy()).astype(x.dtype))

    def add_one_inplace(t):
        x = t.numpy()
        t.copyfrom((x + 1).astype(x.dtype))
        return []

    def count():
        n = counter["n"]
        counter["n"] = n + 1
        return n

    def fail(msg=""):
        raise RuntimeError(str(msg))

    def make_object():
        # A Map is none of tensor, tuple, shape, PrimValue, string or closure.
        return tvm.runtime.convert({"spectest": "object"})

    def dps_add(a, b, out):
        x = a.numpy()
        if x.dtype != b.numpy().dtype:
            raise ValueError("dtypes differ")
        out.copyfrom((x + b.numpy()).astype(x.dtype))

    def dps_tile2(a, out):
        x = a.numpy()
        out.copyfrom(np.concatenate([x, x], axis=-1))

    def checked(name, f):
        """Any failure inside a spectest function is that function's error (PackedFuncError):
        arity, dtypes, shapes that do not broadcast."""
        def call(*args):
            try:
                return f(*args)
            except Exception as e:  # noqa: BLE001
                raise RuntimeError("spectest.%s: %s" % (name, e)) from None
        return call

    for name, f in [("print", sp_print), ("identity", identity), ("copy", copy), ("add", add),
                    ("add_one_inplace", add_one_inplace), ("counter", count), ("fail", fail),
                    ("make_object", make_object), ("dps_add", dps_add),
                    ("dps_tile2", dps_tile2)]:
        reg("spectest." + name, checked(name, f), override=True)
