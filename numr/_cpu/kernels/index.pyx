# cython: language_level=3
"""where, index_select, index_put_ and nonzero kernels (index_ops.h).

Callers pass storages, element offsets and coalesced shapes/strides; index vectors are
bounds-checked by ``normalize`` before any kernel writes.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "index_ops.h" nogil:
    int NR_MAXDIMS
    ctypedef void (*nr_ternary_fn)(char *const *p, const int64_t *st, int64_t n, const void *ctx)
    nr_ternary_fn nr_where_get(int isz)
    void nr_ternary_nd(nr_ternary_fn f, const void *ctx, int ndim, const int64_t *shape,
                       char *const *ptrs, const int *itemsize, const int64_t *const *strides)
    int64_t nr_index_normalize(const int64_t *idx, int64_t istride, int64_t n, int64_t size, int64_t *norm)
    void nr_index_select(int isz, const char *x, int64_t xs_dim, char *out, int64_t os_dim,
                         const int64_t *norm, int64_t k, int rnd, const int64_t *rshape,
                         const int64_t *xrst, const int64_t *orst)
    void nr_index_put(int isz, char *x, int64_t xs_dim, const char *v, int64_t vs_dim,
                      const int64_t *norm, int64_t k, int rnd, const int64_t *rshape,
                      const int64_t *xrst, const int64_t *vrst)
    int64_t nr_count_nonzero(const uint8_t *b, int64_t n)
    void nr_nonzero_coords(const uint8_t *b, int64_t n, int ndim, const int64_t *shape, int64_t *out)

cdef extern from "index_scatter.h" nogil:
    ctypedef struct nr_sg:
        int rnd
        const int64_t *shape
        const int64_t *rs[5]
        int64_t ds[5]
        int64_t k, size
    int nr_sg_gather(nr_sg *g, int isz, char *const *ptr)
    int nr_sg_scatter(nr_sg *g, int isz, char *const *ptr)
    int nr_sg_reduce(nr_sg *g, int code, int op, int incl, char *const *ptr)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


cdef int _load(tuple t, int64_t *out, int n) except -1:
    cdef int i
    if n > NR_MAXDIMS or len(t) != n:
        raise ShapeError(f"index kernel: {len(t)} dims; at most {NR_MAXDIMS} are supported")
    for i in range(n):
        out[i] = t[i]
    return 0


include "ternary.pxi"


def where_nd(int isz, tuple storages, tuple offsets, tuple shape, tuple strides):
    """out = cond ? a : b over (cond bool, a, b, out) with a/b/out of ``isz``-byte elements."""
    cdef int sizes[4]
    cdef int k
    cdef int nd = len(shape)
    cdef nr_ternary_fn f = nr_where_get(isz)
    if f == NULL:
        raise ValueError(f"where kernel: element size {isz} is not supported")
    for k in range(4):
        sizes[k] = 1 if k == 0 else isz
    run_ternary(f, NULL, nd, storages, offsets, shape, strides, sizes)


def normalize(idx, int64_t ioff, int64_t istride, int64_t n, int64_t size, norm) -> int:
    """norm[j] = idx[j] wrapped into [0, size); returns the first bad position or -1."""
    cdef const int64_t *ip = <const int64_t *>_data(idx) + ioff
    cdef int64_t *np_ = <int64_t *>_data(norm)
    cdef int64_t bad
    with nogil:
        bad = nr_index_normalize(ip, istride, n, size, np_)
    return bad


def select(int isz, x, int64_t xoff, int64_t xs_dim, out, int64_t ooff, int64_t os_dim, norm, int64_t k,
           tuple rshape, tuple xrst, tuple orst):
    cdef int64_t sh[32]
    cdef int64_t xs[32]
    cdef int64_t os[32]
    cdef int rnd = len(rshape)
    _load(rshape, sh, rnd); _load(xrst, xs, rnd); _load(orst, os, rnd)
    cdef const char *xp = _data(x) + xoff * isz
    cdef char *op = _data(out) + ooff * isz
    cdef const int64_t *nrm = <const int64_t *>_data(norm)
    with nogil:
        nr_index_select(isz, xp, xs_dim, op, os_dim, nrm, k, rnd, sh, xs, os)


def put(int isz, x, int64_t xoff, int64_t xs_dim, v, int64_t voff, int64_t vs_dim, norm, int64_t k,
        tuple rshape, tuple xrst, tuple vrst):
    cdef int64_t sh[32]
    cdef int64_t xs[32]
    cdef int64_t vs[32]
    cdef int rnd = len(rshape)
    _load(rshape, sh, rnd); _load(xrst, xs, rnd); _load(vrst, vs, rnd)
    cdef char *xp = _data(x) + xoff * isz
    cdef const char *vp = _data(v) + voff * isz
    cdef const int64_t *nrm = <const int64_t *>_data(norm)
    with nogil:
        nr_index_put(isz, xp, xs_dim, vp, vs_dim, nrm, k, rnd, sh, xs, vs)


def count_nonzero(b, int64_t off, int64_t n) -> int:
    cdef const uint8_t *bp = <const uint8_t *>_data(b) + off
    cdef int64_t c
    with nogil:
        c = nr_count_nonzero(bp, n)
    return c


def nonzero_coords(b, int64_t off, int64_t n, tuple shape, out):
    cdef int64_t sh[32]
    cdef int nd = len(shape)
    _load(shape, sh, nd)
    cdef const uint8_t *bp = <const uint8_t *>_data(b) + off
    cdef int64_t *op = <int64_t *>_data(out)
    with nogil:
        nr_nonzero_coords(bp, n, nd, sh, op)


def along_dim(int kind, int code, int op, int incl, tuple operands, tuple rshape, tuple rstrides,
              tuple dstrides, int64_t k, int64_t size) -> int:
    """gather (kind 0), scatter (1) or scatter_reduce (2, ``op`` 0..4 = sum, prod, mean, amax,
    amin; ``code`` the dtype code, else ``code`` is the itemsize) along a dim (index_scatter.h).
    ``operands``: (storage, element offset, itemsize) or None for out, x, index, src, count;
    ``rstrides``/``dstrides``: their strides over the remaining dims ``rshape`` / along the dim.
    Returns 0, 1 (an index out of range; out partly written) or -1 (no kernel for the dtype)."""
    cdef int64_t sh[32]
    cdef int64_t rs[5][32]
    cdef nr_sg g
    cdef char *ptr[5]
    cdef int a, r
    cdef int rnd = len(rshape)
    _load(rshape, sh, rnd)
    g.rnd = rnd
    g.shape = sh
    g.k = k
    g.size = size
    for a in range(5):
        _load(rstrides[a], rs[a], rnd)
        g.rs[a] = rs[a]
        g.ds[a] = dstrides[a]
        opnd = operands[a]
        ptr[a] = NULL if opnd is None else _data(opnd[0]) + <int64_t>opnd[1] * <int>opnd[2]
    with nogil:
        if kind == 0:
            r = nr_sg_gather(&g, code, ptr)
        elif kind == 1:
            r = nr_sg_scatter(&g, code, ptr)
        else:
            r = nr_sg_reduce(&g, code, op, incl, ptr)
    return r


include "threads.pxi"
