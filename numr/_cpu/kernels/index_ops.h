/* where, index_select, index_put_ and nonzero: the CPU's selection kernels.
 *
 *   nr_where_get(isz)        ternary inner loop out = cond ? a : b for isz-byte elements
 *                            (cond is bool bytes; use with nr_ternary_nd, copy_ternary.h)
 *   nr_index_normalize(...)  bounds check + negative wrap of an int64 index vector; returns the
 *                            position of the first out-of-range index or -1 (nothing written)
 *   nr_index_select(...)     out[j, rest] = x[norm[j], rest]   (index dim moved first)
 *   nr_index_put(...)        x[norm[j], rest] = v[j, rest], j in order (last write wins)
 *   nr_count_nonzero / nr_nonzero_coords   on contiguous bool bytes, row-major coordinates
 */
#ifndef NUMR_INDEX_OPS_H
#define NUMR_INDEX_OPS_H

#include <stdint.h>
#include <omp.h>
#include "copy_bits.h"
#include "copy_ternary.h"

/* both values are loaded, then selected: no data-dependent branch (a random mask mispredicted
 * every other element); expanded with constant strides where known so dense runs vectorise */
#define NR__WHERE_LOOP(T, SC, SA, SB, SO)                                              \
    for (int64_t i = 0; i < n; ++i) {                                                  \
        T av = a[i * (SA)], bv = b[i * (SB)];                                          \
        o[i * (SO)] = c[i * (SC)] ? av : bv;                                           \
    }

#define NR__DEF_WHERE(N, T)                                                            \
    static void nr_where_##N(char *const *p, const int64_t *st, int64_t n, const void *ctx) { \
        const uint8_t *c = (const uint8_t *)p[0];                                      \
        const T *a = (const T *)p[1], *b = (const T *)p[2];                            \
        T *o = (T *)p[3];                                                              \
        (void)ctx;                                                                     \
        if (st[0] == 1 && st[1] == 1 && st[2] == 1 && st[3] == 1) {                    \
            NR__WHERE_LOOP(T, 1, 1, 1, 1)                                              \
        } else if (st[0] == 1 && st[3] == 1 && st[1] == 1 && st[2] == 0) {             \
            NR__WHERE_LOOP(T, 1, 1, 0, 1)  /* a Python scalar b (64-bit: 12x the */    \
        } else if (st[0] == 1 && st[3] == 1 && st[1] == 0 && st[2] == 1) {             \
            NR__WHERE_LOOP(T, 1, 0, 1, 1)  /* general loop's speed) */                 \
        } else if (st[0] == 1 && st[3] == 1 && st[1] == 0 && st[2] == 0) {             \
            NR__WHERE_LOOP(T, 1, 0, 0, 1)                                              \
        } else if (st[0] == 1 && st[3] == 1) {                                         \
            NR__WHERE_LOOP(T, 1, st[1], st[2], 1)                                      \
        } else {                                                                       \
            NR__WHERE_LOOP(T, st[0], st[1], st[2], st[3])                              \
        }                                                                              \
    }
NR__DEF_WHERE(1, uint8_t)
NR__DEF_WHERE(2, uint16_t)
NR__DEF_WHERE(4, uint32_t)
NR__DEF_WHERE(8, uint64_t)
NR__DEF_WHERE(16, nr__b16)

static inline nr_ternary_fn nr_where_get(int isz) { return NR_BY_ITEMSIZE(nr_where_, isz); }

static int64_t nr_index_normalize(const int64_t *idx, int64_t istride, int64_t n, int64_t size,
                                  int64_t *norm) {
    for (int64_t j = 0; j < n; ++j) {
        int64_t v = idx[j * istride];
        if (v < -size || v >= size) return j;
        norm[j] = v < 0 ? v + size : v;
    }
    return -1;
}

/* one element per index (no remaining dims) */
#define NR__DEF_GATHER(N, T)                                                           \
    static void nr__gather_##N(const char *x, int64_t xs, char *o, int64_t os,         \
                               const int64_t *norm, int64_t k, int scatter) {          \
        if (scatter) {                                                                 \
            for (int64_t j = 0; j < k; ++j)                                            \
                ((T *)x)[norm[j] * xs] = ((const T *)o)[j * os];                       \
            return;                                                                    \
        }                                                                              \
        int nth = k >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;                               \
        _Pragma("omp parallel for num_threads(nth) if (nth > 1) schedule(static)")                 \
        for (int64_t j = 0; j < k; ++j) ((T *)o)[j * os] = ((const T *)x)[norm[j] * xs]; \
    }
NR__DEF_GATHER(1, uint8_t)
NR__DEF_GATHER(2, uint16_t)
NR__DEF_GATHER(4, uint32_t)
NR__DEF_GATHER(8, uint64_t)
NR__DEF_GATHER(16, nr__b16)

static void nr__gather(int isz, const char *x, int64_t xs, char *o, int64_t os, const int64_t *norm,
                       int64_t k, int scatter) {
    switch (isz) {
    case 1: nr__gather_1(x, xs, o, os, norm, k, scatter); break;
    case 2: nr__gather_2(x, xs, o, os, norm, k, scatter); break;
    case 4: nr__gather_4(x, xs, o, os, norm, k, scatter); break;
    case 8: nr__gather_8(x, xs, o, os, norm, k, scatter); break;
    case 16: nr__gather_16(x, xs, o, os, norm, k, scatter); break;
    default: break;
    }
}

/* Whether the indexed dim is x's innermost (x[:, idx] of a row-major x): then each row is
 * gathered (or scattered) along itself and read once in memory order, instead of one
 * strided column of rows per index (512x1024 float32 x[:, idx], 256 indices: 1059 -> 314 us). */
