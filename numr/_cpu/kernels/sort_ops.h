/* sort (values and int64 indices along one dim) and searchsorted kernels for every real dtype.
 *
 * sort: rows are the kept dims (kshape; strides kxs of x, kvs/kis of the values/indices
 * outputs); each row of n elements (strides xs, vs, is) is read into a thread's scratch as
 * (order-preserving key, uint32 position) pairs (sort_keys.h; descending complements the
 * key), sorted stably (insertion sort for short rows, merges of insertion-sorted runs for
 * rows up to 40, LSD radix sort on 8-bit digits otherwise, with passes only for the digits
 * where some keys differ), and the values are then copied from x, as bits, by the sorted
 * positions. Rows are split between OpenMP threads.
 *
 * searchsorted: rows of the sorted sequence (kss; n elements at stride ss; stride 0 when
 * one 1-d sequence serves every row of values) and of the values (kvs; m at stride vs);
 * each value's insertion point is a branch-free binary search on keys (left: the first key >=
 * the value's, right: the first key >). Tasks are chunks of NR_SS_CHUNK values.
 */
#ifndef NUMR_SORT_OPS_H
#define NUMR_SORT_OPS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "dtypes.h"
#include "nditer.h"
#include "sort_keys.h"

#define NR_SORT_SMALL 24 /* rows up to this length: insertion sort */
#define NR_SORT_MERGE 40 /* up to this length: merges of insertion-sorted runs; then radix */
#define NR_SORT_RUN 16
#define NR_SS_CHUNK 2048 /* prefetches may point before a row: they never fault */

typedef struct {
    int nk;
    int64_t kshape[NR_MAXDIMS], kxs[NR_MAXDIMS], kvs[NR_MAXDIMS], kis[NR_MAXDIMS];
    int64_t n, xs, vs, is;
    int desc;
} nr_sort_spec;

typedef struct {
    int nk;
    int64_t kshape[NR_MAXDIMS], kss[NR_MAXDIMS], kvs[NR_MAXDIMS], kos[NR_MAXDIMS];
    int64_t n, ss, m, vs, os;
    int right;
} nr_ss_spec;

/* Stable sorts of (key, position) pairs; each returns the array holding the sorted positions
 * (k/ix or their scratch twins k2/ix2). */
