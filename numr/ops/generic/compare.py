"""isclose and allclose from element-wise primitives."""

from __future__ import annotations

from typing import Any

from ..prepare import SCALAR_TYPES, to_operand


def isclose(self: Any, a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Any:
    """|a - b| <= atol + rtol * |b|, with equal infinities close and NaN close to NaN
    only when ``equal_nan`` (NumPy's definition)."""
    a, b = to_operand("isclose", self, a), to_operand("isclose", self, b)
    if isinstance(a, SCALAR_TYPES):
        a, b = b, a
    close = self.le(self.abs(self.sub(a, b)), self.add(self.mul(self.abs(b), rtol), atol))
    exact = self.eq(a, b)
    out = self.logical_or(close, exact)
    if equal_nan:
        out = self.logical_or(out, self.logical_and(self.isnan(a), self.isnan(b)))
    return out


def allclose(self: Any, a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    return bool(self.all(isclose(self, a, b, rtol, atol, equal_nan)).item())
