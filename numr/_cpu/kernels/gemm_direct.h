/* GEMM without packing, for small float32/float64 products whose B rows are contiguous.
 *
 * Packing costs about as much as the arithmetic when the product is small (a 32x64 @ 64x32
 * product: 65K multiply-adds, and A's transposition into MR-high panels is one scalar store
 * per element). Here the micro-kernel broadcasts A's elements straight from A (any strides)
 * and loads B's rows in place; only the edges are copied: B's last columns into a
 * zero-padded NR-wide panel, A's last rows into a zero-padded MR-row block, so no load
 * reads past an operand.
 */
#ifndef NUMR_GEMM_DIRECT_H
#define NUMR_GEMM_DIRECT_H

#include "gemm_kernel.h"

/* C[0:MR, 0:NR] = A (MR rows, strides rsa/csa) @ B (kc rows of NR, row stride rsb). */
#define NR_GEMM_UKR_DIRECT(NAME, T, V, VU)                                                        \
static inline void NAME(int64_t kc, const T *restrict a, int64_t rsa, int64_t csa,                \
                        const T *restrict b, int64_t rsb, T *restrict c, int64_t ldc) {            \
    enum { VL = NR_GEMM_VB / sizeof(T) };                                                          \
    V c0[NR_GEMM_MR], c1[NR_GEMM_MR];                                                              \
    _Pragma("GCC unroll 16")                                                                       \
    for (int i = 0; i < NR_GEMM_MR; ++i) { c0[i] = (V){0}; c1[i] = (V){0}; }                       \
    for (int64_t p = 0; p < kc; ++p) {                                                             \
        V b0 = *(const VU *)b, b1 = *(const VU *)(b + VL);                                         \
        const T *ap = a + p * csa;                                                                 \
        _Pragma("GCC unroll 16")                                                                   \
        for (int i = 0; i < NR_GEMM_MR; ++i) {                                                     \
            const T ai = ap[i * rsa];                                                              \
            c0[i] += ai * b0;                                                                      \
            c1[i] += ai * b1;                                                                      \
        }                                                                                          \
        b += rsb;                                                                                  \
    }                                                                                              \
    _Pragma("GCC unroll 16")                                                                       \
    for (int i = 0; i < NR_GEMM_MR; ++i) {                                                         \
        *(VU *)(c + i * ldc) = c0[i];                                                              \
        *(VU *)(c + i * ldc + VL) = c1[i];                                                         \
    }                                                                                              \
}

NR_GEMM_UKR_DIRECT(nr_ukrd_f32, float, nr_vf, nr_vf_u)
NR_GEMM_UKR_DIRECT(nr_ukrd_f64, double, nr_vd, nr_vd_u)

/* C (m x n, row stride ldc) = A @ B with B's column stride 1; -1 when scratch allocation fails.
 * `threads` > 1 splits the MR x NR tiles (column panel by column panel) between a team, each
 * thread copying its own edges; one thread opens no OpenMP region (products run one per
 * thread inside the batch loop's team, where even an if(0) region costs a team set-up). */
#define NR_GEMM_DIRECT(NAME, T, UKRD, NRW)                                                        \
static int NAME##_part(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,      \
                       const T *B, int64_t rsb, T *C, int64_t ldc, int part, int nparts) {         \
    int64_t mfull = m / NR_GEMM_MR * NR_GEMM_MR, nfull = n / NRW * NRW;                            \
    int64_t nib = (m + NR_GEMM_MR - 1) / NR_GEMM_MR, ntile = nib * ((n + NRW - 1) / NRW);          \
    int64_t t0 = ntile * part / nparts, t1 = ntile * (part + 1) / nparts;                          \
    T tile[NR_GEMM_MR * NRW] __attribute__((aligned(64)));                                        \
    T *bedge = NULL, *aedge = NULL;                                                                \
    if (nfull < n) {                                                                               \
        bedge = (T *)nr_scratch(NR_SCR_BEDGE, sizeof(T) * k * NRW);                                \
        if (!bedge) return -1;                                                                     \
        for (int64_t p = 0; p < k; ++p)                                                            \
            for (int64_t j = 0; j < NRW; ++j)                                                      \
                bedge[p * NRW + j] = nfull + j < n ? B[p * rsb + nfull + j] : (T)0;                \
    }                                                                                              \
    if (mfull < m) {                                                                               \
        aedge = (T *)nr_scratch(NR_SCR_AEDGE, sizeof(T) * NR_GEMM_MR * k);                         \
        if (!aedge) return -1;                                                                     \
        for (int64_t i = 0; i < NR_GEMM_MR; ++i)                                                   \
            for (int64_t p = 0; p < k; ++p)                                                        \
                aedge[i * k + p] = mfull + i < m ? A[(mfull + i) * rsa + p * csa] : (T)0;          \
    }                                                                                              \
    for (int64_t t = t0; t < t1; ++t) {                                                            \
        int64_t j0 = t / nib * NRW, i0 = t % nib * NR_GEMM_MR;                                     \
        int64_t nr = n - j0 < NRW ? n - j0 : NRW, mr = m - i0 < NR_GEMM_MR ? m - i0 : NR_GEMM_MR;  \
        const T *b = j0 < nfull ? B + j0 : bedge;                                                  \
        int64_t bs = j0 < nfull ? rsb : NRW;                                                       \
        const T *a = i0 < mfull ? A + i0 * rsa : aedge;                                            \
        int64_t ra = i0 < mfull ? rsa : k, ca = i0 < mfull ? csa : 1;                              \
        T *c = C + i0 * ldc + j0;                                                                  \
        if (mr == NR_GEMM_MR && nr == NRW) {                                                       \
            UKRD(k, a, ra, ca, b, bs, c, ldc);                                                     \
        } else {                                                                                   \
            UKRD(k, a, ra, ca, b, bs, tile, NRW);                                                  \
            for (int64_t i = 0; i < mr; ++i)                                                       \
                for (int64_t j = 0; j < nr; ++j) c[i * ldc + j] = tile[i * NRW + j];               \
        }                                                                                          \
    }                                                                                              \
    nr_scratch_done(NR_SCR_BEDGE);                                                                 \
    nr_scratch_done(NR_SCR_AEDGE);                                                                 \
    return 0;                                                                                      \
}                                                                                                  \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,             \
                const T *B, int64_t rsb, T *C, int64_t ldc, int threads) {                         \
    if (threads <= 1) return NAME##_part(m, n, k, A, rsa, csa, B, rsb, C, ldc, 0, 1);              \
    int failed = 0;                                                                                \
    _Pragma("omp parallel num_threads(threads)")                                                   \
    {                                                                                              \
        if (NAME##_part(m, n, k, A, rsa, csa, B, rsb, C, ldc, omp_get_thread_num(),                \
                        omp_get_num_threads())) {                                                  \
            _Pragma("omp atomic write") failed = 1;                                                \
        }                                                                                          \
    }                                                                                              \
    return failed ? -1 : 0;                                                                        \
}

NR_GEMM_DIRECT(nr_gemmd_f32, float, nr_ukrd_f32, nr_ukr_f32_NR)
NR_GEMM_DIRECT(nr_gemmd_f64, double, nr_ukrd_f64, nr_ukr_f64_NR)

#endif
