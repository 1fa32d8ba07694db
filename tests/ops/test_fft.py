"""The FFT family against np.fft (complex128 oracle): lengths 1 to 10007 (powers of two, smooth,
primes), every norm, n/s padding and cropping, every dim, batched, strided/offset/flipped
views, fftn over subsets of dims, irfft with odd n, input dtypes (complex, float, half, int,
bool), fftfreq/fftshift, errors, WebGPU's UnsupportedDType. Gradients: tests/autograd/test_fft_grad.py."""

from __future__ import annotations

import numpy as np
import pytest

import numr as nr

OPS_1D = ("fft", "ifft", "rfft", "irfft")
NORMS = (None, "backward", "ortho", "forward")


def needs_complex(device):
    if device == "wgpu":
        pytest.skip("WebGPU has no complex dtype: test_wgpu_raises covers it")


def check(got, expected, dtype, rel=None):
    """Shape, dtype and values within rel * max(1, max |expected|) (an FFT's error scales with
    the transform's magnitude, not with each output's)."""
    expected = np.asarray(expected)
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
    assert got.dtype == nr.dtype(dtype), f"dtype {got.dtype} != {dtype}"
    if rel is None:
        rel = 2e-12 if nr.dtype(dtype) in (nr.complex128, nr.float64) else 2e-6
    g = got.numpy().astype(np.complex128)
    scale = max(1.0, float(np.abs(expected).max())) if expected.size else 1.0
    err = float(np.abs(g - expected).max()) if expected.size else 0.0
    assert err <= rel * scale * 4, f"max error {err} > {rel * scale * 4}"


def crandn(rng, shape, dtype=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def np_op(op, a, **kw):
    return getattr(np.fft, op)(a, **kw)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 12, 16, 30, 49, 61, 97, 102, 143, 1000, 1024, 10007])
