# cython: language_level=3
"""Semiring matrix products (semiring.h): C = reduce_k combine(A[:, k], B[k, :]) over broadcast
batch dims, OpenMP over row blocks, nogil. The caller (numr/_cpu/ops/matmul.py) applies
NumPy's matmul shape rules and passes storages with element offsets and strides."""

cimport numpy as cnp
from libc.stdint cimport int64_t

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "semiring.h" nogil:
    ctypedef struct nr_sr_spec:
        int nb
        int64_t bshape[32]
        int64_t bstride[3][32]
        int64_t m, n, k, rsa, csa, rsb
    int nr_semiring(int code, int semiring, const char *A, const char *B, char *C, const nr_sr_spec *s)


cdef char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


def semiring(int code, int which, cnp.ndarray a, Py_ssize_t a_off, cnp.ndarray b, Py_ssize_t b_off,
             cnp.ndarray c, Py_ssize_t c_off, tuple bshape, tuple a_bs, tuple b_bs, tuple c_bs,
             int64_t m, int64_t n, int64_t k, int64_t rsa, int64_t csa, int64_t rsb):
    """C (contiguous, batch x m x n) = A (x) B in semiring ``which``; B's rows contiguous.
    Returns False when the dtype or semiring has no kernel."""
    cdef nr_sr_spec s
    cdef int i, rc
    if len(bshape) > 32:
        raise ShapeError(f"semiring_matmul: more than 32 batch dims after coalescing ({bshape})")
    s.nb = len(bshape)
    for i in range(s.nb):
        s.bshape[i] = bshape[i]
        s.bstride[0][i] = a_bs[i]
        s.bstride[1][i] = b_bs[i]
        s.bstride[2][i] = c_bs[i]
    s.m, s.n, s.k, s.rsa, s.csa, s.rsb = m, n, k, rsa, csa, rsb
    cdef const char *ap = _ptr(a, a_off)
    cdef const char *bp = _ptr(b, b_off)
    cdef char *cp = _ptr(c, c_off)
    with nogil:
        rc = nr_semiring(code, which, ap, bp, cp, &s)
    return rc == 0


include "threads.pxi"
