"""CPU implementation of the binary op family (see numr/ops/traits/binary.py).

Every op runs one kernel of numr/_cpu/kernels/binary.pyx (tables in
binary_arith.h). Two paths:

* the fast path: two tensors of this device with the same dtype and shape,
  both dense row-major: no preparation, one contiguous kernel call
  (``a + b`` on small tensors is dominated by this Python code);
* the general path: ``numr.ops.prepare.elementwise`` (promotion, Python
  scalars, broadcasting with stride-0 views), then a strided kernel call on
  coalesced dims. Compare and logical ops (compare.py, logical.py) use it too.
"""

from __future__ import annotations

from typing import Any

from ...dtypes import DType, weak_scalar_dtype
from ...errors import DTypeError, ShapeError, UnsupportedDType
from ...layout import Layout, coalesce, coalesce_in_order, contiguous_strides, result_strides
from ...ops import dtype_rules, prepare, prepare_mathx
from ...shapes import broadcast_shapes
from ...tensor import Tensor
from .. import storage
from ..kernels import binary as _kb

_allocate = storage.allocate

# shape -> (row-major strides, numel), for the fast path's contiguity test
_DENSE: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
# (op code, dtype) -> result dtype, when the op keeps its input dtype (fast path allowed)
_SAME: dict[tuple[int, int], DType] = {}  # keyed by dtype code: DType.__hash__ is Python code


def dense(shape: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """(row-major strides, numel) of ``shape``, cached."""
    r = _DENSE.get(shape)
    if r is None:
        if len(_DENSE) > 4096:
            _DENSE.clear()
        n = 1
        for s in shape:
            n *= s
        r = _DENSE[shape] = (contiguous_strides(shape), n)
    return r


# (shape of a, shape of b) -> how row-major a and b broadcast: (result shape, its row-major
# strides, numel, coalesced shape, coalesced strides of a, b, result); None when they do not
_BROADCAST: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple | None] = {}