@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_fft_ifft_lengths(device, n, dtype):
    needs_complex(device)
    rng = np.random.default_rng(n)
    a = crandn(rng, (n,), dtype)
    x = nr.tensor(a, device=device)
    for op in ("fft", "ifft"):
        check(getattr(nr, op)(x), np_op(op, a.astype(np.complex128)), dtype)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 12, 30, 97, 1000, 1024])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_rfft_irfft_lengths(device, n, dtype):
    needs_complex(device)
    rng = np.random.default_rng(n)
    a = rng.standard_normal((2, n)).astype(dtype)
    cdt = "complex128" if dtype == "float64" else "complex64"
    check(nr.rfft(nr.tensor(a, device=device)), np.fft.rfft(a.astype(np.float64)), cdt)
    spec = crandn(rng, (2, n // 2 + 1), np.complex128 if dtype == "float64" else np.complex64)
    check(nr.irfft(nr.tensor(spec, device=device), n=n), np.fft.irfft(spec.astype(np.complex128), n=n), dtype)


@pytest.mark.parametrize("dtype,out", [("float64", "complex128"), ("float32", "complex64"), ("float16", "complex64"),
                                       ("bfloat16", "complex64"), ("int32", "complex128"), ("int64", "complex128"),
                                       ("uint8", "complex128"), ("bool", "complex128"),
                                       ("float8_e4m3fn", "complex64"), ("float8_e5m2", "complex64")])
def test_input_dtypes(device, dtype, out):
    needs_complex(device)
    rng = np.random.default_rng(0)
    a = rng.integers(-100, 100, (3, 12)) if dtype not in ("uint8", "bool") else rng.integers(0, 2, (3, 12))
    if dtype in ("int32", "int64"):
        a[0, :2] = (np.iinfo(dtype).max, np.iinfo(dtype).min)  # integer edge values
    a = a.astype(nr.dtype(dtype).np)
    try:
        x = nr.tensor(a, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))
    ref = a.astype(np.float64)
    rel = 2e-12 if out == "complex128" else 2e-6
    check(nr.fft(x), np.fft.fft(ref), out, rel)
    check(nr.ifft(x), np.fft.ifft(ref), out, rel)
    check(nr.rfft(x), np.fft.rfft(ref), out, rel)
    check(nr.fftn(x), np.fft.fftn(ref), out, rel)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("op", OPS_1D)
def test_norm_and_n(device, op, norm):
    needs_complex(device)
    rng = np.random.default_rng(1)
    a = crandn(rng, (3, 10)) if op != "rfft" else rng.standard_normal((3, 10))
    x = nr.tensor(a, device=device)
    out = "float64" if op == "irfft" else "complex128"
    for n in (None, 1, 4, 7, 10, 13, 16, 25):
        check(getattr(nr, op)(x, n=n, norm=norm), np_op(op, a, n=n, norm=norm), out)


@pytest.mark.parametrize("op", OPS_1D)
def test_every_dim_batched(device, op):
    needs_complex(device)
    rng = np.random.default_rng(2)
    a = crandn(rng, (4, 5, 6)) if op != "rfft" else rng.standard_normal((4, 5, 6))
    x = nr.tensor(a, device=device)
    for dim in (0, 1, 2, -1, -3):
        for n in (None, 7):
            check(getattr(nr, op)(x, n=n, dim=dim), np_op(op, a, n=n, axis=dim),
                  "float64" if op == "irfft" else "complex128")
    # columns in tiles of 16 neighbouring rows on the CPU: 37 = 2 tiles and a partial one
    b = crandn(rng, (10, 37)) if op != "rfft" else rng.standard_normal((10, 37))
    for n in (None, 6, 13):
        check(getattr(nr, op)(nr.tensor(b, device=device), n=n, dim=0), np_op(op, b, n=n, axis=0),
              "float64" if op == "irfft" else "complex128")


@pytest.mark.parametrize("op", OPS_1D)
def test_views(device, op):
    """Transposed, sliced (offset), stepped and flipped inputs, read in place."""
    needs_complex(device)
    rng = np.random.default_rng(3)
    a = crandn(rng, (6, 9, 8)) if op != "rfft" else rng.standard_normal((6, 9, 8))
    x = nr.tensor(a, device=device)
    views = [(x.transpose(0, 2), a.transpose(2, 1, 0)), (x[1:5, 2:, 1:7], a[1:5, 2:, 1:7]),
             (x[::2, ::-1, ::3], a[::2, ::-1, ::3]), (x.flip(2), a[:, :, ::-1]),
             (x[2:3].broadcast_to((4, 9, 8)), np.broadcast_to(a[2:3], (4, 9, 8))),  # stride 0
             (x[:, :, 3:4].broadcast_to((6, 9, 5)), np.broadcast_to(a[:, :, 3:4], (6, 9, 5)))]
    for v, ref in views:
        for dim in (0, 1, 2):
            check(getattr(nr, op)(v, dim=dim), np_op(op, ref, axis=dim), "float64" if op == "irfft" else "complex128")
    assert x.numpy().tolist() == a.tolist()  # the input is untouched


def test_nd_ops(device):
    needs_complex(device)
    rng = np.random.default_rng(4)
    a = crandn(rng, (3, 4, 5, 6))
    r = rng.standard_normal((3, 4, 5, 6))
    x, xr = nr.tensor(a, device=device), nr.tensor(r, device=device)
    cases = [dict(), dict(dim=(1,)), dict(dim=(0, 2)), dict(dim=(3, 1)), dict(s=(3, 8)), dict(s=(2, 7), dim=(0, 3)),
             dict(s=(5, 4, 9), dim=(2, 0, 1)), dict(dim=(-1, -2), norm="ortho"), dict(s=(4, 4), norm="forward")]
    for kw in cases:
        npkw = {("axes" if k == "dim" else k): v for k, v in kw.items()}
        if "s" in kw and "dim" not in kw:
            npkw["axes"] = tuple(range(-len(kw["s"]), 0))
        check(nr.fftn(x, **kw), np.fft.fftn(a, **npkw), "complex128")
        check(nr.ifftn(x, **kw), np.fft.ifftn(a, **npkw), "complex128")
        check(nr.rfftn(xr, **kw), np.fft.rfftn(r, **npkw), "complex128")
        check(nr.irfftn(x, **kw), np.fft.irfftn(a, **npkw), "float64")
    for op in ("fft2", "ifft2", "rfft2", "irfft2"):
        src, ref = (xr, r) if op == "rfft2" else (x, a)
        check(getattr(nr, op)(src), np_op(op, ref), "float64" if op == "irfft2" else "complex128")
        check(getattr(nr, op)(src, s=(3, 5), dim=(0, 2)), np_op(op, ref, s=(3, 5), axes=(0, 2)),
              "float64" if op == "irfft2" else "complex128")


@pytest.mark.parametrize("seed", range(12))
def test_random_nd_cases(device, seed):
    """Random ranks, shapes, dim subsets, lengths, norms and views against np.fft."""
    needs_complex(device)
    rng = np.random.default_rng(100 + seed)
    ndim = int(rng.integers(1, 4))
    shape = tuple(int(v) for v in rng.integers(1, 9, ndim))
    a = crandn(rng, shape)
    x = nr.tensor(a, device=device)
    if rng.random() < 0.5:  # a flipped, stepped view
        x, a = x.flip(0)[::1], a[::-1]
    k = int(rng.integers(1, ndim + 1))
    dims = tuple(int(d) for d in rng.permutation(ndim)[:k])
    s = tuple(int(v) for v in rng.integers(1, 11, k)) if rng.random() < 0.6 else None
    norm = NORMS[int(rng.integers(0, 4))]
    for op in ("fftn", "ifftn", "rfftn", "irfftn"):
        src, ref = (nr.tensor(a.real.copy(), device=device), a.real) if op == "rfftn" else (x, a)
        if op == "irfftn" and s is None and a.shape[dims[-1]] == 1:
            continue  # default n = 0: the error test covers it
        check(getattr(nr, op)(src, s=s, dim=dims, norm=norm), np_op(op, ref, s=s, axes=dims, norm=norm),
              "float64" if op == "irfftn" else "complex128")


def test_many_dims(device):
    """35 dims: past the CPU kernel's 32 batch dims (the generic composite takes them)."""
    needs_complex(device)
    a = np.random.default_rng(12).standard_normal((2,) + (1,) * 33 + (3,))
    x = nr.tensor(a, device=device)
    check(nr.fft(x), np.fft.fft(a), "complex128")
    check(nr.irfft(nr.fft(x), n=3), a, "float64")
    check(nr.rfft(x, dim=0), np.fft.rfft(a, axis=0), "complex128")


def test_irfft_odd_and_default_n(device):
    needs_complex(device)
    rng = np.random.default_rng(5)
    spec = crandn(rng, (2, 6))  # bin 0 (and n/2) have imaginary parts, which irfft ignores
    x = nr.tensor(spec, device=device)
    for n in (None, 9, 10, 11, 3, 1, 2):
        check(nr.irfft(x, n=n), np.fft.irfft(spec, n=n), "float64")
    check(nr.irfft(nr.tensor(spec[:, :1], device=device), n=1), np.fft.irfft(spec[:, :1], n=1), "float64")


@pytest.mark.parametrize("norm", NORMS)
def test_hfft_ihfft(device, norm):
    needs_complex(device)
    rng = np.random.default_rng(10)
    a, r = crandn(rng, (3, 5)), rng.standard_normal((3, 8))
    for n in (None, 7, 8, 3):
        check(nr.hfft(nr.tensor(a, device=device), n=n, norm=norm), np.fft.hfft(a, n=n, norm=norm), "float64")
        check(nr.ihfft(nr.tensor(r, device=device), n=n, norm=norm), np.fft.ihfft(r, n=n, norm=norm), "complex128")
    check(nr.hfft(nr.tensor(a, device=device), dim=0), np.fft.hfft(a, axis=0), "float64")


def test_threads_same_result(device):
    """Rows split between threads give the same numbers as one thread."""
    needs_complex(device)
    rng = np.random.default_rng(11)
    a = crandn(rng, (64, 1000))
    x = nr.tensor(a, device=device)
    before = nr.get_num_threads()
    try:
        nr.set_num_threads(1)
        one = [nr.fft(x).numpy(), nr.fft(x, dim=0).numpy(), nr.irfft(x).numpy()]
        nr.set_num_threads(2)
        two = [nr.fft(x).numpy(), nr.fft(x, dim=0).numpy(), nr.irfft(x).numpy()]
    finally:
        nr.set_num_threads(before)
    for p, q in zip(one, two, strict=True):
        np.testing.assert_array_equal(p, q)
    check(nr.fft(x, dim=0), np.fft.fft(a, axis=0), "complex128")
    # one long row: the threads split each stage (Stockham radix 4, Bluestein, the real passes)
    for n in (65536, 40028, 36015):
        b = crandn(rng, (n,))
        y, r = nr.tensor(b, device=device), nr.tensor(b.real.copy(), device=device)
        try:
            nr.set_num_threads(2)
            got = [nr.fft(y), nr.ifft(y, norm="ortho"), nr.rfft(r), nr.irfft(y, n=n)]
        finally:
            nr.set_num_threads(before)
        check(got[0], np.fft.fft(b), "complex128")
        check(got[1], np.fft.ifft(b, norm="ortho"), "complex128")
        check(got[2], np.fft.rfft(b.real), "complex128")
        check(got[3], np.fft.irfft(b, n=n), "float64")


def test_lists_and_arrays():
    """Lists and NumPy arrays are tensors on the default device, as for other ops."""
    check(nr.fft([1.0, 2.0, 4.0]), np.fft.fft([1.0, 2.0, 4.0]), "complex128")
    check(nr.rfft(np.arange(6.0)), np.fft.rfft(np.arange(6.0)), "complex128")
    np.testing.assert_array_equal(nr.fftshift([0, 1, 2, 3]).numpy(), np.fft.fftshift([0, 1, 2, 3]))


def test_roundtrip_and_complex64(device):
    needs_complex(device)
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 30)).astype(np.float32)
    x = nr.tensor(a, device=device)
    y = nr.irfft(nr.rfft(x), n=30)
    check(y, a, "float32")
    c = crandn(rng, (4, 12), np.complex64)
    check(nr.ifft2(nr.fft2(nr.tensor(c, device=device))), c, "complex64")


