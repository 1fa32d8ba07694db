# cython: language_level=3
"""CSR @ dense kernel (sparse_ops.h): OpenMP over output rows, nogil, float32/float64/
complex64/complex128. Callers pass storages and element offsets; the kernel checks the
CSR structure as it reads it and reports the first bad position instead of reading out
of bounds."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "sparse_ops.h" nogil:
    int64_t nr_csr_matmul(int kind, const int64_t *indptr, const int64_t *indices, const void *vals,
                          const void *x, int64_t ldx, int64_t n_cols, int64_t m, void *out,
                          int64_t n_rows, int64_t nnz)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


def csr_matmul(int kind, int isz, indptr, int64_t poff, indices, int64_t ioff, vals, int64_t voff,
               x, int64_t xoff, int64_t ldx, int64_t n_cols, int64_t m, out, int64_t ooff,
               int64_t n_rows, int64_t nnz) -> int:
    """out[i, :] = sum_k vals[k] * x[indices[k], :] over k in [indptr[i], indptr[i+1]).
    Returns -1, -2 - row for a malformed indptr, or the position of a column index out of
    [0, n_cols)."""
    cdef const int64_t *pp = <const int64_t *>_data(indptr) + poff
    cdef const int64_t *ip = <const int64_t *>_data(indices) + ioff
    cdef const char *vp = _data(vals) + voff * isz
    cdef const char *xp = _data(x) + xoff * isz
    cdef char *op = _data(out) + ooff * isz
    cdef int64_t bad
    with nogil:
        bad = nr_csr_matmul(kind, pp, ip, vp, xp, ldx, n_cols, m, op, n_rows, nnz)
    return bad


include "threads.pxi"
