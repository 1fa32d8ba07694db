/* Same-dtype bit copies and the strided N-d drivers shared by the copy/index kernels.
 *
 *   nr_cvt_fn            inner loop type: f(src, src_stride, dst, dst_stride, n), strides in elements
 *   nr_bits_fn(isz)      bit copy for 1/2/4/8/16-byte elements (memmove when both contiguous)
 *   nr_copy_range(...)   serial copy of flat elements [lo, hi) of a coalesced N-d layout
 *   nr_copy_nd(...)      the same over all elements, split over OpenMP threads when large
 *                        (transposing layouts in tiles: nr_copy_transposing)
 *   nr_fill_nd(...)      write one element value (bits) into a strided N-d destination
 */
#ifndef NUMR_COPY_BITS_H
#define NUMR_COPY_BITS_H

#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "nditer.h"

typedef void (*nr_cvt_fn)(const char *, int64_t, char *, int64_t, int64_t);

/* ---- bit copies (same dtype) ---- */
typedef struct { uint64_t lo, hi; } nr__b16;
#define NR__DEF_BITS(N, T)                                                             \
    static void nr_bits_##N(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) { \
        if (ss == 1 && ds == 1) { memmove(dst, src, (size_t)n * sizeof(T)); return; }  \
        const T *s = (const T *)src;                                                   \
        T *d = (T *)dst;                                                               \
        if (ss == -1 && ds == 1) { /* a flipped run: vectorised with lane reversals */  \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) d[i] = s[-i];          \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];                         \
    }
NR__DEF_BITS(1, uint8_t)
NR__DEF_BITS(2, uint16_t)
NR__DEF_BITS(4, uint32_t)
NR__DEF_BITS(8, uint64_t)
NR__DEF_BITS(16, nr__b16)

/* fill loops with the nr_cvt_fn signature: src points at one value, its stride is ignored */
#define NR__DEF_FILLV(N, T)                                                            \
    static void nr_fillv_##N(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) { \
        T v;                                                                           \
        T *d = (T *)dst;                                                               \
        (void)ss;                                                                      \
        memcpy(&v, src, sizeof(T));                                                    \
        if (ds == 1) {                                                                 \
            for (int64_t i = 0; i < n; ++i) d[i] = v;                                  \
        } else {                                                                       \
            for (int64_t i = 0; i < n; ++i) d[i * ds] = v;                             \
        }                                                                              \
    }
NR__DEF_FILLV(1, uint8_t)
NR__DEF_FILLV(2, uint16_t)
NR__DEF_FILLV(4, uint32_t)
NR__DEF_FILLV(8, uint64_t)
NR__DEF_FILLV(16, nr__b16)

/* the function PREFIX##N for N-byte elements (N = 1, 2, 4, 8, 16), else 0 */
#define NR_BY_ITEMSIZE(PREFIX, isz)                                                    \
    ((isz) == 1 ? PREFIX##1 : (isz) == 2 ? PREFIX##2 : (isz) == 4 ? PREFIX##4          \
     : (isz) == 8 ? PREFIX##8 : (isz) == 16 ? PREFIX##16 : 0)

static inline nr_cvt_fn nr_fillv_fn(int itemsize) { return NR_BY_ITEMSIZE(nr_fillv_, itemsize); }
static inline nr_cvt_fn nr_bits_fn(int itemsize) { return NR_BY_ITEMSIZE(nr_bits_, itemsize); }

/* Serial copy of flat elements [lo, hi) (row-major over the coalesced shape, ndim >= 1). */
static void nr_copy_range(nr_cvt_fn f, int ndim, const int64_t *shape, const char *src,
                          const int64_t *sst, int sisz, char *dst, const int64_t *dstr, int disz,
                          int64_t lo, int64_t hi) {
    int64_t inner = shape[ndim - 1], s_in = sst[ndim - 1], d_in = dstr[ndim - 1];
    const int64_t *strides[2] = {sst, dstr};
    nr_outer_iter it;
    if (lo >= hi || inner <= 0) return;
    nr_outer_init(&it, 2, ndim - 1, shape, strides, lo / inner);
    int64_t j = lo % inner, pos = lo;
    while (pos < hi) {
        int64_t cnt = inner - j < hi - pos ? inner - j : hi - pos;
        f(src + (it.off[0] + j * s_in) * sisz, s_in, dst + (it.off[1] + j * d_in) * disz, d_in, cnt);
        pos += cnt;
        j = 0;
        nr_outer_next(&it);
    }
}

/* ---- transposing copies ----
 * When one side runs along the last dim and the other along the dim before it (x.T.contiguous(),
 * a copy into a transposed view), a row-by-row walk touches a new cache line (and often a new
 * page) for every element of the strided side. Walking NR_TILE x NR_TILE tiles keeps the
 * strided side's lines in cache while the tile's rows are copied. Returns 0 if not that shape. */
#define NR_TILE 32

/* Same-dtype tiles: d[i*di + j] = s[i + j*sj] for i < ni, j < nj, through 8x8 blocks the
 * compiler keeps in registers (about twice as fast as a strided run per row). */
typedef void (*nr_tile_fn)(const char *, int64_t, char *, int64_t, int64_t, int64_t);
#define NR__DEF_TILE(N, T)                                                                       \
    static void nr_tile_##N(const char *src, int64_t sj, char *dst, int64_t di, int64_t ni,      \
                            int64_t nj) {                                                        \
        const T *s = (const T *)src;                                                             \
        T *d = (T *)dst;                                                                         \
        int64_t i = 0;                                                                           \
        for (; i + 8 <= ni; i += 8) {                                                            \
            int64_t j = 0;                                                                       \
            for (; j + 8 <= nj; j += 8) {                                                        \
                T t[8][8];                                                                       \
                for (int b = 0; b < 8; ++b)                                                      \
                    for (int a = 0; a < 8; ++a) t[a][b] = s[i + a + (j + b) * sj];               \
                for (int a = 0; a < 8; ++a)                                                      \
                    for (int b = 0; b < 8; ++b) d[(i + a) * di + j + b] = t[a][b];               \
            }                                                                                    \
            for (; j < nj; ++j)                                                                  \
                for (int a = 0; a < 8; ++a) d[(i + a) * di + j] = s[i + a + j * sj];             \
        }                                                                                        \
        for (; i < ni; ++i)                                                                      \
            for (int64_t j = 0; j < nj; ++j) d[i * di + j] = s[i + j * sj];                      \
    }
