# cython: language_level=3
"""Fused special-function loops (erf, lgamma, digamma; Bessel J/Y/K, elliptic K/E;
incomplete gamma and beta and their inverses) on contiguous float32/float64 (C in
special_fused.h); every other case runs the generic composite."""

cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t

cnp.import_array()

cdef extern from "special_fused.h" nogil:
    int nrs_run(int op, int f64, const void *x, void *y, int64_t n)
    int nrs_run2(int op, int f64, const void *x, void *y, int64_t n, const double *tab,
                 const int32_t *len, int steps)
    int nrs_run_ig(int op, int f64, const void *a, const void *b, const void *x, void *y, int64_t n,
                   const double *tab, const int32_t *len)


def run(int op, bint f64, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray y, int64_t n):
    """op 0 erf, 1 lgamma, 2 digamma of n contiguous elements of x (from element x_off) into y."""
    cdef const char *xp = <const char *>cnp.PyArray_DATA(x) + x_off * cnp.PyArray_ITEMSIZE(x)
    cdef char *yp = <char *>cnp.PyArray_DATA(y)
    cdef int rc
    with nogil:
        rc = nrs_run(op, f64, xp, yp, n)
    return rc == 0


def run2(int op, bint f64, cnp.ndarray x, Py_ssize_t x_off, cnp.ndarray y, int64_t n,
         const double[::1] tab, const int32_t[::1] lens, int steps):
    """op (special_fused.h's NRS_OP_*: Bessel, elliptic) of n contiguous elements of x (from
    element x_off) into y, with the composites' series tab (lengths lens) and AGM steps."""
    cdef const char *xp = <const char *>cnp.PyArray_DATA(x) + x_off * cnp.PyArray_ITEMSIZE(x)
    cdef char *yp = <char *>cnp.PyArray_DATA(y)
    cdef int rc
    with nogil:
        rc = nrs_run2(op, f64, xp, yp, n, &tab[0], &lens[0], steps)
    return rc == 0


cdef const char *_at(cnp.ndarray s, Py_ssize_t off):
    return <const char *>cnp.PyArray_DATA(s) + off * cnp.PyArray_ITEMSIZE(s)


def run_ig(int op, bint f64, cnp.ndarray a, Py_ssize_t a_off, cnp.ndarray b, Py_ssize_t b_off, cnp.ndarray x,
           Py_ssize_t x_off, cnp.ndarray y, int64_t n, const double[::1] tab, const int32_t[::1] lens):
    """op (special_incbeta.h's NRS_IG_*/NRS_IB*: P, Q, their inverses, betainc, betaincinv) of n
    contiguous elements of a, b (the beta ops'; None for gamma) and x (from elements *_off) into y,
    with the composites' constants tab (lengths lens)."""
    cdef const char *ap = _at(a, a_off)
    cdef const char *bp = _at(b, b_off) if b is not None else NULL
    cdef const char *xp = _at(x, x_off)
    cdef char *yp = <char *>cnp.PyArray_DATA(y)
    cdef int rc
    with nogil:
        rc = nrs_run_ig(op, f64, ap, bp, xp, yp, n, &tab[0], &lens[0])
    return rc == 0


include "threads.pxi"
