# cython: language_level=3
"""CSR @ dense kernel (sparse_ops.h): OpenMP over output rows, nogil, float32/float64/
complex64/complex128. Callers pass storages and element offsets; the kernel checks the
CSR structure as it reads it and reports the first bad position instead of reading out
of bounds. The direct solves and factorisations (sparse_solve.h: triangular solve, ILU(0),
IC(0); sparse_lu.h: sparse LU; sparse_ilut.h: ILUT, ILU(k)) are sequential and nogil; they take contiguous arrays and return -1, -2 (malformed
structure), -3 (out of memory) or the index of a zero pivot. Sparse @ sparse, sums and
element-wise products of CSR matrices (sparse_spgemm.h) run OpenMP over rows, nogil."""

cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.string cimport memcpy

import numpy as np

cnp.import_array()

cdef extern from "sparse_ops.h" nogil:
    int64_t nr_csr_matmul(int kind, const int64_t *indptr, const int64_t *indices, const void *vals,
                          const void *x, int64_t ldx, int64_t n_cols, int64_t m, void *out,
                          int64_t n_rows, int64_t nnz)

cdef extern from "sparse_solve.h" nogil:
    int64_t nr_csr_trsv(int kind, const int64_t *ip, const int64_t *ix, const void *v, void *x,
                        int64_t n, int64_t m, int lower, int unit, int trans)
    int64_t nr_csr_ilu0(int kind, const int64_t *ip, const int64_t *ix, void *lu, int64_t n)
    int64_t nr_csr_ic0(int kind, const int64_t *ip, const int64_t *ix, void *l, int64_t n)

cdef extern from "sparse_factor.h" nogil:
    ctypedef struct nr_sp_mat:
        int64_t *p
        int64_t *i
        void *x
    void nr_sp_free(nr_sp_mat *a)

cdef extern from "sparse_lu.h" nogil:
    int64_t nr_csc_lu_solve(int kind, const int64_t *Ap, const int64_t *Ai, const void *Ax, void *x,
                            int64_t n, int64_t m, int order)
    int64_t nr_csc_lu_factor(int kind, const int64_t *Ap, const int64_t *Ai, const void *Ax, int64_t n,
                             int flags, double thresh, nr_sp_mat *L, nr_sp_mat *U, int64_t *perm)

cdef extern from "sparse_ilut.h" nogil:
    int64_t nr_csr_ilut(int kind, const int64_t *ip, const int64_t *ix, const void *a, int64_t n,
                        double tau, double fill, nr_sp_mat *F)
    int64_t nr_csr_iluk(int kind, const int64_t *ip, const int64_t *ix, const void *a, int64_t n,
                        int64_t lev_max, nr_sp_mat *F)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


def csr_matmul(int kind, int isz, indptr, int64_t poff, indices, int64_t ioff, vals, int64_t voff,
               x, int64_t xoff, int64_t ldx, int64_t n_cols, int64_t m, out, int64_t ooff,
               int64_t n_rows, int64_t nnz) -> int:
    """out[i, :] = sum_k vals[k] * x[indices[k], :] over k in [indptr[i], indptr[i+1]).
    Returns -1, -2 - row for a malformed indptr, or the position of a column index out of
    [0, n_cols)."""
    cdef const int64_t *pp = <const int64_t *>_data(indptr) + poff
    cdef const int64_t *ip = <const int64_t *>_data(indices) + ioff
    cdef const char *vp = _data(vals) + voff * isz
    cdef const char *xp = _data(x) + xoff * isz
    cdef char *op = _data(out) + ooff * isz
    cdef int64_t bad
    with nogil:
        bad = nr_csr_matmul(kind, pp, ip, vp, xp, ldx, n_cols, m, op, n_rows, nnz)
    return bad


