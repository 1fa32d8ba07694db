# cython: language_level=3
"""Scan kernels (cumsum, cumprod) for every dtype; see scan_ops.h for the index spaces."""

cimport numpy as cnp
from libc.stdint cimport int64_t

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "scan_ops.h" nogil:
    ctypedef struct nr_scan_spec:
        int nk
        int64_t kshape[32]
        int64_t kxs[32]
        int64_t kys[32]
        int ns
        int64_t sshape[32]
        int64_t sxs[32]
        int64_t ys
        int vertical
    int nr_scan(int op, int code, const char *x, char *y, const nr_scan_spec *s)


cdef char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


def scan(int op, int code, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray y, Py_ssize_t y_off,
         tuple kshape, tuple kxs, tuple kys, tuple sshape, tuple sxs, int64_t ys, bint vertical):
    """op 0 cumsum, 1 cumprod of x over the scan dims into y. False: no kernel."""
    cdef nr_scan_spec s
    cdef int i, rc
    if len(kshape) > 32 or len(sshape) > 32 or len(sshape) < 1:
        raise ShapeError(f"scan: more than 32 dims after coalescing (kept {kshape}, scanned {sshape})")
    s.nk = len(kshape)
    for i in range(s.nk):
        s.kshape[i] = kshape[i]
        s.kxs[i] = kxs[i]
        s.kys[i] = kys[i]
    s.ns = len(sshape)
    for i in range(s.ns):
        s.sshape[i] = sshape[i]
        s.sxs[i] = sxs[i]
    s.ys = ys
    s.vertical = vertical
    cdef const char *xp = _ptr(x, x_off)
    cdef char *yp = _ptr(y, y_off)
    with nogil:
        rc = nr_scan(op, code, xp, yp, &s)
    return rc == 0


include "threads.pxi"
