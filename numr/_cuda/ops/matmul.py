"""CUDA matmul and fused matmul_bias (kernels/matmul.cu); NumPy's matmul shape rules.

float16/bfloat16 use tensor cores (mma.sync, float32 accumulation) on sm_80+; float32/float64
large products the 128x128 SIMT kernel; every other dtype (ints exact with wrap-around, bool,
complex, float8 via float32) the 64x64 tiled kernel. No cuBLAS. semiring_matmul and scaled_mm: kernels/matmul_extra.cu
(64x64 shared-memory tiles): semirings for float32/float64/int32/int64/uint32/uint64/bool (low-precision
floats through float32, narrow integers by the generic composite); scaled_mm reads float8 directly,
accumulates float32 and applies the scales and bias in its epilogue (mixed float8 kinds: the composite).
"""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...layout import coalesce
from ...ops import prepare
from ...ops.generic.matmul import scaled_mm_any, scaled_mm_plan, semiring_matmul_any, semiring_plan
from ...tensor import Tensor
from ..launch import i64, ptr, shp, strs


def _run(client: Any, a: Any, b: Any, bias: Any, op: str) -> Tensor:
    ops = [prepare.to_operand(op, client, x) for x in ((a, b) if bias is None else (a, b, bias))]
    a, b = ops[0], ops[1]
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        from ...errors import ShapeError
        raise ShapeError(f"{op}: operands must be tensors with at least 1 dim, got {type(a).__name__} and "
                         f"{type(b).__name__}")
    d = prepare.promoted(op, ops)
    batch, m, k, n, out_shape = prepare.matmul_shapes(op, a.shape, b.shape)
    a = a if a.dtype is d else client.cast(a, d)
    b = b if b.dtype is d else client.cast(b, d)
    a2 = (a.unsqueeze(0) if a.ndim == 1 else a).broadcast_to(batch + (m, k))
    b2 = (b.unsqueeze(-1) if b.ndim == 1 else b).broadcast_to(batch + (k, n))
    out = client.empty(batch + (m, n), d)
    c2 = None
    if bias is not None:
        bt = prepare.materialize(client, ops[2], d, out_shape)
        c2 = bt.reshape(batch + (m, n))
    if out.size:
        _launch(client, d, out, a2, b2, c2, batch, m, n, k)
    return out.reshape(out_shape)


