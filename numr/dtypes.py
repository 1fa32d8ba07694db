"""Data types and the one promotion table every op and backend uses.

Codes are stable small integers (the Rust crate's discriminants); kernels of
every backend dispatch on them.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from .errors import DTypeError


class DType:
    """A numr element type: name, stable kernel code, size, kind and NumPy twin."""

    __slots__ = ("name", "code", "itemsize", "kind", "np", "rank")

    def __init__(self, name: str, code: int, kind: str, np_dtype: Any, rank: int):
        self.name = name
        self.code = code
        self.kind = kind  # 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.rank = rank  # order inside its kind, for promotion

    @property
    def is_floating_point(self) -> bool:
        return self.kind == "f"

    @property
    def is_complex(self) -> bool:
        return self.kind == "c"

    @property
    def is_integer(self) -> bool:
        return self.kind in "iu"

    @property
    def is_signed(self) -> bool:
        return self.kind in "ifc"

    @property
    def is_low_precision(self) -> bool:
        """float16, bfloat16 and float8: computed in float32 on the CPU."""
        return self.kind == "f" and self.itemsize <= 2

    def __repr__(self) -> str:
        return f"numr.{self.name}"

    __str__ = lambda self: self.name  # noqa: E731

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self is other
        if other is None:  # np.dtype(None) is float64, but ``x.dtype == None`` must be False
            return False
        try:
            return dtype(other) is self
        except (DTypeError, TypeError):
            return False

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self):
        return (dtype, (self.name,))


bool_ = DType("bool", 30, "b", np.bool_, 0)
int8 = DType("int8", 13, "i", np.int8, 0)
int16 = DType("int16", 12, "i", np.int16, 1)
int32 = DType("int32", 11, "i", np.int32, 2)
int64 = DType("int64", 10, "i", np.int64, 3)
uint8 = DType("uint8", 23, "u", np.uint8, 0)
uint16 = DType("uint16", 22, "u", np.uint16, 1)
uint32 = DType("uint32", 21, "u", np.uint32, 2)
uint64 = DType("uint64", 20, "u", np.uint64, 3)
float8_e4m3fn = DType("float8_e4m3fn", 4, "f", ml_dtypes.float8_e4m3fn, 0)
float8_e5m2 = DType("float8_e5m2", 5, "f", ml_dtypes.float8_e5m2, 0)
bfloat16 = DType("bfloat16", 3, "f", ml_dtypes.bfloat16, 1)
float16 = DType("float16", 2, "f", np.float16, 1)
float32 = DType("float32", 1, "f", np.float32, 2)
float64 = DType("float64", 0, "f", np.float64, 3)
complex64 = DType("complex64", 40, "c", np.complex64, 2)
complex128 = DType("complex128", 41, "c", np.complex128, 3)

ALL_DTYPES: tuple[DType, ...] = (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float8_e4m3fn, float8_e5m2, bfloat16, float16, float32, float64,
    complex64, complex128,
)
INTEGER_DTYPES = tuple(d for d in ALL_DTYPES if d.is_integer)
FLOAT_DTYPES = tuple(d for d in ALL_DTYPES if d.is_floating_point)
COMPLEX_DTYPES = (complex64, complex128)

#: dtype of Python floats and of ints in float ops (NumPy's choice)
default_float = float64
default_int = int64

_BY_CODE = {d.code: d for d in ALL_DTYPES}
_BY_NAME: dict[str, DType] = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update({
    "bool_": bool_, "float": float64, "double": float64, "half": float16,
    "int": int64, "long": int64, "cfloat": complex64, "cdouble": complex128,
    "complex": complex128, "e4m3": float8_e4m3fn, "e5m2": float8_e5m2,
})
_BY_NP = {d.np: d for d in ALL_DTYPES}
_BY_PYTYPE = {bool: bool_, int: int64, float: float64, complex: complex128}
_SIGNED = {0: int8, 1: int16, 2: int32, 3: int64}
_UNSIGNED = {0: uint8, 1: uint16, 2: uint32, 3: uint64}
_COMPLEX_OF = {float64: complex128}  # every other float maps to complex64


def from_code(code: int) -> DType:
    return _BY_CODE[code]


def dtype(x: Any) -> DType:
    """Turn a DType, name, NumPy dtype or Python type into a numr DType."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str):
        d = _BY_NAME.get(x)
        if d is not None:
            return d
    elif isinstance(x, type) and x in _BY_PYTYPE:
        return _BY_PYTYPE[x]
    if type(x).__module__.startswith("torch"):  # torch.float32 -> "float32" (torch dtypes have no .name)
        d = _BY_NAME.get(str(x).removeprefix("torch."))
        if d is not None:
            return d
        raise DTypeError(f"numr has no dtype for {x!r}")
    try:
        return _BY_NP[np.dtype(x)]
    except (TypeError, KeyError):
        raise DTypeError(f"numr has no dtype for {x!r}") from None


