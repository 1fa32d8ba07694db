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