#define NR_RADIX_DEFINE(KS, K)                                                                     \
static uint32_t *nr_insertion_##KS(K *k, uint32_t *ix, int64_t n) {                                \
    for (int64_t i = 1; i < n; ++i) {                                                              \
        K v = k[i];                                                                                \
        uint32_t p = ix[i];                                                                        \
        int64_t j = i;                                                                             \
        for (; j > 0 && k[j - 1] > v; --j) { k[j] = k[j - 1]; ix[j] = ix[j - 1]; }                 \
        k[j] = v;                                                                                  \
        ix[j] = p;                                                                                 \
    }                                                                                              \
    return ix;                                                                                     \
}                                                                                                  \
/* rows of NR_SORT_SMALL < n <= NR_SORT_MERGE: insertion-sorted runs, then stable merges */        \
static uint32_t *nr_merge_##KS(K *k, uint32_t *ix, K *k2, uint32_t *ix2, int64_t n) {              \
    for (int64_t r = 0; r < n; r += NR_SORT_RUN)                                                   \
        nr_insertion_##KS(k + r, ix + r, n - r < NR_SORT_RUN ? n - r : NR_SORT_RUN);               \
    for (int64_t w = NR_SORT_RUN; w < n; w *= 2) {                                                 \
        for (int64_t lo = 0; lo < n; lo += 2 * w) {                                                \
            int64_t a = lo, am = lo + w < n ? lo + w : n, b = am, bm = lo + 2 * w < n ? lo + 2 * w : n, o = lo; \
            while (a < am && b < bm) { /* ties take the left run: stable */                        \
                const int left = k[a] <= k[b];                                                     \
                k2[o] = left ? k[a] : k[b];                                                        \
                ix2[o++] = left ? ix[a++] : ix[b++];                                               \
            }                                                                                      \
            for (; a < am; ++a, ++o) { k2[o] = k[a]; ix2[o] = ix[a]; }                             \
            for (; b < bm; ++b, ++o) { k2[o] = k[b]; ix2[o] = ix[b]; }                             \
        }                                                                                          \
        K *tk = k; k = k2; k2 = tk;                                                                \
        uint32_t *ti = ix; ix = ix2; ix2 = ti;                                                     \
    }                                                                                              \
    return ix;                                                                                     \
}                                                                                                  \
static uint32_t *nr_radix_##KS(K *k, uint32_t *ix, K *k2, uint32_t *ix2, int64_t n) {              \
    enum { P = sizeof(K) };                                                                        \
    /* only digits where some keys differ need a pass (the bits set in some key, not all) */       \
    K all = (K)~(K)0, any = 0;                                                                     \
    for (int64_t i = 0; i < n; ++i) { all &= k[i]; any |= k[i]; }                                  \
    const K diff = (K)(all ^ any);                                                                 \
    int sh[P], np = 0;                                                                             \
    for (int p = 0; p < P; ++p)                                                                    \
        if ((diff >> (8 * p)) & 255u) sh[np++] = 8 * p;                                            \
    uint32_t cnt[P][256];                                                                          \
    memset(cnt, 0, sizeof cnt);                                                                    \
    for (int64_t i = 0; i < n; ++i) {                                                              \
        K v = k[i];                                                                                \
        for (int j = 0; j < np; ++j) cnt[j][(v >> sh[j]) & 255u]++;                                \
    }                                                                                              \
    for (int j = 0; j < np; ++j) {                                                                 \
        uint32_t *c = cnt[j], sum = 0;                                                             \
        for (int d = 0; d < 256; ++d) { uint32_t t = c[d]; c[d] = sum; sum += t; }                 \
        const int b = sh[j];                                                                       \
        if (j == np - 1) { /* the keys are not needed after the last pass */                       \
            for (int64_t i = 0; i < n; ++i) ix2[c[(k[i] >> b) & 255u]++] = ix[i];                  \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; ++i) {                                                      \
                K v = k[i];                                                                        \
                uint32_t pos = c[(v >> b) & 255u]++;                                               \
                k2[pos] = v;                                                                       \
                ix2[pos] = ix[i];                                                                  \
            }                                                                                      \
        }                                                                                          \
        K *tk = k; k = k2; k2 = tk;                                                                \
        uint32_t *ti = ix; ix = ix2; ix2 = ti;                                                     \
    }                                                                                              \
    return ix;                                                                                     \
}

NR_RADIX_DEFINE(k8, uint8_t)
NR_RADIX_DEFINE(k16, uint16_t)
NR_RADIX_DEFINE(k32, uint32_t)
NR_RADIX_DEFINE(k64, uint64_t)

/* The head of a row kernel (sort, topk): typed pointers, sizes and strides, the descending
 * key flip, whether the rows are split between threads, the failure flag; then, inside the
 * parallel region, this thread's rows [a, b). */
#define NR_SORT_ROWS_HEAD(U, K)                                                                    \
    const U *x = (const U *)xc;                                                                    \
    U *v = (U *)vc;                                                                                \
    const int64_t nrow = nr_prod(s->kshape, s->nk), n = s->n, xs = s->xs, vs = s->vs, is = s->is;  \
    const K flip = s->desc ? (K)~(K)0 : (K)0;                                                      \
    const int par = nr_max_threads() > 1 && nrow > 1 && nrow * n >= NR_PARALLEL_THRESHOLD;         \
    int fail = 0;
#define NR_SORT_THREAD_ROWS                                                                        \
    int t = omp_get_thread_num(), nt = omp_get_num_threads();                                      \
    int64_t a = nrow * t / nt, b = nrow * (t + 1) / nt;