def test_empty_batch_and_special_values(device):
    needs_complex(device)
    x = nr.zeros((0, 4), dtype=nr.complex128, device=device)
    for op in OPS_1D:
        got = getattr(nr, op)(x if op != "rfft" else nr.zeros((0, 4), dtype=nr.float64, device=device))
        ref = np_op(op, np.zeros((0, 4), np.complex128 if op != "rfft" else np.float64))
        assert got.shape == ref.shape and got.dtype == nr.dtype(ref.dtype.name)
    a = np.array([1.0, np.nan, 2.0, 3.0])
    assert np.isnan(nr.fft(nr.tensor(a, device=device)).numpy()).all()
    for b in ([np.inf, 0.0, 0.0, 0.0, 0.0], [np.inf, 0.0, 0.0, 0.0]):
        b = np.array(b)
        got = nr.fft(nr.tensor(b, device=device)).numpy()
        if device == "cpu":  # the kernel skips unit twiddles: no inf * 0
            np.testing.assert_array_equal(got, np.fft.fft(b))
        else:  # the composite's DFT-matrix product multiplies inf by 0 in the imaginary parts
            assert np.isposinf(got.real).all()


def test_fftfreq_and_shift(device):
    for n in (1, 2, 5, 8):
        for d in (1.0, 0.25):
            f = nr.fftfreq(n, d, device=device)
            assert f.dtype == nr.float64 and str(f.device).startswith(device)
            np.testing.assert_allclose(f.numpy(), np.fft.fftfreq(n, d), rtol=1e-15)
            np.testing.assert_allclose(nr.rfftfreq(n, d, device=device).numpy(), np.fft.rfftfreq(n, d), rtol=1e-15)
    assert nr.fftfreq(4, dtype=nr.float32, device=device).dtype == nr.float32
    np.testing.assert_allclose(nr.fftfreq(6, np.float32(0.5), device=device).numpy(), np.fft.fftfreq(6, 0.5))
    a = np.arange(30).reshape(5, 6)
    x = nr.tensor(a, device=device)
    for dim in (None, 0, 1, (0, 1), -1):
        np.testing.assert_array_equal(nr.fftshift(x, dim).numpy(), np.fft.fftshift(a, dim))
        np.testing.assert_array_equal(nr.ifftshift(x, dim).numpy(), np.fft.ifftshift(a, dim))
    np.testing.assert_array_equal(nr.ifftshift(nr.fftshift(x)).numpy(), a)


