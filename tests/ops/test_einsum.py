"""einsum against np.einsum: a broad set of equations (transpose, trace, diagonal, batch
matmul, outer, bilinear, chains, ellipsis anywhere, size-1 broadcasting, empty dims, 0-d
operands), dtypes (integers, float16/bfloat16, complex, mixed), non-contiguous / offset /
flipped operands, errors; gradients by central differences (float64) and jvp."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp


def make(a, device, dtype=None):
    try:
        return nr.tensor(a, dtype=dtype, device=device)
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def ints(shape, seed=0, lo=-3, hi=4):
    """Small integer values: exact in every dtype, so every dtype is compared exactly."""
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(np.float64)


EQUATIONS = [
    ("ij->ji", [(2, 3)]),
    ("ij", [(2, 3)]),
    ("ji", [(2, 3)]),  # implicit output in ASCII order: a transpose
    ("ii->", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ii->i", [(4, 4)]),
    ("iij->j", [(3, 3, 2)]),
    ("iji->ij", [(3, 2, 3)]),
    ("iii->i", [(3, 3, 3)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,ji->", [(2, 3), (3, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("ik,kl,il->i", [(2, 3), (3, 4), (2, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl,lm->mi", [(2, 3), (3, 4), (4, 2), (2, 3)]),
    ("i,i,i->i", [(4,), (4,), (4,)]),
    ("ab,cd->abcd", [(2, 1), (3, 2)]),
    ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]),
    ("Ab,bA->A", [(3, 2), (2, 3)]),
    ("ba,Bb->aB", [(2, 3), (4, 2)]),
    ("...ij->...ji", [(2, 3, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...j->...", [(2, 3, 4, 5)]),
    ("a...b,b...->...a", [(2, 3, 4, 5), (5, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),  # ellipsis dims broadcast (size 1 and missing)
    ("...ij,...jk", [(2, 3, 4), (4, 2)]),
    ("ij...,jk...->ik...", [(2, 3, 4), (3, 5, 1)]),
    ("i...,i...->...", [(3,), (3, 2)]),
    ("ij,ij->ij", [(2, 3), (1, 3)]),  # a size-1 dim broadcasts
    ("ij,jk->ik", [(2, 1), (3, 4)]),  # ...even a contracted one
    ("->", [()]),
    (",->", [(), ()]),
    (",i->i", [(), (3,)]),
    ("i,->i", [(3,), ()]),
    ("ij,jk->ik", [(2, 0), (0, 3)]),  # empty contraction: zeros
    ("ij,jk->ik", [(0, 3), (3, 2)]),
    ("ii->i", [(0, 0)]),
    ("  i j , j k  ->  i k ", [(2, 3), (3, 2)]),  # spaces
]


@pytest.mark.parametrize("eq,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_against_numpy(device, eq, shapes):
    arrs = [ints(s, seed=i) for i, s in enumerate(shapes)]
    expected = np.einsum(eq, *arrs, optimize=True)
    for dtype in ("float32", "int32"):
        got = nr.einsum(eq, *[make(a.astype(dtype), device) for a in arrs])
        assert_close(got, expected, dtype=dtype, rtol=0, atol=0)


def test_random_values_float32(device):
    rng = np.random.default_rng(5)
    a, b, c = rng.standard_normal((3, 7, 5)), rng.standard_normal((5, 6)), rng.standard_normal((6, 3))
    got = nr.einsum("bij,jk,kb->bi", *[make(x.astype(np.float32), device) for x in (a, b, c)])
    assert_close(got, np.einsum("bij,jk,kb->bi", a, b, c), dtype="float32", rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "bfloat16", "float8_e4m3fn",
                                   "float64", "complex64", "complex128"])
def test_dtypes(device, dtype):
    """Small integers: every product and sum is exact in every dtype (float8 e4m3: up to 16,
    kept by values in {0, 1} and sums of at most 4 terms). bool: NumPy's or-of-ands."""
    a, b = ints((2, 3, 4), 1), ints((2, 4, 3), 2)
    if dtype == "uint8":
        a, b = np.abs(a), np.abs(b)
    if dtype in ("bool", "float8_e4m3fn"):
        a, b = (a > 0).astype(np.float64), (b > 0).astype(np.float64)
    if dtype == "bool":
        a, b = a > 0, b > 0
    if dtype.startswith("complex"):
        a, b = a + 1j * ints((2, 3, 4), 3), b - 2j * ints((2, 4, 3), 4)
    x, y = make(a, device, dtype), make(b, device, dtype)
    for eq in ("bij,bjk->bik", "bij,bji->b", "bii->bi", "bij->"):
        ops = (a, b) if "," in eq else (a[:, :, :3],)
        args = (x, y) if "," in eq else (x[:, :, :3],)
        got = nr.einsum(eq, *args)
        assert_close(got, np.einsum(eq, *ops), dtype=dtype, rtol=0, atol=0)


