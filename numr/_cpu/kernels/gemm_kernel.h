/* Packed, cache-blocked, vectorised GEMM for float32 and float64 (BLIS's loop
 * structure), also used for float16/bfloat16/float8 by converting to float32
 * while packing.
 *
 *   for each task: a band of rows x an NC block of columns of C (dynamic schedule)
 *     for pc (KC of the inner dim): pack B[pc:, jc:] into NR-wide panels
 *       for ic (MC rows of the band): pack A[ic:, pc:] into MR-high panels
 *         for jr, ir: micro-kernel, an MR x NR register tile over kc
 *
 * A and B are read through (row, column) strides while packing, so transposed
 * and sliced operands need no copy. C is row-major with leading dim ldc and is
 * overwritten. Vector code uses GCC vector extensions: 64-byte vectors where
 * the compiler targets AVX-512, 32-byte ones otherwise.
 */
#ifndef NUMR_GEMM_KERNEL_H
#define NUMR_GEMM_KERNEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "scratch.h"

#if defined(__AVX512F__)
#define NR_GEMM_VB 64
#define NR_GEMM_MR 12
#else
#define NR_GEMM_VB 32
#define NR_GEMM_MR 6
#endif

typedef float nr_vf __attribute__((vector_size(NR_GEMM_VB)));
typedef double nr_vd __attribute__((vector_size(NR_GEMM_VB)));
typedef float nr_vf_u __attribute__((vector_size(NR_GEMM_VB), aligned(4)));
typedef double nr_vd_u __attribute__((vector_size(NR_GEMM_VB), aligned(8)));

#ifndef NR_GEMM_KC
#define NR_GEMM_KC 256
#endif
#ifndef NR_GEMM_MC
#define NR_GEMM_MC (NR_GEMM_MR * 12)
#endif
#define NR_GEMM_NC 1024
#ifndef NR_GEMM_BAND_ROWS
#define NR_GEMM_BAND_ROWS 128
#endif
#ifndef NR_GEMM_TASKS_PER_THREAD
#define NR_GEMM_TASKS_PER_THREAD 2
#endif

static inline int64_t nr_gmin(int64_t a, int64_t b) { return a < b ? a : b; }

