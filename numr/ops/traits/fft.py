"""Discrete Fourier transforms with numpy.fft's semantics (any length, not only powers of two).

``n`` / ``s`` give the transform lengths: the input is cropped or padded with zeros along the
dims to them (irfft: n real outputs from n // 2 + 1 bins). ``norm``: "backward" (default, 1/N on
the inverse), "ortho" (1/sqrt(N) both ways) or "forward" (1/N on the forward). Real inputs
promote as torch does: float32/float16/bfloat16/float8 -> complex64, float64/int/bool ->
complex128 (NumPy makes float16 complex128). n < 1 raises ShapeError, as NumPy's ValueError.
A backend without complex tensors (WebGPU) raises UnsupportedDType."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class FftOps(Protocol):
    def fft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """1-d DFT of x along dim: X[k] = sum_t x[t] exp(-2 pi i k t / n) (np.fft.fft)."""
    def ifft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """1-d inverse DFT along dim, 1/n by default (np.fft.ifft)."""
    def rfft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """DFT of real x along dim, the n // 2 + 1 non-negative frequencies (np.fft.rfft)."""
    def irfft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """Real inverse of rfft: n real values (default 2 * (bins - 1)) from the Hermitian half
        spectrum; the imaginary parts of bin 0 (and n/2) are ignored (np.fft.irfft)."""
    def fft2(self, x: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
        """2-d DFT over dim (np.fft.fft2)."""
    def ifft2(self, x: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
        """2-d inverse DFT (np.fft.ifft2)."""
    def rfft2(self, x: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
        """2-d DFT of real x, halved along the last dim (np.fft.rfft2)."""
    def irfft2(self, x: Tensor, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
        """Real inverse of rfft2 (np.fft.irfft2)."""
    def fftn(self, x: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
        """N-d DFT over dim (default: the last len(s) dims, or all) (np.fft.fftn)."""
    def ifftn(self, x: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
        """N-d inverse DFT (np.fft.ifftn)."""
    def rfftn(self, x: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
        """N-d DFT of real x, halved along the last of dim (np.fft.rfftn)."""
    def irfftn(self, x: Tensor, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
        """Real inverse of rfftn; s's last entry is the real length (np.fft.irfftn)."""
    def hfft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """The real DFT of a signal with Hermitian symmetry given by its first half:
        irfft(conj(x)) with the norm's direction swapped (np.fft.hfft)."""
    def ihfft(self, x: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
        """The inverse of hfft for real x: conj(rfft(x)) with the norm's direction swapped (np.fft.ihfft)."""
    def fftfreq(self, n: int, d: float = 1.0, dtype: Any = None, device: Any = None) -> Tensor:
        """The sample frequencies of an n-point fft: [0, 1, ..., -1] / (d * n) (np.fft.fftfreq);
        float64 unless dtype is given."""
    def rfftfreq(self, n: int, d: float = 1.0, dtype: Any = None, device: Any = None) -> Tensor:
        """The n // 2 + 1 non-negative frequencies of an n-point rfft (np.fft.rfftfreq)."""
    def fftshift(self, x: Tensor, dim: Any = None) -> Tensor:
        """Rolls the zero frequency to the centre of dim (default all dims) (np.fft.fftshift)."""
    def ifftshift(self, x: Tensor, dim: Any = None) -> Tensor:
        """The inverse of fftshift (np.fft.ifftshift)."""
    # short-time transforms (numr/ops/generic/fft_stft.py)
    def stft(self, x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
             window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
             onesided: bool | None = None, return_complex: bool = True) -> Tensor:
        """Complex (B?, n_freq, n_frames) short-time Fourier transform of x (L,) or (B, L): frames
        of n_fft every hop_length (n_fft // 4), times the window (ones of win_length, centred in
        n_fft), centre-padded by n_fft // 2 with pad_mode when center (torch.stft)."""
    def istft(self, x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
              window: Tensor | None = None, center: bool = True, normalized: bool = False,
              onesided: bool | None = None, length: int | None = None, return_complex: bool = False) -> Tensor:
        """The inverse of stft: windowed overlap-add divided by the squared-window envelope (which
        must not vanish: NOLA), trimmed to ``length`` (torch.istft)."""
