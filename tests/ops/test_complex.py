"""The complex family against NumPy: real/imag/view_as_real/view_as_complex as views of the same
memory (write-through both ways; strides and offsets of views of sliced, flipped, transposed,
broadcast, 0-d and empty tensors), conj/angle/complex/polar values bit for bit where NumPy's are
exact (NaN, inf and signed-zero parts), errors, and gradients in numr's complex convention
(reverse and forward mode against central differences on the real and imaginary parts)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, backward_with_graph, jvp

CDTYPES = ["complex64", "complex128"]
SPECIAL = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e-30])


def ctensor(a, device):
    """A complex tensor on device; WebGPU (no complex dtype) must refuse it, then the test skips."""
    if device == "wgpu":
        with pytest.raises(nr.UnsupportedDType, match="wgpu"):
            nr.tensor(a, device=device)
        pytest.skip("wgpu has no complex dtype (its errors: test_wgpu_raises_unsupported_dtype)")
    return nr.tensor(a, device=device)


def crand(shape, dtype="complex128", seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def special_pairs(dtype):
    """Every (re, im) pair of SPECIAL values: NaN, inf, signed zeros in both parts."""
    re, im = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
    out = np.empty(re.shape, dtype)
    out.real, out.imag = re, im
    return out


def same_bits(got, want):
    """Equal including signed zeros and NaN positions (complex compared part by part)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    for g, w in ((got.real, want.real), (got.imag, want.imag)) if got.dtype.kind == "c" else ((got, want),):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        ok = ~np.isnan(w)
        np.testing.assert_array_equal(g[ok], w[ok])
        np.testing.assert_array_equal(np.signbit(g[ok]), np.signbit(w[ok]))


# ---- views ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", CDTYPES)
def test_parts_are_writable_views(device, dtype):
    a = crand((3, 4), dtype)
    z = ctensor(a, device)
    rd = nr.dtype(dtype.replace("complex64", "float32").replace("complex128", "float64"))
    re, im = z.real, z.imag
    assert re.dtype == rd and im.dtype == rd and re.shape == im.shape == (3, 4)
    assert re.strides == im.strides == (8, 2) and re.storage_offset() == 0 and im.storage_offset() == 1
    assert_close(re, a.real, dtype=rd, rtol=0, atol=0)
    assert_close(nr.imag(z), a.imag, dtype=rd, rtol=0, atol=0)
    re[1] = 7.0                      # part -> complex
    im[:, 2] = nr.tensor(np.arange(3.0), dtype=rd, device=device)
    a[1].real = 7.0
    a[:, 2].imag = np.arange(3.0)
    assert_close(z, a, rtol=0, atol=0)
    z[0, 0] = 5 - 6j                 # complex -> part
    a[0, 0] = 5 - 6j
    assert float(re[0, 0].item()) == 5.0 and float(im[0, 0].item()) == -6.0
    z.real = 1.5                     # the setters copy into the view (NumPy's a.real = v)
    z.imag = nr.tensor(np.arange(4.0), dtype=rd, device=device)
    a.real, a.imag = 1.5, np.arange(4.0)
    assert_close(z, a, rtol=0, atol=0)
    assert_close(nr.view_as_real(z), np.stack([a.real, a.imag], -1), dtype=rd, rtol=0, atol=0)
    # the parts share z's version counter (autograd's saved-tensor check sees writes through them)
    v = z._version[0]
    re.fill_(0.0)
    assert z._version[0] == v + 1 and z.real._version is z._version


def _views(a):
    """(name, numpy view) pairs covering every kind of layout."""
    return [
        ("contiguous", a), ("sliced", a[1:, 2:]), ("step", a[::2, ::3]), ("flipped", a[::-1, ::-2]),
        ("transposed", a.T), ("row", a[2]), ("0-d", a[1, 1]), ("empty", a[:0]), ("empty-cols", a[:, 5:5]),
    ]


