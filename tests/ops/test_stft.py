"""stft/istft against a NumPy re-implementation of torch's definition (float64/complex128
oracle; torch as a secondary check when installed), scipy.signal.stft for the framing, the
round trip, options (hop, win_length, centre padding modes, normalized, onesided, batch,
complex input), errors, gradients by central differences, and WebGPU's UnsupportedDType."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import assert_close
from fd_checks import check_grads

import numr as nr


def complex_device(device):
    if device == "wgpu":
        pytest.skip("wgpu has no complex dtype (test_wgpu_raises)")


def np_stft(x, n_fft, hop=None, win_length=None, window=None, center=True, pad_mode="reflect",
            normalized=False, onesided=None):
    """torch.stft's definition in NumPy: centre padding, frames, the window centred in n_fft."""
    hop = n_fft // 4 if hop is None else hop
    win_length = n_fft if win_length is None else win_length
    w = np.ones(win_length) if window is None else window
    left = (n_fft - win_length) // 2
    w = np.pad(w, (left, n_fft - win_length - left))
    x = np.atleast_2d(x)
    if center:
        x = np.pad(x, [(0, 0), (n_fft // 2, n_fft // 2)], mode={"constant": "constant", "reflect": "reflect",
                                                                 "replicate": "edge", "circular": "wrap"}[pad_mode])
    n_frames = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[:, i * hop:i * hop + n_fft] for i in range(n_frames)], 1) * w
    onesided = not np.iscomplexobj(x) if onesided is None else onesided
    spec = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, 1, 2)


CASES = [
    dict(n_fft=16),
    dict(n_fft=16, hop=5, win_length=12, window="hann"),
    dict(n_fft=15, center=False, normalized=True),
    dict(n_fft=8, hop=3, pad_mode="constant", onesided=False),
    dict(n_fft=8, hop=2, pad_mode="replicate", window="hann"),
]


def _kw(case, device, dt):
    kw = dict(case)
    hop = kw.pop("hop", None)
    if kw.get("window") == "hann":
        kw["window"] = np.hanning(kw.get("win_length", kw["n_fft"]) + 2)[1:-1]
    np_kw = dict(kw, hop=hop)
    nr_kw = dict(kw, hop_length=hop)
    if "window" in nr_kw:
        nr_kw["window"] = nr.tensor(nr_kw["window"], dtype=dt, device=device)
    return np_kw, nr_kw


@pytest.mark.parametrize("case", range(len(CASES)))
def test_stft_matches_definition(device, case):
    complex_device(device)
    rng = np.random.default_rng(case)
    x = rng.standard_normal((2, 40))
    np_kw, nr_kw = _kw(CASES[case], device, "float64")
    got = nr.stft(nr.tensor(x, device=device), **nr_kw)
    exp = np_stft(x, **np_kw)
    assert got.dtype == nr.complex128
    assert_close(got, exp, rtol=1e-10, atol=1e-10)
    one = nr.stft(nr.tensor(x[0], device=device), **nr_kw)  # 1-d input: no batch dim
    assert_close(one, exp[0], rtol=1e-10, atol=1e-10)
    ik = {k: v for k, v in nr_kw.items() if k != "pad_mode"}
    y = nr.istft(got, length=40, **ik)
    assert y.shape == (2, 40) and y.dtype == nr.float64
    if np_kw.get("center", True):  # centre padding covers the whole signal: exact round trip
        assert_close(y, x, rtol=1e-10, atol=1e-10)
    try:
        import torch
    except ImportError:
        return
    tk = {k: (torch.tensor(v.numpy()) if isinstance(v, nr.Tensor) else v) for k, v in nr_kw.items()}
    with warnings.catch_warnings():  # torch warns about the rectangular default window
        warnings.simplefilter("ignore")
        ts = torch.stft(torch.tensor(x), return_complex=True, **tk)
    np.testing.assert_allclose(got.numpy(), ts.numpy(), rtol=1e-10, atol=1e-10)