/* SFX: dtype suffix; U: the element's bits; K, KS: key type and its sorter; KEY: bits -> key */
#define NR_SORT_DEFINE(SFX, U, K, KS, KEY)                                                         \
static int nr_sort_##SFX(const char *xc, char *vc, int64_t *io, const nr_sort_spec *s) {           \
    NR_SORT_ROWS_HEAD(U, K)                                                                        \
    _Pragma("omp parallel num_threads(nr_max_threads()) if(par) reduction(|:fail)")                \
    {                                                                                              \
        NR_SORT_THREAD_ROWS                                                                        \
        /* positions first: both arrays stay aligned for every key size */                         \
        char *buf = a < b ? (char *)malloc((size_t)n * (8 + 2 * sizeof(K)) + 64) : NULL;           \
        if (a < b && !buf) fail = 1;                                                               \
        if (buf) {                                                                                 \
            uint32_t *ix = (uint32_t *)buf, *ix2 = ix + n;                                         \
            K *k = (K *)(ix2 + n), *k2 = k + n;                                                    \
            nr_outer_iter it;                                                                      \
            const int64_t *ks[3] = {s->kxs, s->kvs, s->kis};                                       \
            nr_outer_init(&it, 3, s->nk, s->kshape, ks, a);                                        \
            for (int64_t r = a; r < b; ++r) {                                                      \
                const U *xr = x + it.off[0];                                                       \
                U *vr = v + it.off[1];                                                             \
                int64_t *ir = io + it.off[2];                                                      \
                if (xs == 1) { for (int64_t i = 0; i < n; ++i) k[i] = (K)(KEY(xr[i]) ^ flip); }    \
                else { for (int64_t i = 0; i < n; ++i) k[i] = (K)(KEY(xr[i * xs]) ^ flip); }       \
                for (int64_t i = 0; i < n; ++i) ix[i] = (uint32_t)i;                               \
                const uint32_t *pos = n <= NR_SORT_SMALL ? nr_insertion_##KS(k, ix, n)             \
                                      : n <= NR_SORT_MERGE ? nr_merge_##KS(k, ix, k2, ix2, n)     \
                                                          : nr_radix_##KS(k, ix, k2, ix2, n);      \
                if (vs == 1 && is == 1) {                                                          \
                    for (int64_t j = 0; j < n; ++j) { uint32_t p = pos[j]; ir[j] = p; vr[j] = xr[p * xs]; } \
                } else {                                                                           \
                    for (int64_t j = 0; j < n; ++j) {                                              \
                        uint32_t p = pos[j];                                                       \
                        ir[j * is] = p;                                                            \
                        vr[j * vs] = xr[p * xs];                                                   \
                    }                                                                              \
                }                                                                                  \
                nr_outer_next(&it);                                                                \
            }                                                                                      \
            free(buf);                                                                             \
        }                                                                                          \
    }                                                                                              \
    return fail ? -2 : 0;                                                                          \
}                                                                                                  \
static void nr_ss_##SFX(const char *sc, const char *vc, int64_t *out, const nr_ss_spec *s) {       \
    const U *sq = (const U *)sc, *va = (const U *)vc;                                              \
    const int64_t nrow = nr_prod(s->kshape, s->nk), n = s->n, ss = s->ss, m = s->m;                \
    const int64_t vs = s->vs, os = s->os, nch = (m + NR_SS_CHUNK - 1) / NR_SS_CHUNK;               \
    const int64_t ntask = nrow * nch;                                                              \
    const int right = s->right;                                                                    \
    const int par = nr_max_threads() > 1 && ntask > 1 && nrow * m >= NR_PARALLEL_THRESHOLD / 8;    \
    _Pragma("omp parallel num_threads(nr_max_threads()) if(par)")                                  \
    {                                                                                              \
        int t = omp_get_thread_num(), nt = omp_get_num_threads();                                  \
        int64_t a = ntask * t / nt, b = ntask * (t + 1) / nt;                                      \
        nr_outer_iter it;                                                                          \
        const int64_t *ks[3] = {s->kss, s->kvs, s->kos};                                           \
        for (int64_t task = a; task < b; ++task) {                                                 \
            int64_t r = task / nch, j0 = (task % nch) * NR_SS_CHUNK;                               \
            int64_t j1 = m - j0 < NR_SS_CHUNK ? m : j0 + NR_SS_CHUNK;                              \
            nr_outer_init(&it, 3, s->nk, s->kshape, ks, r);                                        \
            const U *sr = sq + it.off[0], *vr = va + it.off[1];                                    \
            int64_t *orow = out + it.off[2];                                                       \
            for (int64_t j = j0; j < j1; ++j) {                                                    \
                const K kv = KEY(vr[j * vs]);                                                      \
                /* branch-free: the answer lies in [lo, lo + len]; halve len, lo moves by a select */ \
                int64_t lo = 0, len = n;                                                           \
                if (right) {                                                                       \
                    for (; len > 1; len -= len >> 1) {                                             \
                        const int64_t h = len >> 1, q = (len - h) >> 1; /* both next probes */     \
                        __builtin_prefetch(sr + (lo + q - 1) * ss);                                \
                        __builtin_prefetch(sr + (lo + h + q - 1) * ss);                            \
                        lo = KEY(sr[(lo + h - 1) * ss]) <= kv ? lo + h : lo;                       \
                    }                                                                              \
                    lo += len == 1 && KEY(sr[lo * ss]) <= kv;                                      \
                } else {                                                                           \
                    for (; len > 1; len -= len >> 1) {                                             \
                        const int64_t h = len >> 1, q = (len - h) >> 1; /* both next probes */     \
                        __builtin_prefetch(sr + (lo + q - 1) * ss);                                \
                        __builtin_prefetch(sr + (lo + h + q - 1) * ss);                            \
                        lo = KEY(sr[(lo + h - 1) * ss]) < kv ? lo + h : lo;                        \
                    }                                                                              \
                    lo += len == 1 && KEY(sr[lo * ss]) < kv;                                       \
                }                                                                                  \
                orow[j * os] = lo;                                                                 \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
}

NR_SORT_DEFINE(b, uint8_t, uint8_t, k8, nr_key_b)
NR_SORT_DEFINE(i8, uint8_t, uint8_t, k8, nr_key_i8)
NR_SORT_DEFINE(u8, uint8_t, uint8_t, k8, nr_key_u8)
NR_SORT_DEFINE(e4, uint8_t, uint8_t, k8, nr_key_e4)
NR_SORT_DEFINE(e5, uint8_t, uint8_t, k8, nr_key_e5)
NR_SORT_DEFINE(i16, uint16_t, uint16_t, k16, nr_key_i16)
NR_SORT_DEFINE(u16, uint16_t, uint16_t, k16, nr_key_u16)
NR_SORT_DEFINE(f16, uint16_t, uint16_t, k16, nr_key_f16)
NR_SORT_DEFINE(bf16, uint16_t, uint16_t, k16, nr_key_bf16)
NR_SORT_DEFINE(i32, uint32_t, uint32_t, k32, nr_key_i32)
NR_SORT_DEFINE(u32, uint32_t, uint32_t, k32, nr_key_u32)
NR_SORT_DEFINE(f32, uint32_t, uint32_t, k32, nr_key_f32)
NR_SORT_DEFINE(i64, uint64_t, uint64_t, k64, nr_key_i64)
NR_SORT_DEFINE(u64, uint64_t, uint64_t, k64, nr_key_u64)
NR_SORT_DEFINE(f64, uint64_t, uint64_t, k64, nr_key_f64)

#define NR_SORT_DISPATCH(CODE, CALL)                                                               \
    switch (CODE) {                                                                                \
    case NR_BOOL: CALL(b); case NR_I8: CALL(i8); case NR_U8: CALL(u8);                             \
    case NR_F8E4M3: CALL(e4); case NR_F8E5M2: CALL(e5);                                            \
    case NR_I16: CALL(i16); case NR_U16: CALL(u16); case NR_F16: CALL(f16); case NR_BF16: CALL(bf16); \
    case NR_I32: CALL(i32); case NR_U32: CALL(u32); case NR_F32: CALL(f32);                        \
    case NR_I64: CALL(i64); case NR_U64: CALL(u64); case NR_F64: CALL(f64);                        \
    default: return -1;                                                                            \
    }

/* 0: done; -1: no kernel for the dtype (complex); -2: out of memory. */
static int nr_sort(int code, const char *x, char *v, int64_t *idx, const nr_sort_spec *s) {
#define NR_SORT_CALL(SFX) return nr_sort_##SFX(x, v, idx, s);
    NR_SORT_DISPATCH(code, NR_SORT_CALL)
#undef NR_SORT_CALL
}

static int nr_searchsorted(int code, const char *seq, const char *vals, int64_t *out, const nr_ss_spec *s) {
#define NR_SS_CALL(SFX) nr_ss_##SFX(seq, vals, out, s); return 0;
    NR_SORT_DISPATCH(code, NR_SS_CALL)
#undef NR_SS_CALL
}

#endif