@pytest.mark.parametrize("dtype", CDTYPES)
def test_view_layouts(device, dtype):
    a = crand((4, 6), dtype, seed=1)
    z = ctensor(a, device)
    zs = {"contiguous": z, "sliced": z[1:, 2:], "step": z[::2, ::3], "flipped": z.flip(0)[:, ::-2],
          "transposed": z.T, "row": z[2], "0-d": z[1, 1], "empty": z[:0], "empty-cols": z[:, 5:5]}
    zs["flipped"] = z.flip((0, 1))[:, ::2]
    for name, av in _views(a):
        if name == "flipped":
            av = a[::-1, ::-1][:, ::2]
        v = zs[name]
        assert v.shape == av.shape, name
        lay = v._layout
        for part, want in ((v.real, av.real), (v.imag, av.imag)):
            assert part.shape == av.shape and part.strides == tuple(2 * s for s in lay.strides), name
            assert_close(part, want, rtol=0, atol=0)
        if v.size:
            assert v.real.storage_offset() == 2 * lay.offset and v.imag.storage_offset() == 2 * lay.offset + 1
        p = nr.view_as_real(v)
        assert p.shape == (*av.shape, 2) and p.strides == (*(2 * s for s in lay.strides), 1), name
        assert_close(p, np.stack([av.real, av.imag], -1), rtol=0, atol=0)
        back = nr.view_as_complex(p)
        assert back.shape == v.shape and back.dtype == v.dtype, name
        if v.size:
            assert back.strides == v.strides and back.storage_offset() == lay.offset, name
        assert_close(back, av, rtol=0, atol=0)
        # ops read the part views in place (strided kernels)
        assert_close(v.real * 2.0 + v.imag, av.real * 2.0 + av.imag, dtype=v.real.dtype)


def test_broadcast_view_and_writes_through_pairs(device):
    a = crand((1, 3), "complex64", seed=2)
    z = ctensor(a, device)
    b = z.broadcast_to((4, 3))
    assert b.real.strides == (0, 2) and b.imag.strides == (0, 2)
    assert_close(b.imag, np.broadcast_to(a.imag, (4, 3)), rtol=0, atol=0)
    p = nr.view_as_real(z)
    p[0, 1, 1] = -3.0                # a pair's imaginary element is z[0, 1].imag
    a[0, 1] = a[0, 1].real - 3j
    assert_close(z, a, rtol=0, atol=0)
    x = nr.tensor(np.arange(8.0, dtype=np.float32), device=device)
    w = nr.view_as_complex(x.reshape(4, 2))
    w[2] = 1 + 1j
    assert x.numpy()[4:6].tolist() == [1.0, 1.0]


def test_overlapping_writes_between_parts(device):
    """Writes whose source overlaps the destination through another view of the same memory read
    a snapshot of the source, as NumPy with a copied right-hand side."""
    a = (np.arange(6) + 1j * np.arange(10, 16)).astype(np.complex64)
    z = ctensor(a, device)
    z.real[1:] = z.real[:-1]
    a.real[1:] = a.real[:-1].copy()
    z.imag[:] = z.real.flip(0)
    a.imag[:] = a.real[::-1].copy()
    w, b = nr.view_as_real(z), a.view(np.float32).reshape(6, 2)
    w[:, 0] = w[:, 1].flip(0)
    b[:, 0] = b[:, 1][::-1].copy()
    z[1:] = nr.conj(z[:-1])
    a[1:] = np.conj(a[:-1])
    z.real[nr.tensor([0, 2, 4], device=device)] = z.imag[:3]
    a.real[[0, 2, 4]] = a.imag[:3].copy()
    assert_close(z, a, rtol=0, atol=0)


def test_real_inputs(device):
    for dtype in ("float32", "float64", "float16", "int32", "bool"):
        x = nr.tensor(np.array([1, 0, 1]).astype(nr.dtype(dtype).np), device=device)
        assert nr.real(x) is x and x.real is x and nr.conj(x) is x and nr.conj_physical(x) is x
        assert not nr.is_complex(x) and not x.is_complex()
        with pytest.raises(nr.DTypeError, match=f"imag.*{dtype}"):
            nr.imag(x)
        with pytest.raises(nr.DTypeError, match="imag"):
            _ = x.imag
        with pytest.raises(nr.DTypeError, match="view_as_real"):
            nr.view_as_real(x)


