# cython: language_level=3
"""Dense decomposition kernels (linalg_ops.h): LU, LU solve, triangular solve, Cholesky,
Householder QR, Jacobi eigh and one-sided Jacobi SVD, batched over contiguous matrices.

The caller (numr/_cpu/ops/decomp.py) passes freshly allocated contiguous buffers; every
routine works in place on them.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "linalg_ops.h" nogil:
    ctypedef struct nr_la_spec:
        int op, code
        int64_t batch, m, n, k
        int flag1, flag2
        char *a
        char *b
        char *c
        char *d
        int64_t *piv
        int *info
        int64_t sa, sb, sc, sd
    int nr_linalg(const nr_la_spec *s)


cdef char *_p(object a):
    if a is None:
        return NULL
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>a)


def run(int op, int code, int64_t batch, int64_t m, int64_t n, int64_t k, int flag1, int flag2,
        a, int64_t sa, b, int64_t sb, c, int64_t sc, d, int64_t sd, piv, info):
    """One op over ``batch`` matrices (ops and arguments: linalg_ops.h). False: no kernel."""
    cdef nr_la_spec s
    cdef int rc
    s.op, s.code, s.batch, s.m, s.n, s.k, s.flag1, s.flag2 = op, code, batch, m, n, k, flag1, flag2
    s.a, s.b, s.c, s.d = _p(a), _p(b), _p(c), _p(d)
    s.sa, s.sb, s.sc, s.sd = sa, sb, sc, sd
    s.piv = <int64_t *>_p(piv)
    s.info = <int *>_p(info)
    with nogil:
        rc = nr_linalg(&s)
    return rc == 0


include "threads.pxi"


# ---- lapackx: solve_banded's banded LU and ldl_factor's Bunch-Kaufman LDL^T (linalg_lax.h) ----
from libc.stdint cimport int32_t

cdef extern from "linalg_lax.h" nogil:
    int nr_gbsv(int code, int64_t n, int64_t kl, int64_t ku, int64_t nrhs, char *ab, char *b)
    int nr_sytf2(int code, int64_t batch, int64_t n, int herm, char *a, int32_t *piv, int32_t *info)
    int nr_sytrs(int code, int64_t batch, int64_t n, int64_t m, int herm, char *ld, int64_t *p, char *b)


def gbsv(int code, int64_t n, int64_t kl, int64_t ku, int64_t nrhs, ab, b):
    """x with A x = b in place of b (contiguous (n, nrhs)); ab contiguous (kl + ku + 1, n). 0, 1 + the
    first zero pivot, -1 (no kernel for the dtype)."""
    cdef int rc
    cdef char *pa = _p(ab)
    cdef char *pb = _p(b)
    with nogil:
        rc = nr_gbsv(code, n, kl, ku, nrhs, pa, pb)
    if rc == -2:
        raise MemoryError("solve_banded: no memory for the band's work array")
    return rc


def sytf2(int code, int64_t batch, int64_t n, int herm, a, piv, info):
    """LD in place of the contiguous (batch, n, n) a, int32 pivots (batch, n) and info (batch,).
    False: no kernel for the dtype."""
    cdef int rc
    cdef char *pa = _p(a)
    cdef int32_t *pp = <int32_t *>_p(piv)
    cdef int32_t *pi = <int32_t *>_p(info)
    with nogil:
        rc = nr_sytf2(code, batch, n, herm, pa, pp, pi)
    if rc == -2:
        raise MemoryError("ldl_factor: no memory for the work vectors")
    return rc == 0


def sytrs(int code, int64_t batch, int64_t n, int64_t m, int herm, ld, piv, b):
    """X in place of the contiguous (batch, n, m) b from LD (batch, n, n) and valid int64 pivots
    (batch, n). False: no kernel for the dtype."""
    cdef int rc
    cdef char *pl = _p(ld)
    cdef int64_t *pp = <int64_t *>_p(piv)
    cdef char *pb = _p(b)
    with nogil:
        rc = nr_sytrs(code, batch, n, m, herm, pl, pp, pb)
    if rc == -2:
        raise MemoryError("ldl_solve: no memory for the work flags")
    return rc == 0