def sparse_solve(int kind, indptr, indices, vals, x, int64_t n, int64_t m, bint lu, int flags) -> int:
    """x (n, m), contiguous, overwritten with a solve: lu 0 the triangular solve op(T) x = b of
    the CSR matrix (flags: 1 lower, 2 unit diagonal, 4 transposed); lu 1 A^-1 x by the sparse
    LU of A (flags: 1 columns in minimum degree order of A + A^T, else natural; 2 the structure
    is CSR, else CSC)."""
    cdef const int64_t *pp = <const int64_t *>_data(indptr)
    cdef const int64_t *ip = <const int64_t *>_data(indices)
    cdef const void *vp = _data(vals)
    cdef void *xp = _data(x)
    cdef int64_t r
    with nogil:
        if lu:
            r = nr_csc_lu_solve(kind, pp, ip, vp, xp, n, m, flags)
        else:
            r = nr_csr_trsv(kind, pp, ip, vp, xp, n, m, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1)
    return r


def csr_incomplete(int kind, indptr, indices, vals, int64_t n, bint cholesky) -> int:
    """ILU(0) (or, with cholesky, IC(0) of the lower triangle) in place on vals, the values of
    a canonical CSR matrix."""
    cdef const int64_t *pp = <const int64_t *>_data(indptr)
    cdef const int64_t *ip = <const int64_t *>_data(indices)
    cdef void *vp = _data(vals)
    cdef int64_t r
    with nogil:
        r = nr_csr_ic0(kind, pp, ip, vp, n) if cholesky else nr_csr_ilu0(kind, pp, ip, vp, n)
    return r


cdef list _take(nr_sp_mat *a, int64_t n, object vdtype):
    """The three arrays of a kernel's malloc'ed compressed matrix as new NumPy arrays (freed)."""
    cdef int64_t nnz = a.p[n]
    cdef cnp.ndarray p = np.empty(n + 1, np.int64)
    cdef cnp.ndarray i = np.empty(nnz, np.int64)
    cdef cnp.ndarray x = np.empty(nnz, vdtype)
    memcpy(cnp.PyArray_DATA(p), a.p, sizeof(int64_t) * (n + 1))
    memcpy(cnp.PyArray_DATA(i), a.i, sizeof(int64_t) * nnz)
    memcpy(cnp.PyArray_DATA(x), a.x, x.itemsize * nnz)
    nr_sp_free(a)
    return [p, i, x]


_VDTYPE = (np.float32, np.float64, np.complex64, np.complex128)


def sparse_factor(int kind, indptr, indices, vals, int64_t n, int what, double a, double b) -> tuple:
    """A factorisation of the square compressed matrix (contiguous arrays), as new arrays:
    what 0: the sparse LU P_r A P_c = L U (a: the flags of sparse_solve, b: the diagonal pivot
    threshold) -> (code, [Lp, Li, Lx,
    Up, Ui, Ux, perm_r, perm_c, and their inverses]) with L and U in CSC; what 1: ILUT (a the drop tolerance, b the
    fill factor) and what 2: ILU(k) (a = k) of a canonical CSR matrix -> (code, [p, i, x]), L
    and U merged in one CSR matrix. code as sparse_solve; the list is empty unless it is -1."""
    cdef const int64_t *pp = <const int64_t *>_data(indptr)
    cdef const int64_t *ip = <const int64_t *>_data(indices)
    cdef const void *vp = _data(vals)
    cdef nr_sp_mat L, U
    cdef cnp.ndarray perm = np.empty(4 * n if what == 0 else 0, np.int64)
    cdef int64_t *pm = <int64_t *>cnp.PyArray_DATA(perm)
    cdef int64_t r
    cdef int flags = <int>a
    cdef int64_t k = <int64_t>a
    with nogil:
        if what == 0:
            r = nr_csc_lu_factor(kind, pp, ip, vp, n, flags, b, &L, &U, pm)
        elif what == 1:
            r = nr_csr_ilut(kind, pp, ip, vp, n, a, b, &L)
        else:
            r = nr_csr_iluk(kind, pp, ip, vp, n, k, &L)
    if r != -1:
        return r, []
    out = _take(&L, n, _VDTYPE[kind])
    if what == 0:
        out += _take(&U, n, _VDTYPE[kind]) + [perm[i * n:(i + 1) * n] for i in range(4)]
    return r, out