def test_view_as_complex_errors(device):
    x = nr.tensor(np.arange(24.0).reshape(3, 4, 2), device=device)
    if device != "wgpu":
        assert nr.view_as_complex(x).shape == (3, 4)
        assert nr.view_as_complex(x[1:]).storage_offset() == 4
        assert nr.view_as_complex(x[:0]).shape == (0, 4)
        assert nr.view_as_complex(x[:, :1]).shape == (3, 1)
    bad = {
        "last dim 3": nr.tensor(np.zeros((2, 3)), device=device),
        "last stride": nr.tensor(np.zeros((2, 4)), device=device).T,
        "odd offset": nr.tensor(np.zeros(7), device=device)[1:5].reshape(2, 2),
        "odd stride": nr.tensor(np.zeros((3, 3)), device=device)[:, :2],
        "0-d": nr.tensor(1.0, device=device),
        "flipped pair": x.flip(-1),
    }
    for t in bad.values():  # WebGPU refuses the complex dtype first
        with pytest.raises(nr.UnsupportedDType if device == "wgpu" else nr.ShapeError, match="view_as_complex"):
            nr.view_as_complex(t)
    for dtype in ("float16", "int32", "complex64" if device != "wgpu" else "int64"):
        with pytest.raises(nr.DTypeError, match="view_as_complex"):
            nr.view_as_complex(nr.zeros((2, 2), dtype=dtype, device=device))


# ---- conj, angle --------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", CDTYPES)
def test_conj_exact(device, dtype):
    a = special_pairs(dtype)
    z = ctensor(a, device)
    views = ((z, a), (z[2:], a[2:]), (z[1:4], a[1:4]), (z.T, a.T), (z[::-2, 1::3], a[::-2, 1::3]),
             (z[3, 2], a[3, 2]), (z[:0], a[:0]), (z[:1].broadcast_to((3, 8)), np.broadcast_to(a[:1], (3, 8))))
    for v, av in views:
        c = nr.conj(v)
        assert c.dtype == v.dtype and c.shape == v.shape
        same_bits(c.numpy(), np.conj(av))
        same_bits(v.conj_physical().numpy(), np.conj(av))
    assert_close(z, a, rtol=0, atol=0)  # the input is untouched (a copy, not in place)


@pytest.mark.parametrize("dtype", CDTYPES)
def test_angle_complex(device, dtype):
    a = special_pairs(dtype)
    z = ctensor(a, device)
    got = nr.angle(z)
    rd = nr.dtype(dtype.replace("complex64", "float32").replace("complex128", "float64"))
    assert got.dtype == rd and got.shape == a.shape
    want = np.angle(a.astype(np.complex128))
    assert_close(got, want, dtype=rd)
    same_bits(np.sign(got.numpy()), np.sign(want).astype(rd.np))  # quadrants and signed zeros
    r = crand((5, 7), dtype, seed=3)
    zr = ctensor(r, device)
    assert_close(nr.angle(zr.T[::-1]), np.angle(r.astype(np.complex128)).T[::-1], dtype=rd)
    assert_close(zr.angle(), np.angle(r.astype(np.complex128)), dtype=rd)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "bool"])
def test_angle_real(device, dtype):
    vals = SPECIAL if nr.dtype(dtype).kind == "f" else np.array([3, 0, -5, 1])
    if dtype == "bool":
        vals = np.array([True, False])
    a = vals.astype(nr.dtype(dtype).np)
    got = nr.angle(nr.tensor(a, device=device))
    want = np.angle(a.astype(np.float64) if dtype != "float16" else a)  # pi for negatives and -0.0
    out = dtype if nr.dtype(dtype).kind == "f" else "float64"
    assert_close(got, want, dtype=out)
    assert np.isnan(got.numpy()).tolist() == np.isnan(want).tolist()


def test_cast_to_real_keeps_the_real_part(device):
    a = special_pairs("complex128")
    z = ctensor(a, device)
    same_bits(nr.cast(z, nr.float64).numpy(), a.real)
    same_bits(nr.cast(z, nr.float32).numpy(), a.real.astype(np.float32))


# ---- complex, polar -----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_complex_builds_and_broadcasts(device, dtype):
    if device == "wgpu":
        pytest.skip("wgpu has no complex dtype (test_wgpu_raises_unsupported_dtype)")
    cd = {"float32": "complex64", "float64": "complex128"}[dtype]
    re = np.array(SPECIAL, dtype)[:, None]              # (8, 1)
    im = np.array(SPECIAL[::-1], dtype)                 # (8,)
    got = nr.complex(nr.tensor(re, device=device), nr.tensor(im, device=device))
    want = np.empty((8, 8), cd)
    want.real, want.imag = np.broadcast_to(re, (8, 8)), np.broadcast_to(im, (8, 8))
    assert got.shape == (8, 8) and got.dtype == nr.dtype(cd)
    same_bits(got.numpy(), want)
    rng = np.random.default_rng(4)
    base = rng.standard_normal((6, 5)).astype(dtype)
    x = nr.tensor(base, device=device)
    for r, i, ar, ai in ((x.T, x.T.flip(0), base.T, base.T[::-1]), (x[1:, ::2], x[:5, ::2], base[1:, ::2],
                         base[:5, ::2]), (x[2, 3], x[0, 0], base[2, 3], base[0, 0]), (x[:0], x[:0], base[:0],
                         base[:0])):
        assert_close(nr.complex(r, i), ar + 1j * ai.astype(cd), dtype=cd, rtol=0, atol=0)
    assert_close(nr.complex(x, 2.0), base + 2j, dtype=cd, rtol=0, atol=0)  # a number takes x's dtype
    assert_close(nr.complex(0, x), 1j * base.astype(cd), dtype=cd, rtol=0, atol=0)


