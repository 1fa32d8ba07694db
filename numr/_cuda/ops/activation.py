"""CUDA activations (kernels/activation.cu): element-wise, fused gated forms and their fused
backward kernels, and row kernels for softmax / log_softmax / softmax_bwd. dropout is one fused
Philox kernel (kernels/random.cu) giving the generic composite's numbers. Every float dtype runs
natively (16-bit and float8 compute in float32); bool/int inputs compute in the default float."""

from __future__ import annotations

from typing import Any

from ...layout import coalesce
from ...ops import prepare
from ...ops import prepare_activation as pa
from ...ops.generic import activation as generic
from ...tensor import Tensor
from ..launch import BLOCK, elementwise_layout, f32, f64, i64, ptr, shp, strs, u64
from ._base import ew, grid


def _launch(client: Any, name: str, kernel: str, operands: list[Any], nout: int, prm: float | None = None):
    """Promote and broadcast ``operands`` to the activation dtype, run ``kernel``, return the outputs."""
    ins, shape, kd, _ = pa.elementwise(name, client, operands)
    outs = [client.empty(shape, kd) for _ in range(nout)]
    if nout == 1:
        ew(client, "activation", kd, kernel, outs[0], ins, [] if prm is None else [f64(prm)])
        return outs
    n = outs[0].size
    if n:
        sh, st = elementwise_layout(shape, *outs, *ins)
        args: list[Any] = []
        for t, s in zip(outs + ins, st, strict=False):
            args += [ptr(t), s]
        client._st.run("activation", kd.code, f"{kernel}_{kd.name}", grid(client, n), BLOCK, [*args, sh, i64(n)])
    return outs


def _lines(x: Tensor, d: int, *others: Tensor):
    """Rows along dim d: (line shape, per-tensor line strides, nlines)."""
    dims = [i for i in range(x.ndim) if i != d and x.shape[i] != 1]
    lshape, lstr = coalesce([x.shape[i] for i in dims], *[[t.strides[i] for i in dims] for t in (x, *others)])
    nlines = 1
    for s in lshape:
        nlines *= s
    if not lshape:
        lshape, lstr = (1,), [(0,) for _ in lstr]
    return lshape, lstr, nlines


def _rows(client: Any, name: str, x: Any, dim: int) -> Tensor:
    x, d, kd, _ = pa.rows(name, client, x, dim)
    zero_d = x.ndim == 0
    if zero_d:
        x = x.reshape(1)
    y = client.empty(x.shape, kd)
    if y.size:
        lshape, (lso, lsx), nlines = _lines(x, d, y)
        lso, lsx = lsx, lso  # _lines lists x first
        client._st.run("activation", kd.code, f"{name}_{kd.name}", min(nlines, 65535 * 4), BLOCK,
                       [ptr(y), ptr(x), shp(lshape), strs(lso), strs(lsx), i64(nlines), i64(x.shape[d]),
                        i64(y.strides[d]), i64(x.strides[d])])
    return y.reshape(()) if zero_d else y


def _make(name: str, kernel: str, nout: int, param: str | None = None, default: float = 0.0):
    if param is None:
        def f(self: Any, x: Any) -> Tensor:
            return _launch(self, name, kernel, [x], 1, 0.0)[0]
    else:
        def f(self: Any, x: Any, p: float = default) -> Tensor:
            return _launch(self, name, kernel, [x], 1, float(p))[0]
    f.__name__ = name
    return f


class ActivationCuda(pa.gated_mixin(_launch)):
    """Mixin of CudaClient: the activation ops."""

    relu = _make("relu", "relu", 1)
    sigmoid = _make("sigmoid", "sigmoid", 1)
    silu = _make("silu", "silu", 1)
    softplus = _make("softplus", "softplus", 1)

    def leaky_relu(self, x: Any, negative_slope: float = 0.01) -> Tensor:
        return _launch(self, "leaky_relu", "leaky_relu", [x], 1, float(negative_slope))[0]

    def elu(self, x: Any, alpha: float = 1.0) -> Tensor:
        return _launch(self, "elu", "elu", [x], 1, float(alpha))[0]

    def gelu(self, x: Any, approximate: str = "none") -> Tensor:
        k = pa.gelu_kernel("gelu", approximate)
        return _launch(self, "gelu", k, [x], 1, 0.0)[0]

    def softmax(self, x: Any, dim: int = -1) -> Tensor:
        return _rows(self, "softmax", x, dim)

    def log_softmax(self, x: Any, dim: int = -1) -> Tensor:
        return _rows(self, "log_softmax", x, dim)

    def softmax_bwd(self, grad: Any, out: Any, dim: int = -1) -> Tensor:
        grad = prepare.to_operand("softmax_bwd", self, grad)
        out = prepare.to_operand("softmax_bwd", self, out)
        if not isinstance(grad, Tensor) or not isinstance(out, Tensor) or grad.shape != out.shape \
                or grad.dtype is not out.dtype or out.dtype.kind != "f":
            return generic.softmax_bwd(self, grad, out, dim)
        d = prepare.single_dim("softmax_bwd", out, dim)
        if out.ndim == 0:
            return self.mul(grad, 0)
        gx = self.empty(out.shape, out.dtype)
        if gx.size:
            lshape, (lso, lsg, lsy), nlines = _lines(gx, d, grad, out)
            self._st.run("activation", out.dtype.code, f"softmax_bwd_{out.dtype.name}", min(nlines, 65535 * 4),
                         BLOCK, [ptr(gx), ptr(grad), ptr(out), shp(lshape), strs(lso), strs(lsg), strs(lsy),
                                 i64(nlines), i64(out.shape[d]), i64(gx.strides[d]), i64(grad.strides[d]),
                                 i64(out.strides[d])])
        return gx

    def dropout(self, x: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> Tensor:
        """The generic composite's numbers (float32 Philox uniforms, u < p drops) in one fused pass."""
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout: p must be in [0, 1], got {p}")
        x = generic._float_input(self, "dropout", x)
        if not training or p == 0.0:
            return x
        if p == 1.0:
            return self.mul(x, 0)
        from ...random import next_stream
        s, stream = next_stream(seed)
        out = self.empty(x.shape, x.dtype)
        ew(self, "random", x.dtype, "dropout", out, [x], [u64(s), u64(stream), f32(p), f64(1.0 / (1.0 - p))])
        return out
