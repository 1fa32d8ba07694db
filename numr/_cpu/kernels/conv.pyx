# cython: language_level=3
"""Direct depthwise convolution kernels: forward, input gradient (also the depthwise
conv_transpose2d) and weight gradient (C in conv_depthwise.h)."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "conv_depthwise.h" nogil:
    ctypedef struct ncd_geom:
        int64_t n, c, mult, h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw
    int ncd_run(int code, int mode, const ncd_geom *g, const void *a, const void *w, const void *b, void *out)


cdef inline char *_ptr(object a, Py_ssize_t offset):
    """Address of element ``offset`` of the storage array ``a`` (NULL for None)."""
    if a is None:
        return NULL
    cdef cnp.ndarray arr = <cnp.ndarray>a
    return <char *>cnp.PyArray_DATA(arr) + offset * cnp.PyArray_ITEMSIZE(arr)


def depthwise(int code, int mode, tuple geom, a, Py_ssize_t a_off, w, Py_ssize_t w_off, b, Py_ssize_t b_off, out):
    """mode 0: out = conv(a, w) + b; 1: out = the input gradient of gradient a; 2: out = the
    weight gradient from input a and gradient b. geom: (n, c, mult, h, w, oh, ow, kh, kw, sh, sw,
    ph, pw, dh, dw); every operand contiguous. False for a dtype without a kernel."""
    cdef ncd_geom g
    (g.n, g.c, g.mult, g.h, g.w, g.oh, g.ow, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw) = geom
    cdef const void *ap = _ptr(a, a_off)
    cdef const void *wp = _ptr(w, w_off)
    cdef const void *bp = _ptr(b, b_off)
    cdef void *op = _ptr(out, 0)
    cdef int rc
    with nogil:
        rc = ncd_run(code, mode, &g, ap, wp, bp, op)
    return rc == 0


include "threads.pxi"
