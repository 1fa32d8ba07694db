/* 2:4 structured sparse @ dense: out (m, n) = dense(A) @ B, A given compressed as values
 * (m, k/2: the two kept entries of each group of 4 columns, in column order) and metadata
 * (m, k/4 uint8: bits 0-1 the first kept column within the group, bits 2-3 the second).
 * B is (k, n) with rows ldb elements apart (unit stride inside a row); out is contiguous.
 *
 * out[i, :] = sum_g v0 * B[4g + c0, :] + v1 * B[4g + c1, :]: two axpys per group (half the
 * multiply-adds of the dense product), OpenMP over rows. float16/bfloat16 accumulate a whole
 * float32 row (one buffer per thread) and round once; float32/float64 run tiled (below). A metadata index >= 4 never
 * happens for metadata made by prune_to_24; it is masked to 2 bits so nothing is read out
 * of bounds.
 */
#ifndef NUMR_SPARSE24_OPS_H
#define NUMR_SPARSE24_OPS_H

#include <stdint.h>
#include <stdlib.h>

#include "dtypes.h"
#include "threads.h"

#define NR_S24_MM(NAME, T, LD, ST, ACC)                                                          \
static int NAME(const T *vals, const uint8_t *meta, const T *b, int64_t ldb, T *out,           \
                int64_t m, int64_t k, int64_t n, int nth) {                                     \
    const int64_t g = k / 4;                                                                    \
    int fail = 0;                                                                               \
    _Pragma("omp parallel num_threads(nth) if (nth > 1)")                                       \
    {                                                                                           \
        ACC *acc = (ACC *)malloc(sizeof(ACC) * (size_t)(n > 0 ? n : 1));                        \
        if (!acc) { _Pragma("omp atomic write") fail = 1; }                                     \
        _Pragma("omp for schedule(static)")                                                     \
        for (int64_t i = 0; i < m; i++) {                                                       \
            if (!acc) continue;                                                                 \
            for (int64_t j = 0; j < n; j++) acc[j] = 0;                                         \
            const T *v = vals + i * (k / 2);                                                    \
            const uint8_t *md = meta + i * g;                                                   \
            for (int64_t q = 0; q < g; q++) {                                                   \
                const ACC v0 = LD(v[2 * q]), v1 = LD(v[2 * q + 1]);                             \
                const T *r0 = b + (4 * q + (md[q] & 3)) * ldb;                                  \
                const T *r1 = b + (4 * q + ((md[q] >> 2) & 3)) * ldb;                           \
                _Pragma("omp simd")                                                             \
                for (int64_t j = 0; j < n; j++) acc[j] += v0 * LD(r0[j]) + v1 * LD(r1[j]);      \
            }                                                                                   \
            T *o = out + i * n;                                                                 \
            for (int64_t j = 0; j < n; j++) o[j] = ST(acc[j]);                                  \
        }                                                                                       \
        free(acc);                                                                              \
    }                                                                                           \
    return fail;                                                                                \
}

#define NR_S24_ID(x) (x)
NR_S24_MM(nr_s24_mm_f16, nr_f16, nr_f16_to_f32, nr_f32_to_f16, float)
NR_S24_MM(nr_s24_mm_bf16, nr_bf16, nr_bf16_to_f32, nr_f32_to_bf16, float)

/* float32/float64: tiles of TJ columns of out, whose accumulators stay in registers, and
 * blocks of QB groups, whose 4 * QB rows of the b tile stay in L1 while a block of 64 rows
 * of A passes over them (threads own row blocks) (the row form above streams a whole b row per kept entry: 7x slower). */
#define NR_S24_TILE(NAME, T, TJ, QB)                                                            \
static inline void NAME##_rows(const T *vals, const uint8_t *meta, const T *b, int64_t ldb,    \
                               T *out, int64_t i, int64_t k, int64_t n, int64_t j0, int64_t tj, \
                               int64_t q0, int64_t q1) {                                        \
    T acc[TJ];                                                                                  \
    T *o = out + i * n + j0;                                                                    \
    for (int64_t j = 0; j < TJ; j++) acc[j] = (q0 == 0 || j >= tj) ? 0 : o[j];                  \
    const T *v = vals + i * (k / 2);                                                            \
    const uint8_t *md = meta + i * (k / 4);                                                     \
    for (int64_t q = q0; q < q1; q++) {                                                         \
        const T v0 = v[2 * q], v1 = v[2 * q + 1];                                               \
        const T *r0 = b + (4 * q + (md[q] & 3)) * ldb + j0;                                     \
        const T *r1 = b + (4 * q + ((md[q] >> 2) & 3)) * ldb + j0;                              \
        if (tj == TJ) {                                                                         \
            _Pragma("omp simd")                                                                 \
            for (int64_t j = 0; j < TJ; j++) acc[j] += v0 * r0[j] + v1 * r1[j];                 \
        } else {                                                                                \
            for (int64_t j = 0; j < tj; j++) acc[j] += v0 * r0[j] + v1 * r1[j];                 \
        }                                                                                       \
    }                                                                                           \
    for (int64_t j = 0; j < tj; j++) o[j] = acc[j];                                             \
}                                                                                               \
static int NAME(const T *vals, const uint8_t *meta, const T *b, int64_t ldb, T *out,           \
                int64_t m, int64_t k, int64_t n, int nth) {                                     \
    const int64_t g = k / 4;                                                                    \
    if (g == 0) { for (int64_t t = 0; t < m * n; t++) out[t] = 0; return 0; }                   \
    const int64_t nb = (m + 63) / 64; /* blocks of 64 rows, one thread each: no barrier inside */ \
    _Pragma("omp parallel for schedule(static) num_threads(nth) if (nth > 1)")                  \
    for (int64_t blk = 0; blk < nb; blk++) {                                                    \
        const int64_t i1 = (blk + 1) * 64 < m ? (blk + 1) * 64 : m;                             \
        for (int64_t j0 = 0; j0 < n; j0 += TJ) {                                                \
            const int64_t tj = n - j0 < TJ ? n - j0 : TJ;                                       \
            for (int64_t q0 = 0; q0 < g; q0 += QB) {                                            \
                const int64_t q1 = g - q0 < QB ? g : q0 + QB;                                   \
                for (int64_t i = blk * 64; i < i1; i++)                                         \
                    NAME##_rows(vals, meta, b, ldb, out, i, k, n, j0, tj, q0, q1);              \
            }                                                                                   \
        }                                                                                       \
    }                                                                                           \
    return 0;                                                                                   \
}

