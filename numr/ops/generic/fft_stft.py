"""stft and istft (torch semantics) written once over the FFT family and numr's public functions:
frames are one index_select of the (centre-padded) signal at hop-strided positions, windowed and
transformed along their last dim (rfft when onesided, else fft); istft inverts each frame,
windows it again and overlap-adds with index_add, dividing by the overlap-added squared window
(the NOLA envelope; a zero in it raises DomainError, as torch). Autograd differentiates both
through their parts. Backends without complex tensors (WebGPU) raise UnsupportedDType first."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DomainError, ShapeError
from .. import prepare_fft as pf
from ..prepare import plain


def _params(op: str, n_fft: int, hop_length: int | None, win_length: int | None) -> tuple[int, int]:
    if not isinstance(n_fft, int) or isinstance(n_fft, bool) or n_fft < 1:
        raise DomainError(f"{op}: n_fft must be a positive int, got {n_fft!r}")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not isinstance(hop, int) or hop < 1:
        raise DomainError(f"{op}: hop_length must be a positive int, got {hop_length!r}")
    if not isinstance(win, int) or not 0 < win <= n_fft:
        raise DomainError(f"{op}: win_length must be in [1, n_fft={n_fft}], got {win_length!r}")
    return hop, win


def _window(op: str, window: Any, win: int, n_fft: int, dtype: Any, device: Any) -> Any:
    """The window (ones when None) of length win_length, zero-padded on both sides to n_fft."""
    import numr as nr
    if window is None:
        w = nr.ones((win,), dtype=dtype, device=device)
    else:
        if window.ndim != 1 or window.shape[0] != win:
            raise ShapeError(f"{op}: window must be 1-d of win_length {win}, got shape {tuple(window.shape)}")
        w = window if window.dtype is dtype else nr.cast(window, dtype)
    left = (n_fft - win) // 2
    return nr.pad(w, [left, n_fft - win - left]) if win < n_fft else w


def _frame_positions(n_frames: int, n_fft: int, hop: int, device: Any) -> Any:
    """int64 (n_frames * n_fft,): the signal position of each frame element, frame-major."""
    import numr as nr
    t = nr.arange(n_fft, dtype=nr.int64, device=device).reshape(1, n_fft)
    f = nr.arange(n_frames, dtype=nr.int64, device=device).reshape(n_frames, 1) * hop
    return (f + t).reshape(-1)


def stft_any(x: Any, n_fft: int, hop_length: int | None = None, win_length: int | None = None, window: Any = None,
             center: bool = True, pad_mode: str = "reflect", normalized: bool = False, onesided: bool | None = None,
             return_complex: bool = True) -> Any:
    """(B?, n_freq, n_frames) short-time Fourier transform of x (L,) or (B, L) (torch.stft)."""
    import numr as nr
    op = "stft"
    hop, win = _params(op, n_fft, hop_length, win_length)
    if x.ndim not in (1, 2):
        raise ShapeError(f"{op}: input must be 1-d (L,) or 2-d (B, L), got shape {tuple(x.shape)}")
    if pad_mode not in ("reflect", "constant", "replicate", "circular"):
        raise DomainError(f"{op}: pad_mode must be 'reflect', 'constant', 'replicate' or 'circular', got {pad_mode!r}")
    cd = pf.complex_of(x.dtype)
    pf.check_complex(plain(x).device.client, op, x.dtype)
    real = not x.dtype.is_complex and (window is None or not window.dtype.is_complex)
    if onesided is None:
        onesided = real
    if onesided and not real:
        raise DomainError(f"{op}: onesided=True needs a real input and window")
    work = pf.real_of(cd) if not x.dtype.is_complex else cd
    xs = x if x.dtype is work else nr.cast(x, work)
    batch = xs.ndim == 2
    xs = xs if batch else xs.reshape(1, -1)
    if center:
        xs = nr.pad(xs, [n_fft // 2, n_fft // 2], mode=pad_mode)
    length = xs.shape[-1]
    if length < n_fft:
        raise ShapeError(f"{op}: the (padded) input length {length} is shorter than n_fft={n_fft}")
    n_frames = 1 + (length - n_fft) // hop
    w = _window(op, window, win, n_fft, pf.real_of(cd) if window is None or not window.dtype.is_complex else cd,
                x.device)
    pos = _frame_positions(n_frames, n_fft, hop, x.device)
    frames = nr.index_select(xs, 1, pos).reshape(xs.shape[0], n_frames, n_fft) * w
    spec = nr.rfft(frames, dim=-1) if onesided else nr.fft(frames, dim=-1)
    if normalized:
        spec = spec * (1.0 / math.sqrt(n_fft))
    spec = spec.mT
    spec = spec if batch else spec.reshape(tuple(spec.shape[1:]))
    return spec if return_complex else nr.view_as_real(spec.contiguous())


def istft_any(x: Any, n_fft: int, hop_length: int | None = None, win_length: int | None = None, window: Any = None,
              center: bool = True, normalized: bool = False, onesided: bool | None = None, length: int | None = None,
              return_complex: bool = False) -> Any:
    """The signal (B?, L) whose stft is x (B?, n_freq, n_frames), by windowed overlap-add divided
    by the squared-window envelope (torch.istft)."""
    import numr as nr
    op = "istft"
    hop, win = _params(op, n_fft, hop_length, win_length)
    if x.ndim not in (2, 3):
        raise ShapeError(f"{op}: input must be (n_freq, n_frames) or (B, n_freq, n_frames), got {tuple(x.shape)}")
    pf.check_complex(plain(x).device.client, op, x.dtype)
    if not x.dtype.is_complex:
        raise ShapeError(f"{op}: needs a complex input (stft's return_complex=True), got {x.dtype}")
    n_freq = x.shape[-2]
    if onesided is None:
        onesided = n_freq != n_fft
    if n_freq != (n_fft // 2 + 1 if onesided else n_fft):
        raise ShapeError(f"{op}: {n_freq} frequency bins do not match n_fft={n_fft} (onesided={onesided})")
    if onesided and return_complex:
        raise DomainError(f"{op}: return_complex=True needs onesided=False")
    batch = x.ndim == 3
    spec = (x if batch else x.reshape((1,) + tuple(x.shape))).mT  # (B, n_frames, n_freq)
    if normalized:
        spec = spec * math.sqrt(n_fft)
    frames = nr.irfft(spec, n=n_fft, dim=-1) if onesided else nr.ifft(spec, dim=-1)
    if not onesided and not return_complex:
        frames = nr.real(frames)
    rd = pf.real_of(x.dtype)
    w = _window(op, window, win, n_fft, rd if window is None or not window.dtype.is_complex else x.dtype, x.device)
    b, n_frames = spec.shape[0], spec.shape[1]
    expected = n_fft + hop * (n_frames - 1)
    pos = _frame_positions(n_frames, n_fft, hop, x.device)
    y = nr.index_add(nr.zeros((b, expected), dtype=frames.dtype, device=x.device), 1, pos,
                     (frames * w).reshape(b, -1))
    w2 = nr.real(w * nr.conj(w)) if w.dtype.is_complex else w * w
    env = nr.index_add(nr.zeros((expected,), dtype=rd, device=x.device), 0, pos,
                       nr.broadcast_to(w2, (n_frames, n_fft)).reshape(-1))
    start = n_fft // 2 if center else 0
    end = expected - n_fft // 2 if center else expected
    if length is not None:
        end = min(start + length, expected)
    y, env = y[:, start:end], env[start:end]
    if env.shape[0] and float(nr.amin(nr.abs(env)).item()) < 1e-11:
        raise DomainError(f"{op}: the window's overlap-add envelope has a zero (NOLA fails) for n_fft={n_fft}, "
                          f"hop_length={hop}, win_length={win}")
    y = y / env
    if length is not None and y.shape[-1] < length:
        y = nr.pad(y, [0, length - y.shape[-1]])
    return y if batch else y.reshape(tuple(y.shape[1:]))


#: op name -> composite (client methods through client_methods; autograd registers the same)
COMPOSITES = {"stft": stft_any, "istft": istft_any}
