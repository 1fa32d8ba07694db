# Included by copy.pyx (clamp) and index.pyx (where) after their _data/_load helpers:
# the one launcher of copy_ternary.h kernels over (in0, in1, in2, out) operands.

cdef int run_ternary(nr_ternary_fn f, const void *ctx, int nd, tuple storages, tuple offsets,
                     tuple shape, tuple strides, int *sizes) except -1:
    """Load pointers, shape and strides of the 4 operands, then run ``f`` over them without the GIL."""
    cdef int64_t sh[32]
    cdef int64_t st[4][32]
    cdef const int64_t *stp[4]
    cdef char *ptrs[4]
    cdef int k
    for k in range(4):
        ptrs[k] = _data(storages[k]) + <int64_t>offsets[k] * sizes[k]
        stp[k] = st[k]
        if nd == 0:
            st[k][0] = 0
        else:
            _load(strides[k], st[k], nd)
    if nd == 0:
        sh[0] = 1
        nd = 1
    else:
        _load(shape, sh, nd)
    with nogil:
        nr_ternary_nd(f, ctx, nd, sh, ptrs, sizes, stp)
    return 0
