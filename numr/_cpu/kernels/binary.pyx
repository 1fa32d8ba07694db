"""Binary element-wise kernels: arithmetic, fma, comparisons, logical ops.

The C side (binary_kernel.h) holds one inner loop per (op, dtype code); this
module only turns tensors' storage, offsets, shapes and strides into C arrays.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()

cdef extern from "binary_kernel.h" nogil:
    int NR_B_COUNT
    const char *nr_binary_names[]
    void nr_binary_setup()
    int nr_binary_supported(int op, int code)
    int nr_binary_exec(int op, int code, int nops, int ndim, const int64_t *shape,
                       const int64_t *strides, char **base, const int *itemsize)
    int nr_binary_contig(int op, int code, char *a, char *b, char *out, int64_t n, int isz, int osz)
    int nr_binary_index_add(int code, char *x, int64_t xs_dim, char *v, int64_t vs_dim, const int64_t *norm,
                            int64_t k, int nd, const int64_t *shape, const int64_t *xrs, const int64_t *vrs,
                            int isz)

nr_binary_setup()

#: op name -> op code of this module's kernels
OPS = {nr_binary_names[i].decode(): i for i in range(NR_B_COUNT)}

cdef enum:
    MAXDIMS = 32
    GIL_MIN = 16384  # below this many elements the GIL is kept (releasing costs more)


def supported(int op, int code) -> bool:
    return nr_binary_supported(op, code) != 0


cdef inline char *_addr(cnp.ndarray a, Py_ssize_t off):
    return <char *>cnp.PyArray_DATA(a) + off * cnp.PyArray_ITEMSIZE(a)


def contig(int op, int code, cnp.ndarray a, Py_ssize_t ao, cnp.ndarray b, Py_ssize_t bo,
           cnp.ndarray out, Py_ssize_t n) -> int:
    """out[:n] = op(a[ao:ao+n], b[bo:bo+n]) for dense operands; -1 if unsupported."""
    cdef char *pa = _addr(a, ao)
    cdef char *pb = _addr(b, bo)
    cdef char *po = <char *>cnp.PyArray_DATA(out)
    cdef int isz = cnp.PyArray_ITEMSIZE(a), osz = cnp.PyArray_ITEMSIZE(out), r
    if n < GIL_MIN:
        return nr_binary_contig(op, code, pa, pb, po, n, isz, osz)
    with nogil:
        r = nr_binary_contig(op, code, pa, pb, po, n, isz, osz)
    return r


def scalar(int op, int code, cnp.ndarray t, Py_ssize_t to, cnp.ndarray s, cnp.ndarray out,
           Py_ssize_t n, bint tensor_first) -> int:
    """out[:n] = op(t[to:to+n], s[0]) (or op(s[0], t[...])) for a dense tensor and a
    1-element scalar storage; -1 if unsupported."""
    cdef int64_t shape[1]
    cdef int64_t strides[3]
    cdef char *base[3]
    cdef int isz[3]
    cdef int k = 0 if tensor_first else 1, r
    shape[0] = n
    base[k] = _addr(t, to)
    base[1 - k] = <char *>cnp.PyArray_DATA(s)
    base[2] = <char *>cnp.PyArray_DATA(out)
    strides[k] = 1
    strides[1 - k] = 0
    strides[2] = 1
    isz[0] = isz[1] = cnp.PyArray_ITEMSIZE(t)
    isz[2] = cnp.PyArray_ITEMSIZE(out)
    if n < GIL_MIN:
        return nr_binary_exec(op, code, 3, 1, shape, strides, base, isz)
    with nogil:
        r = nr_binary_exec(op, code, 3, 1, shape, strides, base, isz)
    return r


def run(int op, int code, list arrays, list offsets, tuple shape, list strides) -> int:
    """General strided call: arrays/offsets/strides per operand (inputs, then the
    output), shape already coalesced. Returns -1 if (op, code) has no kernel."""
    cdef int nops = len(arrays), nd = len(shape), i, k, r
    cdef int64_t cshape[MAXDIMS]
    cdef int64_t cstrides[4 * MAXDIMS]
    cdef char *base[4]
    cdef int isz[4]
    cdef int64_t total = 1
    cdef cnp.ndarray arr
    if nops > 4 or nd > MAXDIMS:
        raise ValueError(f"binary kernel: {nops} operands / {nd} dims is more than supported")
    for k in range(nops):
        arr = arrays[k]
        base[k] = _addr(arr, offsets[k])
        isz[k] = cnp.PyArray_ITEMSIZE(arr)
    if nd == 0:
        nd = 1
        cshape[0] = 1
        for k in range(nops):
            cstrides[k] = 0
    else:
        for i in range(nd):
            cshape[i] = shape[i]
            total *= cshape[i]
        for k in range(nops):
            st = strides[k]
            for i in range(nd):
                cstrides[k * nd + i] = st[i]
    if total < GIL_MIN:
        return nr_binary_exec(op, code, nops, nd, cshape, cstrides, base, isz)
    with nogil:
        r = nr_binary_exec(op, code, nops, nd, cshape, cstrides, base, isz)
    return r


include "threads.pxi"


def index_add(int code, cnp.ndarray x, Py_ssize_t xoff, int64_t xs_dim, cnp.ndarray v, Py_ssize_t voff,
              int64_t vs_dim, cnp.ndarray norm, int64_t k, tuple shape, tuple xrs, tuple vrs) -> int:
    """x[norm[j], rest] += v[j, rest] for j = 0..k-1 in order (a repeated index accumulates,
    deterministically): index_add_'s kernel over the remaining dims (coalesced ``shape``,
    strides ``xrs``/``vrs``). -1 if the dtype has no add."""
    cdef int nd = len(shape), i, r
    cdef int64_t cshape[MAXDIMS]
    cdef int64_t cx[MAXDIMS]
    cdef int64_t cv[MAXDIMS]
    cdef char *xp = _addr(x, xoff)
    cdef char *vp = _addr(v, voff)
    cdef const int64_t *nrm = <const int64_t *>cnp.PyArray_DATA(norm)
    cdef int isz = cnp.PyArray_ITEMSIZE(x)
    if nd > MAXDIMS:
        raise ValueError(f"index_add kernel: {nd} dims is more than supported")
    for i in range(nd):
        cshape[i] = shape[i]
        cx[i] = xrs[i]
        cv[i] = vrs[i]
    with nogil:
        r = nr_binary_index_add(code, xp, xs_dim, vp, vs_dim, nrm, k, nd, cshape, cx, cv, isz)
    return r
