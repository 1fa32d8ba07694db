# cython: language_level=3
"""Fused in-place optimizer steps (Adam/AdamW, SGD, RMSprop) on contiguous float64/float32/float16/bfloat16
buffers (C in optim_ops.h); numr/_cpu/ops/optim.py falls back to the composite otherwise."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "optim_ops.h" nogil:
    ctypedef struct nro_adam_args:
        double b1, b2, eps_c, step_size, sign, wd_l2, p_scale
    ctypedef struct nro_sgd_args:
        double lr, momentum, dampening, sign, wd
        int first, nesterov
    int nro_adam(int kind, void *p, const void *g, void *m, void *v, void *vmax, int64_t n,
                 const nro_adam_args *a)
    ctypedef struct nro_rms_args:
        double lr, alpha, eps, momentum, sign, wd
    int nro_rms(int kind, void *p, const void *g, void *sq, void *ga, void *buf, int64_t n,
                const nro_rms_args *a)
    int nro_sgd(int kind, void *p, const void *g, void *buf, int64_t n, const nro_sgd_args *a)


cdef inline char *_at(object arr, Py_ssize_t off):
    """Address of element off of a storage array (None: NULL)."""
    if arr is None:
        return NULL
    cdef cnp.ndarray a = arr
    return <char *>cnp.PyArray_DATA(a) + off * cnp.PyArray_ITEMSIZE(a)


cdef inline void _ptrs(tuple bufs, char **out):
    """out[i] = the address of (storage array, element offset) pair i of bufs."""
    cdef Py_ssize_t i
    for i in range(len(bufs)):
        out[i] = _at(bufs[i][0], bufs[i][1])


def adam(int kind, p, Py_ssize_t p_off, g, Py_ssize_t g_off, m, Py_ssize_t m_off, v, Py_ssize_t v_off,
         vmax, Py_ssize_t vmax_off, int64_t n, double b1, double b2, double eps_c,
         double step_size, double sign, double wd_l2, double p_scale):
    """One Adam step over n elements of each buffer (from element *_off), in place."""
    cdef nro_adam_args a
    a.b1, a.b2, a.eps_c, a.step_size = b1, b2, eps_c, step_size
    a.sign, a.wd_l2, a.p_scale = sign, wd_l2, p_scale
    cdef char *q[5]
    _ptrs(((p, p_off), (g, g_off), (m, m_off), (v, v_off), (vmax, vmax_off)), q)
    cdef int rc
    with nogil:
        rc = nro_adam(kind, q[0], q[1], q[2], q[3], q[4], n, &a)
    return rc == 0


def sgd(int kind, p, Py_ssize_t p_off, g, Py_ssize_t g_off, buf, Py_ssize_t buf_off, int64_t n, double lr,
        double momentum, double dampening, double sign, double wd, bint first, bint nesterov):
    """One SGD step over n elements (buf None without momentum), in place."""
    cdef nro_sgd_args a
    a.lr, a.momentum, a.dampening, a.sign, a.wd = lr, momentum, dampening, sign, wd
    a.first, a.nesterov = first, nesterov
    cdef char *q[3]
    _ptrs(((p, p_off), (g, g_off), (buf, buf_off)), q)
    cdef int rc
    with nogil:
        rc = nro_sgd(kind, q[0], q[1], q[2], n, &a)
    return rc == 0


def rmsprop(int kind, p, Py_ssize_t p_off, g, Py_ssize_t g_off, sq, Py_ssize_t sq_off, ga, Py_ssize_t ga_off,
            buf, Py_ssize_t buf_off, int64_t n, double lr, double alpha, double eps, double momentum, double sign,
            double wd):
    """One RMSprop step over n elements (ga None unless centered, buf None without momentum), in place."""
    cdef nro_rms_args a
    a.lr, a.alpha, a.eps, a.momentum, a.sign, a.wd = lr, alpha, eps, momentum, sign, wd
    cdef char *q[5]
    _ptrs(((p, p_off), (g, g_off), (sq, sq_off), (ga, ga_off), (buf, buf_off)), q)
    cdef int rc
    with nogil:
        rc = nro_rms(kind, q[0], q[1], q[2], q[3], q[4], n, &a)
    return rc == 0


include "threads.pxi"
