"""numr.sparse against scipy.sparse and NumPy (float64 oracle): every constructor and
conversion round trip, duplicates, empty rows/columns, nnz = 0, 0x0 / 1x1 / n x 1 shapes,
unsorted input, non-contiguous dense operands, arithmetic, reductions, errors, the CSR
kernel's dtypes, and gradients (analytic, central differences, second order, jvp)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_close, tolerance

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp

FORMATS = ("coo", "csr", "csc")


def need(device, dtype):
    """Skip where the backend lacks the dtype (WebGPU without shader-f64)."""
    try:
        nr.zeros(1, dtype=dtype, device=device) + 1
    except nr.UnsupportedOperation as e:
        pytest.skip(str(e))


def sprand(m, n, density=0.3, seed=0, dtype=np.float64):
    s = sp.random(m, n, density=density, format="coo", random_state=seed, dtype=np.float64)
    s.data = (s.data * 4 - 2).astype(dtype)
    return s


def dup_coo(seed=0):
    """A 5x4 COO with duplicates, unsorted entries, an empty row and an empty column."""
    row = np.array([4, 0, 2, 0, 2, 4, 0, 3])
    col = np.array([1, 3, 0, 3, 0, 2, 1, 1])
    val = np.random.default_rng(seed).uniform(-2, 2, 8)
    return row, col, val, (5, 4)


def dense_of(s):
    return np.asarray(s.toarray(), dtype=np.float64)


def close(actual, expected, dtype="float64"):
    rtol, atol = tolerance(dtype)
    rtol, atol = max(rtol, 1e-12), max(atol, 1e-12)
    assert_close(actual, expected, rtol=rtol * 10, atol=atol * 10)


# ---------------------------------------------------------------- constructors and conversions
@pytest.mark.parametrize("fmt", FORMATS)
def test_from_scipy_round_trip(device, fmt):
    need(device, nr.float64)
    s = sprand(7, 5, seed=1).asformat(fmt)
    a = nr.sparse.csr_matrix(s) if fmt == "csr" else getattr(nr.sparse, f"{fmt}_matrix")(s, device=device)
    a = a.to(device)
    assert a.format == fmt and a.shape == (7, 5) and a.nnz == s.nnz and a.ndim == 2
    assert a.dtype == nr.float64 and a.device == nr.device(device)
    assert_close(a.to_dense(), s.toarray(), rtol=0, atol=0)
    back = a.to_scipy()
    assert back.format == fmt and (back != s).nnz == 0
    for g in FORMATS:
        b = a.asformat(g)
        assert b.format == g and b.shape == a.shape
        assert_close(b.to_dense(), s.toarray(), rtol=0, atol=0)
        assert_close(b.tocoo().tocsr().tocsc().to_dense(), s.toarray(), rtol=0, atol=0)


@pytest.mark.parametrize("fmt", FORMATS)
def test_duplicates_unsorted_coalesce(device, fmt):
    need(device, nr.float64)
    row, col, val, shape = dup_coo()
    ref = sp.coo_array((val, (row, col)), shape=shape)
    a = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape)
    assert a.nnz == 8 and not a.is_coalesced()
    assert_close(a.to_dense(), ref.toarray(), rtol=1e-15, atol=1e-15)
    b = a.asformat(fmt)
    c = b.coalesce()
    ref_c = ref.asformat(fmt)
    ref_c.sum_duplicates()
    assert c.nnz == ref_c.nnz == 6 and c.has_canonical_format
    assert_close(c.to_dense(), ref.toarray(), rtol=1e-15, atol=1e-15)
    if fmt != "coo":
        assert c.indptr.tolist() == ref_c.indptr.tolist() and c.indices.tolist() == ref_c.indices.tolist()
        np.testing.assert_allclose(c.values.numpy(), ref_c.data, rtol=1e-15)
    else:
        assert c.row.tolist() == ref_c.row.tolist() and c.col.tolist() == ref_c.col.tolist()
    # torch-style (2, nnz) indices and an unsorted CSR straight from its arrays
    t = nr.sparse.COOMatrix(nr.tensor(np.stack([row, col]), device=device), nr.tensor(val, device=device), shape)
    assert_close(t.to_dense(), ref.toarray(), rtol=1e-15, atol=1e-15)
    u = nr.sparse.CSRMatrix([0, 2, 2, 3], [2, 0, 1], nr.tensor([1.0, 2.0, 3.0], device=device), (3, 3))
    assert not u.has_sorted_indices
    assert u.coalesce().indices.tolist() == [0, 2, 1]
    with pytest.raises(nr.IndexOutOfRange, match="unsorted"):
        u.check_format(full_check=True)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (6, 1), (1, 6), (3, 0), (0, 4)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_small_and_empty_shapes(device, fmt, shape):
    need(device, nr.float64)
    s = sp.random(*shape, density=0.6, format=fmt, random_state=2) if 0 not in shape else sp.coo_array(shape)
    a = nr.sparse.from_scipy(sp.csr_array(s), format=fmt, device=device) if s.nnz else \
        nr.sparse.empty(shape, format=fmt, device=device)
    assert a.shape == shape and a.format == fmt
    assert_close(a.to_dense(), s.toarray(), rtol=0, atol=0)
    x = np.arange(shape[1] * 2, dtype=np.float64).reshape(shape[1], 2)
    assert_close(a @ nr.tensor(x, device=device), s @ x, rtol=1e-14, atol=1e-14)
    assert_close(a @ nr.tensor(x[:, 0].copy(), device=device), s @ x[:, 0], rtol=1e-14, atol=1e-14)
    assert_close(a.sum(0), np.asarray(s.sum(0)).reshape(-1), rtol=1e-14, atol=1e-14)
    assert_close(a.sum(1), np.asarray(s.sum(1)).reshape(-1), rtol=1e-14, atol=1e-14)
    assert abs(float(a.sum().item()) - s.sum()) < 1e-12
    assert_close(a.T.to_dense(), s.toarray().T, rtol=0, atol=0)
    assert_close((a @ a.T).to_dense(), (s @ s.T).toarray(), rtol=1e-14, atol=1e-14)


def test_nnz_zero_everything(device):
    need(device, nr.float64)
    for fmt in FORMATS:
        a = nr.sparse.empty((3, 4), format=fmt, device=device)
        assert a.nnz == 0 and a.count_nonzero() == 0
        assert_close(a @ nr.ones(4, dtype=nr.float64, device=device), np.zeros(3), rtol=0, atol=0)
        assert_close((a + a).to_dense(), np.zeros((3, 4)), rtol=0, atol=0)
        assert (a @ a.T).nnz == 0 and a.multiply(a).nnz == 0
        assert a.getnnz(0).tolist() == [0] * 4 and a.getnnz(1).tolist() == [0] * 3
        assert_close(a.diagonal(), np.zeros(3), rtol=0, atol=0)
    z = nr.sparse.from_dense(nr.zeros((2, 3), device=device))
    assert z.nnz == 0 and z.shape == (2, 3)


@pytest.mark.parametrize("fmt", FORMATS)
def test_from_dense_and_views(device, fmt):
    need(device, nr.float64)
    d = np.array([[0, 1.5, 0, 0], [0, 0, 0, 0], [2, 0, -3, 0], [0, 0, 0, 4]])
    t = nr.tensor(d, device=device)
    for src, ref in ((t, d), (t.T, d.T), (t[::-1], d[::-1]), (t[1:, ::2], d[1:, ::2])):
        a = nr.sparse.from_dense(src, format=fmt)
        assert a.nnz == np.count_nonzero(ref) and a.format == fmt
        assert_close(a.to_dense(), ref, rtol=0, atol=0)
    b = getattr(nr.sparse, f"{fmt}_matrix")(d, device=device)  # NumPy array
    assert_close(b.to_dense(), d, rtol=0, atol=0)
    c = getattr(nr.sparse, f"{fmt}_matrix")(b, dtype="float32")  # from a numr sparse matrix
    assert c.dtype == nr.float32 and c.format == fmt
    assert getattr(nr.sparse, f"{fmt}_matrix")((3, 5), device=device).shape == (3, 5)


def test_compressed_index_arrays_and_shape_inference(device):
    need(device, nr.float64)
    s = sprand(6, 5, seed=3).tocsr()
    a = nr.sparse.csr_matrix((nr.tensor(s.data, device=device), s.indices, s.indptr), shape=(6, 5))
    assert_close(a.to_dense(), s.toarray(), rtol=0, atol=0)
    assert a.crow_indices.tolist() == s.indptr.tolist() and a.col_indices.tolist() == s.indices.tolist()
    c = s.tocsc()
    b = nr.sparse.csc_matrix((nr.tensor(c.data, device=device), c.indices, c.indptr), shape=(6, 5))
    assert_close(b.to_dense(), s.toarray(), rtol=0, atol=0)
    inferred = nr.sparse.coo_matrix((nr.tensor([1.0, 2.0], device=device), ([0, 3], [4, 1])))
    assert inferred.shape == (4, 5)
    assert nr.sparse.csr_matrix((nr.tensor([1.0], device=device), [2], [0, 0, 1])).shape == (2, 3)
    r = nr.sparse.csr_matrix((nr.tensor(s.tocoo().data, device=device), (s.tocoo().row, s.tocoo().col)), shape=(6, 5))
    assert r.format == "csr"
    assert_close(r.to_dense(), s.toarray(), rtol=0, atol=0)


def test_constructors_eye_diags_random(device):
    need(device, nr.float64)
    for (m, n, k) in [(4, 4, 0), (3, 5, 1), (5, 3, -2), (3, 3, 5)]:
        for fmt in FORMATS:
            e = nr.sparse.eye(m, n, k=k, format=fmt, device=device)
            assert e.format == fmt
            assert_close(e.to_dense(), np.eye(m, n, k=k), rtol=0, atol=0)
    v = [np.arange(1.0, 5.0), np.arange(1.0, 4.0), np.array([7.0, 8.0, 9.0])]
    ref = sp.diags_array(v, offsets=[0, 1, -1], shape=(4, 4)).toarray()
    got = nr.sparse.diags([nr.tensor(x, device=device) for x in v], [0, 1, -1], shape=(4, 4))
    assert_close(got.to_dense(), ref, rtol=0, atol=0)
    assert_close(nr.sparse.diags([1.0, -2.0], [0, 2], shape=(3, 4), device=device).to_dense(),
                 sp.diags_array([1.0, -2.0], offsets=[0, 2], shape=(3, 4)).toarray(), rtol=0, atol=0)
    assert_close(nr.sparse.diags(nr.tensor([1.0, 2.0], device=device), 1).to_dense(),
                 sp.diags_array([1.0, 2.0], offsets=1).toarray(), rtol=0, atol=0)
    data = np.arange(1.0, 13.0).reshape(3, 4)
    assert_close(nr.sparse.spdiags(nr.tensor(data, device=device), [0, -1, 2], 4, 4).to_dense(),
                 sp.spdiags(data, [0, -1, 2], 4, 4).toarray(), rtol=0, atol=0)
    r1 = nr.sparse.random(30, 20, density=0.1, format="csr", seed=5, device=device)
    r2 = nr.sparse.random(30, 20, density=0.1, format="csr", seed=5, device=device)
    assert r1.nnz == 60 and r1.has_canonical_format
    assert r1.indices.tolist() == r2.indices.tolist() and r1.values.tolist() == r2.values.tolist()
    vals = r1.values.numpy()
    assert vals.min() >= 0 and vals.max() < 1
    assert nr.sparse.random(4, 4, density=1.0, seed=1, device=device).nnz == 16
    r32 = nr.sparse.random(5, 5, density=0.4, dtype="float32", seed=2, device=device)
    assert r32.dtype == nr.float32 and r32.nnz == 10


# ---------------------------------------------------------------- products
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex64", "complex128", "int32", "int64", "float16",
                                   "bfloat16"])
def test_matmul_dense_dtypes(device, fmt, dtype):
    need(device, dtype)
    s = sprand(9, 7, seed=4)
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, (7, 3))
    if dtype in ("int32", "int64"):
        s.data = np.round(s.data * 3)
        x = np.round(x * 3)
    if dtype.startswith("complex"):
        x = x + 1j * rng.uniform(-2, 2, (7, 3))
    npd = nr.dtype(dtype).np
    wide = np.complex128 if dtype.startswith("complex") else np.float64
    a = nr.sparse.from_scipy(s, format=fmt, device=device).astype(dtype)  # scipy has no float16
    assert a.dtype == nr.dtype(dtype)
    xt = nr.tensor(x.astype(npd), device=device)
    s.data = s.data.astype(npd).astype(wide)
    ref = s @ x.astype(npd).astype(wide)
    got = a @ xt
    assert got.dtype == nr.dtype(dtype) and got.shape == (9, 3)
    rtol, atol = tolerance(dtype)
    if dtype in ("float16", "bfloat16"):  # the result is rounded to the dtype once per entry or sum
        rtol, atol = rtol * 4, atol * 8
    assert_close(got, ref, rtol=max(rtol, 1e-12) * 10, atol=max(atol, 1e-12) * 20)
    assert_close(a @ xt[:, 1], ref[:, 1], rtol=max(rtol, 1e-12) * 10, atol=max(atol, 1e-12) * 20)


@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_noncontiguous_and_reflected(device, fmt):
    need(device, nr.float64)
    s = sprand(6, 8, seed=5)
    a = nr.sparse.from_scipy(s, format=fmt, device=device)
    base = np.random.default_rng(1).uniform(-1, 1, (10, 16))
    t = nr.tensor(base, device=device)
    views = [(t[1:9, 2:5], base[1:9, 2:5]), (t.T[:8, :4], base.T[:8, :4]), (t[::-1][:8, ::-3], base[::-1][:8, ::-3]),
             (t[:8, 3], base[:8, 3]), (t[0, ::2], base[0, ::2]),
             (nr.ones((8, 1), dtype=nr.float64, device=device).expand(8, 3), np.ones((8, 3)))]
    for v, ref in views:
        assert_close(a @ v, s @ ref, rtol=1e-13, atol=1e-13)
    y = base[:3, :6]
    assert_close(nr.tensor(y, device=device) @ a, y @ s.toarray(), rtol=1e-13, atol=1e-13)
    assert_close(nr.tensor(y[0], device=device) @ a, y[0] @ s.toarray(), rtol=1e-13, atol=1e-13)
    assert_close(nr.matmul(a, nr.tensor(base[:8, :2], device=device)), s @ base[:8, :2], rtol=1e-13, atol=1e-13)
    assert_close(a.dot(base[:8, 0]), s @ base[:8, 0], rtol=1e-13, atol=1e-13)  # NumPy operand


def test_product_plan_is_cached_and_shared(device):
    """COO/CSC products sort into row order once; transposes and with_values copies reuse it."""
    need(device, nr.float64)
    row, col, val, shape = dup_coo(2)
    ref = sp.coo_array((val, (row, col)), shape=shape)
    a = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape).tocsr()
    x5, x4 = nr.tensor(np.arange(5.0), device=device), nr.tensor(np.arange(4.0), device=device)
    at = a.T
    assert at.format == "csc" and at.csr_plan() is a.T.csr_plan()  # one plan for every a.T
    assert_close(a.T @ x5, ref.T @ np.arange(5.0), rtol=1e-14, atol=1e-14)
    b = a.T.with_values(a.values * 2)
    assert b.csr_plan() is at.csr_plan()
    assert_close(b @ x5, 2 * (ref.T @ np.arange(5.0)), rtol=1e-14, atol=1e-14)
    c = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape)  # unsorted, duplicates
    _, _, perm = c.csr_plan()
    assert perm is not None and c.csr_plan()[2] is perm
    assert_close(c @ x4, ref @ np.arange(4.0), rtol=1e-14, atol=1e-14)
    assert_close(x5 @ c, np.arange(5.0) @ ref.toarray(), rtol=1e-14, atol=1e-14)
    c.values.mul_(3)  # an in-place write of the values invalidates the cached permuted values
    assert_close(c @ x4, 3 * (ref @ np.arange(4.0)), rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_spgemm(device, fa, fb):
    need(device, nr.float64)
    s, t = sprand(7, 6, 0.35, seed=6), sprand(6, 5, 0.35, seed=7)
    a = nr.sparse.from_scipy(s, format=fa, device=device)
    b = nr.sparse.from_scipy(t, format=fb, device=device)
    c = a @ b
    assert c.format == ("csc" if fa == fb == "csc" else "csr") and c.shape == (7, 5)
    assert c.has_canonical_format
    assert_close(c.to_dense(), (s @ t).toarray(), rtol=1e-13, atol=1e-13)
    row, col, val, shape = dup_coo()  # duplicates on the left
    d = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape)
    ref = sp.coo_array((val, (row, col)), shape=shape)
    assert_close((d @ nr.sparse.from_scipy(t.tocsr()[:4], device=device)).to_dense(), (ref @ t.tocsr()[:4]).toarray(),
                 rtol=1e-13, atol=1e-13)


def test_matmul_nan_inf_follow_scipy(device):
    """Only stored entries touch x: a NaN/inf in a column without entries does not spread."""
    need(device, nr.float64)
    s = sp.csr_array(np.array([[1.0, 0, 2.0], [0, 0, 0], [0, 3.0, 0]]))
    a = nr.sparse.from_scipy(s, device=device)
    for x in (np.array([np.nan, 1.0, 1.0]), np.array([1.0, np.inf, 1.0]), np.array([1.0, 1.0, -np.inf])):
        assert_close(a @ nr.tensor(x, device=device), s @ x, rtol=1e-15, atol=0)
    x = np.array([[1.0, np.nan], [2.0, 1.0], [np.inf, 0.0]])
    assert_close(a @ nr.tensor(x, device=device), s @ x, rtol=1e-15, atol=0)


def test_property_random_matrices_vs_scipy(device):
    """Random shapes, densities and duplicates: conversions, products and sums against scipy."""
    need(device, nr.float64)
    rng = np.random.default_rng(42)
    for _ in range(6):
        m, n, k = (int(v) for v in rng.integers(1, 9, 3))
        nnz = int(rng.integers(0, 2 * m * n))
        row, col = rng.integers(0, m, nnz), rng.integers(0, n, nnz)
        val = rng.uniform(-2, 2, nnz)
        ref = sp.coo_array((val, (row, col)), shape=(m, n))
        a = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=(m, n))
        x = rng.uniform(-1, 1, (n, k))
        for f in FORMATS:
            b = a.asformat(f)
            assert_close(b.to_dense(), ref.toarray(), rtol=1e-13, atol=1e-13)
            assert_close(b @ nr.tensor(x, device=device), ref @ x, rtol=1e-13, atol=1e-13)
            assert_close((b @ b.T).to_dense(), (ref @ ref.T).toarray(), rtol=1e-13, atol=1e-13)
            assert_close((b + b.T.T).sum(1), 2 * ref.toarray().sum(1), rtol=1e-13, atol=1e-13)


# ---------------------------------------------------------------- element-wise and reductions
@pytest.mark.parametrize("fa", FORMATS)
@pytest.mark.parametrize("fb", FORMATS)
def test_add_sub_multiply_sparse(device, fa, fb):
    need(device, nr.float64)
    s, t = sprand(5, 6, 0.4, seed=8), sprand(5, 6, 0.4, seed=9)
    t = t + sp.coo_array((np.array([1.5]), (np.array([s.row[0]]), np.array([s.col[0]]))), shape=(5, 6))  # overlap
    a = nr.sparse.from_scipy(s, format=fa, device=device)
    b = nr.sparse.from_scipy(sp.coo_array(t), format=fb, device=device)
    ds, dt_ = s.toarray(), t.toarray()
    for got, ref in ((a + b, ds + dt_), (a - b, ds - dt_), (a.multiply(b), ds * dt_), (a * b, ds * dt_),
                     (b - a, dt_ - ds)):
        assert got.format == ("csc" if fa == fb == "csc" else "csr")
        assert_close(got.to_dense(), ref, rtol=1e-14, atol=1e-14)
    assert a.multiply(b).nnz == sp.csr_array(s).multiply(sp.csr_array(t)).nnz


@pytest.mark.parametrize("fmt", FORMATS)
def test_scalar_dense_unary(device, fmt):
    need(device, nr.float64)
    s = sprand(5, 6, 0.4, seed=10)
    a = nr.sparse.from_scipy(s, format=fmt, device=device)
    d = s.toarray()
    dense = np.random.default_rng(2).uniform(-1, 1, (5, 6))
    dt_ = nr.tensor(dense, device=device)
    cases = [(a * 2.5, d * 2.5), (3 * a, 3 * d), (a / 4, d / 4), (-a, -d), (abs(a), np.abs(d)), (a.abs(), np.abs(d)),
             (a.power(2), d ** 2), (a.multiply(dt_), d * dense), (a * dt_[:, :1], d * dense[:, :1]),
             (a / dt_, np.where(d != 0, d / dense, 0)), (a.astype("float32"), d.astype(np.float32))]
    for got, ref in cases:
        assert got.format == fmt
        assert_close(got.to_dense(), ref, rtol=1e-6 if got.dtype == nr.float32 else 1e-14, atol=1e-7)
    for got, ref in ((a + dt_, d + dense), (dt_ + a, dense + d), (a - dt_, d - dense), (dt_ - a, dense - d)):
        assert isinstance(got, nr.Tensor)
        assert_close(got, ref, rtol=1e-14, atol=1e-14)
    assert (a + 0) is a
    with pytest.raises(nr.UnsupportedOperation, match="add"):
        a + 1.0
    with pytest.raises(nr.UnsupportedOperation, match="power"):
        a.power(0)
    assert a.astype("float32").dtype == nr.float32


@pytest.mark.parametrize("fmt", FORMATS)
def test_sum_diagonal_nnz_counts(device, fmt):
    need(device, nr.float64)
    row, col, val, shape = dup_coo(1)
    val[5] = 0.0  # an explicit zero (an entry without duplicates)
    ref = sp.coo_array((val, (row, col)), shape=shape)
    a = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape).asformat(fmt)
    r = ref.asformat(fmt)
    d = ref.toarray()
    assert abs(float(a.sum().item()) - d.sum()) < 1e-12
    for dim in (0, 1, -1):
        got = a.sum(dim)
        assert got.shape == (shape[1 - dim % 2],) and got.dtype == nr.float64
        assert_close(got, d.sum(dim), rtol=1e-14, atol=1e-14)
    assert_close(nr.sparse.sum(a, 1), d.sum(1), rtol=1e-14, atol=1e-14)
    assert_close(a.mean(0), d.mean(0), rtol=1e-14, atol=1e-14)
    for k in (-4, -1, 0, 1, 3, 9):
        assert_close(a.diagonal(k), np.diagonal(d, k), rtol=1e-14, atol=1e-14)
    assert a.getnnz() == r.nnz
    rc = r.tocoo()  # scipy's conversion sums duplicates as ours does
    assert a.getnnz(0).tolist() == np.bincount(rc.col, minlength=4).tolist() == a.nnz_per_col().tolist()
    assert a.getnnz(1).tolist() == np.bincount(rc.row, minlength=5).tolist() == a.nnz_per_row().tolist()
    assert a.count_nonzero() == ref.count_nonzero()
    z = a.eliminate_zeros()
    assert z.format == fmt and z.nnz == a.nnz - 1
    assert_close(z.to_dense(), d, rtol=0, atol=0)
    ints = nr.sparse.coo_matrix((nr.tensor([1, 2, 3], dtype=nr.int32, device=device), ([0, 1, 1], [0, 0, 1])),
                                shape=(2, 2))
    assert ints.sum().dtype == nr.int64 and int(ints.sum().item()) == 6
    assert ints.sum(0).tolist() == [3, 3] and ints.sum(0).dtype == nr.int64


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "float16", "bfloat16"])
def test_bool_and_small_dtypes(device, dtype):
    """bool sums are logical or (scipy); small ints and low-precision floats keep their dtype."""
    need(device, dtype)
    npd = nr.dtype(dtype).np
    d = np.array([[0, 1, 0, 2], [1, 0, 1, 0], [3, 1, 0, 0]]).astype(npd)
    x = np.array([[1, 0], [0, 0], [1, 1], [0, 2]]).astype(npd)
    wide = bool if dtype == "bool" else np.float64
    ref = d.astype(wide) @ x.astype(wide)
    for fmt in FORMATS:
        a = nr.sparse.from_dense(nr.tensor(d, device=device), format=fmt)
        assert a.dtype == nr.dtype(dtype) and a.nnz == np.count_nonzero(d)
        got = a @ nr.tensor(x, device=device)
        assert got.dtype == nr.dtype(dtype)
        assert_close(got, ref.astype(npd), rtol=0, atol=0)
        assert_close((a + a).to_dense(), (d.astype(wide) + d.astype(wide)).astype(npd), rtol=0, atol=0)
        assert_close((a @ a.T).to_dense(), (d.astype(wide) @ d.T.astype(wide)).astype(npd), rtol=0, atol=0)
        assert_close(a.diagonal(), np.diagonal(d), rtol=0, atol=0)
        assert a.sum(1).dtype in (nr.int64, nr.uint64) if dtype in ("bool", "int8", "uint8", "int32") else True


def test_public_functions_route_to_sparse(device):
    need(device, nr.float64)
    s = sprand(4, 4, 0.5, seed=11)
    a = nr.sparse.from_scipy(s, format="csr", device=device)
    x = nr.tensor(np.arange(4.0), device=device)
    assert_close(nr.matmul(a, x), s @ np.arange(4.0), rtol=1e-14, atol=1e-14)
    assert_close(nr.add(a, a).to_dense(), 2 * s.toarray(), rtol=1e-14, atol=1e-14)
    assert_close(nr.neg(a).to_dense(), -s.toarray(), rtol=0, atol=0)
    assert_close(nr.sum(a, 0), s.toarray().sum(0), rtol=1e-14, atol=1e-14)
    assert nr.sparse.is_sparse(a) and nr.sparse.issparse(a.T) and not nr.sparse.is_sparse(x)
    assert_close(nr.sparse.mm(a, x), s @ np.arange(4.0), rtol=1e-14, atol=1e-14)
    with pytest.raises(nr.UnsupportedOperation, match="sparse"):
        nr.exp(a)
    assert "CSRMatrix" in repr(a) and "nnz=" in repr(a)
    assert a.to(device) is a and a.copy().values is not a.values
    moved = a.to("cpu", dtype="float32")
    assert moved.device == nr.device("cpu") and moved.dtype == nr.float32 and moved.format == "csr"
    assert_close(moved.to_dense(), s.toarray().astype(np.float32), rtol=1e-7, atol=1e-7)
    with pytest.raises(nr.UnsupportedOperation, match="to"):
        a.with_values(Var(a.values)).to("cpu" if device != "cpu" else "wgpu")


@pytest.mark.parametrize("fmt", FORMATS)
def test_tril_triu_stack_kron(device, fmt):
    need(device, nr.float64)
    s, t = sprand(5, 4, 0.5, seed=16), sprand(3, 4, 0.5, seed=17)
    a = nr.sparse.from_scipy(s, format=fmt, device=device)
    b = nr.sparse.from_scipy(t, format=fmt, device=device)
    for k in (-2, 0, 1):
        lo, up = nr.sparse.tril(a, k), nr.sparse.triu(a, k)
        assert lo.format == fmt and up.format == fmt
        assert_close(lo.to_dense(), sp.tril(s, k).toarray(), rtol=0, atol=0)
        assert_close(up.to_dense(), sp.triu(s, k).toarray(), rtol=0, atol=0)
    assert_close(nr.sparse.vstack([a, b]).to_dense(), sp.vstack([s, t]).toarray(), rtol=0, atol=0)
    assert_close(nr.sparse.hstack([a.T, b.T]).to_dense(), sp.hstack([s.T, t.T]).toarray(), rtol=0, atol=0)
    assert_close(nr.sparse.block_diag([a, b]).to_dense(), sp.block_diag([s, t]).toarray(), rtol=0, atol=0)
    assert_close(nr.sparse.kron(b, a).to_dense(), sp.kron(t, s).toarray(), rtol=1e-15, atol=0)
    with pytest.raises(nr.ShapeError, match="vstack"):
        nr.sparse.vstack([a, b.T])


@pytest.mark.parametrize("fmt", FORMATS)
def test_getitem_ints_and_slices(device, fmt):
    need(device, nr.float64)
    row, col, val, shape = dup_coo(3)
    ref = sp.coo_array((val, (row, col)), shape=shape)
    d = ref.toarray()
    a = nr.sparse.coo_matrix((nr.tensor(val, device=device), (row, col)), shape=shape).asformat(fmt)
    for i, j in ((0, 3), (2, 0), (-1, 1), (1, 1)):
        got = a[i, j]
        assert got.shape == () and abs(float(got.item()) - d[i, j]) < 1e-14
    assert_close(a[2], d[2], rtol=1e-14, atol=1e-14)
    assert_close(a[:, -3], d[:, -3], rtol=1e-14, atol=1e-14)
    for key in ((slice(1, 5), slice(None)), (slice(None, None, -1), slice(0, 3)), (slice(0, 5, 2), slice(3, 0, -2)),
                (slice(4, 4), slice(None))):
        sub = a[key]
        assert sub.format == fmt and sub.shape == d[key].shape
        assert_close(sub.to_dense(), d[key], rtol=1e-14, atol=1e-14)
    with pytest.raises(nr.IndexOutOfRange, match="getitem"):
        a[5, 0]
    with pytest.raises(nr.UnsupportedOperation, match="getitem"):
        a[[0, 1]]
    with pytest.raises(nr.ShapeError, match="2 indices"):
        a[0, 0, 0]


# ---------------------------------------------------------------- errors
def test_errors(device):
    need(device, nr.float64)
    v = nr.tensor([1.0, 2.0], device=device)
    with pytest.raises(nr.IndexOutOfRange, match="COOMatrix"):
        nr.sparse.COOMatrix(([0, 3], [0, 1]), v, (3, 3))
    with pytest.raises(nr.IndexOutOfRange, match="COOMatrix"):
        nr.sparse.COOMatrix(([0, -1], [0, 1]), v, (3, 3))
    with pytest.raises(nr.IndexOutOfRange, match="CSRMatrix"):
        nr.sparse.CSRMatrix([0, 2, 1, 2], [0, 1], v, (3, 3))  # decreasing indptr
    with pytest.raises(nr.IndexOutOfRange, match="CSRMatrix"):
        nr.sparse.CSRMatrix([0, 1, 2], [0, 5], v, (2, 3))  # column out of range
    with pytest.raises(nr.IndexOutOfRange, match="CSCMatrix"):
        nr.sparse.CSCMatrix([0, 1, 3], [0, 1], v, (2, 2))  # indptr does not end at nnz
    with pytest.raises(nr.ShapeError, match="indptr"):
        nr.sparse.CSRMatrix([0, 2], [0, 1], v, (3, 3))
    with pytest.raises(nr.ShapeError, match="same length"):
        nr.sparse.COOMatrix(([0], [0]), v, (3, 3))
    with pytest.raises(nr.ShapeError, match="2-d"):
        nr.sparse.COOMatrix(([0, 1], [0, 1]), v, (3, 3, 3))
    with pytest.raises(nr.DTypeError, match="integer"):
        nr.sparse.COOMatrix((nr.tensor([0.0, 1.0], device=device), [0, 1]), v, (3, 3))
    with pytest.raises(nr.ShapeError, match="2-d"):
        nr.sparse.from_dense(nr.zeros(3, device=device))
    a = nr.sparse.eye(3, device=device)
    with pytest.raises(nr.ShapeError, match=r"\(3, 3\) and \(4,\)"):
        a @ nr.ones(4, dtype=nr.float64, device=device)
    with pytest.raises(nr.ShapeError, match="1-d or 2-d"):
        a @ nr.ones((3, 3, 1), dtype=nr.float64, device=device)
    with pytest.raises(nr.ShapeError, match="align"):
        nr.ones((2, 4), dtype=nr.float64, device=device) @ a
    with pytest.raises(nr.ShapeError, match="differ"):
        a + nr.sparse.eye(4, device=device)
    with pytest.raises(nr.ShapeError, match="align"):
        a @ nr.sparse.eye(4, device=device)
    with pytest.raises(nr.ShapeError, match="differ"):
        a.multiply(nr.sparse.eye(2, device=device))
    with pytest.raises(nr.ShapeError, match="broadcast"):
        a.multiply(nr.ones((2, 3), device=device))
    with pytest.raises(nr.UnsupportedOperation, match="div"):
        a / a
    with pytest.raises(ValueError, match="format"):
        a.asformat("bsr")
    with pytest.raises(ValueError, match="ambiguous"):
        bool(a)
    with pytest.raises(nr.ShapeError, match="dim"):
        a.sum(2)
    if device != "cpu":
        with pytest.raises(nr.DeviceError):
            a @ nr.ones(3, dtype=nr.float64, device="cpu")


def test_sparse_ops_protocol(device):
    """Every client implements SparseOps (the CPU/CUDA kernel or the composite); the kernel is
    not a public nr.<name> function or Tensor method."""
    from numr.ops.traits import FAMILIES, SparseOps
    client = nr.device(device).client
    assert isinstance(client, SparseOps) and SparseOps not in FAMILIES
    assert not hasattr(nr, "csr_matmul") and not hasattr(nr.zeros(1, device=device), "csr_matmul")
    need(device, nr.float32)
    ip = nr.tensor([0, 2, 2, 3], device=device)
    got = client.csr_matmul(ip, nr.tensor([1, 0, 1], device=device), nr.tensor([1.0, 2.0, 3.0], dtype=nr.float32,
                            device=device), nr.tensor([[1.0], [10.0]], dtype=nr.float32, device=device), 3)
    assert got.dtype == nr.float32 and got.tolist() == [[12.0], [0.0], [30.0]]


def test_kernel_checks_structure():
    """The low-level csr_matmul (CPU kernel and composite) rejects bad structure instead of
    reading out of bounds, and names the op."""
    from numr.ops.generic.sparse import csr_matmul as composite
    c = nr.device("cpu").client
    x = nr.ones((3, 2), dtype=nr.float64)
    v = nr.tensor([1.0, 2.0])
    ip = nr.tensor([0, 1, 2], dtype=nr.int64)
    for fn in (c.csr_matmul, lambda *a: composite(c, *a)):
        with pytest.raises(nr.IndexOutOfRange, match="csr_matmul|index_select"):
            fn(ip, nr.tensor([0, 3], dtype=nr.int64), v, x, 2)
        with pytest.raises(nr.IndexOutOfRange, match="csr_matmul"):
            fn(nr.tensor([0, 2, 1], dtype=nr.int64), nr.tensor([0, 1], dtype=nr.int64), v, x, 2)
        with pytest.raises(nr.DTypeError, match="int64"):
            fn(ip, nr.tensor([0, 1], dtype=nr.int32), v, x, 2)
        with pytest.raises(nr.ShapeError, match="2-d"):
            fn(ip, nr.tensor([0, 1], dtype=nr.int64), v, nr.ones(3, dtype=nr.float64), 2)
    got = c.csr_matmul(ip, nr.tensor([2, 0], dtype=nr.int64), v, nr.tensor(np.arange(6.0).reshape(3, 2)), 2)
    assert got.tolist() == [[4.0, 5.0], [0.0, 2.0]]


def test_kernel_threads_match_serial():
    """The OpenMP path (large enough to use threads) equals the serial one bit for bit per row."""
    s = sp.random(3000, 400, density=0.1, format="csr", random_state=3)
    a = nr.sparse.from_scipy(s)
    x = nr.tensor(np.random.default_rng(0).uniform(-1, 1, (400, 64)))  # above the 4M multiply-add threshold
    old = nr.get_num_threads()
    try:
        nr.set_num_threads(1)
        one = (a @ x).numpy()
        nr.set_num_threads(2)
        two = (a @ x).numpy()
    finally:
        nr.set_num_threads(old)
    assert np.array_equal(one, two)
    np.testing.assert_allclose(one, s @ x.numpy(), rtol=1e-13, atol=1e-13)


# ---------------------------------------------------------------- autograd
@pytest.mark.parametrize("fmt", FORMATS)
def test_grad_matmul_analytic(device, fmt):
    need(device, nr.float64)
    s = sprand(6, 5, 0.4, seed=12)
    a = nr.sparse.from_scipy(s, format=fmt, device=device)
    x = Var(nr.tensor(np.random.default_rng(3).uniform(-1, 1, (5, 3)), device=device))
    v = Var(a.values)
    av = a.with_values(v)
    y = av @ x
    g = backward((y * y).sum())
    Y = s @ x.numpy()
    assert_close(g[x.id], s.T @ (2 * Y), rtol=1e-13, atol=1e-13)
    r, c, _ = (np.asarray(t.numpy()) for t in a.coo_parts())
    assert_close(g[v.id], ((2 * Y)[r] * x.numpy()[c]).sum(1), rtol=1e-13, atol=1e-13)
    # x @ A with a Var on the left, and a 1-d Var
    z = Var(nr.tensor(np.random.default_rng(4).uniform(-1, 1, 6), device=device))
    g2 = backward((z @ a).sum())
    assert_close(g2[z.id], s.toarray().sum(1), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("fmt", FORMATS)
def test_gradcheck_central_differences(fmt):
    s = sprand(5, 4, 0.5, seed=13)
    a = nr.sparse.from_scipy(s, format=fmt)
    x0 = nr.tensor(np.random.default_rng(5).uniform(-1, 1, (4, 2)))

    def f(values, x):
        return ((a.with_values(values) @ x) ** 2).sum()

    assert gradcheck(f, (a.values, x0))
    assert gradcheck(lambda v: a.with_values(v).to_dense().sum(1), (a.values,))
    b = nr.sparse.from_scipy(sprand(4, 3, 0.5, seed=14), format=fmt)
    assert gradcheck(lambda v, w: (a.with_values(v) @ b.with_values(w)).to_dense(), (a.values, b.values))
    assert gradcheck(lambda v, w: (a.with_values(v) + a.T.T.with_values(w) * 2).sum(0), (a.values, a.values))


def test_second_order_and_jvp():
    s = sprand(5, 4, 0.5, seed=15)
    a = nr.sparse.from_scipy(s)
    x = Var(nr.tensor(np.random.default_rng(6).uniform(-1, 1, 4)))
    v = Var(a.values)
    from numr.autograd import backward_with_graph
    y = a.with_values(v) @ x
    gx = backward_with_graph((y * y).sum())[x.id]  # = 2 A^T A x, differentiable again
    h = backward((gx * gx).sum())
    d = s.toarray()
    ata = d.T @ d
    assert_close(h[x.id], 8 * ata @ ata @ x.numpy(), rtol=1e-12, atol=1e-12)
    # forward mode: tangent in x and in the values
    xt = np.random.default_rng(7).uniform(-1, 1, 4)
    out, tan = jvp(lambda xx: a @ xx, (x.tensor,), (nr.tensor(xt),))
    assert_close(out, d @ x.numpy(), rtol=1e-13, atol=1e-13)
    assert_close(tan, d @ xt, rtol=1e-13, atol=1e-13)
    _, tan3 = jvp(lambda xx: xx @ a.T, (x.tensor,), (nr.tensor(xt),))  # dense @ sparse
    assert_close(tan3, xt @ d.T, rtol=1e-13, atol=1e-13)
    vt = np.random.default_rng(8).uniform(-1, 1, a.nnz)
    _, tan2 = jvp(lambda vv: a.with_values(vv) @ x.tensor, (a.values,), (nr.tensor(vt),))
    assert_close(tan2, sp.coo_array((vt, (s.row, s.col)), shape=s.shape) @ x.numpy(),
                 rtol=1e-13, atol=1e-13)
