# cython: language_level=3
"""2:4 structured sparse kernels (sparse24_ops.h), nogil: the product with a dense matrix
(OpenMP over output rows; float32/float64, float16/bfloat16 accumulated in float32) and the
pruning of a contiguous tensor (sequential, one pass). Callers pass storages and
element offsets; values and metadata rows are contiguous, B's rows ldb elements apart."""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t

cnp.import_array()

cdef extern from "sparse24_ops.h" nogil:
    int nr_sparse24_matmul(int kind, const void *vals, const uint8_t *meta, const void *b, int64_t ldb,
                           void *out, int64_t m, int64_t k, int64_t n)
    void nr_sparse24_prune(int kind, const void *x, void *vals, uint8_t *meta, int64_t rows, int64_t k)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


def sparse24_matmul(int kind, int isz, vals, int64_t voff, meta, int64_t moff, b, int64_t boff, int64_t ldb,
                    out, int64_t ooff, int64_t m, int64_t k, int64_t n) -> int:
    """out (m, n) = dense(vals, meta) @ b; returns 1 when a row buffer could not be allocated."""
    cdef const char *vp = _data(vals) + voff * isz
    cdef const uint8_t *mp = <const uint8_t *>_data(meta) + moff
    cdef const char *bp = _data(b) + boff * isz
    cdef char *op = _data(out) + ooff * isz
    cdef int r
    with nogil:
        r = nr_sparse24_matmul(kind, vp, mp, bp, ldb, op, m, k, n)
    return r


def sparse24_prune(int kind, int isz, x, int64_t xoff, vals, int64_t voff, meta, int64_t moff, int64_t rows,
                   int64_t k) -> None:
    """vals (rows, k/2) and meta (rows, k/4) of the contiguous x (rows, k): the 2 largest
    magnitudes of every group of 4 (ties to the lower index, NaN largest)."""
    cdef const char *xp = _data(x) + xoff * isz
    cdef char *vp = _data(vals) + voff * isz
    cdef uint8_t *mp = <uint8_t *>_data(meta) + moff
    with nogil:
        nr_sparse24_prune(kind, xp, vp, mp, rows, k)


include "threads.pxi"