static inline int nr__index_is_inner(int64_t xs_dim, int64_t rest, int rnd, const int64_t *xrst) {
    return rest > 1 && nr_abs64(xs_dim) < nr_abs64(xrst[rnd - 1]);
}

/* for every position of the remaining dims: o[j] = x[norm[j]] along the indexed dim (scatter:
 * x[norm[j]] = o[j], j in order within a row, so a repeated index keeps the last value; rows
 * are disjoint memory) */
static void nr__row_gathers(int isz, char *x, int64_t xs_dim, char *o, int64_t os_dim, const int64_t *norm,
                            int64_t k, int rnd, const int64_t *rshape, const int64_t *xrst,
                            const int64_t *orst, int scatter) {
    const int64_t rest = nr_prod(rshape, rnd);
    int nth = k * rest >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t r = 0; r < rest; ++r) {
        int64_t xo = 0, oo = 0, q = r;
        for (int d = rnd - 1; d >= 0; --d) {
            const int64_t i = q % rshape[d];
            q /= rshape[d];
            xo += i * xrst[d];
            oo += i * orst[d];
        }
        nr__gather(isz, x + xo * isz, xs_dim, o + oo * isz, os_dim, norm, k, scatter);
    }
}

/* rnd remaining (coalesced) dims with shape rshape and strides xrst (x) / orst (out). */
static void nr_index_select(int isz, const char *x, int64_t xs_dim, char *out, int64_t os_dim,
                            const int64_t *norm, int64_t k, int rnd, const int64_t *rshape,
                            const int64_t *xrst, const int64_t *orst) {
    nr_cvt_fn f = nr_bits_fn(isz);
    if (rnd == 0) {
        nr__gather(isz, x, xs_dim, out, os_dim, norm, k, 0);
        return;
    }
    int64_t rest = nr_prod(rshape, rnd);
    if (nr__index_is_inner(xs_dim, rest, rnd, xrst)) {
        nr__row_gathers(isz, (char *)x, xs_dim, out, os_dim, norm, k, rnd, rshape, xrst, orst, 0);
        return;
    }
    if (rest >= NR_PARALLEL_THRESHOLD) {
        for (int64_t j = 0; j < k; ++j)
            nr_copy_nd(f, rnd, rshape, x + norm[j] * xs_dim * isz, xrst, isz, out + j * os_dim * isz, orst, isz);
        return;
    }
    int nth = k * rest >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t j = 0; j < k; ++j)
        nr_copy_range(f, rnd, rshape, x + norm[j] * xs_dim * isz, xrst, isz, out + j * os_dim * isz, orst,
                      isz, 0, rest);
}

static void nr_index_put(int isz, char *x, int64_t xs_dim, const char *v, int64_t vs_dim,
                         const int64_t *norm, int64_t k, int rnd, const int64_t *rshape,
                         const int64_t *xrst, const int64_t *vrst) {
    nr_cvt_fn f = nr_bits_fn(isz);
    if (rnd == 0) {
        nr__gather(isz, x, xs_dim, (char *)v, vs_dim, norm, k, 1);
        return;
    }
    if (nr__index_is_inner(xs_dim, nr_prod(rshape, rnd), rnd, xrst)) {
        nr__row_gathers(isz, x, xs_dim, (char *)v, vs_dim, norm, k, rnd, rshape, xrst, vrst, 1);
        return;
    }
    for (int64_t j = 0; j < k; ++j)  /* in order, so a repeated index keeps the last value */
        nr_copy_nd(f, rnd, rshape, v + j * vs_dim * isz, vrst, isz, x + norm[j] * xs_dim * isz, xrst, isz);
}

static int64_t nr_count_nonzero(const uint8_t *b, int64_t n) {
    int64_t c = 0;
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) reduction(+ : c) schedule(static)
    for (int64_t i = 0; i < n; ++i) c += b[i] != 0;
    return c;
}

/* out: (count, ndim) int64, row-major coordinates of the non-zero bytes of b (n = prod(shape)). */
static void nr_nonzero_coords(const uint8_t *b, int64_t n, int ndim, const int64_t *shape, int64_t *out) {
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    int64_t counts[256];
    if (nth > 256) nth = 256;
    #pragma omp parallel num_threads(nth)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t lo = n * t / nt, hi = n * (t + 1) / nt, c = 0;
        for (int64_t i = lo; i < hi; ++i) c += b[i] != 0;
        counts[t] = c;
        #pragma omp barrier
        int64_t start = 0;
        for (int u = 0; u < t; ++u) start += counts[u];
        int64_t idx[NR_MAXDIMS];
        int64_t rem = lo;
        for (int d = ndim - 1; d >= 0; --d) {
            idx[d] = shape[d] ? rem % shape[d] : 0;
            rem = shape[d] ? rem / shape[d] : 0;
        }
        /* branch-free: every element's coordinates are written at o, which only moves on past a
         * non-zero; past this thread's last row they go to a scratch row instead */
        int64_t *o = out + start * ndim, *oend = out + (start + c) * ndim, junk[NR_MAXDIMS];
        if (ndim == 1) {
            for (int64_t i = lo; i < hi; ++i) {
                int64_t *w = o < oend ? o : junk;
                w[0] = i;
                o += b[i] != 0;
            }
        } else {
            for (int64_t i = lo; i < hi; ++i) {
                int64_t *w = o < oend ? o : junk;
                for (int d = 0; d < ndim; ++d) w[d] = idx[d];
                o += (b[i] != 0) * ndim;
                for (int d = ndim - 1; d >= 0; --d) {
                    if (++idx[d] < shape[d]) break;
                    idx[d] = 0;
                }
            }
        }
    }
}

#endif