def test_complex_errors(device):
    f32 = nr.zeros((2, 3), dtype=nr.float32, device=device)
    f64 = nr.zeros((2, 3), dtype=nr.float64, device=device)
    cases = [(f32, f64), (nr.zeros(3, dtype=nr.float16, device=device),) * 2,
             (nr.zeros(3, dtype=nr.int32, device=device),) * 2, (f32, 1j)]
    for op in (nr.complex, nr.polar):
        for a, b in cases:
            with pytest.raises(nr.DTypeError, match=op.__name__):
                op(a, b)
    if device != "wgpu":
        with pytest.raises(nr.ShapeError, match=r"complex.*\(2, 3\).*\(4,\)"):
            nr.complex(f32, nr.zeros(4, dtype=nr.float32, device=device))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polar(device, dtype):
    if device == "wgpu":
        pytest.skip("wgpu has no complex dtype (test_wgpu_raises_unsupported_dtype)")
    rng = np.random.default_rng(5)
    r = rng.uniform(0, 3, (4, 5)).astype(dtype)
    t = rng.uniform(-4, 4, (5,)).astype(dtype)
    got = nr.polar(nr.tensor(r, device=device), nr.tensor(t, device=device))
    cd = {"float32": "complex64", "float64": "complex128"}[dtype]
    want = r.astype(np.float64) * np.exp(1j * t.astype(np.float64))
    assert_close(got, want, dtype=cd, atol=1e-6 if dtype == "float32" else 1e-12)
    assert_close(nr.abs(got), np.abs(want), atol=1e-5 if dtype == "float32" else 1e-12)


def test_wgpu_raises_unsupported_dtype(device):
    x = nr.tensor(np.ones((2, 2), np.float32), device=device)
    ops = {"complex": lambda: nr.complex(x, x), "polar": lambda: nr.polar(x, x),
           "view_as_complex": lambda: nr.view_as_complex(x)}
    for op, f in ops.items():
        if device == "wgpu":
            with pytest.raises(nr.UnsupportedDType, match=f"wgpu.*{op}.*complex64"):
                f()
        else:
            assert f().dtype == nr.complex64
    assert nr.real(x) is x and nr.conj(x) is x and nr.angle(x).tolist() == [[0.0, 0.0], [0.0, 0.0]]


# ---- autograd -------------------------------------------------------------------------------------
def _grad_device(device):
    if device == "wgpu":
        pytest.skip("wgpu has no complex dtype")
    return device


LOSSES = {
    "real": lambda z: (nr.real(z) * nr.real(z)).sum(),
    "imag": lambda z: (z.imag ** 3).sum(),
    "angle": lambda z: (nr.angle(z) * nr.real(z)).sum(),
    "abs": lambda z: (nr.abs(z) * nr.imag(z)).sum(),
    "conj": lambda z: nr.real(nr.conj(z) * nr.conj(z) * z).sum(),
    "conj_physical": lambda z: nr.imag(nr.conj_physical(z) * z * z).sum(),
    "view_as_real": lambda z: (nr.view_as_real(z * z)[..., 1] * nr.view_as_real(z)[..., 0]).sum(),
    "view_as_complex": lambda z: nr.abs(nr.view_as_complex(nr.view_as_real(z) * 2.0 + 1.0)).sum(),
    "complex": lambda z: nr.real(nr.complex(nr.imag(z), nr.real(z) ** 2) * z).sum(),
    "polar": lambda z: nr.imag(nr.polar(nr.abs(z), nr.angle(z) * 2.0) * z).sum(),
    "cast": lambda z: (nr.cast(z * z, nr.float64) * nr.angle(z)).sum(),
}


