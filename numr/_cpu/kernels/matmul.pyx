# cython: language_level=3
"""matmul kernels: packed vectorised GEMM (float32/float64, low precision through
float32), exact integer, bool and complex kernels, over broadcast batch dims; semiring
products (semiring.h: min_plus, max_plus, ... over the same batch spec).

The caller (numr/_cpu/ops/matmul.py) applies NumPy's shape rules and passes each
operand's storage with element offsets and strides; nothing is copied first.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "gemm_ops.h" nogil:
    ctypedef struct nr_mm_spec:
        int nb
        int64_t bshape[32]
        int64_t bstride[3][32]
        int64_t m, n, k, rsa, csa, rsb, csb
    int nr_matmul(int code, const char *A, const char *B, char *C, const nr_mm_spec *s)

cdef extern from "semiring.h" nogil:
    int nr_semiring(int code, int semiring, const char *A, const char *B, char *C, const nr_mm_spec *s)


cdef char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


cdef int _spec(nr_mm_spec *s, str op, tuple bshape, tuple a_bs, tuple b_bs, tuple c_bs, int64_t m, int64_t n,
               int64_t k, int64_t rsa, int64_t csa, int64_t rsb, int64_t csb) except -1:
    cdef int i
    if len(bshape) > 32:
        raise ShapeError(f"{op}: more than 32 batch dims after coalescing ({bshape})")
    s.nb = len(bshape)
    for i in range(s.nb):
        s.bshape[i] = bshape[i]
        s.bstride[0][i] = a_bs[i]
        s.bstride[1][i] = b_bs[i]
        s.bstride[2][i] = c_bs[i]
    s.m, s.n, s.k = m, n, k
    s.rsa, s.csa, s.rsb, s.csb = rsa, csa, rsb, csb
    return 0


def matmul(int code, cnp.ndarray a, Py_ssize_t a_off, cnp.ndarray b, Py_ssize_t b_off,
           cnp.ndarray c, Py_ssize_t c_off, tuple bshape, tuple a_bs, tuple b_bs, tuple c_bs,
           int64_t m, int64_t n, int64_t k, int64_t rsa, int64_t csa, int64_t rsb, int64_t csb):
    """C (contiguous, batch x m x n) = A @ B; batch dims with per-operand strides (0 = broadcast).

    Returns False when the dtype has no kernel or scratch memory ran out."""
    cdef nr_mm_spec s
    cdef int rc
    _spec(&s, "matmul", bshape, a_bs, b_bs, c_bs, m, n, k, rsa, csa, rsb, csb)
    cdef const char *ap = _ptr(a, a_off)
    cdef const char *bp = _ptr(b, b_off)
    cdef char *cp = _ptr(c, c_off)
    with nogil:
        rc = nr_matmul(code, ap, bp, cp, &s)
    return rc == 0



def semiring(int code, int which, cnp.ndarray a, Py_ssize_t a_off, cnp.ndarray b, Py_ssize_t b_off,
             cnp.ndarray c, Py_ssize_t c_off, tuple bshape, tuple a_bs, tuple b_bs, tuple c_bs,
             int64_t m, int64_t n, int64_t k, int64_t rsa, int64_t csa, int64_t rsb):
    """C (contiguous, batch x m x n) = A (x) B in semiring ``which`` (semiring.h); B's rows
    contiguous. Returns False when the dtype or semiring has no kernel."""
    cdef nr_mm_spec s
    cdef int rc
    _spec(&s, "semiring_matmul", bshape, a_bs, b_bs, c_bs, m, n, k, rsa, csa, rsb, 1)
    cdef const char *ap = _ptr(a, a_off)
    cdef const char *bp = _ptr(b, b_off)
    cdef char *cp = _ptr(c, c_off)
    with nogil:
        rc = nr_semiring(code, which, ap, bp, cp, &s)
    return rc == 0


include "threads.pxi"
