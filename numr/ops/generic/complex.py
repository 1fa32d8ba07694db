"""The complex family written once for every backend: real/imag/view_as_real/view_as_complex
are layout arithmetic on the same storage (numr.layout's complex_part/complex_pairs/from_pairs;
a complex64 element is two float32 elements, so the parts are the real dtype's elements at
stride 2), and the rest are existing kernels run on those views: complex(re, im) is two strided
copies into the parts of a fresh result; conj of complex64 one xor of the imaginary sign bit (the
pair seen as one uint64), of contiguous complex128 one xor of rows of pairs with a sign-bit
pattern, of other complex128 a negation of the pairs and a copy of the real parts back; angle
one atan2 of the two part views. No backend needs a kernel of its own."""

from __future__ import annotations

from typing import Any

from ... import dtypes as dt
from ...errors import DTypeError, ShapeError, UnsupportedDType
from ...shapes import broadcast_shapes
from ...tensor import Tensor as _Tensor
from .. import prepare
from .methods import client_method


def _nr() -> Any:
    import numr as nr
    return nr


def _operand(op: str, client: Any, x: Any) -> Any:
    if x.__class__ is _Tensor and x.device is client.device:  # the per-call fast path (z.real)
        return x
    return prepare.as_tensor(op, client, x)


def _view(x: Any, layout: Any, dtype: dt.DType) -> Any:
    """x's storage seen through ``layout`` as ``dtype`` (shares x's version counter)."""
    return x._reinterpret(layout, dtype)


def check_backend(client: Any, op: str, dtype: dt.DType) -> None:
    """UnsupportedDType(backend, op, dtype) where the backend has no complex dtype (WebGPU)."""
    if dt.complex64 not in client.device.runtime.supported_dtypes(client.device):
        raise UnsupportedDType(client.device.runtime_name, op, dtype, reason="this backend has no complex dtype")


def real(self: Any, x: Any) -> Any:
    x = _operand("real", self, x)
    if not x.dtype.is_complex:
        return x
    return _view(x, x._layout.complex_part(0), dt.real_of(x.dtype))


def imag(self: Any, x: Any) -> Any:
    x = _operand("imag", self, x)
    if not x.dtype.is_complex:
        raise DTypeError(f"imag: a real tensor ({x.dtype}, shape {x.shape}) has no imaginary part view "
                         f"(as torch); use nr.zeros_like(x) for zeros")
    return _view(x, x._layout.complex_part(1), dt.real_of(x.dtype))


def view_as_real(self: Any, x: Any) -> Any:
    x = _operand("view_as_real", self, x)
    if not x.dtype.is_complex:
        raise DTypeError(f"view_as_real: needs a complex tensor, got {x.dtype} (shape {x.shape})")
    return _view(x, x._layout.complex_pairs(), dt.real_of(x.dtype))


def view_as_complex(self: Any, x: Any) -> Any:
    x = _operand("view_as_complex", self, x)
    if x.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"view_as_complex: needs float32 or float64 (re, im) pairs, got {x.dtype}")
    cd = dt.complex_of(x.dtype)
    check_backend(self, "view_as_complex", cd)
    lay = x._layout.from_pairs()
    if lay is None:
        raise ShapeError(f"view_as_complex: needs a last dim of size 2 with stride 1 and even strides and "
                         f"offset elsewhere, got shape {x.shape}, strides {x.strides}, offset {x._layout.offset}")
    return _view(x, lay, cd)


_PATTERNS: dict[tuple[str, int], Any] = {}  # (device, b) -> uint64 (0, 2**63) * b: complex128 sign bits


def _pattern(client: Any, b: int) -> Any:
    key = (str(client.device), b)
    p = _PATTERNS.get(key)
    if p is None:
        p = client.full((b, 2), 0, dt.uint64)
        client.fill_(p[:, 1], 1 << 63)
        p = _PATTERNS[key] = p.reshape(2 * b)
    return p


