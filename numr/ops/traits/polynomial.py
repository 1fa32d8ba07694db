"""Polynomials in NumPy's convention: a coefficient vector lists the highest power first
(np.polyval, np.polyfit, np.poly, np.polyadd, np.polymul, np.polyder, np.polyint, np.roots).
Integer coefficients stay integer where NumPy keeps them (polyval, polyadd, polymul, polyder);
fitting, integration and roots give floats."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class PolynomialOps(Protocol):
    def polyval(self, p: Tensor, x: Any) -> Tensor:
        """p[0] * x**(n-1) + ... + p[n-1] by Horner's rule (np.polyval). p may be batched, the
        coefficients along its last dim: the result has shape broadcast(p.shape[:-1], x.shape)."""
    def polyfit(self, x: Tensor, y: Tensor, deg: int, w: "Tensor | None" = None) -> Tensor:
        """Least-squares coefficients (highest power first) of a degree-deg polynomial through
        (x, y), y 1-d or (n, K), optional weights w on the residuals (np.polyfit; lstsq of the
        column-scaled Vandermonde matrix)."""
    def poly(self, roots: Tensor) -> Tensor:
        """The monic polynomial with the given 1-d roots (np.poly; matrices are not taken)."""
    def polyadd(self, a1: Tensor, a2: Tensor) -> Tensor:
        """Sum of two coefficient vectors, the shorter padded with leading zeros (np.polyadd)."""
    def polymul(self, a1: Tensor, a2: Tensor) -> Tensor:
        """Product of two polynomials: their full convolution (np.polymul)."""
    def polyder(self, p: Tensor, m: int = 1) -> Tensor:
        """The m-th derivative's coefficients (np.polyder)."""
    def polyint(self, p: Tensor, m: int = 1, k: Any = 0) -> Tensor:
        """The m-th antiderivative's coefficients, integration constants k (a scalar or m of them,
        the first used first; np.polyint)."""
    def roots(self, p: Tensor) -> Tensor:
        """Roots of a 1-d polynomial: eigenvalues of its companion matrix after stripping leading
        zeros, trailing zeros giving zero roots (np.roots); real when all are real (one host
        read), else complex. Needs eigvals (CPU)."""
