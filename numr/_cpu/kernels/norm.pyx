# cython: language_level=3
"""Normalization kernels: row-wise layer_norm/rms_norm forward (with the residual add of the
fused pre-norm forms) and backward (C in norm_rows.h)."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "norm_rows.h" nogil:
    int nrn_forward(int code, const void *x, const void *r, void *s, const void *w, const void *b,
                    void *y, int64_t rows, int64_t n, double eps, int rms)
    int nrn_backward(int code, const void *g, const void *x, const void *w, void *gx, double *dwdb,
                     int64_t rows, int64_t n, double eps, int rms)


cdef inline char *_ptr(object a, Py_ssize_t offset):
    """Address of element ``offset`` of the storage array ``a`` (NULL for None)."""
    if a is None:
        return NULL
    cdef cnp.ndarray arr = <cnp.ndarray>a
    return <char *>cnp.PyArray_DATA(arr) + offset * cnp.PyArray_ITEMSIZE(arr)


def forward(int code, x, Py_ssize_t x_off, r, Py_ssize_t r_off, s, w, Py_ssize_t w_off, b, Py_ssize_t b_off,
            y, int64_t rows, int64_t n, double eps, bint rms):
    """y (and s = x + r when r is given) of contiguous rows of n; w, b, r may be None.
    False for a dtype without a kernel."""
    cdef const void *xp = _ptr(x, x_off)
    cdef const void *rp = _ptr(r, r_off)
    cdef void *sp = _ptr(s, 0)
    cdef const void *wp = _ptr(w, w_off)
    cdef const void *bp = _ptr(b, b_off)
    cdef void *yp = _ptr(y, 0)
    cdef int rc
    with nogil:
        rc = nrn_forward(code, xp, rp, sp, wp, bp, yp, rows, n, eps, rms)
    return rc == 0


def backward(int code, g, Py_ssize_t g_off, x, Py_ssize_t x_off, w, Py_ssize_t w_off, gx, dwdb,
             int64_t rows, int64_t n, double eps, bint rms):
    """gx of contiguous rows of n, and dwdb (2n float64: sum of g * xhat, then of g) when given.
    False for a dtype without a kernel; MemoryError when a thread's buffer cannot be allocated."""
    cdef const void *gp = _ptr(g, g_off)
    cdef const void *xp = _ptr(x, x_off)
    cdef const void *wp = _ptr(w, w_off)
    cdef void *op = _ptr(gx, 0)
    cdef double *dp = <double *>_ptr(dwdb, 0)
    cdef int rc
    with nogil:
        rc = nrn_backward(code, gp, xp, wp, op, dp, rows, n, eps, rms)
    if rc == -2:
        raise MemoryError("layer_norm/rms_norm backward: cannot allocate a thread's dw/db buffer")
    return rc == 0


include "threads.pxi"