NR_S24_TILE(nr_s24_mm_f32, float, 64, 32)
NR_S24_TILE(nr_s24_mm_f64, double, 32, 32)

/* Pruning: rows (rows, k) contiguous -> vals (rows, k/2), meta (rows, k/4). Entry j of a group
 * is kept when fewer than 2 entries rank before it: a larger magnitude, or an equal one at a
 * lower index; NaN ranks as +inf (the composite in numr/ops/generic/sparse24.py, the same rule). */
#define NR_S24_PRUNE(NAME, T, KEY)                                                              \
static void NAME(const T *x, T *vals, uint8_t *meta, int64_t rows, int64_t k) {                \
    const int64_t g = rows * (k / 4);                                                           \
    for (int64_t q = 0; q < g; q++) {                                                           \
        const T *e = x + 4 * q;                                                                 \
        double key[4];                                                                          \
        for (int j = 0; j < 4; j++) {                                                           \
            double a = KEY(e[j]);                                                               \
            key[j] = a != a ? __builtin_inf() : (a < 0 ? -a : a);                              \
        }                                                                                       \
        int c[2], nk = 0;                                                                       \
        for (int j = 0; j < 4 && nk < 2; j++) {                                                 \
            int before = 0;                                                                     \
            for (int i = 0; i < 4; i++) before += key[i] > key[j] || (key[i] == key[j] && i < j); \
            if (before < 2) c[nk++] = j;                                                        \
        }                                                                                       \
        vals[2 * q] = e[c[0]];                                                                  \
        vals[2 * q + 1] = e[c[1]];                                                              \
        meta[q] = (uint8_t)(c[0] + 4 * c[1]);                                                   \
    }                                                                                           \
}
NR_S24_PRUNE(nr_s24_prune_f32, float, NR_S24_ID)
NR_S24_PRUNE(nr_s24_prune_f64, double, NR_S24_ID)
NR_S24_PRUNE(nr_s24_prune_f16, nr_f16, nr_f16_to_f32)
NR_S24_PRUNE(nr_s24_prune_bf16, nr_bf16, nr_bf16_to_f32)

/* kind as below; x contiguous (rows, k), k a multiple of 4. */
static void nr_sparse24_prune(int kind, const void *x, void *vals, uint8_t *meta, int64_t rows, int64_t k) {
    switch (kind) {
    case 0: nr_s24_prune_f32((const float *)x, (float *)vals, meta, rows, k); break;
    case 1: nr_s24_prune_f64((const double *)x, (double *)vals, meta, rows, k); break;
    case 2: nr_s24_prune_f16((const nr_f16 *)x, (nr_f16 *)vals, meta, rows, k); break;
    default: nr_s24_prune_bf16((const nr_bf16 *)x, (nr_bf16 *)vals, meta, rows, k); break;
    }
}

/* kind 0 float32, 1 float64, 2 float16, 3 bfloat16; returns 1 when out of memory. */
static int nr_sparse24_matmul(int kind, const void *vals, const uint8_t *meta, const void *b, int64_t ldb,
                              void *out, int64_t m, int64_t k, int64_t n) {
    /* threads from 1M multiply-adds: below that the fork/join costs more than it gains */
    int nth = (m * (k / 2) * n >= (1 << 20) && m > 1) ? nr_max_threads() : 1;
    switch (kind) {
    case 0: return nr_s24_mm_f32((const float *)vals, meta, (const float *)b, ldb, (float *)out, m, k, n, nth);
    case 1: return nr_s24_mm_f64((const double *)vals, meta, (const double *)b, ldb, (double *)out, m, k, n, nth);
    case 2: return nr_s24_mm_f16((const nr_f16 *)vals, meta, (const nr_f16 *)b, ldb, (nr_f16 *)out, m, k, n, nth);
    default: return nr_s24_mm_bf16((const nr_bf16 *)vals, meta, (const nr_bf16 *)b, ldb, (nr_bf16 *)out, m, k, n, nth);
    }
}

#endif
