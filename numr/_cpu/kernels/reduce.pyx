# cython: language_level=3
"""Reduction kernels: sum prod max min argmax argmin any all over every dtype.

The caller (numr/_cpu/ops/reduce.py) hands over the input storage with its
kept and reduced index spaces already permuted and coalesced; the C drivers in
reduce_core.h walk them in place (no copy), with OpenMP above a size threshold.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "reduce_ops.h" nogil:
    enum: NR_MAXDIMS
    ctypedef struct nr_red_spec:
        int nk
        int64_t kshape[32]
        int64_t kxs[32]
        int64_t kys[32]
        int nr
        int64_t rshape[32]
        int64_t rxs[32]
        int vertical
    int nr_reduce(int op, int code, const char *x, char *y, const nr_red_spec *s)

OPS = {"sum": 0, "prod": 1, "max": 2, "min": 3, "argmax": 4, "argmin": 5, "any": 6, "all": 7}


cdef char *_ptr(cnp.ndarray a, Py_ssize_t offset):
    return <char *>cnp.PyArray_DATA(a) + offset * cnp.PyArray_ITEMSIZE(a)


def reduce(int op, int code, cnp.ndarray x, Py_ssize_t x_offset, cnp.ndarray y, Py_ssize_t y_offset,
           tuple kshape, tuple kxs, tuple kys, tuple rshape, tuple rxs, bint vertical):
    """Reduce ``x`` (element offset, kept/reduced shapes and strides) into ``y``.

    ``rshape`` has at least one dim; ``vertical`` picks the column driver.
    Returns False when (op, dtype) has no kernel."""
    cdef nr_red_spec s
    cdef int i, rc
    if len(kshape) > NR_MAXDIMS or len(rshape) > NR_MAXDIMS or len(rshape) < 1:
        raise ShapeError(f"reduce: more than 32 dims after coalescing (kept {kshape}, reduced {rshape})")
    s.nk = len(kshape)
    for i in range(s.nk):
        s.kshape[i] = kshape[i]
        s.kxs[i] = kxs[i]
        s.kys[i] = kys[i]
    s.nr = len(rshape)
    for i in range(s.nr):
        s.rshape[i] = rshape[i]
        s.rxs[i] = rxs[i]
    s.vertical = vertical
    cdef const char *xp = _ptr(x, x_offset)
    cdef char *yp = _ptr(y, y_offset)
    with nogil:
        rc = nr_reduce(op, code, xp, yp, &s)
    return rc == 0


include "threads.pxi"