/* Micro-kernel: C[0:MR, 0:NR] (+)= Ap (kc x MR, packed) * Bp (kc x NR, packed). */
#define NR_GEMM_UKR(NAME, T, V, VU)                                                               \
enum { NAME##_VL = NR_GEMM_VB / sizeof(T), NAME##_NR = 2 * (NR_GEMM_VB / sizeof(T)) };             \
static inline void NAME(int64_t kc, const T *restrict a, const T *restrict b, T *restrict c,      \
                        int64_t ldc, int acc) {                                                    \
    V c0[NR_GEMM_MR], c1[NR_GEMM_MR];                                                              \
    _Pragma("GCC unroll 16")                                                                       \
    for (int i = 0; i < NR_GEMM_MR; ++i) { c0[i] = (V){0}; c1[i] = (V){0}; }                       \
    for (int64_t p = 0; p < kc; ++p) {                                                             \
        V b0 = *(const V *)b, b1 = *(const V *)(b + NAME##_VL);                                    \
        _Pragma("GCC unroll 16")                                                                   \
        for (int i = 0; i < NR_GEMM_MR; ++i) {                                                     \
            const T ai = a[i]; /* scalar * vector: a broadcast load ((V){0} + x is an FP add) */   \
            c0[i] += ai * b0;                                                                      \
            c1[i] += ai * b1;                                                                      \
        }                                                                                          \
        a += NR_GEMM_MR;                                                                           \
        b += NAME##_NR;                                                                            \
    }                                                                                              \
    _Pragma("GCC unroll 16")                                                                       \
    for (int i = 0; i < NR_GEMM_MR; ++i) {                                                         \
        VU *r0 = (VU *)(c + i * ldc), *r1 = (VU *)(c + i * ldc + NAME##_VL);                       \
        if (acc) { *r0 += c0[i]; *r1 += c1[i]; } else { *r0 = c0[i]; *r1 = c1[i]; }                \
    }                                                                                              \
}

NR_GEMM_UKR(nr_ukr_f32, float, nr_vf, nr_vf_u)
NR_GEMM_UKR(nr_ukr_f64, double, nr_vd, nr_vd_u)

/* Packing and the blocked driver for input storage type TI read as T through LD. */
#define NR_GEMM_DEFINE(NAME, TI, T, LD, UKR)                                                      \
static void NAME##_pack_a(const TI *A, int64_t rsa, int64_t csa, int64_t mc, int64_t kc, T *dst) { \
    for (int64_t p = 0; p < mc; p += NR_GEMM_MR) {                                                 \
        int64_t mr = nr_gmin(NR_GEMM_MR, mc - p);                                                  \
        const TI *src = A + p * rsa;                                                               \
        if (mr < NR_GEMM_MR) memset(dst, 0, sizeof(T) * NR_GEMM_MR * kc);                          \
        if (rsa == 1 && mr == NR_GEMM_MR) {                                                        \
            for (int64_t q = 0; q < kc; ++q)                                                       \
                for (int r = 0; r < NR_GEMM_MR; ++r) dst[q * NR_GEMM_MR + r] = LD(src[q * csa + r]); \
        } else if ((rsa < 0 ? -rsa : rsa) < (csa < 0 ? -csa : csa)) {                              \
            for (int64_t q = 0; q < kc; ++q)  /* walk the smaller stride innermost */               \
                for (int64_t r = 0; r < mr; ++r) dst[q * NR_GEMM_MR + r] = LD(src[r * rsa + q * csa]); \
        } else {                                                                                   \
            for (int64_t r = 0; r < mr; ++r)                                                       \
                for (int64_t q = 0; q < kc; ++q) dst[q * NR_GEMM_MR + r] = LD(src[r * rsa + q * csa]); \
        }                                                                                          \
        dst += NR_GEMM_MR * kc;                                                                    \
    }                                                                                              \
}                                                                                                  \
static void NAME##_pack_b_panel(const TI *B, int64_t rsb, int64_t csb, int64_t nr, int64_t kc, T *dst) { \
    const int NRW = UKR##_NR;                                                                      \
    if (nr < NRW) memset(dst, 0, sizeof(T) * NRW * kc);                                            \
    if (csb == 1 && nr == NRW) {                                                                   \
        for (int64_t q = 0; q < kc; ++q)                                                           \
            for (int c = 0; c < NRW; ++c) dst[q * NRW + c] = LD(B[q * rsb + c]);                   \
    } else if ((csb < 0 ? -csb : csb) < (rsb < 0 ? -rsb : rsb)) {                                  \
        for (int64_t q = 0; q < kc; ++q)  /* walk the smaller stride innermost */                   \
            for (int64_t c = 0; c < nr; ++c) dst[q * NRW + c] = LD(B[q * rsb + c * csb]);          \
    } else {                                                                                       \
        for (int64_t c = 0; c < nr; ++c)                                                           \
            for (int64_t q = 0; q < kc; ++q) dst[q * NRW + c] = LD(B[q * rsb + c * csb]);          \
    }                                                                                              \
}                                                                                                  \
/* C (m x n, row stride ldc) = A (m x k) @ B (k x n); `threads` > 1 runs an OpenMP team.       \
 * A task is a band of whole MR-row panels times a block of whole NR-column panels of C,     \
 * handed out dynamically (NR_GEMM_TASKS_PER_THREAD tasks per thread, so a preempted thread   \
 * delays a fraction of the work). Each task packs its B block once per KC step and reuses it \
 * for every MC block of its band: B is packed (bands) times, not (m / MC) times. */          \
static int NAME(int64_t m, int64_t n, int64_t k, const TI *A, int64_t rsa, int64_t csa,            \
                const TI *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {           \
    const int NRW = UKR##_NR;                                                                      \
    if (m == 0 || n == 0) return 0;                                                                \
    if (k == 0) {                                                                                  \
        for (int64_t i = 0; i < m; ++i) memset(C + i * ldc, 0, sizeof(T) * n);                     \
        return 0;                                                                                  \
    }                                                                                              \
    int64_t kcmax = nr_gmin(k, NR_GEMM_KC);                                                        \
    int64_t mpan = (m + NR_GEMM_MR - 1) / NR_GEMM_MR, npn = (n + NRW - 1) / NRW;                   \
    int64_t want = threads > 1 ? (int64_t)threads * NR_GEMM_TASKS_PER_THREAD : 1;                  \
    /* bands of >= NR_GEMM_BAND_ROWS rows (each packs all of its B block); columns split next */   \
    int64_t nbands = nr_gmin(want, mpan), tall = m / NR_GEMM_BAND_ROWS;                            \
    if (nbands > tall) nbands = tall > 1 ? tall : 1;                                               \
    int64_t ncb = (npn * NRW + NR_GEMM_NC - 1) / NR_GEMM_NC;                                       \
    /* every column block repacks its band of A (the slower pack): one block per thread at most */ \
    int64_t wantc = nbands > 1 ? want : (threads > 1 ? threads : 1);                               \
    while (nbands * ncb < wantc && ncb < npn) ++ncb;                                               \
    int64_t ntask = nbands * ncb, nc = (npn + ncb - 1) / ncb * NRW;                                \
    int64_t mc = nr_gmin(mpan * NR_GEMM_MR, NR_GEMM_MC);                                           \
    int failed = 0;                                                                                \
    _Pragma("omp parallel num_threads(threads) if(threads > 1 && ntask > 1)")                      \
    {                                                                                              \
        T *ap = (T *)nr_scratch(NR_SCR_APACK, sizeof(T) * mc * kcmax);                             \
        T *bp = (T *)nr_scratch(NR_SCR_BPACK, sizeof(T) * kcmax * nc);                             \
        T tile[NR_GEMM_MR * 2 * NR_GEMM_VB / sizeof(T)] __attribute__((aligned(64)));              \
        if (!ap || !bp) { _Pragma("omp atomic write") failed = 1; }                                \
        _Pragma("omp for schedule(dynamic, 1)")                                                    \
        for (int64_t task = 0; task < ntask; ++task) {                                             \
            if (!ap || !bp) continue;                                                              \
            int64_t band = task / ncb, jb = task % ncb;                                            \
            int64_t jc = npn * jb / ncb * NRW, jend = nr_gmin(n, npn * (jb + 1) / ncb * NRW);      \
            int64_t r0 = mpan * band / nbands * NR_GEMM_MR;                                        \
            int64_t r1 = nr_gmin(m, mpan * (band + 1) / nbands * NR_GEMM_MR);                      \
            int64_t ncc = jend - jc, npan = (ncc + NRW - 1) / NRW;                                 \
            for (int64_t pc = 0; pc < k; pc += NR_GEMM_KC) {                                       \
                int64_t kc = nr_gmin(NR_GEMM_KC, k - pc);                                          \
                for (int64_t q = 0; q < npan; ++q)                                                 \
                    NAME##_pack_b_panel(B + pc * rsb + (jc + q * NRW) * csb, rsb, csb,             \
                                        nr_gmin(NRW, ncc - q * NRW), kc, bp + q * NRW * kc);       \
                for (int64_t ic = r0; ic < r1; ic += mc) {                                         \
                    int64_t mcc = nr_gmin(mc, r1 - ic);                                            \
                    NAME##_pack_a(A + ic * rsa + pc * csa, rsa, csa, mcc, kc, ap);                 \
                    for (int64_t q = 0; q < npan; ++q) {                                           \
                        int64_t nr = nr_gmin(NRW, ncc - q * NRW);                                  \
                        const T *bq = bp + q * NRW * kc;                                           \
                        for (int64_t ir = 0; ir < mcc; ir += NR_GEMM_MR) {                         \
                            int64_t mr = nr_gmin(NR_GEMM_MR, mcc - ir);                            \
                            T *c = C + (ic + ir) * ldc + jc + q * NRW;                             \
                            const T *aq = ap + ir * kc;                                            \
                            if (mr == NR_GEMM_MR && nr == NRW) {                                   \
                                UKR(kc, aq, bq, c, ldc, pc > 0);                                   \
                            } else {                                                               \
                                UKR(kc, aq, bq, tile, NRW, 0);                                     \
                                for (int64_t i = 0; i < mr; ++i)                                   \
                                    for (int64_t j = 0; j < nr; ++j)                               \
                                        c[i * ldc + j] = (pc > 0 ? c[i * ldc + j] : 0) + tile[i * NRW + j]; \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        nr_scratch_done(NR_SCR_APACK);                                                             \
        nr_scratch_done(NR_SCR_BPACK);                                                             \
    }                                                                                              \
    return failed ? -1 : 0;                                                                        \
}

#endif
