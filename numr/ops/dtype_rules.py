"""Result and compute dtypes of each op, in one place for every backend."""

from __future__ import annotations

from .. import dtypes as dt
from ..dtypes import DType
from ..errors import DTypeError

# unary ops that map integers and bool to the default float dtype
FLOAT_UNARY = frozenset(
    "sqrt rsqrt cbrt reciprocal exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan "
    "sinh cosh tanh asinh acosh atanh frexp spacing deg2rad rad2deg".split()
)
COMPLEX_UNARY = frozenset("neg abs sign square sqrt exp log reciprocal sin cos tan sinh cosh tanh".split())
ROUNDING = frozenset("floor ceil round trunc".split())
PREDICATES = frozenset("isnan isinf isfinite".split())

ARITH = frozenset("add sub mul maximum minimum floor_divide remainder pow fma fmod".split())
FLOAT_BINARY = frozenset("div atan2 hypot copysign nextafter ldexp heaviside logaddexp logaddexp2".split())
INTEGER_ONLY = frozenset("gcd lcm".split())
BITWISE = frozenset("bitwise_and bitwise_or bitwise_xor".split())
COMPARE = frozenset("eq ne lt le gt ge".split())
LOGICAL = frozenset("logical_and logical_or logical_xor".split())
ORDERED_ONLY = frozenset("lt le gt ge maximum minimum floor_divide remainder atan2 hypot fmod copysign nextafter "
                         "ldexp heaviside logaddexp logaddexp2".split())


def _bad(op: str, d: DType, why: str = "") -> DTypeError:
    return DTypeError(f"{op}: dtype {d} is not supported{': ' + why if why else ''}")


def unary_dtypes(op: str, d: DType) -> tuple[DType, DType]:
    """(compute dtype the kernel runs on, result dtype) of a unary op."""
    if op in PREDICATES:
        return d, dt.bool_
    if op == "bitwise_not":
        if d.kind not in "biu":
            raise _bad(op, d, "bitwise ops need bool or integer tensors")
        return d, d
    if op == "logical_not":
        return d, dt.bool_
    if op == "signbit":
        if d.is_complex:
            raise _bad(op, d, "not defined for complex numbers")
        return d, dt.bool_
    if d.is_complex and op not in COMPLEX_UNARY:
        raise _bad(op, d, "not defined for complex numbers")
    if op in FLOAT_UNARY:
        if d.kind in "biu":
            return dt.default_float, dt.default_float
        return d, d
    if op == "abs" and d.is_complex:
        return d, dt.real_of(d)
    if op == "neg" and d is dt.bool_:
        raise _bad(op, d, "use logical_not (~) for bool tensors")
    return d, d


def binary_dtypes(op: str, common: DType) -> tuple[DType, DType]:
    """(compute dtype, result dtype) of a binary op whose promoted input dtype is ``common``."""
    if op in COMPARE:
        if common.is_complex and op in ORDERED_ONLY:
            raise _bad(op, common, "complex numbers are not ordered")
        return common, dt.bool_
    if op in LOGICAL:
        return dt.bool_, dt.bool_
    if op in BITWISE:
        if common.kind not in "biu":
            raise _bad(op, common, "bitwise ops need bool or integer tensors")
        return common, common
    if common.is_complex and op in ORDERED_ONLY:
        raise _bad(op, common, "complex numbers are not ordered")
    if op in INTEGER_ONLY:
        if common.kind not in "iu":
            raise _bad(op, common, "defined for integer tensors only")
        return common, common
    if op in FLOAT_BINARY:
        if common.kind in "biu":
            return dt.default_float, dt.default_float
        return common, common
    if common is dt.bool_ and op in ("sub", "floor_divide", "remainder", "pow", "fmod"):
        raise _bad(op, common, "not defined for bool tensors")
    return common, common


def sum_dtype(d: DType) -> DType:
    """sum, prod, cumsum and cumprod widen bool/int to int64 and uint to uint64 (NumPy's rule)."""
    if d.kind in "bi":
        return dt.int64
    if d.kind == "u":
        return dt.uint64
    return d


def same_dtype(d: DType) -> DType:
    return d


def int64_dtype(d: DType) -> DType:
    return dt.int64


def bool_dtype(d: DType) -> DType:
    return dt.bool_


# result dtype rule of each reduction kernel op (input dtype -> result dtype)
REDUCE_DTYPE = {"sum": sum_dtype, "prod": sum_dtype, "max": same_dtype, "min": same_dtype,
                "argmax": int64_dtype, "argmin": int64_dtype, "any": bool_dtype, "all": bool_dtype}


def mean_dtype(d: DType) -> DType:
    return dt.default_float if d.kind in "biu" else d


def var_dtype(d: DType) -> DType:
    """var and std: real result, ints computed in the default float."""
    return dt.real_of(mean_dtype(d))
