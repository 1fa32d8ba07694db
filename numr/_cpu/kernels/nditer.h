/* Shared N-d strided iteration for the CPU kernels.
 *
 * The Python side coalesces dims first (numr.layout.coalesce), so most calls
 * arrive as one contiguous dim. Kernels loop the innermost dim themselves and
 * use nr_outer_* to walk the remaining "outer" dims; a thread starts at any
 * outer linear index, which is how OpenMP splits the work.
 * Strides are in elements, per operand.
 */
#ifndef NUMR_NDITER_H
#define NUMR_NDITER_H

#include <stdint.h>
#include "threads.h"

#define NR_MAXDIMS 32
#define NR_MAXOPS 4

typedef struct {
    int ndim;   /* number of outer dims */
    int nops;
    int64_t shape[NR_MAXDIMS];
    int64_t stride[NR_MAXOPS][NR_MAXDIMS];
    int64_t idx[NR_MAXDIMS];
    int64_t off[NR_MAXOPS];  /* current element offset of each operand */
} nr_outer_iter;

/* Set up the walk over the outer dims (shape[0..ndim-1]) starting at linear outer index `start`. */
static inline void nr_outer_init(nr_outer_iter *it, int nops, int ndim, const int64_t *shape,
                                 const int64_t *const *strides, int64_t start) {
    it->ndim = ndim;
    it->nops = nops;
    for (int op = 0; op < nops; ++op) it->off[op] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
        it->shape[d] = shape[d];
        int64_t i = shape[d] ? start % shape[d] : 0;
        start = shape[d] ? start / shape[d] : 0;
        it->idx[d] = i;
        for (int op = 0; op < nops; ++op) {
            it->stride[op][d] = strides[op][d];
            it->off[op] += i * strides[op][d];
        }
    }
}

/* Advance to the next outer index (row-major order). */
static inline void nr_outer_next(nr_outer_iter *it) {
    for (int d = it->ndim - 1; d >= 0; --d) {
        if (++it->idx[d] < it->shape[d]) {
            for (int op = 0; op < it->nops; ++op) it->off[op] += it->stride[op][d];
            return;
        }
        for (int op = 0; op < it->nops; ++op) it->off[op] -= (it->shape[d] - 1) * it->stride[op][d];
        it->idx[d] = 0;
    }
}

/* |v| as an unsigned value (exact for INT64_MIN too): stride magnitudes, divisors */
static inline uint64_t nr_abs64(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

static inline int64_t nr_prod(const int64_t *shape, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; ++i) p *= shape[i];
    return p;
}

/* Work below this many elements runs on one thread: OpenMP start-up costs more. */
#define NR_PARALLEL_THRESHOLD 32768

#endif