def _launch(client: Any, d: dt.DType, out: Tensor, a: Tensor, b: Tensor, c: Tensor | None,
            batch: tuple[int, ...], m: int, n: int, k: int) -> None:
    st = client._st
    nb = len(batch)
    c_strides = c.strides[:nb] if c is not None else (0,) * nb
    bshape, (bsa, bsb, bsc) = coalesce(batch, a.strides[:nb], b.strides[:nb], c_strides)
    nbatch = 1
    for s in batch:
        nbatch *= s
    if not bshape:
        bshape, bsa, bsb, bsc = (1,), (0,), (0,), (0,)
    sam, sak = a.strides[-2:]
    sbk, sbn = b.strides[-2:]
    scm, scn = c.strides[-2:] if c is not None else (0, 0)
    if d in (dt.float16, dt.bfloat16) and st.cc >= (8, 0):
        name, tile = "mm_tc", 128
    elif d in (dt.float32, dt.float64) and m * n >= 256 * 256:
        name, tile = "mm_big", 128
    else:
        name, tile = "mm", 64
    grid = ((n + tile - 1) // tile, (m + tile - 1) // tile, min(nbatch, 65535))
    args = [ptr(out), ptr(a), ptr(b), ptr(c), shp(bshape), strs(bsa), strs(bsb), strs(bsc), i64(m), i64(n), i64(k),
            i64(sam), i64(sak), i64(sbk), i64(sbn), i64(scm), i64(scn), i64(nbatch)]
    st.run("matmul", d.code, f"{name}_{d.name}", grid, 256, args)


_SR_NATIVE = frozenset((dt.float32, dt.float64, dt.int32, dt.int64, dt.uint32, dt.uint64, dt.bool_))


def _semiring(client: Any, a: Any, b: Any, semiring: str) -> Tensor:
    batch, m, k, n, out_shape, d, cd = semiring_plan(a, b, semiring)
    if cd not in _SR_NATIVE or type(a) is not Tensor or type(b) is not Tensor:
        return semiring_matmul_any(a, b, semiring)
    a = a if a.dtype is cd else client.cast(a, cd)
    b = b if b.dtype is cd else client.cast(b, cd)
    a2 = (a.unsqueeze(0) if a.ndim == 1 else a).broadcast_to(batch + (m, k))
    b2 = (b.unsqueeze(-1) if b.ndim == 1 else b).broadcast_to(batch + (k, n))
    out = client.empty(batch + (m, n), cd)
    if out.size:
        nb = len(batch)
        bshape, (bsa, bsb, bsc) = coalesce(batch, a2.strides[:nb], b2.strides[:nb], out.strides[:nb])
        nbatch = 1
        for s in batch:
            nbatch *= s
        if not bshape:
            bshape, bsa, bsb, bsc = (1,), (0,), (0,), (0,)
        grid = ((n + 63) // 64, (m + 63) // 64, min(nbatch, 65535))
        args = [ptr(out), ptr(a2), ptr(b2), shp(bshape), strs(bsa), strs(bsb), strs(bsc), i64(m), i64(n), i64(k),
                *(i64(x) for x in a2.strides[-2:] + b2.strides[-2:]), i64(nbatch)]
        client._st.run("matmul_extra", cd.code, f"sr_{semiring}_{cd.name}", grid, 256, args)
    if cd is not d:
        out = client.cast(out, d)
    return out.reshape(out_shape)


def _scale(client: Any, s: Any, axis: int) -> tuple[Any, int]:
    """A float32 scale on the device and its stride along the row (axis 0) or column (axis 1)."""
    if not isinstance(s, Tensor):
        return client.full((1,), float(s), dt.float32), 0
    return (s.reshape(1), 0) if s.size == 1 else (s, s.strides[axis])


def _scaled_mm(client: Any, a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any, out_dtype: Any) -> Tensor:
    od = scaled_mm_plan(a, b, scale_a, scale_b, bias, out_dtype)
    if type(a) is not Tensor or type(b) is not Tensor or a.dtype is not b.dtype:
        return scaled_mm_any(a, b, scale_a, scale_b, bias, od)
    (m, k), n = a.shape, b.shape[1]
    (sa, ssa), (sb, ssb) = _scale(client, scale_a, 0), _scale(client, scale_b, 1)
    q = None
    if bias is not None:
        q = (bias if bias.dtype is dt.float32 else client.cast(bias, dt.float32)).broadcast_to((m, n))
    out = client.empty((m, n), dt.float32)
    if out.size:
        args = [ptr(out), ptr(a), ptr(b), ptr(sa), i64(ssa), ptr(sb), i64(ssb), ptr(q),
                *(i64(x) for x in (q.strides if q is not None else (0, 0)) + (m, n, k) + a.strides + b.strides)]
        client._st.run("matmul_extra", a.dtype.code, f"scaled_mm_{a.dtype.name}", ((n + 63) // 64, (m + 63) // 64, 1),
                       256, args)
    return out if od is dt.float32 else client.cast(out, od)


class MatmulCuda:
    """Mixin of CudaClient: matmul and the fused matmul_bias."""

    def matmul(self, a: Any, b: Any) -> Tensor:
        return _run(self, a, b, None, "matmul")

    def matmul_bias(self, a: Any, b: Any, bias: Any) -> Tensor:
        """a @ b + bias with the bias added in the matmul's epilogue (one pass)."""
        return _run(self, a, b, bias, "matmul_bias")

    def semiring_matmul(self, a: Any, b: Any, semiring: str = "min_plus") -> Tensor:
        """reduce_k combine(a[..., i, k], b[..., k, j]) by the tiled kernel (kernels/matmul_extra.cu)."""
        return _semiring(self, a, b, semiring)

    def scaled_mm(self, a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any = None,
                  out_dtype: Any = "float32") -> Tensor:
        """torch._scaled_mm by the float8 kernel (float32 accumulation, scales and bias fused)."""
        return _scaled_mm(self, a, b, scale_a, scale_b, bias, out_dtype)