def _broadcast_plan(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple | None:
    """The cached broadcast of two row-major shapes for the fast path (None: let the general
    path raise its error or handle the empty result)."""
    try:
        shape = broadcast_shapes(sa, sb)
    except ShapeError:
        return None
    strides, n = dense(shape)
    operand_strides = [Layout(s, dense(s)[0]).expand(shape).strides for s in (sa, sb)]
    cshape, cstrides = coalesce(shape, *operand_strides, strides)
    plan = (shape, strides, n, cshape, cstrides) if n else None
    if len(_BROADCAST) > 4096:
        _BROADCAST.clear()
    _BROADCAST[sa, sb] = plan
    return plan


def _fast_dtype(name: str, code: int, d: DType) -> DType | None:
    """Result dtype of op on two ``d`` tensors when no cast is needed, else None."""
    key = (code, d.code)
    out = _SAME.get(key)
    if out is None:
        try:
            compute, out = dtype_rules.binary_dtypes(name, d)
        except Exception:
            return None
        if compute is not d or not _kb.supported(code, d.code):
            return None
        _SAME[key] = out
    return out


# (shape, operand strides...) -> (result strides, numel, coalesced shape, coalesced strides): the
# layout arithmetic of launch, the same for every call on tensors laid out alike
_LAUNCH: dict[tuple, tuple] = {}


def _launch_plan(shape: tuple[int, ...], operand_strides: list) -> tuple:
    key = (shape, *operand_strides)
    try:
        plan = _LAUNCH.get(key)
    except TypeError:  # a list among the shapes: computed, not cached
        plan, key = None, None
    if plan is None:
        strides = result_strides(shape, operand_strides)
        n = 1
        for s in shape:
            n *= s
        cshape, cstrides = coalesce_in_order(shape, strides, *operand_strides, strides) if n else ((), [])
        plan = (strides, n, cshape, cstrides)
        if key is not None:
            if len(_LAUNCH) > 4096:
                _LAUNCH.clear()
            _LAUNCH[key] = plan
    return plan


def launch(client: Any, name: str, code: int, inputs: list[Tensor], shape: tuple[int, ...],
           compute: DType, out_dtype: DType) -> Tensor:
    """Run kernel ``code`` on same-dtype ``inputs`` already broadcast to ``shape``; the result
    takes the inputs' memory order when they share a permuted dense layout."""
    lays = [t._layout for t in inputs]
    strides, n, cshape, cstrides = _launch_plan(shape, [lay.strides for lay in lays])
    out = Tensor(_allocate(n, out_dtype), Layout(shape, strides, 0), out_dtype, client.device)
    if n == 0:
        if not _kb.supported(code, compute.code):
            raise UnsupportedDType("cpu", name, compute)
        return out
    r = _kb.run(code, compute.code, [t._storage for t in inputs] + [out._storage],
                [lay.offset for lay in lays] + [0], cshape, cstrides)
    if r < 0:
        raise UnsupportedDType("cpu", name, compute)
    return out


def general(client: Any, name: str, code: int, operands: tuple, compute: DType | None = None,
            out_dtype: DType | None = None) -> Tensor:
    """Prepare (promote, materialise scalars, broadcast) and launch."""
    inputs, shape, comp, out = prepare.elementwise(name, client, operands, compute)
    return launch(client, name, code, inputs, shape, comp, out_dtype or out)


# (op code, dtype, scalar type) -> result dtype when tensor-op-scalar needs no cast
_SCALAR_OK: dict[tuple[int, int, type], DType | None] = {}
# (dtype, value) -> 1-element storage holding the value converted to dtype
_SCALARS: dict[tuple, Any] = {}
_WEAK = (bool, int, float, complex)
_MISSING = object()


def _scalar_ok(name: str, code: int, d: DType, cls: type) -> DType | None:
    key = (code, d.code, cls)
    if key not in _SCALAR_OK:
        od = None
        if weak_scalar_dtype(cls(1), d) is d:
            od = _fast_dtype(name, code, d)
        _SCALAR_OK[key] = od
    return _SCALAR_OK[key]


def scalar_storage(op: str, client: Any, v: Any, d: DType) -> Any:
    """``v`` converted to ``d`` (the fill kernel's rules and range errors), as 1-element storage."""
    key = (d.code, v) if v else (d.code, str(v))  # 0.0 and -0.0 are equal keys otherwise
    arr = _SCALARS.get(key)
    if arr is None:
        try:
            arr = client.full((1,), v, d)._storage
        except DTypeError as e:
            raise DTypeError(f"{op}: {str(e).removeprefix('full: ')}") from None
        if v == v:  # NaN never hits the cache
            if len(_SCALARS) > 256:
                _SCALARS.clear()
            _SCALARS[key] = arr
    return arr


def _scalar_call(client: Any, name: str, code: int, t: Tensor, v: Any, tensor_first: bool) -> Tensor | None:
    """tensor op scalar (or scalar op tensor) for a dense tensor whose dtype wins; None otherwise."""
    d = t.dtype
    od = _SCALAR_OK.get((code, d.code, v.__class__), _MISSING)
    if od is _MISSING:
        od = _scalar_ok(name, code, d, v.__class__)
    if od is None or t.device is not client.device:
        return None
    lay = t._layout
    strides, n = _DENSE.get(lay.shape) or dense(lay.shape)
    if lay.strides != strides:
        return None
    out = Tensor(_allocate(n, od), Layout(lay.shape, strides, 0), od, client.device)
    if n and code == _POW and tensor_first and v == 2 and v.__class__ is not bool:
        # x ** 2 is x * x exactly (also for wrapping integers), vectorised instead of pow()
        _kb.contig(_MUL, d.code, t._storage, lay.offset, t._storage, lay.offset, out._storage, n)
    elif n:
        _kb.scalar(code, d.code, t._storage, lay.offset, scalar_storage(name, client, v, d), out._storage, n,
                   tensor_first)
    return out


def make_binary(name: str):
    """A client method for binary op ``name`` with the same-shape dense fast path and
    the dense-tensor-with-Python-scalar fast path."""
    code = _kb.OPS[name]

    def method(self: Any, a: Any, b: Any) -> Tensor:
        ca, cb = a.__class__, b.__class__
        if ca is Tensor:
            if cb is Tensor:  # two tensors: the commonest call
                d = a.dtype
                la = a._layout
                lb = b._layout
                dev = self.device
                if d is b.dtype and a.device is dev and b.device is dev:
                    strides, n = _DENSE.get(la.shape) or dense(la.shape)
                    if la.shape == lb.shape:
                        od = _SAME.get((code, d.code)) or _fast_dtype(name, code, d)
                        if od is not None:
                            if la.strides == strides and lb.strides == strides:
                                out = Tensor(_allocate(n, od), Layout(la.shape, strides, 0), od, dev)
                                if n:
                                    _kb.contig(code, d.code, a._storage, la.offset, b._storage, lb.offset,
                                               out._storage, n)
                                return out
                            # one shape, one dtype, strided (a transposed, sliced or expanded view):
                            # nothing for prepare.elementwise to do, straight to the strided kernel
                            return launch(self, name, code, [a, b], la.shape, d, od)
                    elif la.strides == strides and lb.strides == dense(lb.shape)[0]:
                        plan = _BROADCAST.get((la.shape, lb.shape)) or _broadcast_plan(la.shape, lb.shape)
                        od = plan and (_SAME.get((code, d.code)) or _fast_dtype(name, code, d))
                        if od is not None:  # row-major operands of one dtype, broadcast: no preparation
                            shape, strides, n, cshape, cstrides = plan
                            out = Tensor(_allocate(n, od), Layout(shape, strides, 0), od, dev)
                            _kb.run(code, d.code, [a._storage, b._storage, out._storage],
                                    [la.offset, lb.offset, 0], cshape, cstrides)
                            return out
            elif cb in _WEAK:
                r = _scalar_call(self, name, code, a, b, True)
                if r is not None:
                    return r
        elif cb is Tensor and ca in _WEAK:
            r = _scalar_call(self, name, code, b, a, False)
            if r is not None:
                return r
        return general(self, name, code, (a, b))

    method.__name__ = method.__qualname__ = name
    return method


_FMA = _kb.OPS["fma"]
_POW = _kb.OPS["pow"]
_MUL = _kb.OPS["mul"]
_LDEXP = _kb.OPS["ldexp"]


class BinaryCpu:
    """Mixin of CpuClient: the binary ops (and fma)."""

    add = make_binary("add")
    sub = make_binary("sub")
    mul = make_binary("mul")
    div = make_binary("div")
    floor_divide = make_binary("floor_divide")
    remainder = make_binary("remainder")
    pow = make_binary("pow")
    maximum = make_binary("maximum")
    minimum = make_binary("minimum")
    atan2 = make_binary("atan2")
    hypot = make_binary("hypot")
    bitwise_and = make_binary("bitwise_and")
    bitwise_or = make_binary("bitwise_or")
    bitwise_xor = make_binary("bitwise_xor")

    fmod = make_binary("fmod")
    copysign = make_binary("copysign")
    nextafter = make_binary("nextafter")
    gcd = make_binary("gcd")
    lcm = make_binary("lcm")
    logaddexp = make_binary("logaddexp")  # one vectorised pass (binary_mathx.h) for GenericOps' composite
    logaddexp2 = make_binary("logaddexp2")

    def fma(self, a: Any, b: Any, c: Any) -> Tensor:
        """a * b + c with one rounding for floats (wrapping for integers)."""
        return general(self, "fma", _FMA, (a, b, c))

    def ldexp(self, x: Any, n: Any) -> Tensor:
        """x * 2**n (binary_mathx.h; the exponent converted to the compute float, exact there)."""
        ins, shape, compute, out = prepare_mathx.ldexp(self, x, n)
        r = launch(self, "ldexp", _LDEXP, ins, shape, compute, compute)
        return r if out is compute else self.cast(r, out)
