# cython: language_level=3
"""Activation kernels: element-wise activations, fused gated forms act(gate)*up and their
fused backward, and row-wise softmax/log_softmax/softmax backward (C in activation_*.h)."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "activation_softmax.h" nogil:
    ctypedef void (*nra_loop)(char **p, const int64_t *s, int64_t n, double prm)
    nra_loop nra_lookup(int op, int code)
    void nra_run(nra_loop fn, int nops, int ndim, const int64_t *shape, const int64_t *strides,
                 char *const *base, int itemsize, double prm)
    int nra_softmax(int code, const void *x, void *y, int64_t rows, int64_t n, int mode)
    int nra_softmax_bwd(int code, const void *g, const void *y, void *gx, int64_t rows, int64_t n)

DEF MAXOPS = 6
DEF MAXDIMS = 32


cdef inline char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


def elementwise(int op, int code, list arrays, list offsets, tuple shape, list strides, double prm):
    """Run loop ``op`` on operands (inputs then outputs; storage arrays, element offsets,
    coalesced strides). Returns False when the dtype has no loop."""
    cdef nra_loop fn = nra_lookup(op, code)
    if fn == NULL:
        return False
    cdef int nops = len(arrays), ndim = len(shape), i, d
    if nops > MAXOPS or ndim > MAXDIMS:
        raise ValueError("activation kernel: too many operands or dims")
    cdef int64_t shp[MAXDIMS]
    cdef int64_t st[MAXOPS * MAXDIMS]
    cdef char *base[MAXOPS]
    cdef int itemsize = 0
    if ndim == 0:
        ndim = 1
        shp[0] = 1
        for i in range(nops):
            st[i] = 0
    else:
        for d in range(ndim):
            shp[d] = shape[d]
        for i in range(nops):
            for d in range(ndim):
                st[i * ndim + d] = strides[i][d]
    for i in range(nops):
        base[i] = _ptr(arrays[i], offsets[i])
        itemsize = cnp.PyArray_ITEMSIZE(arrays[i])
    with nogil:
        nra_run(fn, nops, ndim, shp, st, base, itemsize, prm)
    return True


def contig1(int op, int code, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray y, int64_t n, double prm):
    """Loop ``op`` on n contiguous elements of x into y (the one-input per-call fast path).
    Returns False when the dtype has no loop."""
    cdef nra_loop fn = nra_lookup(op, code)
    if fn == NULL:
        return False
    cdef int64_t st[2]
    cdef char *base[2]
    st[0] = 1
    st[1] = 1
    base[0] = _ptr(x, x_off)
    base[1] = _ptr(y, 0)
    cdef int itemsize = cnp.PyArray_ITEMSIZE(y)
    with nogil:
        nra_run(fn, 2, 1, &n, st, base, itemsize, prm)
    return True


def softmax(int code, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray y, Py_ssize_t y_off,
            int64_t rows, int64_t n, int mode):
    """softmax (mode 0) or log_softmax (mode 1) of contiguous rows. False for a bad dtype."""
    cdef const void *xp = _ptr(x, x_off)
    cdef void *yp = _ptr(y, y_off)
    cdef int rc
    with nogil:
        rc = nra_softmax(code, xp, yp, rows, n, mode)
    return rc == 0


def softmax_bwd(int code, cnp.ndarray g, Py_ssize_t g_off, cnp.ndarray y, Py_ssize_t y_off,
                cnp.ndarray gx, Py_ssize_t gx_off, int64_t rows, int64_t n):
    cdef const void *gp = _ptr(g, g_off)
    cdef const void *yp = _ptr(y, y_off)
    cdef void *op = _ptr(gx, gx_off)
    cdef int rc
    with nogil:
        rc = nra_softmax_bwd(code, gp, yp, op, rows, n)
    return rc == 0


include "threads.pxi"