def test_mixed_dtypes_promote(device):
    a, b = ints((2, 3), 1), ints((3, 2), 2)
    got = nr.einsum("ij,jk->ik", make(a, device, "int32"), make(b, device, "float32"))
    assert_close(got, a @ b, dtype="float32", rtol=0, atol=0)
    got = nr.einsum("ij,jk->ik", make(a, device, "float16"), make(b, device, "float32"))
    assert_close(got, a @ b, dtype="float32", rtol=0, atol=0)
    got = nr.einsum("ij,jk->ik", make(a, device, "int8"), make(b, device, "int64"))
    assert_close(got, a @ b, dtype="int64", rtol=0, atol=0)


def test_views_as_operands(device):
    base = ints((6, 8), 3)
    x = make(base, device, "float32")
    t = x.T  # transposed (8, 6)
    s = x[1:5, 2:7]  # offset (4, 5)
    f = x.flip(0)[::2]  # flipped, strided (3, 8)
    ok = base.T, base[1:5, 2:7], base[::-1][::2]
    assert_close(nr.einsum("ij,jk->ik", f, t), ok[2] @ ok[0], rtol=0, atol=0)
    assert_close(nr.einsum("ij,ij->i", s, s), np.einsum("ij,ij->i", ok[1], ok[1]), rtol=0, atol=0)
    assert_close(nr.einsum("ii->i", x[1:5, 3:7]), np.diag(base[1:5, 3:7]), rtol=0, atol=0)
    assert_close(nr.einsum("ji,jk->ik", s, x.flip(1)[1:5]), ok[1].T @ base[:, ::-1][1:5], rtol=0, atol=0)
    e = make(np.ones((3, 1)), device, "float32").expand(3, 4)  # stride-0 broadcast view
    assert_close(nr.einsum("ij,jk->ik", e, t[:4]), np.ones((3, 4)) @ base.T[:4], rtol=0, atol=0)


def test_list_operands_method_nan_inf(device):
    a, b = ints((2, 3), 1), ints((3, 2), 2)
    x, y = make(a, device, "float32"), make(b, device, "float32")
    assert_close(nr.einsum("ij,jk->ik", [x, y]), a @ b, rtol=0, atol=0)
    assert_close(nr.einsum("ij,jk->ik", (x, y)), a @ b, rtol=0, atol=0)
    v = make(np.array([1.0, np.inf, np.nan]), device, "float32")
    got = nr.einsum("i,i->i", v, v).numpy()
    assert got[0] == 1 and np.isinf(got[1]) and np.isnan(got[2])
    r = nr.einsum("ij->ij", x)
    assert r.shape == (2, 3) and np.array_equal(r.numpy(), a.astype(np.float32))