def conj(self: Any, x: Any) -> Any:
    x = _operand("conj", self, x)
    if not x.dtype.is_complex:
        return x
    if x.dtype is dt.complex64:  # one pass: a complex64 is one uint64 whose top bit is the imag sign
        bits = self.bitwise_xor(_view(x, x._layout, dt.uint64), 1 << 63)
        return _view(bits, bits._layout, x.dtype)
    n = x.size
    b = min(n & -n, 1024)  # complex128: the largest power of two <= 1024 dividing n
    if b >= 8 and x._layout.is_contiguous():
        # one pass: rows of b pairs as 2b uint64 words, xor'ed with a (0, 2**63) pattern row (a
        # broadcast over rows of 2b elements runs the kernel's vector loop; over rows of one pair
        # it is 25x slower)
        words = _view(x, x._layout.complex_pairs(), dt.uint64).reshape(n // b, 2 * b)
        bits = self.bitwise_xor(words, _pattern(self, b)).reshape(*x.shape, 2)
        return _view(bits, bits._layout.from_pairs(), x.dtype)
    pairs = self.neg(view_as_real(self, x))  # otherwise negate both parts and copy the real ones back
    out = _view(pairs, pairs._layout.from_pairs(), x.dtype)
    self.copy_(real(self, out), real(self, x))
    return out


def angle(self: Any, x: Any) -> Any:
    x = _operand("angle", self, x)
    if x.dtype.is_complex:
        return self.atan2(imag(self, x), real(self, x))
    return self.atan2(0.0, x)  # 0 for x >= +0, pi for x < 0 and -0.0, NaN for NaN (np.angle)


def _real_pair(op: str, client: Any, a: Any, b: Any) -> tuple[Any, Any, dt.DType]:
    """The two real operands of complex/polar: tensors (a Python number takes the other's
    dtype) of one dtype, float32 or float64; returns them and the complex dtype."""
    a, b = prepare.to_operand(op, client, a), prepare.to_operand(op, client, b)
    num = (bool, int, float)
    if isinstance(a, num) and isinstance(b, num):
        a = prepare.as_tensor(op, client, float(a))
    if isinstance(a, num) and not isinstance(a, bool):
        a = client.full((), float(a), b.dtype)
    if isinstance(b, num) and not isinstance(b, bool):
        b = client.full((), float(b), a.dtype)
    for v in (a, b):
        if not hasattr(v, "dtype"):
            raise DTypeError(f"{op}: operands must be real tensors or numbers, got {type(v).__name__}")
    if a.dtype is not b.dtype or a.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"{op}: needs two float32 or two float64 tensors, got {a.dtype} and {b.dtype} (numr has "
                         f"no complex32: cast float16/bfloat16 to float32)")
    cd = dt.complex_of(a.dtype)
    check_backend(client, op, cd)
    return a, b, cd


def complex(self: Any, real: Any, imag: Any) -> Any:  # noqa: A001  (torch's name)
    re, im, cd = _real_pair("complex", self, real, imag)
    try:
        shape = broadcast_shapes(re.shape, im.shape)
    except ShapeError:
        raise ShapeError(f"complex: shapes {re.shape} and {im.shape} do not broadcast") from None
    out = self.empty(shape, cd)
    if out.size:
        self.copy_(_view(out, out._layout.complex_part(0), re.dtype), re)
        self.copy_(_view(out, out._layout.complex_part(1), re.dtype), im)
    return out


def polar_any(abs: Any, angle: Any) -> Any:  # noqa: A002
    """abs * (cos(angle) + i sin(angle)), with public functions (autograd goes through them)."""
    nr = _nr()
    client = next((v.device.client for v in (abs, angle) if hasattr(v, "device")), None)
    if client is None:
        client = nr.device(None).client
    _real_pair("polar", client, getattr(abs, "tensor", getattr(abs, "primal", abs)),
               getattr(angle, "tensor", getattr(angle, "primal", angle)))
    return nr.complex(abs * nr.cos(angle), abs * nr.sin(angle))


def is_complex(x: Any) -> bool:
    """Whether x (a Tensor, Var or DualTensor) has a complex dtype (torch.is_complex)."""
    return bool(getattr(x, "dtype", None) is not None and x.dtype.is_complex)


METHODS = {"real": real, "imag": imag, "view_as_real": view_as_real, "view_as_complex": view_as_complex,
           "conj": conj, "conj_physical": conj, "angle": angle, "complex": complex,
           "polar": client_method(polar_any)}