cdef extern from "sparse_spgemm.h" nogil:
    int64_t nr_sp_check(const int64_t *p, const int64_t *ix, int64_t n_major, int64_t n_minor, int64_t nnz,
                        int *sorted)
    int64_t nr_sp_count(int op, const int64_t *ap, const int64_t *ai, const int64_t *bp, const int64_t *bi,
                        int64_t n_rows, int64_t n_cols, int sorted, int64_t *cp, int nth)
    int64_t nr_sp_numeric(int kind, int op, const int64_t *ap, const int64_t *ai, const void *av,
                          const int64_t *bp, const int64_t *bi, const void *bv, int64_t n_rows,
                          int64_t n_cols, int sorted, const int64_t *cp, int64_t *ci, void *cv, int nth)
    int nr_sp_threads(int op, const int64_t *ai, const int64_t *bp, int64_t nnz_a, int64_t nnz_b,
                      int64_t n_rows)
    int64_t nr_sp_thread_work


def csr_combine_thread_work(int64_t work) -> int:
    """Set the entries csr_combine touches from which it runs threads (tests); the old value."""
    cdef int64_t old = nr_sp_thread_work
    global nr_sp_thread_work
    nr_sp_thread_work = work
    return old


def csr_combine(int kind, int op, ap, ai, av, bp, bi, bv, int64_t n_rows, int64_t n_inner,
                int64_t n_cols, alloc) -> tuple:
    """C = A @ B (op 0; A n_rows x n_inner, B n_inner x n_cols), A + B (1), A - B (2) or
    A .* B (3) (both n_rows x n_cols) of CSR matrices given as contiguous arrays (values of
    one dtype, kind as csr_matmul), sparse_spgemm.h's symbolic then numeric pass ->
    (code, [indptr, indices, values]) of canonical CSR C. code -1; 0 / 1: A / B is malformed;
    -3: out of memory (the list then empty). alloc(n, values) gives the output arrays (int64,
    or values' dtype): the caller's caching allocator, so no fresh pages fault per call."""
    cdef const int64_t *app = <const int64_t *>_data(ap)
    cdef const int64_t *aip = <const int64_t *>_data(ai)
    cdef const int64_t *bpp = <const int64_t *>_data(bp)
    cdef const int64_t *bip = <const int64_t *>_data(bi)
    cdef const void *avp = _data(av)
    cdef const void *bvp = _data(bv)
    cdef int64_t a_minor = n_inner if op == 0 else n_cols
    cdef int64_t b_major = n_inner if op == 0 else n_rows
    cdef int64_t nnz_a = ai.shape[0], nnz_b = bi.shape[0], r
    cdef cnp.ndarray cp = alloc(n_rows + 1, False)
    cdef int64_t *cpp = <int64_t *>cnp.PyArray_DATA(cp)
    cdef int nth = 1
    cdef int sa = 0, sb = 0
    with nogil:
        if nr_sp_check(app, aip, n_rows, a_minor, nnz_a, &sa) != -1:
            r = 0
        elif nr_sp_check(bpp, bip, b_major, n_cols, nnz_b, &sb) != -1:
            r = 1
        else:
            nth = nr_sp_threads(op, aip, bpp, nnz_a, nnz_b, n_rows)
            r = nr_sp_count(op, app, aip, bpp, bip, n_rows, n_cols, sa and sb, cpp, nth)
            if r == 0:
                r = -1
    if r != -1:
        return r, []
    cdef int64_t nnz = cpp[n_rows]
    cdef cnp.ndarray ci = alloc(nnz, False)
    cdef cnp.ndarray cv = alloc(nnz, True)
    cdef int64_t *cip = <int64_t *>cnp.PyArray_DATA(ci)
    cdef void *cvp = cnp.PyArray_DATA(cv)
    with nogil:
        r = nr_sp_numeric(kind, op, app, aip, avp, bpp, bip, bvp, n_rows, n_cols, sa and sb, cpp, cip, cvp, nth)
    if r != 0:
        return r, []
    return -1, [cp, ci, cv]


include "threads.pxi"