def test_errors(device):
    needs_complex(device)
    x = nr.tensor(crandn(np.random.default_rng(0), (3, 4)), device=device)
    for op in OPS_1D + ("fftn",):
        fn = getattr(nr, op)
        arg = x if op != "rfft" else nr.tensor(np.ones((3, 4)), device=device)
        with pytest.raises(nr.ShapeError, match="invalid number of FFT data points"):
            fn(arg, 0) if op != "fftn" else fn(arg, (0,))
        with pytest.raises(nr.ShapeError, match="invalid number"):
            fn(arg, -2) if op != "fftn" else fn(arg, (3, -2))
        with pytest.raises(ValueError, match="norm"):
            fn(arg, norm="bad")
        with pytest.raises(IndexError):
            fn(arg, dim=2) if op != "fftn" else fn(arg, dim=(2,))
    with pytest.raises(nr.ShapeError, match="0-d"):
        nr.fft(nr.tensor(1.0, device=device))
    with pytest.raises(nr.ShapeError, match="0-d"):
        nr.fft(2.0)
    with pytest.raises(nr.ShapeError, match="repeated"):
        nr.fftn(x, dim=(0, 0))
    with pytest.raises(nr.ShapeError, match="differ in length"):
        nr.fftn(x, s=(2, 3, 4), dim=(0, 1))
    with pytest.raises(nr.DTypeError, match="real input"):
        nr.rfft(x)
    with pytest.raises(nr.ShapeError, match=r"\(0\)"):
        nr.fft(nr.zeros((3, 0), dtype=nr.complex64, device=device))
    with pytest.raises(nr.ShapeError, match=r"\(0\)"):
        nr.irfft(x[:, :1])  # default n = 2 * (1 - 1)
    with pytest.raises(nr.ShapeError):
        nr.fftfreq(0)
    with pytest.raises(nr.DTypeError, match="float dtype"):
        nr.fftfreq(4, dtype=nr.int32)
    with pytest.raises(nr.DTypeError, match="real number"):
        nr.rfftfreq(4, d="x")


def test_wgpu_raises(device):
    if device != "wgpu":
        pytest.skip("WebGPU only")
    x = nr.tensor(np.ones((2, 8), np.float32), device="wgpu")
    for op in OPS_1D[:3] + ("fft2", "fftn", "rfftn", "hfft", "ihfft"):
        with pytest.raises(nr.UnsupportedDType, match=f"wgpu: {op} is not supported"):
            getattr(nr, op)(x)
    np.testing.assert_allclose(nr.fftfreq(4, device="wgpu").numpy(), np.fft.fftfreq(4))
