# cython: language_level=3
"""Copy-with-cast, fill, sequences (arange/linspace) and clamp: the CPU's data-movement kernels.

Callers pass storages (1-d NumPy arrays), dtype codes, element offsets and dims already
coalesced with numr.layout.coalesce; every loop is in C (copy_*.h) and runs without the GIL.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.string cimport memset

from numr.errors import ShapeError

cnp.import_array()

cdef extern from "copy_cast.h" nogil:
    ctypedef void (*nr_cvt_fn)(const char *, int64_t, char *, int64_t, int64_t)
    int NR_MAXDIMS
    int NR_F64, NR_I64, NR_U64, NR_BOOL, NR_C128
    int nr_itemsize(int code)
    nr_cvt_fn nr_cvt_get(int src_code, int dst_code)
    void nr_copy_nd(nr_cvt_fn f, int ndim, const int64_t *shape, const char *src,
                    const int64_t *sst, int sisz, char *dst, const int64_t *dstr, int disz)
    void nr_fill_nd(int ndim, const int64_t *shape, char *dst, const int64_t *dstr, int isz,
                    const char *value)

cdef extern from "copy_seq.h" nogil:
    void nr_seq_f64(int dcode, char *dst, int64_t n, double start, double step, int floor_it,
                    int set_last, double last)
    void nr_seq_c128(int dcode, char *dst, int64_t n, double start_re, double start_im,
                     double step_re, double step_im, int set_last, double last_re, double last_im)
    void nr_seq_i64(int dcode, char *dst, int64_t n, int64_t start, int64_t step)

cdef extern from "copy_clamp.h" nogil:
    ctypedef void (*nr_ternary_fn)(char *const *p, const int64_t *st, int64_t n, const void *ctx)
    nr_ternary_fn nr_clamp_get(int code)
    void nr_ternary_nd(nr_ternary_fn f, const void *ctx, int ndim, const int64_t *shape,
                       char *const *ptrs, const int *itemsize, const int64_t *const *strides)


cdef inline char *_data(object storage) except NULL:
    return <char *>cnp.PyArray_DATA(<cnp.ndarray>storage)


cdef int _load(tuple t, int64_t *out, int n) except -1:
    cdef int i
    if len(t) != n:
        raise ShapeError("copy kernel: stride tuple length does not match the shape")
    for i in range(n):
        out[i] = t[i]
    return 0


cdef int _ndim(tuple shape) except -1:
    if len(shape) > NR_MAXDIMS:
        raise ShapeError(f"copy kernel: {len(shape)} dims after coalescing; at most {NR_MAXDIMS} are supported")
    return len(shape)


include "ternary.pxi"


def empty_aligned(Py_ssize_t numel, cnp.dtype dtype, Py_ssize_t align=64):
    """A 1-d array of ``numel`` elements of ``dtype`` starting on an ``align``-byte boundary:
    a view into a buffer ``align`` bytes larger (NumPy's allocator only promises 16). One call
    instead of a uint8 buffer and a .view(dtype): this runs for every result from 4 KiB."""
    cdef Py_ssize_t isz = dtype.itemsize
    cdef cnp.npy_intp n = numel + align // isz
    cdef cnp.ndarray raw = cnp.PyArray_EMPTY(1, &n, dtype.num, 0)  # also ml_dtypes' registered types
    cdef size_t addr = <size_t>cnp.PyArray_DATA(raw)
    cdef Py_ssize_t start = <Py_ssize_t>((<size_t>align - addr % <size_t>align) % <size_t>align) // isz
    return raw[start:start + numel]


def itemsize(int code) -> int:
    return nr_itemsize(code)


def copy_nd(src, int scode, int64_t soff, dst, int dcode, int64_t doff, tuple shape,
            tuple sstrides, tuple dstrides):
    """dst[...] = cast(src[...]) over coalesced ``shape`` (an empty tuple is one element)."""
    cdef int64_t sh[32]
    cdef int64_t ss[32]
    cdef int64_t ds[32]
    cdef int nd = _ndim(shape)
    cdef nr_cvt_fn f = nr_cvt_get(scode, dcode)
    cdef int sisz = nr_itemsize(scode), disz = nr_itemsize(dcode)
    if f == NULL:
        raise ValueError(f"copy kernel: unknown dtype codes {scode} -> {dcode}")
    if nd == 0:
        sh[0] = 1; ss[0] = 0; ds[0] = 0; nd = 1
    else:
        _load(shape, sh, nd); _load(sstrides, ss, nd); _load(dstrides, ds, nd)
    cdef const char *sp = _data(src) + soff * sisz
    cdef char *dp = _data(dst) + doff * disz
    with nogil:
        nr_copy_nd(f, nd, sh, sp, ss, sisz, dp, ds, disz)


def overlaps(a, int acode, int64_t alo, int64_t ahi, b, int bcode, int64_t blo, int64_t bhi) -> bool:
    """Whether element ranges [alo, ahi) of storage a and [blo, bhi) of b share any byte."""
    if ahi <= alo or bhi <= blo:
        return False
    cdef char *pa = _data(a)
    cdef char *pb = _data(b)
    cdef char *a0 = pa + alo * nr_itemsize(acode)
    cdef char *a1 = pa + ahi * nr_itemsize(acode)
    cdef char *b0 = pb + blo * nr_itemsize(bcode)
    cdef char *b1 = pb + bhi * nr_itemsize(bcode)
    return a0 < b1 and b0 < a1


def fill_nd(dst, int dcode, int64_t doff, tuple shape, tuple dstrides, value, int vcode):
    """Set every element of the strided view to ``value`` (a Python scalar given as a source
    dtype ``vcode``: bool, int64, uint64, float64 or complex128), cast to dst's dtype."""
    cdef int64_t sh[32]
    cdef int64_t ds[32]
    cdef int64_t zero = 0
    cdef char buf[16]
    cdef char out[16]
    cdef int nd = _ndim(shape)
    cdef int disz = nr_itemsize(dcode)
    cdef nr_cvt_fn f = nr_cvt_get(vcode, dcode)
    if f == NULL:
        raise ValueError(f"fill kernel: unknown dtype codes {vcode} -> {dcode}")
    memset(buf, 0, 16)
    memset(out, 0, 16)
    if vcode == NR_BOOL:
        (<unsigned char *>buf)[0] = 1 if value else 0
    elif vcode == NR_I64:
        (<long long *>buf)[0] = value
    elif vcode == NR_U64:
        (<unsigned long long *>buf)[0] = value
    elif vcode == NR_F64:
        (<double *>buf)[0] = value
    elif vcode == NR_C128:
        (<double *>buf)[0] = value.real
        (<double *>buf)[1] = value.imag
    else:
        raise ValueError(f"fill kernel: value code {vcode} is not a scalar source dtype")
    f(buf, 0, out, 0, 1)
    if nd == 0:
        sh[0] = 1; ds[0] = 0; nd = 1
    else:
        _load(shape, sh, nd); _load(dstrides, ds, nd)
    cdef char *dp = _data(dst) + doff * disz
    with nogil:
        nr_fill_nd(nd, sh, dp, ds, disz, out)


def seq_float(dst, int dcode, int64_t n, double start, double step, bint floor_it=False,
              bint set_last=False, double last=0.0):
    """dst[i] = i * step + start (float64 arithmetic), optionally floored / last = ``last``."""
    cdef char *dp = _data(dst)
    with nogil:
        nr_seq_f64(dcode, dp, n, start, step, floor_it, set_last, last)


def seq_complex(dst, int dcode, int64_t n, complex start, complex step, bint set_last=False,
                complex last=0j):
    cdef char *dp = _data(dst)
    with nogil:
        nr_seq_c128(dcode, dp, n, start.real, start.imag, step.real, step.imag, set_last,
                    last.real, last.imag)


def seq_int(dst, int dcode, int64_t n, int64_t start, int64_t step):
    """dst[i] = start + i * step in wrapping int64 arithmetic."""
    cdef char *dp = _data(dst)
    with nogil:
        nr_seq_i64(dcode, dp, n, start, step)


def clamp_nd(int code, tuple storages, tuple offsets, tuple shape, tuple strides,
             bint has_lo, bint has_hi):
    """out = clamp(x, lo, hi); storages/offsets/strides for (x, lo, hi, out) of dtype ``code``."""
    cdef int isz[4]
    cdef int flags[2]
    cdef int k
    cdef int nd = _ndim(shape)
    cdef nr_ternary_fn f = nr_clamp_get(code)
    if f == NULL:
        raise ValueError(f"clamp kernel: dtype code {code} is not supported")
    flags[0] = has_lo
    flags[1] = has_hi
    for k in range(4):
        isz[k] = nr_itemsize(code)
    run_ternary(f, flags, nd, storages, offsets, shape, strides, isz)


include "threads.pxi"
