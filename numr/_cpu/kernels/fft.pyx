# cython: language_level=3
"""FFT kernels (C in fft_ops.h, fft_impl.h, fft_rows.h): many 1-d transforms along one dim of a
strided tensor, complex-to-complex, real-to-complex and complex-to-real, float64 and float32."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "fft_ops.h" nogil:
    int nrfft_rows(int kind, int dbl, int sign, int64_t n, const void *inp, int64_t in_len,
                   int64_t in_step, void *out, int64_t out_step, int nb, const int64_t *bshape,
                   const int64_t *bin, const int64_t *bout, double scale)

cdef enum:
    MAXD = 32


cdef inline char *_ptr(object a, Py_ssize_t offset):
    """Address of element ``offset`` of the storage array ``a``."""
    cdef cnp.ndarray arr = <cnp.ndarray>a
    return <char *>cnp.PyArray_DATA(arr) + offset * cnp.PyArray_ITEMSIZE(arr)


def rows(int kind, bint dbl, int sign, int64_t n, x, Py_ssize_t x_off, int64_t in_len, int64_t in_step,
         y, Py_ssize_t y_off, int64_t out_step, shape, in_strides, out_strides, double scale):
    """Transforms of length n along one dim (kind 0 c2c, 1 r2c, 2 c2r) of x (storage array,
    element offset, length and stride along the dim) into y, for every index of the other dims
    (shape, with x's and y's strides, in elements of each array's dtype); y may be x."""
    cdef int64_t bshape[MAXD]
    cdef int64_t bin_[MAXD]
    cdef int64_t bout[MAXD]
    cdef int nb = len(shape), i, rc
    if nb > MAXD:
        raise ValueError(f"fft: at most {MAXD} dims")
    for i in range(nb):
        bshape[i] = shape[i]; bin_[i] = in_strides[i]; bout[i] = out_strides[i]
    cdef const void *xp = _ptr(x, x_off)
    cdef void *yp = _ptr(y, y_off)
    with nogil:
        rc = nrfft_rows(kind, dbl, sign, n, xp, in_len, in_step, yp, out_step, nb, bshape, bin_, bout, scale)
    if rc == -2:
        raise MemoryError("fft: cannot allocate a plan or a thread's scratch")


include "threads.pxi"
