# cython: language_level=3
"""Sorting kernels (sort along a dim, searchsorted) for every real dtype; see sort_ops.h."""

cimport numpy as cnp
from libc.stdint cimport int64_t

from numr.errors import OutOfMemoryError, ShapeError

cnp.import_array()

cdef extern from "sort_ops.h" nogil:
    ctypedef struct nr_sort_spec:
        int nk
        int64_t kshape[32]
        int64_t kxs[32]
        int64_t kvs[32]
        int64_t kis[32]
        int64_t n, xs, vs
        int64_t is_ "is"
        int desc
    ctypedef struct nr_ss_spec:
        int nk
        int64_t kshape[32]
        int64_t kss[32]
        int64_t kvs[32]
        int64_t kos[32]
        int64_t n, ss, m, vs, os
        int right
    int nr_sort(int code, const char *x, char *v, int64_t *idx, const nr_sort_spec *s)
    int nr_searchsorted(int code, const char *seq, const char *vals, int64_t *out, const nr_ss_spec *s)

cdef extern from "sort_select.h" nogil:
    int nr_topk(int code, const char *x, char *v, int64_t *idx, const nr_sort_spec *s, int64_t k)


cdef char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


def sort(int code, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray v, Py_ssize_t v_off, cnp.ndarray i,
         Py_ssize_t i_off, tuple kshape, tuple kxs, tuple kvs, tuple kis, int64_t n, int64_t xs,
         int64_t vs, int64_t is_, bint descending, int64_t first=-1):
    """Sort each row (n elements at stride xs) into values v and int64 indices i; with first
    >= 1, only the first elements of the sort order, by selection (v and i hold that many). False: no
    kernel for the dtype."""
    cdef nr_sort_spec s
    cdef int k, rc
    if len(kshape) > 32:
        raise ShapeError(f"sort: more than 32 dims after coalescing (kept {kshape})")
    if n >= 2 ** 32:
        raise ShapeError(f"sort: rows of {n} elements; at most 2**32 - 1 are supported")
    s.nk = len(kshape)
    for k in range(s.nk):
        s.kshape[k] = kshape[k]
        s.kxs[k] = kxs[k]
        s.kvs[k] = kvs[k]
        s.kis[k] = kis[k]
    s.n, s.xs, s.vs, s.desc = n, xs, vs, descending
    s.is_ = is_
    cdef const char *xp = _ptr(x, x_off)
    cdef char *vp = _ptr(v, v_off)
    cdef int64_t *ip = <int64_t *>_ptr(i, i_off)
    with nogil:
        if first >= 1:
            rc = nr_topk(code, xp, vp, ip, &s, first)
        else:
            rc = nr_sort(code, xp, vp, ip, &s)
    if rc == -2:
        raise OutOfMemoryError(f"sort: no memory for the scratch of rows of {n} elements")
    return rc == 0


def searchsorted(int code, cnp.ndarray seq, Py_ssize_t s_off, cnp.ndarray vals, Py_ssize_t v_off,
                 cnp.ndarray out, Py_ssize_t o_off, tuple kshape, tuple kss, tuple kvs, tuple kos,
                 int64_t n, int64_t ss, int64_t m, int64_t vs, int64_t os, bint right):
    """Insertion points of each row's m values into its sorted row of n. False: no kernel."""
    cdef nr_ss_spec s
    cdef int k, rc
    if len(kshape) > 32:
        raise ShapeError(f"searchsorted: more than 32 dims after coalescing (kept {kshape})")
    s.nk = len(kshape)
    for k in range(s.nk):
        s.kshape[k] = kshape[k]
        s.kss[k] = kss[k]
        s.kvs[k] = kvs[k]
        s.kos[k] = kos[k]
    s.n, s.ss, s.m, s.vs, s.os, s.right = n, ss, m, vs, os, right
    cdef const char *sp = _ptr(seq, s_off)
    cdef const char *vp = _ptr(vals, v_off)
    cdef int64_t *op = <int64_t *>_ptr(out, o_off)
    with nogil:
        rc = nr_searchsorted(code, sp, vp, op, &s)
    return rc == 0


include "threads.pxi"
