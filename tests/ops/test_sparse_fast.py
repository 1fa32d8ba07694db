"""The CPU kernels for sparse @ sparse, sparse +/- sparse and sparse .* sparse
(numr/_cpu/kernels/sparse_spgemm.h) against the composite they replace (numr/sparse/_ops.py:
same structure, values to rounding) and scipy.sparse (float64 / complex128 oracle): several
densities, every kernel dtype, empty rows/columns, 0xN / Nx0 / 1x1, duplicates and unsorted
indices, stored and cancelled zeros (kept, as the composite keeps them; scipy drops them),
NaN/inf, strided index tensors, the threaded path and bad shapes / structures. CPU only."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import assert_close

import numr as nr
from numr.autograd import Var
from numr.sparse import _ops

DTYPES = ("float32", "float64", "complex64", "complex128")
OPS = {
    "matmul": (lambda a, b: a @ b, lambda s, t: s @ t),
    "add": (lambda a, b: a + b, lambda s, t: s + t),
    "sub": (lambda a, b: a - b, lambda s, t: s - t),
    "multiply": (lambda a, b: a.multiply(b), lambda s, t: s.multiply(t)),
}


def rand(m, n, density, seed, dtype="float64"):
    rng = np.random.default_rng(seed)
    s = sp.random(m, n, density=density, format="csr", rng=rng, dtype=np.float64)
    s.data = s.data * 4 - 2
    if dtype.startswith("complex"):
        s = s + 1j * sp.csr_array((rng.uniform(-1, 1, s.nnz), s.indices, s.indptr), shape=s.shape)
    return sp.csr_array(s).astype(dtype)


def composite(fn, *args):
    """fn's result with the kernel switched off (the composite numr runs on the GPUs)."""
    saved = _ops._native
    _ops._native = lambda *a: None
    try:
        return fn(*args)
    finally:
        _ops._native = saved


def same(fast, slow, dtype):
    """Identical structure (canonical), values to rounding."""
    assert (fast.format, fast.shape, fast.dtype) == (slow.format, slow.shape, slow.dtype)
    assert fast.has_canonical_format and fast.nnz == slow.nnz
    assert_close(fast.indptr, slow.indptr.numpy(), rtol=0, atol=0)
    assert_close(fast.indices, slow.indices.numpy(), rtol=0, atol=0)
    tol = 1e-5 if dtype in ("float32", "complex64") else 1e-13
    assert_close(fast.values, slow.values.numpy(), rtol=tol, atol=tol)


def check(op, a, b, ref, dtype):
    """The kernel equals the composite and (densely) scipy's ref."""
    fast = OPS[op][0](a, b)
    same(fast, composite(OPS[op][0], a, b), dtype)
    tol = 1e-5 if dtype in ("float32", "complex64") else 1e-13
    assert_close(fast.to_dense(), np.asarray(ref.toarray()), rtol=tol, atol=tol)
    return fast


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_random_vs_composite_and_scipy(op, dtype):
    for k, density in enumerate((0.02, 0.2, 0.7)):
        s = rand(30, 24, density, k, dtype)
        t = rand(24, 17, density, k + 10, dtype) if op == "matmul" else rand(30, 24, density, k + 10, dtype)
        a, b = nr.sparse.from_scipy(s), nr.sparse.from_scipy(t)
        c = check(op, a, b, OPS[op][1](s, t), dtype)
        assert c.dtype == nr.dtype(dtype) and c.format == "csr"
        ref = sp.csr_array(OPS[op][1](s, t))  # random values: no cancellation, scipy's structure
        ref.sort_indices()
        assert_close(c.indptr, ref.indptr.astype(np.int64), rtol=0, atol=0)
        assert_close(c.indices, ref.indices.astype(np.int64), rtol=0, atol=0)


