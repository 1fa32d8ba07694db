"""Unary element-wise kernels (unary_kernel.h): one inner loop per (op, dtype
code); this module turns storage, offsets, shapes and strides into C arrays."""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "unary_kernel.h" nogil:
    int NR_U_COUNT
    const char *nr_unary_names[]
    void nr_unary_setup()
    int nr_unary_supported(int op, int code)
    int nr_unary_exec(int op, int code, int ndim, const int64_t *shape, const int64_t *strides,
                      char **base, const int *itemsize)

nr_unary_setup()

#: op name -> op code of this module's kernels
OPS = {nr_unary_names[i].decode(): i for i in range(NR_U_COUNT)}

cdef enum:
    MAXDIMS = 32
    GIL_MIN = 16384  # below this many elements the GIL is kept (releasing costs more)


def supported(int op, int code) -> bool:
    return nr_unary_supported(op, code) != 0


def run(int op, int code, cnp.ndarray x, Py_ssize_t xo, cnp.ndarray out, Py_ssize_t oo,
        tuple shape, tuple xs, tuple os) -> int:
    """out = op(x) over a coalesced (shape, strides) walk; -1 if unsupported."""
    cdef int nd = len(shape), i, r
    cdef int64_t cshape[MAXDIMS]
    cdef int64_t cstrides[2 * MAXDIMS]
    cdef char *base[2]
    cdef int isz[2]
    cdef int64_t total = 1
    if nd > MAXDIMS:
        raise ValueError(f"unary kernel: {nd} dims is more than supported")
    isz[0] = cnp.PyArray_ITEMSIZE(x)
    isz[1] = cnp.PyArray_ITEMSIZE(out)
    base[0] = <char *>cnp.PyArray_DATA(x) + xo * isz[0]
    base[1] = <char *>cnp.PyArray_DATA(out) + oo * isz[1]
    if nd == 0:
        nd = 1
        cshape[0] = 1
        cstrides[0] = 0
        cstrides[1] = 0
    else:
        for i in range(nd):
            cshape[i] = shape[i]
            total *= cshape[i]
            cstrides[i] = xs[i]
            cstrides[nd + i] = os[i]
    if total < GIL_MIN:
        return nr_unary_exec(op, code, nd, cshape, cstrides, base, isz)
    with nogil:
        r = nr_unary_exec(op, code, nd, cshape, cstrides, base, isz)
    return r


include "threads.pxi"