def _central(f, a, device, eps=1e-6):
    """(dL/dx, dL/dy) of the real loss f at complex a, element by element."""
    gx, gy = np.zeros(a.shape), np.zeros(a.shape)
    for k in np.ndindex(a.shape):
        for out, step in ((gx, eps), (gy, 1j * eps)):
            p, m = a.copy(), a.copy()
            p[k] += step
            m[k] -= step
            out[k] = (float(f(nr.tensor(p, device=device)).item()) - float(f(nr.tensor(m, device=device)).item())) \
                / (2 * eps)
    return gx, gy


@pytest.mark.parametrize("name", list(LOSSES))
def test_gradients_central_differences(device, name):
    device = _grad_device(device)
    f = LOSSES[name]
    a = crand((2, 3), seed=6)
    gx, gy = _central(f, a, device)
    v = Var(nr.tensor(a, device=device))
    g = backward(f(v))[v]
    assert g.dtype == nr.complex128 and g.shape == a.shape
    # numr's convention: the gradient of a real loss is dL/dx - i dL/dy
    assert_close(g, gx - 1j * gy, rtol=1e-6, atol=1e-7)
    for tangent, want in ((np.ones(a.shape) + 0j, gx.sum()), (1j * np.ones(a.shape), gy.sum())):
        out, t = jvp(f, (nr.tensor(a, device=device),), (nr.tensor(tangent, device=device),))
        assert t.dtype == nr.float64 and t.shape == ()
        assert abs(float(t.item()) - want) < 1e-6 * max(1.0, abs(want))


def test_gradients_of_real_inputs(device):
    device = _grad_device(device)
    rng = np.random.default_rng(7)
    r, t = rng.uniform(0.5, 2, (3,)), rng.uniform(-3, 3, (2, 3))
    w = crand((2, 3), seed=8)

    def f(r, t):
        return nr.real(nr.polar(r, t) * nr.tensor(w, device=device)).sum() + (nr.imag(nr.complex(t, r)) ** 2).sum()

    rv, tv = Var(nr.tensor(r, device=device)), Var(nr.tensor(t, device=device))
    gs = backward(f(rv, tv))
    for var, base, which in ((rv, r, 0), (tv, t, 1)):
        num = np.zeros(base.shape)
        for k in np.ndindex(base.shape):
            p, m = base.copy(), base.copy()
            p[k] += 1e-6
            m[k] -= 1e-6
            args_p = [nr.tensor(x, device=device) for x in ((p, t) if which == 0 else (r, p))]
            args_m = [nr.tensor(x, device=device) for x in ((m, t) if which == 0 else (r, m))]
            num[k] = (float(f(*args_p).item()) - float(f(*args_m).item())) / 2e-6
        assert gs[var].dtype == nr.float64
        assert_close(gs[var], num, rtol=1e-6, atol=1e-7)
    _, tan = jvp(f, (nr.tensor(r, device=device), nr.tensor(t, device=device)),
                 (nr.tensor(np.ones(3), device=device), nr.tensor(np.zeros((2, 3)), device=device)))
    assert abs(float(tan.item()) - float(gs[rv].sum().item())) < 1e-9


def test_second_order_and_edges(device):
    device = _grad_device(device)
    a = crand((3,), seed=9)
    f = LOSSES["angle"]
    v = Var(nr.tensor(a, device=device))
    g = backward_with_graph(f(v))[v]
    # d/dz of <Re(g), 1>: central differences of the first gradient's real part
    h = backward(nr.real(g).sum())[v]
    gx, gy = _central(lambda z: nr.real(_grad(f, z)).sum(), a, device)
    assert_close(h, gx - 1j * gy, rtol=1e-5, atol=1e-6)
    # angle at z = 0 has gradient 0 (torch), not NaN; a real input's angle has none
    z0 = Var(nr.tensor(np.zeros(2, np.complex128), device=device))
    assert backward(nr.angle(z0).sum())[z0].tolist() == [0j, 0j]
    x = Var(nr.tensor([-1.0, 2.0], device=device))
    assert nr.angle(x).requires_grad is False
    # Var and DualTensor have the part properties
    assert_close(v.real.tensor, a.real, rtol=0, atol=0)
    assert_close(v.imag.tensor, a.imag, rtol=0, atol=0)
    assert v.is_complex()


def _grad(f, z):
    v = Var(z)
    return backward(f(v))[v]