@pytest.mark.parametrize("eq,shapes,match", [
    ("ij,jk->ik", [(2, 3)], "operands"),
    ("ij->ik", [(2, 3)], "'k'"),
    ("ij->ii", [(2, 3)], "repeats"),
    ("ij", [(2, 3, 4)], "dims"),
    ("ijk", [(2, 3)], "dims"),
    ("ij,jk", [(2, 3), (4, 5)], "sizes"),
    ("ii", [(2, 3)], "sizes"),
    ("ii->i", [(1, 3)], "repeated"),
    ("i1", [(2, 3)], "invalid"),
    ("i.j", [(2, 3)], "ellipsis"),
    ("......", [(2, 3)], "ellipsis"),
    ("ij->j->i", [(2, 3)], "->"),
    ("i-j", [(2, 3)], "'-'"),
    ("...ij,...jk", [(2, 3, 4), (3, 4, 2)], "sizes"),
    ("...i", [()], "dims"),
])
def test_errors(device, eq, shapes, match):
    ops = [make(np.zeros(s), device, "float32") for s in shapes]
    with pytest.raises(nr.ShapeError, match=match):
        nr.einsum(eq, *ops)
    with pytest.raises(nr.ShapeError, match="subscript string"):
        nr.einsum(ops[0], "ij")


def _f64(device):
    if make(np.zeros(1), device).dtype != nr.float64:
        pytest.skip(f"{device} has no float64")


GRAD_CASES = [
    ("ii->i", [(3, 3)]),
    ("iij,jk->ik", [(3, 3, 2), (2, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 2)]),
    ("ik,kl,il->i", [(2, 3), (3, 2), (2, 2)]),
    ("ij,ij->", [(2, 3), (1, 3)]),
    ("a...b,b...->...a", [(2, 2, 3), (3, 2)]),
    ("bi,bj->bij", [(2, 3), (2, 2)]),  # nothing summed: a broadcast multiply
]


@pytest.mark.parametrize("eq,shapes", GRAD_CASES, ids=[e for e, _ in GRAD_CASES])
def test_gradients(device, eq, shapes):
    """Reverse mode against central differences of sum(w * einsum) and forward mode against
    the multilinear rule (the tangent is the sum of einsums with one operand replaced)."""
    _f64(device)
    rng = np.random.default_rng(7)
    arrs = [rng.standard_normal(s) for s in shapes]
    out_shape = np.einsum(eq, *arrs, optimize=True).shape
    w = rng.standard_normal(out_shape)

    def loss(*xs):
        return (nr.einsum(eq, *xs) * make(w, device)).sum()

    assert gradcheck(loss, [make(a, device) for a in arrs], atol=1e-6, rtol=1e-6)
    tans = [rng.standard_normal(s) for s in shapes]
    out, tan = jvp(lambda *xs: nr.einsum(eq, *xs), tuple(make(a, device) for a in arrs),
                   tuple(make(t, device) for t in tans))
    expected = sum(np.einsum(eq, *[tans[m] if m == n else a for m, a in enumerate(arrs)], optimize=True)
                   for n in range(len(arrs)))
    assert_close(out, np.einsum(eq, *arrs, optimize=True), dtype="float64")
    assert_close(tan, expected, dtype="float64")


def test_gradient_float32_attention(device):
    """The attention-score pattern in float32 on every backend: gradients as matmuls give them."""
    rng = np.random.default_rng(8)
    q, k = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4))
    qv, kv = Var(make(q.astype(np.float32), device)), Var(make(k.astype(np.float32), device))
    w = rng.standard_normal((2, 3, 5))
    s = (nr.einsum("bqd,bkd->bqk", qv, kv) * make(w.astype(np.float32), device)).sum()
    g = backward(s)
    assert_close(g[qv], np.einsum("bqk,bkd->bqd", w, k), dtype="float32", rtol=1e-5, atol=1e-5)
    assert_close(g[kv], np.einsum("bqk,bqd->bkd", w, q), dtype="float32", rtol=1e-5, atol=1e-5)