def _promote_float(a: DType, b: DType) -> DType:
    if a.rank == b.rank:
        # float16 + bfloat16, or the two float8 kinds: the smallest type holding both
        return float32 if a.rank == 1 else float16
    return a if a.rank > b.rank else b


def _promote(a: DType, b: DType) -> DType:
    if a is b:
        return a
    ka, kb = a.kind, b.kind
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == kb:
        if ka == "f":
            return _promote_float(a, b)
        return a if a.rank >= b.rank else b
    order = "iufc"
    if order.index(ka) > order.index(kb):
        a, b, ka, kb = b, a, kb, ka
    if ka == "i" and kb == "u":
        if b.rank < a.rank:
            return a
        return _SIGNED[b.rank + 1] if b.rank < 3 else float64
    if kb == "f":  # integer with float: the float type (as PyTorch and JAX do)
        return b
    # kb == 'c'
    if ka == "f" and a is float64:
        return complex128
    return b


_TABLE = {(a, b): _promote(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}


def promote_types(a: DType, b: DType) -> DType:
    """The promotion table: array API standard, extended to bfloat16/float8,
    with integer + float -> that float and int64 + uint64 -> float64."""
    return _TABLE[a, b]


def complex_of(d: DType) -> DType:
    return d if d.is_complex else _COMPLEX_OF.get(d, complex64)


def real_of(d: DType) -> DType:
    return {complex64: float32, complex128: float64}.get(d, d)


def weak_scalar_dtype(value: Any, other: DType) -> DType:
    """Result dtype of ``other`` combined with a Python scalar (a weak type)."""
    if isinstance(value, bool):
        return other
    if isinstance(value, int):
        return int64 if other is bool_ else other
    if isinstance(value, float):
        return other if other.kind in "fc" else default_float
    if isinstance(value, complex):
        if other.is_complex:
            return other
        return complex128 if other is float64 or other.kind in "biu" else complex64
    raise DTypeError(f"cannot combine {type(value).__name__} with a tensor")


def result_type(*args: Any) -> DType:
    """The dtype an op on ``args`` (tensors, dtypes or Python scalars) yields."""
    if len(args) == 2:  # two tensors of one dtype: the common case, fast
        d = getattr(args[0], "dtype", None)
        if isinstance(d, DType) and getattr(args[1], "dtype", None) is d:
            return d
    strong: DType | None = None
    scalars = []
    for a in args:
        d = getattr(a, "dtype", None)
        if isinstance(a, (bool, int, float, complex)) and not isinstance(d, DType) and not isinstance(a, np.generic):
            # Python scalars are weak; NumPy scalars (np.float64 subclasses float) are strong, as in NumPy 2
            scalars.append(a)
            continue
        d = dtype(d if isinstance(d, DType) else a)
        strong = d if strong is None else _TABLE[strong, d]
    if strong is None:
        if not scalars:
            raise DTypeError("result_type needs at least one argument")
        strong = _BY_PYTYPE[type(scalars[0])]
        scalars = scalars[1:]
        for s in scalars:
            strong = _TABLE[strong, _BY_PYTYPE[type(s)]]
        return strong
    for s in scalars:
        strong = weak_scalar_dtype(s, strong)
    return strong


def finfo(d: Any):
    """Machine limits of a float dtype (``ml_dtypes.finfo``/``numpy.finfo``)."""
    d = dtype(d)
    if d.kind != "f":
        raise DTypeError(f"finfo needs a float dtype, got {d}")
    return ml_dtypes.finfo(d.np)


def iinfo(d: Any):
    d = dtype(d)
    if not d.is_integer:
        raise DTypeError(f"iinfo needs an integer dtype, got {d}")
    return np.iinfo(d.np)