NR__DEF_TILE(1, uint8_t)
NR__DEF_TILE(2, uint16_t)
NR__DEF_TILE(4, uint32_t)
NR__DEF_TILE(8, uint64_t)
NR__DEF_TILE(16, nr__b16)

static inline nr_tile_fn nr_tile_fn_for(nr_cvt_fn f, int sisz, int disz) {
    if (sisz != disz || f != nr_bits_fn(sisz)) return 0; /* a cast: see nr__cast_tile */
    return NR_BY_ITEMSIZE(nr_tile_, sisz);
}

/* A transposing cast of one tile: the transpose in a dtype's own bits (through a stack buffer),
 * the conversion on contiguous rows, so that f runs vectorised instead of one strided element at
 * a time (512x1024 float32 -> float64 of x.T: 439 -> 130 us). d1 == 1: transpose the source
 * tile first; else (s1 == 1, d0 == 1) convert the source rows first. */
static void nr__cast_tile(nr_cvt_fn f, const char *sb, int64_t s0, int64_t s1, int sisz, char *db,
                          int64_t d0, int64_t d1, int disz, int64_t ni, int64_t m) {
    char buf[NR_TILE * NR_TILE * 16];
    if (d1 == 1) {                                     /* buf[i*m + j] = s[i + j*s1] */
        NR_BY_ITEMSIZE(nr_tile_, sisz)(sb, s1, buf, m, ni, m);
        for (int64_t i = 0; i < ni; ++i) f(buf + i * m * sisz, 1, db + i * d0 * disz, 1, m);
    } else {                                           /* buf[i*m + j] = f(s[i*s0 + j]) */
        for (int64_t i = 0; i < ni; ++i) f(sb + i * s0 * sisz, 1, buf + i * m * disz, 1, m);
        NR_BY_ITEMSIZE(nr_tile_, disz)(buf, m, db, d1, m, ni);
    }
}

