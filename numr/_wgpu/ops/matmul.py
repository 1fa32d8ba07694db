"""wgpu matmul and fused matmul_bias: tiled through workgroup memory, batched with
broadcast batch dims, strided (transposed) operands read in place. semiring_matmul runs the
same tiled skeleton with semiring.wgsl's fold (float32/int32/uint32, bool or_and as the bool
matmul; float16/bfloat16 through float32; other dtypes the generic composite)."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError, UnsupportedOperation
from ...layout import coalesce
from ...ops import prepare
from ...ops.generic import matmul as generic_matmul
from ...ops.generic.matmul import SEMIRINGS, semiring_plan
from ...shapes import numel
from ...tensor import Tensor
from .. import launch
from .. import template as tpl
from ..device import MAXD, ParamSpec, window
from .reduce import _reduce

FILE = "matmul.wgsl"
SR_FILE = "semiring.wgsl"
#: dtypes semiring.wgsl computes in (its hi/lo sections); bool's or_and is the bool matmul
SR_NATIVE = frozenset((dt.float32, dt.int32, dt.uint32))
FIELDS = [("m", "i32"), ("n", "i32"), ("k", "i32"), ("bdim", "i32"), ("aoff", "i32"), ("boff", "i32"),
          ("coff", "i32"), ("qoff", "i32"), ("rsa", "i32"), ("csa", "i32"), ("rsb", "i32"), ("csb", "i32"),
          ("rsc", "i32"), ("csc", "i32"), ("rsq", "i32"), ("csq", "i32"), ("bshape", "ivec"), ("abs", "ivec"),
          ("bbs", "ivec"), ("cbs", "ivec"), ("qbs", "ivec")]


def _operands(client: Any, op: str, a: Any, b: Any):
    a = prepare.to_operand(op, client, a)
    b = prepare.to_operand(op, client, b)
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise DTypeError(f"{op}: both operands must be tensors, not Python scalars")
    batch, m, k, n, out_shape = prepare.matmul_shapes(op, a.shape, b.shape)
    d = prepare.promoted(op, [a, b])
    if d.is_complex:
        raise DTypeError(f"{op}: dtype {d} is not supported on wgpu")
    a = a if a.dtype is d else client.cast(a, d)
    b = b if b.dtype is d else client.cast(b, d)
    return a, b, batch, m, k, n, out_shape, d


def _run(client: Any, a: Tensor, b: Tensor, bias: Tensor | None, batch, m, k, n, d, sr: str | None = None) -> Tensor:
    a2 = a.unsqueeze(0) if a.ndim == 1 else a
    b2 = b.unsqueeze(-1) if b.ndim == 1 else b
    shape = batch + (m, n)
    size = numel(shape)
    if size == 0 or k == 0:
        out = client.empty(shape, d)
        if size == 0:
            return out
        ident = 0 if sr is None else generic_matmul.identity(sr, d)
        return client.fill_(out, ident) if bias is None else client.copy_(out, bias)
    A = a2.broadcast_to(batch + (m, k))
    B = b2.broadcast_to(batch + (k, n))
    Q = bias.broadcast_to(shape) if bias is not None else None
    if sr is None and (m == 1 or n == 1) and k >= THIN_K and size * k <= THIN_MAX:
        return _thin(client, A, B, Q, m, n, d)  # allocates its own result
    out = client.empty(shape, d)
    _piece(client, out, A, B, Q, d, sr)
    return out


#: vector-shaped products (m == 1 or n == 1) with k at least THIN_K, and at most THIN_MAX
#: products in all, run as an element-wise multiply and a reduction over k: the tiled kernel
#: would fill 1/64 of its 64x64 tile and run k serially in one workgroup (a dot of 70001 took
#: 892 ms on lavapipe); the reduction spreads k over threads in passes (loop-budget safe).
THIN_K = 1024
THIN_MAX = 1 << 24


def _thin(client: Any, A: Tensor, B: Tensor, Q: Tensor | None, m: int, n: int, d: Any) -> Tensor:
    """A @ B (+ Q) for m == 1 or n == 1: products laid out with k last (n == 1) or next to last
    (m == 1), summed over k (bool: any of the ands) in d; float16/bfloat16 multiply in float32
    as the tiled kernel does, and round once."""
    launch.kind(client, d, "matmul")  # UnsupportedDType names matmul, not mul
    if n == 1:
        a, b, axis = A, B.transpose(-1, -2), -1  # (.., m, k) * (.., 1, k)
    else:
        a, b, axis = A.transpose(-1, -2), B, -2  # (.., k, 1) * (.., k, n)
    if d.kind == "b":
        r = _reduce(client, "any", client.logical_and(a, b), axis, True)
    else:
        wide = d.kind == "f" and d.itemsize < 4
        if wide:
            a, b = client.cast(a, dt.float32), client.cast(b, dt.float32)
        r = _reduce(client, "sum", client.mul(a, b), axis, True, lambda _x: d)
    if Q is not None:
        r = client.logical_or(r, Q) if d.kind == "b" else client.add(r, Q)
    return r.reshape(A.shape[:-2] + (m, n))


#: loop iterations one matmul invocation spends per 16-wide step of k (lavapipe, every dtype:
#: the k0 loop plus the 16 of kk; the 4-trip loops are unrolled). (1, k) @ (k, 1) of ones gave
#: 58252 for any k >= 58253 on main: 3640 steps * 18 + 12 of the 3641st = 65535.
K_STEP_COST = 18
#: the rest of one invocation's loops: 3 batch walks (<= 8 dims each), the zeroing, the
#: epilogue's 16 stores with the bias's batch walk each (16 * 8), with room to spare
K_RESERVE = 256


def k_limit(gpu: Any) -> int | None:
    """The longest k one dispatch may run within the adapter's loop budget (None: any):
    (budget - K_RESERVE) // K_STEP_COST steps of 16; longer k is split through the bias epilogue."""
    room = gpu.loop_room(K_RESERVE)
    return None if room is None else max(16, room // K_STEP_COST * 16)


def _fits(gpu: Any, t: Tensor | None) -> bool:
    if t is None:
        return True
    lo, hi = t._layout.extent()
    return (hi - lo) * t.dtype.itemsize <= gpu.max_binding - gpu.offset_align


def _half(t: Tensor | None, dim: int, first: bool) -> Tensor | None:
    """The first or second half of t along dim (a view)."""
    if t is None:
        return None
    h = t.shape[dim] // 2
    return t.narrow(dim, 0, h) if first else t.narrow(dim, h, t.shape[dim] - h)


def _piece(client: Any, out: Tensor, A: Tensor, B: Tensor, Q: Tensor | None, d: Any, sr: str | None = None) -> None:
    """out = A @ B (+ Q) over broadcast batch dims, split until every operand fits one storage
    binding, the batch one dispatch and k the loop budget (k_limit): batch dims first, then the
    operand's largest-stride dim (m, n, or k: the second half of k adds the first's result
    through the bias epilogue)."""
    gpu = client.gpu
    nb = out.ndim - 2
    nbatch = 1
    for s in out.shape[:nb]:
        nbatch *= s
    big = [t for t in (out, A, B, Q) if not _fits(gpu, t)]
    kmax = k_limit(gpu)
    if not big and nbatch <= 65535:
        if kmax is None or A.shape[-1] <= kmax:
            _launch(client, out, A, B, Q, d, sr)
        else:  # k past the loop budget: the second half adds the first half's result as its bias
            _ksplit(client, out, A, B, Q, d, sr)
        return
    for j in range(nb):  # a batch dim along which some problem operand moves
        if out.shape[j] > 1 and (not big or any(t.strides[j] != 0 for t in big)):
            for first in (True, False):
                _piece(client, _half(out, j, first), _half(A, j, first), _half(B, j, first), _half(Q, j, first), d, sr)
            return
    t = big[0]
    m, k, n = A.shape[-2], A.shape[-1], B.shape[-1]
    if t is A:
        dim = "m" if (abs(A.strides[-2]) >= abs(A.strides[-1]) and m > 1) or k <= 1 else "k"
    elif t is B:
        dim = "k" if (abs(B.strides[-2]) >= abs(B.strides[-1]) and k > 1) or n <= 1 else "n"
    else:
        dim = "m" if (abs(t.strides[-2]) >= abs(t.strides[-1]) and m > 1) or n <= 1 else "n"
    if dim == "m":
        for f in (True, False):
            _piece(client, _half(out, -2, f), _half(A, -2, f), B, _half(Q, -2, f), d, sr)
    elif dim == "n":
        for f in (True, False):
            _piece(client, _half(out, -1, f), A, _half(B, -1, f), _half(Q, -1, f), d, sr)
    else:
        _ksplit(client, out, A, B, Q, d, sr)


def _ksplit(client: Any, out: Tensor, A: Tensor, B: Tensor, Q: Tensor | None, d: Any, sr: str | None) -> None:
    """out = A @ B (+ Q) as two halves of k: the second folds the first's result in its epilogue."""
    part = client.empty(out.shape, d)
    _piece(client, part, _half(A, -1, True), _half(B, -2, True), Q, d, sr)
    _piece(client, out, _half(A, -1, False), _half(B, -2, False), part, d, sr)


def _launch(client: Any, out: Tensor, A: Tensor, B: Tensor, Q: Tensor | None, d: Any, sr: str | None = None) -> None:
    """One tiled dispatch: every operand within one binding."""
    gpu = client.gpu
    nb = out.ndim - 2
    m, k, n = A.shape[-2], A.shape[-1], B.shape[-1]
    ops = [A.strides[:nb], B.strides[:nb], out.strides[:nb]] + ([Q.strides[:nb]] if Q is not None else [])
    bshape, bst = coalesce(out.shape[:nb], *ops)
    nbatch = 1
    for s in bshape:
        nbatch *= s
    if len(bshape) > MAXD:
        raise UnsupportedOperation("wgpu", "matmul", reason=f"batch shape {out.shape[:nb]} too large")
    kind = launch.kind(client, d, "matmul")
    acc = tpl.KINDS[{"f32": "float32", "f64": "float64", "i32": "int32", "u32": "uint32", "i64": "int64",
                     "u64": "uint64"}[kind.ct]]
    fused = Q is not None

    def build():
        spec = ParamSpec(FIELDS)
        operands = [("o", kind, True), ("a", kind, False), ("b", kind, False)] + ([("c", kind, False)] if fused else [])
        subs = {"ZERO": "ACC(0)", "KMAX": "16"}
        if sr is None:
            parts = [tpl.find(FILE, "mac", kind.cls)]
            epi = tpl.find(FILE, "bias", kind.cls) if fused else ""
        else:  # the semiring's fold on the same skeleton (semiring.wgsl)
            parts = [tpl.find(SR_FILE, n, kind.cls) for n in ("helpers", sr)]
            red = SEMIRINGS[sr][0]
            epi = tpl.find(SR_FILE, f"fold_{red}", kind.cls) if fused else ""
            ident = "ACC(0)" if red == "sum" else tpl.find(SR_FILE, "hi" if red == "min" else "lo", kind.cls).strip()
            subs = {"ZERO": ident, "KMAX": "min(16, P.k - k0)"}
        if kind.cls == "b":
            epi += "v = select(0u, 1u, v != 0u);"
        src = tpl.build((FILE, "main"), parts, operands, {"ACC": acc.ct, "TO": kind.ct}, spec.wgsl,
                        {"EPILOGUE": epi, **subs})
        return src, spec

    pipe, spec = gpu.pipeline(("matmul", kind.name, fused) + ((sr,) if sr else ()), build)
    binds, offs = [], []
    for t in [out, A, B] + ([Q] if fused else []):
        lo, hi = t._layout.extent()
        bnd, base = window(t._storage, lo, hi, t.dtype.itemsize, gpu.offset_align)
        binds.append(bnd)
        offs.append(t._layout.offset - base)
    p = {"m": m, "n": n, "k": k, "bdim": len(bshape), "coff": offs[0], "aoff": offs[1], "boff": offs[2],
         "rsa": A.strides[-2], "csa": A.strides[-1], "rsb": B.strides[-2], "csb": B.strides[-1],
         "rsc": out.strides[-2], "csc": out.strides[-1], "bshape": list(bshape), "abs": list(bst[0]),
         "bbs": list(bst[1]), "cbs": list(bst[2])}
    if fused:
        p.update(qoff=offs[3], rsq=Q.strides[-2], csq=Q.strides[-1], qbs=list(bst[3]))
    gpu.run([(pipe, spec, p, binds, (-(-n // 64), -(-m // 64), nbatch))])


class MatmulWgpu:
    """Mixin of WgpuClient: matmul and matmul_bias."""

    def matmul(self, a: Tensor, b: Tensor) -> Tensor:
        """NumPy's matmul: 1-d operands gain a dim that is dropped again; batch dims broadcast."""
        a, b, batch, m, k, n, out_shape, d = _operands(self, "matmul", a, b)
        return _run(self, a, b, None, batch, m, k, n, d).reshape(out_shape)

    def matmul_bias(self, a: Tensor, b: Tensor, bias: Tensor) -> Tensor:
        """a @ b + bias with the bias added in the kernel's epilogue (same dtype, 2-d+ results)."""
        a2, b2, batch, m, k, n, out_shape, d = _operands(self, "matmul_bias", a, b)
        bias = prepare.to_operand("matmul_bias", self, bias)
        if (not isinstance(bias, Tensor) or bias.dtype is not d or a2.ndim < 2 or b2.ndim < 2):
            return generic_matmul.matmul_bias(self, a, b, bias)
        try:
            bias.broadcast_to(batch + (m, n))
        except ShapeError:
            return generic_matmul.matmul_bias(self, a, b, bias)
        return _run(self, a2, b2, bias, batch, m, k, n, d).reshape(out_shape)

    def semiring_matmul(self, a: Tensor, b: Tensor, semiring: str = "min_plus") -> Tensor:
        """reduce_k combine(a[..., i, k], b[..., k, j]) on the tiled matmul skeleton."""
        batch, m, k, n, out_shape, d, cd = semiring_plan(a, b, semiring)
        if type(a) is not Tensor or type(b) is not Tensor or (cd not in SR_NATIVE and semiring != "or_and"):
            return generic_matmul.semiring_matmul_any(a, b, semiring)
        a, b = (x if x.dtype is cd else self.cast(x, cd) for x in (a, b))
        out = _run(self, a, b, None, batch, m, k, n, cd, None if semiring == "or_and" else semiring)
        return (out if cd is d else self.cast(out, d)).reshape(out_shape)
