"""NumPy's 1-d numerics: convolution/correlation, piecewise-linear interpolation, trapezoidal
integration (plain and cumulative, as scipy), finite-difference gradients, histograms and
binning (np.digitize, torch.bucketize). Semantics follow NumPy (torch for bucketize); integer
inputs of float-valued ops compute in the default float."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class NumericOps(Protocol):
    def convolve(self, a: Tensor, v: Tensor, mode: str = "full") -> Tensor:
        """Discrete linear convolution of two 1-d sequences (np.convolve): mode "full" (n + m - 1),
        "same" (max(n, m)) or "valid" (max - min + 1). Integers exact, floats via conv1d."""
    def correlate(self, a: Tensor, v: Tensor, mode: str = "valid") -> Tensor:
        """Cross-correlation c[k] = sum_n a[n + k] v[n] of two real 1-d sequences (np.correlate;
        mode as convolve, default "valid")."""
    def interp(self, x: Any, xp: Tensor, fp: Tensor, left: Any = None, right: Any = None,
               period: Any = None) -> Tensor:
        """Piecewise-linear interpolant of (xp, fp) at x, xp increasing (np.interp): left/right
        (default fp[0], fp[-1]) outside, NaN x gives NaN; with period, x and xp wrap; complex fp
        interpolates its real and imaginary parts."""
    def trapezoid(self, y: Tensor, x: "Tensor | None" = None, dx: float = 1.0, axis: int = -1) -> Tensor:
        """Integral of y along axis by the trapezoidal rule, samples at x (1-d or y's shape) or
        spaced dx (np.trapezoid)."""
    def cumulative_trapezoid(self, y: Tensor, x: "Tensor | None" = None, dx: float = 1.0, axis: int = -1,
                             initial: Any = None) -> Tensor:
        """Running trapezoidal integral along axis, one shorter unless initial is prepended
        (scipy.integrate.cumulative_trapezoid)."""
    def gradient(self, f: Tensor, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
        """Second-order central differences inside, one-sided (edge_order 1 or 2) at the ends, with
        scalar spacings or 1-d coordinates per axis (np.gradient): a tensor for one axis, else a
        tuple."""
    def histogram(self, a: Tensor, bins: Any = 10, range: Any = None, weights: "Tensor | None" = None,
                  density: bool = False) -> tuple[Tensor, Tensor]:
        """(hist, bin_edges) of the flattened a (np.histogram): bins equal bins over range (the
        data's, one host read checks it) or increasing edges; the last bin closed, values
        outside or NaN ignored; int64 counts, or weights' dtype, or a density."""
    def histogram2d(self, x: Tensor, y: Tensor, bins: Any = 10, range: Any = None, weights: "Tensor | None" = None,
                    density: bool = False) -> tuple[Tensor, Tensor, Tensor]:
        """(H, xedges, yedges) of 1-d samples x, y (np.histogram2d): bins an int, edges, or one of
        those per axis; range ((xmin, xmax), (ymin, ymax)); H float (the weights' float dtype or
        the default float) of shape (nx, ny)."""
    def digitize(self, x: Any, bins: Tensor, right: bool = False) -> Tensor:
        """int64 index of the bin of each x (np.digitize): bins increasing (bins[i-1] <= x <
        bins[i]; "<= x" moves to the right edge with right) or decreasing (one host read)."""
    def bucketize(self, input: Any, boundaries: Tensor, right: bool = False, out_int32: bool = False) -> Tensor:
        """Index of the bucket of each input in increasing 1-d boundaries (torch.bucketize):
        boundaries[i-1] < x <= boundaries[i], or boundaries[i-1] <= x < boundaries[i] with right
        (the opposite of digitize's right)."""
