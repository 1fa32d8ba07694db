/* Strided N-d driver for kernels with three inputs and one output (clamp, where).
 *
 * nr_ternary_nd(f, ctx, ndim, shape, ptrs, strides) walks coalesced dims (ndim >= 1, strides
 * in elements, ptrs[0..3] = a, b, c, out already offset) and calls
 *     f(ptrs at the run start, per-operand inner strides, n, ctx)
 * on runs of the last dim, splitting the flat range over OpenMP threads when large.
 */
#ifndef NUMR_COPY_TERNARY_H
#define NUMR_COPY_TERNARY_H

#include <stdint.h>
#include <omp.h>
#include "nditer.h"

typedef void (*nr_ternary_fn)(char *const *p, const int64_t *st, int64_t n, const void *ctx);

static void nr_ternary_nd(nr_ternary_fn f, const void *ctx, int ndim, const int64_t *shape,
                          char *const *ptrs, const int *itemsize, const int64_t *const *strides) {
    int64_t inner = shape[ndim - 1], outer = nr_prod(shape, ndim - 1);
    int64_t total = inner * outer;
    int nth = total >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    if (total <= 0) return;
    #pragma omp parallel num_threads(nth) if (nth > 1)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t lo = total / nt * t + (t < total % nt ? t : total % nt);
        int64_t hi = lo + total / nt + (t < total % nt ? 1 : 0);
        if (lo < hi) {
            nr_outer_iter it;
            char *p[4];
            int64_t in_st[4];
            for (int k = 0; k < 4; ++k) in_st[k] = strides[k][ndim - 1];
            nr_outer_init(&it, 4, ndim - 1, shape, strides, lo / inner);
            int64_t j = lo % inner, pos = lo;
            while (pos < hi) {
                int64_t cnt = inner - j < hi - pos ? inner - j : hi - pos;
                for (int k = 0; k < 4; ++k) p[k] = ptrs[k] + (it.off[k] + j * in_st[k]) * itemsize[k];
                f(p, in_st, cnt, ctx);
                pos += cnt;
                j = 0;
                nr_outer_next(&it);
            }
        }
    }
}

#endif
