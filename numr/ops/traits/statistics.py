"""Statistics and the reductions NumPy/PyTorch users expect beside sum/mean/var: log-sum-exp,
NaN-ignoring sums, order statistics (median, quantile, kthvalue, mode), running max/min,
differences, covariance, histograms and vector norms. Semantics follow torch (NumPy where torch
has no such op); order statistics use sort's total order (NaN largest), so the same indices come
back on every backend. Float results of integer inputs are in the default float dtype."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor

Dims = "int | tuple[int, ...] | None"


@runtime_checkable
class StatisticsOps(Protocol):
    def logsumexp(self, x: Tensor, dim: Dims, keepdim: bool = False) -> Tensor:
        """log(sum(exp(x))) over dim, shifted by the max: all -inf gives -inf, +inf gives +inf,
        NaN propagates; an empty reduction gives -inf (torch.logsumexp)."""
    def logcumsumexp(self, x: Tensor, dim: int) -> Tensor:
        """Running log(sum(exp(x))) along dim (torch.logcumsumexp), a log-depth scan of logaddexp."""
    def nansum(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """sum with NaNs counted as zero (np.nansum; sum's dtype rule)."""
    def nanmean(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """mean of the non-NaN elements; NaN where there are none (np.nanmean)."""
    def count_nonzero(self, x: Tensor, dim: Dims = None) -> Tensor:
        """int64 count of the nonzero elements (NaN counts) over dim (torch.count_nonzero)."""
    def median(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Any:
        """The lower of the two middle values (torch.median); NaN if the slice has a NaN. With dim
        a tuple (values, int64 indices), else the value of the flattened x."""
    def nanmedian(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Any:
        """median of the non-NaN elements (NaN where all are NaN), as torch.nanmedian."""
    def quantile(self, x: Tensor, q: "float | Tensor", dim: "int | None" = None, keepdim: bool = False,
                 interpolation: str = "linear") -> Tensor:
        """The q-th quantiles (q a float or 1-d tensor in [0, 1]; a tensor q leads the result's
        dims) over dim or the flattened x, torch.quantile: interpolation linear, lower, higher,
        nearest (ties to even) or midpoint; NaN in a slice gives NaN. Float x only."""
    def kthvalue(self, x: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """(values, int64 indices) of the k-th smallest element along dim, 1 <= k <= size."""
    def mode(self, x: Tensor, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """(values, int64 indices) of the most frequent value along dim: the smallest of the most
        frequent, at the index of its last occurrence (torch.mode; NaNs count as one value)."""
    def cummax(self, x: Tensor, dim: int) -> tuple[Tensor, Tensor]:
        """(running max, int64 index of it) along dim; ties and NaN go to the later index and a
        NaN stays the max (torch.cummax)."""
    def cummin(self, x: Tensor, dim: int) -> tuple[Tensor, Tensor]:
        """(running min, int64 index of it) along dim, as cummax."""
    def diff(self, x: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
        """n-th forward difference along dim after joining prepend/append (np.diff/torch.diff;
        scalars broadcast to one slice; bool gives x[i+1] != x[i])."""
    def var_mean(self, x: Tensor, dim: Dims = None, correction: float = 1,
                 keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """(var, mean) as torch.var_mean (correction 1 by default)."""
    def std_mean(self, x: Tensor, dim: Dims = None, correction: float = 1,
                 keepdim: bool = False) -> tuple[Tensor, Tensor]:
        """(std, mean) as torch.std_mean."""
    def cov(self, x: Tensor, correction: int = 1, fweights: "Tensor | None" = None,
            aweights: "Tensor | None" = None) -> Tensor:
        """Covariance matrix of the rows of x (variables) over its columns (observations),
        with integer frequency and float observation weights (torch.cov / np.cov)."""
    def corrcoef(self, x: Tensor) -> Tensor:
        """Pearson correlation matrix of the rows of x, clipped to [-1, 1] (torch.corrcoef)."""
    def histc(self, x: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
        """Counts of x in ``bins`` equal bins over [min, max] (the data's range when both are 0),
        elements outside ignored; a float tensor (torch.histc)."""
    def bincount(self, x: Tensor, weights: "Tensor | None" = None, minlength: int = 0) -> Tensor:
        """Count (or weight sum) of each value of a 1-d non-negative integer x, length
        max(x) + 1 or minlength (np.bincount/torch.bincount): int64, or weights' float dtype."""
    def vector_norm(self, x: Tensor, ord: float = 2, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """(sum |x|^ord)^(1/ord) over dim (all of x when None); ord inf/-inf is max/min |x|, 0
        the count of nonzeros (torch.linalg.vector_norm)."""
    def norm(self, x: Tensor, ord: float = 2, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """vector_norm (the Frobenius norm of a flattened matrix for ord 2, "fro" accepted)."""
    def nanvar(self, x: Tensor, dim: Dims = None, ddof: float = 0, keepdim: bool = False) -> Tensor:
        """Variance of the non-NaN elements with ddof (np.nanvar: ddof 0); NaN where there are
        no more than ddof."""
    def nanstd(self, x: Tensor, dim: Dims = None, ddof: float = 0, keepdim: bool = False) -> Tensor:
        """sqrt(nanvar) (np.nanstd)."""
    def nanprod(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """prod with NaNs counted as one (np.nanprod)."""
    def nanmax(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """max of the non-NaN elements, NaN for an all-NaN slice (np.nanmax)."""
    def nanmin(self, x: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
        """min of the non-NaN elements, NaN for an all-NaN slice (np.nanmin)."""
    def nanargmax(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Tensor:
        """int64 index of the first non-NaN maximum (np.nanargmax); an all-NaN slice raises
        DomainError (one host read)."""
    def nanargmin(self, x: Tensor, dim: "int | None" = None, keepdim: bool = False) -> Tensor:
        """int64 index of the first non-NaN minimum (np.nanargmin), as nanargmax."""
    def nanquantile(self, x: Tensor, q: "float | Tensor", dim: "int | None" = None, keepdim: bool = False,
                    interpolation: str = "linear") -> Tensor:
        """quantile of the non-NaN elements, NaN for an all-NaN slice (torch.nanquantile,
        np.nanquantile)."""
    def nancumsum(self, x: Tensor, dim: "int | None" = None) -> Tensor:
        """cumsum with NaNs counted as zero (np.nancumsum; None flattens)."""
    def nancumprod(self, x: Tensor, dim: "int | None" = None) -> Tensor:
        """cumprod with NaNs counted as one (np.nancumprod; None flattens)."""
    def skew(self, x: Tensor, dim: "int | None" = 0, bias: bool = True, keepdim: bool = False) -> Tensor:
        """Sample skewness m3 / m2**1.5 over dim (None flattens), bias-corrected unless bias;
        NaN for a constant slice (scipy.stats.skew)."""
    def kurtosis(self, x: Tensor, dim: "int | None" = 0, fisher: bool = True, bias: bool = True,
                 keepdim: bool = False) -> Tensor:
        """Sample kurtosis m4 / m2**2, minus 3 when fisher, bias-corrected unless bias; NaN for a
        constant slice (scipy.stats.kurtosis)."""