@pytest.mark.parametrize("op", OPS)
def test_edge_shapes_and_empty(op):
    shapes = [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((3, 4), (4, 0)), ((1, 1), (1, 1)), ((0, 0), (0, 0))]
    for sa, sb in shapes:
        sb = sb if op == "matmul" else sa
        s, t = rand(*sa, 1.0, 1), rand(*sb, 1.0, 2)
        c = check(op, nr.sparse.from_scipy(s), nr.sparse.from_scipy(t), OPS[op][1](s, t), "float64")
        assert c.shape == ((sa[0], sb[1]) if op == "matmul" else sa) and c.indptr.shape == (c.shape[0] + 1,)
    # empty rows and columns; nnz 0 operands; disjoint structures (an all-zero product)
    s = sp.csr_array(np.array([[0, 1.0, 0, 2.0], [0, 0, 0, 0], [3.0, 0, 0, 0]]))
    t = sp.csr_array(np.array([[0, 0, 5.0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]))
    z = sp.csr_array((3, 4))
    for x, y in ((s, t[:4] if op == "matmul" else t[:3]), (s, z if op != "matmul" else sp.csr_array((4, 2))),
                 (z, s if op != "matmul" else sp.csr_array((4, 4)))):
        c = check(op, nr.sparse.from_scipy(x), nr.sparse.from_scipy(y), OPS[op][1](x, y), "float64")
        assert c.indices.dtype == nr.int64
    if op == "multiply":
        assert nr.sparse.from_scipy(s).multiply(nr.sparse.from_scipy(t[:3])).nnz == 0


@pytest.mark.parametrize("op", OPS)
def test_duplicates_unsorted_and_strided(op):
    """Rows with unsorted and repeated indices go through the marker path; the other operand's
    rows are sorted (merge path): row by row, both meet. Index and value tensors are sliced
    views (offset, stride 2)."""
    ip = np.array([0, 3, 3, 7, 9])
    ix = np.array([3, 0, 3, 2, 0, 2, 1, 1, 0])
    rng = np.random.default_rng(5)
    v = rng.uniform(-2, 2, 9)
    ref_a = sp.csr_array((v, ix, ip), shape=(4, 4))
    pad = np.zeros(18)
    pad[1::2] = v
    a = nr.sparse.CSRMatrix(nr.tensor(ip), nr.tensor(np.repeat(ix, 2))[::2], nr.tensor(pad)[1::2], (4, 4))
    assert not a.has_canonical_format
    t = rand(4, 4, 0.5, 3)
    b = nr.sparse.from_scipy(t)
    check(op, a, b, OPS[op][1](ref_a, t), "float64")
    check(op, b, a, OPS[op][1](t, ref_a), "float64")
    check(op, a, a, OPS[op][1](ref_a, ref_a), "float64")


def test_long_rows():
    """Rows of up to 64 products are sorted by rank, longer ones by quicksort (both halves
    past its insertion-sort cutoff): rows of ~10 to ~400 entries, and an unsorted long row."""
    s, t = rand(6, 120, 0.9, 1), rand(120, 500, 0.08, 2)
    check("matmul", nr.sparse.from_scipy(s), nr.sparse.from_scipy(t), s @ t, "float64")
    rng = np.random.default_rng(3)
    cols = rng.permutation(300)[:200]
    ref = sp.csr_array((rng.uniform(-1, 1, 200), cols, np.array([0, 200])), shape=(1, 300))
    a = nr.sparse.CSRMatrix(nr.tensor([0, 200]), nr.tensor(cols), nr.tensor(ref.data), (1, 300))
    u = rand(1, 300, 0.5, 4)
    for op in ("add", "multiply"):
        check(op, a, nr.sparse.from_scipy(u), OPS[op][1](ref, u), "float64")


def test_zeros_kept_structurally():
    """Stored zeros and cancellations stay stored (the composite's structure on every
    backend); scipy drops them: only the dense values agree with it."""
    s = sp.csr_array((np.array([0.0, 1.0, 2.0]), np.array([0, 1, 2]), np.array([0, 1, 2, 3])), shape=(3, 3))
    a = nr.sparse.from_scipy(s)
    assert (a - a).nnz == 3 and (a.multiply(a)).nnz == 3 and (a @ a).nnz == 3
    c = sp.csr_array(np.array([[1.0, 1.0], [0, 0]]))
    d = sp.csr_array(np.array([[1.0, 0], [-1.0, 0]]))
    e = check("matmul", nr.sparse.from_scipy(c), nr.sparse.from_scipy(d), c @ d, "float64")
    assert e.nnz == 1 and (c @ d).nnz == 0


def test_nan_inf_dtypes_and_formats():
    s = sp.csr_array(np.array([[np.nan, 0, 1.0], [0, np.inf, 0], [2.0, 0, -np.inf]]))
    t = sp.csr_array(np.array([[0, 1.0, 0], [0.0, 0, 3.0], [1.0, 0, 1.0]]))
    for op in ("matmul", "add", "sub"):
        with np.errstate(invalid="ignore"):
            check(op, nr.sparse.from_scipy(s), nr.sparse.from_scipy(t), OPS[op][1](s, t), "float64")
    # scipy's multiply spreads NaN/inf over the other's implicit zeros; numr's intersection
    # (the composite's) multiplies entries stored in both only: (2, 0) and (2, 2)
    inter = sp.csr_array(np.array([[0, 0, 0], [0, 0, 0], [2.0, 0, -np.inf]]))
    check("multiply", nr.sparse.from_scipy(s), nr.sparse.from_scipy(t), inter, "float64")
    # mixed dtypes promote by numr's rules (int64 with float32 -> float32, as torch)
    for ds, dt_, want in (("float32", "float64", "float64"), ("int64", "float32", "float32"),
                          ("complex64", "float64", "complex128")):
        x, y = rand(6, 6, 0.5, 1).astype(ds), rand(6, 6, 0.5, 2).astype(dt_)
        for op in OPS:
            c = check(op, nr.sparse.from_scipy(x), nr.sparse.from_scipy(y), OPS[op][1](x, y), "float32")
            assert c.dtype == nr.dtype(want)
    # int64 has no kernel: the composite runs (same result type as before)
    x = rand(5, 5, 0.5, 1).astype(np.int64)
    assert (nr.sparse.from_scipy(x) @ nr.sparse.from_scipy(x)).dtype == nr.int64
    # formats: CSC with CSC gives CSC (through the transposes), other mixes CSR
    x, y = rand(7, 6, 0.4, 4), rand(6, 7, 0.4, 5)
    for fa, fb in (("csc", "csc"), ("coo", "csc"), ("csr", "coo")):
        a, b = nr.sparse.from_scipy(x, format=fa), nr.sparse.from_scipy(y, format=fb)
        c = check("matmul", a, b, x @ y, "float64")
        assert c.format == ("csc" if fa == fb == "csc" else "csr")
        bt = nr.sparse.from_scipy(y.T, format=fb)
        assert check("add", a, bt, x + y.T, "float64").format == c.format


def test_threaded_path_matches():
    """With the thread threshold lowered to 0 and two threads, rows split across threads."""
    from numr._cpu.kernels import sparse as k
    s, t, u = rand(300, 30, 0.1, 1), rand(30, 30, 0.2, 2), rand(300, 30, 0.1, 3)
    a, b, c = (nr.sparse.from_scipy(m) for m in (s, t, u))
    before, work = nr.get_num_threads(), k.csr_combine_thread_work(0)
    nr.set_num_threads(2)
    try:
        for op, y, ref in (("matmul", b, s @ t), ("add", c, s + u), ("multiply", c, s.multiply(u))):
            check(op, a, y, ref, "float64")
    finally:
        nr.set_num_threads(before)
        k.csr_combine_thread_work(work)


def test_var_keeps_composite_and_errors():
    s = rand(4, 4, 0.5, 1)
    a = nr.sparse.from_scipy(s)
    av = a.with_values(Var(a.values, requires_grad=True))
    assert _ops._native("matmul", av, a) is None and type((av @ a).values) is Var
    for op in OPS:
        b = nr.sparse.from_scipy(rand(3, 4, 0.5, 2))
        with pytest.raises(nr.ShapeError, match="matmul|add|sub|multiply"):
            OPS[op][0](a, b)
    bad = nr.sparse.CSRMatrix(nr.tensor([0, 1, 2]), nr.tensor([0, 9]), nr.tensor([1.0, 2.0]), (2, 3), check=False)
    good = nr.sparse.from_scipy(rand(2, 3, 0.5, 1))
    with pytest.raises(nr.IndexOutOfRange, match="first sparse operand"):
        bad + good
    with pytest.raises(nr.IndexOutOfRange, match="second sparse operand"):
        good.multiply(bad)