def test_stft_dtypes_views_scipy(device):
    complex_device(device)
    import scipy.signal as ss
    rng = np.random.default_rng(7)
    x = rng.standard_normal(64)
    w = np.hanning(16)
    for dt, cdt in (("float32", "complex64"), ("float16", "complex64"), ("bfloat16", "complex64")):
        got = nr.stft(nr.tensor(x, dtype=dt, device=device), 16, 4, window=nr.tensor(w, dtype=dt, device=device))
        assert got.dtype == nr.dtype(cdt)
        xr = nr.tensor(x, dtype=dt).numpy().astype(np.float64)
        wr = nr.tensor(w, dtype=dt).numpy().astype(np.float64)
        assert_close(got, np_stft(xr, 16, 4, window=wr)[0], rtol=1e-5, atol=2e-5)
    # scipy.signal.stft with boundary=None, padded=False frames the same way (its scaling: / sum(w))
    _, _, z = ss.stft(x, window=w, nperseg=16, noverlap=12, boundary=None, padded=False, detrend=False)
    got = nr.stft(nr.tensor(x, device=device), 16, 4, window=nr.tensor(w, device=device), center=False)
    assert_close(got, z * w.sum(), rtol=1e-10, atol=1e-10)
    xv = nr.tensor(np.stack([x, -x]), device=device)[:, ::-1]  # a negative-stride view
    assert_close(nr.stft(xv, 16), np_stft(np.stack([x, -x])[:, ::-1], 16), rtol=1e-10, atol=1e-10)
    xc = x[:40] + 1j * x[24:]  # complex input: two-sided
    sc = nr.stft(nr.tensor(xc, device=device), 8)
    assert sc.shape == (8, 21)
    assert_close(sc, np_stft(xc, 8)[0], rtol=1e-10, atol=1e-10)
    back = nr.istft(sc, 8, return_complex=True, length=40)
    assert back.dtype == nr.complex128
    assert_close(back, xc, rtol=1e-10, atol=1e-10)
    nan = x.copy()
    nan[30] = np.nan
    s = nr.stft(nr.tensor(nan, device=device), 8, center=False).numpy()
    assert np.isnan(s[:, 12:16]).all() and np.isfinite(s[:, :12]).all() and np.isfinite(s[:, 16:]).all()
    ri = nr.stft(nr.tensor(x, device=device), 8, return_complex=False)
    assert ri.shape == (5, 33, 2) and ri.dtype == nr.float64


def test_stft_errors(device):
    complex_device(device)
    x = nr.tensor(np.ones(20), device=device)
    with pytest.raises(nr.DomainError, match="n_fft"):
        nr.stft(x, 0)
    with pytest.raises(nr.DomainError, match="win_length"):
        nr.stft(x, 8, win_length=9)
    with pytest.raises(nr.DomainError, match="hop_length"):
        nr.stft(x, 8, hop_length=0)
    with pytest.raises(nr.ShapeError, match="window"):
        nr.stft(x, 8, window=nr.tensor(np.ones(7), device=device))
    with pytest.raises(nr.ShapeError, match="shorter"):
        nr.stft(x, 32, center=False)
    with pytest.raises(nr.ShapeError, match="stft"):
        nr.stft(nr.tensor(np.ones((2, 2, 20)), device=device), 8)
    with pytest.raises(nr.DomainError, match="pad_mode"):
        nr.stft(x, 8, pad_mode="mirror")
    s = nr.stft(x, 8)
    with pytest.raises(nr.ShapeError, match="frequency bins"):
        nr.istft(s, 10)
    with pytest.raises(nr.ShapeError, match="complex"):
        nr.istft(nr.real(s), 8)
    with pytest.raises(nr.DomainError, match="NOLA"):  # a window that vanishes between hops
        nr.istft(s, 8, hop_length=2, window=nr.tensor(np.array([0, 0, 0, 1.0, 1.0, 0, 0, 0]), device=device),
                 center=False)


def test_stft_gradients(device):
    complex_device(device)
    rng = np.random.default_rng(3)
    w = nr.tensor(np.hanning(8), device=device)
    check_grads(device, lambda x, win: nr.stft(x, 8, 3, window=win, return_complex=False),
                [rng.standard_normal(20), np.hanning(8)], rtol=1e-5, atol=1e-6)
    spec = nr.stft(nr.tensor(rng.standard_normal(20), device=device), 8, 2, window=w)
    re = nr.view_as_real(spec.contiguous()).numpy()
    check_grads(device, lambda s: nr.istft(nr.view_as_complex(s), 8, 2, window=w), [re], rtol=1e-5, atol=1e-6)


def test_wgpu_raises(device):
    if device != "wgpu":
        pytest.skip("the complex-less backend only")
    x = nr.tensor(np.ones(20, np.float32), device=device)
    with pytest.raises(nr.UnsupportedDType, match="stft"):
        nr.stft(x, 8)