static void nr__copy_tiles(nr_cvt_fn f, int ndim, const int64_t *shape, const char *src,
                           const int64_t *sst, int sisz, char *dst, const int64_t *dstr, int disz,
                           int64_t t0, int64_t t1) {
    int64_t n0 = shape[ndim - 2], n1 = shape[ndim - 1], nrt = (n0 + NR_TILE - 1) / NR_TILE;
    int64_t s0 = sst[ndim - 2], s1 = sst[ndim - 1], d0 = dstr[ndim - 2], d1 = dstr[ndim - 1];
    const int64_t *strides[2] = {sst, dstr};
    nr_tile_fn tf = nr_tile_fn_for(f, sisz, disz);
    nr_outer_iter it;
    nr_outer_init(&it, 2, ndim - 2, shape, strides, t0 / nrt);
    for (int64_t t = t0; t < t1; ++t) {
        int64_t i0 = t % nrt * NR_TILE, i1 = i0 + NR_TILE < n0 ? i0 + NR_TILE : n0;
        for (int64_t j0 = 0; j0 < n1; j0 += NR_TILE) {
            int64_t m = n1 - j0 < NR_TILE ? n1 - j0 : NR_TILE;
            const char *sb = src + (it.off[0] + i0 * s0 + j0 * s1) * sisz;
            char *db = dst + (it.off[1] + i0 * d0 + j0 * d1) * disz;
            if (tf && d1 == 1) { tf(sb, s1, db, d0, i1 - i0, m); continue; }  /* s0 == 1 */
            if (tf) { tf(sb, s0, db, d1, m, i1 - i0); continue; }             /* s1 == 1, d0 == 1 */
            nr__cast_tile(f, sb, s0, s1, sisz, db, d0, d1, disz, i1 - i0, m);
        }
        if (t % nrt == nrt - 1) nr_outer_next(&it);
    }
}

static int nr_copy_transposing(nr_cvt_fn f, int ndim, const int64_t *shape, const char *src,
                               const int64_t *sst, int sisz, char *dst, const int64_t *dstr, int disz,
                               int nth) {
    if (ndim < 2 || shape[ndim - 2] < NR_TILE || shape[ndim - 1] < NR_TILE) return 0;
    int64_t s0 = sst[ndim - 2], s1 = sst[ndim - 1], d0 = dstr[ndim - 2], d1 = dstr[ndim - 1];
    if (!((s0 == 1 && d1 == 1 && (s1 > 1 || s1 < -1)) || (d0 == 1 && s1 == 1 && (d1 > 1 || d1 < -1)))) return 0;
    int64_t outer = nr_prod(shape, ndim - 2), nrt = (shape[ndim - 2] + NR_TILE - 1) / NR_TILE;
    int64_t ntask = outer * nrt;
    if (nth == 1 || ntask < 2) {
        nr__copy_tiles(f, ndim, shape, src, sst, sisz, dst, dstr, disz, 0, ntask);
        return 1;
    }
    #pragma omp parallel num_threads(nth)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        nr__copy_tiles(f, ndim, shape, src, sst, sisz, dst, dstr, disz, ntask * t / nt, ntask * (t + 1) / nt);
    }
    return 1;
}

/* ---- N-d driver: dims already coalesced (ndim >= 1), strides in elements ----
 * Splits the flat element range over threads when it is large; each thread walks the
 * outer dims with nr_outer_iter and calls the inner loop on runs of the last dim. */
static void nr_copy_nd(nr_cvt_fn f, int ndim, const int64_t *shape, const char *src,
                       const int64_t *sst, int sisz, char *dst, const int64_t *dstr, int disz) {
    int64_t total = nr_prod(shape, ndim);
    int nth = total >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    if (total <= 0) return;
    if (nr_copy_transposing(f, ndim, shape, src, sst, sisz, dst, dstr, disz, nth)) return;
    if (nth == 1) {
        nr_copy_range(f, ndim, shape, src, sst, sisz, dst, dstr, disz, 0, total);
        return;
    }
    #pragma omp parallel num_threads(nth)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t lo = total / nt * t + (t < total % nt ? t : total % nt);
        int64_t hi = lo + total / nt + (t < total % nt ? 1 : 0);
        nr_copy_range(f, ndim, shape, src, sst, sisz, dst, dstr, disz, lo, hi);
    }
}

/* Fill a strided N-d destination with one element value (bits of dst's dtype at `value`). */
static void nr_fill_nd(int ndim, const int64_t *shape, char *dst, const int64_t *dstr, int isz,
                       const char *value) {
    static const int64_t zero[NR_MAXDIMS] = {0};
    nr_cvt_fn f = nr_fillv_fn(isz);
    int64_t total = nr_prod(shape, ndim);
    int all_zero = 1;
    for (int i = 0; i < isz; ++i) all_zero &= value[i] == 0;
    if (total <= 0 || !f) return;
    if (ndim == 1 && dstr[0] == 1 && (isz == 1 || all_zero)) {
        int nth = total * isz >= NR_PARALLEL_THRESHOLD * 4 ? nr_max_threads() : 1;
        #pragma omp parallel num_threads(nth) if (nth > 1)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            int64_t lo = total * t / nt, hi = total * (t + 1) / nt;
            if (hi > lo) memset(dst + lo * isz, value[0], (size_t)(hi - lo) * isz);
        }
        return;
    }
    /* source = the value with stride 0 in every dim */
    nr_copy_nd(f, ndim, shape, value, zero, isz, dst, dstr, isz);
}

#endif
