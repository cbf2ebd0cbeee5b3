# A pre-norm transformer encoder block at a realistic size, in Relax: sequence 128, hidden
# 256, 4 heads of 64, feed-forward 1024 (layer_norm, q/k/v projections, heads by reshape and
# permute_dims, scaled scores, softmax, the weighted values, the output projection and the
# residual, then layer_norm, a gelu_tanh feed-forward and the second residual). Entry `main`
# runs the block four times over its own output (a four-layer model sharing one set of
# weights); entry `baseline` only builds the input and the weights. Weights are small
# patterns built in the program, the same as transformer_numpy.py builds. Both return the
# float64 sum of squares of the last activation (or of the input).
# Run: relax run transformer.relax.py [--entry baseline]
from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def block(x: R.Tensor((128, 256), "float32"), g: R.Tensor((256,), "float32"), b: R.Tensor((256,), "float32"),
              wqkv: R.Tensor((256, 768), "float32"), wo: R.Tensor((256, 256), "float32"),
              w1: R.Tensor((256, 1024), "float32"), w2: R.Tensor((1024, 256), "float32")) -> R.Tensor((128, 256), "float32"):
        h = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-05)
        qkv = R.matmul(h, wqkv)
        heads = R.permute_dims(R.reshape(qkv, (128, 3, 4, 64)), axes=[1, 2, 0, 3])
        q = R.squeeze(R.strided_slice(heads, axes=[0], begin=[0], end=[1]), axis=[0])
        k = R.squeeze(R.strided_slice(heads, axes=[0], begin=[1], end=[2]), axis=[0])
        v = R.squeeze(R.strided_slice(heads, axes=[0], begin=[2], end=[3]), axis=[0])
        scores = R.multiply(R.matmul(q, R.permute_dims(k, axes=[0, 2, 1])), R.const(0.125, "float32"))
        p = R.nn.softmax(scores, axis=-1)
        att = R.reshape(R.permute_dims(R.matmul(p, v), axes=[1, 0, 2]), (128, 256))
        x1 = R.add(x, R.matmul(att, wo))
        h2 = R.nn.layer_norm(x1, g, b, axes=[-1], epsilon=1e-05)
        f = R.matmul(R.nn.gelu_tanh(R.matmul(h2, w1)), w2)
        return R.add(x1, f)

    @R.function
    def weights():
        x = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 32768, 1, dtype="float32"), R.const(7, "float32")), R.const(3, "float32")), R.const(0.25, "float32")), (128, 256))
        g = R.add(R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 256, 1, dtype="float32"), R.const(5, "float32")), R.const(3, "float32")), R.const(0.0625, "float32")), (256,)), R.const(1, "float32"))
        b = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 256, 1, dtype="float32"), R.const(3, "float32")), R.const(3, "float32")), R.const(0.03125, "float32")), (256,))
        wqkv = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 196608, 1, dtype="float32"), R.const(11, "float32")), R.const(3, "float32")), R.const(0.015625, "float32")), (256, 768))
        wo = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 65536, 1, dtype="float32"), R.const(13, "float32")), R.const(3, "float32")), R.const(0.0078125, "float32")), (256, 256))
        w1 = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 262144, 1, dtype="float32"), R.const(9, "float32")), R.const(3, "float32")), R.const(0.015625, "float32")), (256, 1024))
        w2 = R.reshape(R.multiply(R.subtract(R.floor_mod(R.arange(0, 262144, 1, dtype="float32"), R.const(7, "float32")), R.const(3, "float32")), R.const(0.0078125, "float32")), (1024, 256))
        return (x, g, b, wqkv, wo, w1, w2)

    @R.function
    def main() -> R.Tensor((), "float64"):
        cls = Module
        w = cls.weights()
        y1 = cls.block(w[0], w[1], w[2], w[3], w[4], w[5], w[6])
        y2 = cls.block(y1, w[1], w[2], w[3], w[4], w[5], w[6])
        y3 = cls.block(y2, w[1], w[2], w[3], w[4], w[5], w[6])
        y4 = cls.block(y3, w[1], w[2], w[3], w[4], w[5], w[6])
        d = R.astype(y4, "float64")
        return R.sum(R.multiply(d, d))

    @R.function
    def baseline() -> R.Tensor((), "float64"):
        cls = Module
        w = cls.weights()
        d = R.astype(w[0], "float64")
        return R.sum(R.multiply(d, d))
