/* matmul with a vector operand, float32/float64: n == 1 (matrix @ vector) and m == 1
 * (vector @ matrix). A packed panel would be padded to NR columns for these; they stream
 * A's rows (dot products) or B's rows (accumulating a row of C) instead. */
#ifndef NUMR_GEMM_VEC_H
#define NUMR_GEMM_VEC_H

#include <stdint.h>
#include "gemm_kernel.h" /* nr_gmin */

/* one dot product of k elements: 16 vector lanes when both are contiguous, 8 strided lanes otherwise */
#define NR_MM_DOT(NAME, T)                                                                         \
static T NAME(int64_t k, const T *a, int64_t sa, const T *b, int64_t sb) {                        \
    T ln[16] = {0}, t = 0;                                                                         \
    int64_t q = 0;                                                                                 \
    if (sa == 1 && sb == 1) {                                                                      \
        for (; q + 16 <= k; q += 16)                                                               \
            for (int l = 0; l < 16; ++l) ln[l] += a[q + l] * b[q + l];                             \
        for (; q < k; ++q) ln[0] += a[q] * b[q];                                                   \
    } else {                                                                                       \
        for (; q + 8 <= k; q += 8)                                                                 \
            for (int l = 0; l < 8; ++l) ln[l] += a[(q + l) * sa] * b[(q + l) * sb];                \
        for (; q < k; ++q) ln[0] += a[q * sa] * b[q * sb];                                         \
    }                                                                                              \
    for (int l = 0; l < 16; ++l) t += ln[l];                                                       \
    return t;                                                                                      \
}
NR_MM_DOT(nr_dot_f32, float)
NR_MM_DOT(nr_dot_f64, double)
#define NR_DOT_SPLIT 32768 /* elements per thread below which a lone dot product stays on one thread */
/* OUT = a lone dot product of k elements, k split between up to THREADS threads (each at least
 * NR_DOT_SPLIT elements), the partial sums added in thread order (the same result for the same
 * thread count); T the element type, DOT its one-thread dot */
#define NR_DOT_SPLIT_RUN(T, DOT, k, A, sa, B, sb, THREADS, OUT) do {                               \
        int nt_ = (THREADS) < 64 ? (THREADS) : 64;                                                 \
        if ((k) < (int64_t)nt_ * NR_DOT_SPLIT) nt_ = (int)((k) / NR_DOT_SPLIT) > 1 ? (int)((k) / NR_DOT_SPLIT) : 1; \
        T part_[64];                                                                               \
        _Pragma("omp parallel for schedule(static) num_threads(nt_) if(nt_ > 1)")                  \
        for (int c_ = 0; c_ < nt_; ++c_) {                                                         \
            int64_t q0_ = (k) * c_ / nt_, q1_ = (k) * (c_ + 1) / nt_;                              \
            part_[c_] = DOT(q1_ - q0_, (A) + q0_ * (sa), (sa), (B) + q0_ * (sb), (sb));            \
        }                                                                                          \
        T t_ = 0;                                                                                  \
        for (int c_ = 0; c_ < nt_; ++c_) t_ += part_[c_];                                          \
        (OUT) = t_;                                                                                \
    } while (0)

/* n == 1 (matrix @ vector): one dot product per row, with vector lanes when both are
 * contiguous; four rows at a time there, so each thread streams four rows of A at once.
 * m == 1 (a lone dot product, vector @ vector): k is split between threads, and the partial
 * sums are added in thread order (the same result for the same thread count). */
#define NR_MM_GEMV(NAME, T, DOT)                                                                   \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,             \
                const T *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {            \
    (void)n; (void)csb;                                                                            \
    if (m == 1) {                                                                                  \
        NR_DOT_SPLIT_RUN(T, DOT, k, A, csa, B, rsb, threads, C[0]);                                \
        return 0;                                                                                  \
    }                                                                                              \
    int dense = csa == 1 && rsb == 1;                                                              \
    int64_t nblk = dense ? (m + 3) / 4 : m;                                                        \
    _Pragma("omp parallel for schedule(static) num_threads(threads) if(threads > 1)")              \
    for (int64_t blk = 0; blk < nblk; ++blk) {                                                     \
        if (dense && blk * 4 + 4 <= m) {                                                           \
            const T *a0 = A + blk * 4 * rsa, *a1 = a0 + rsa, *a2 = a1 + rsa, *a3 = a2 + rsa;       \
            T l0[16] = {0}, l1[16] = {0}, l2[16] = {0}, l3[16] = {0};                              \
            int64_t q = 0;                                                                         \
            for (; q + 16 <= k; q += 16)                                                           \
                for (int l = 0; l < 16; ++l) {                                                     \
                    T b = B[q + l];                                                                \
                    l0[l] += a0[q + l] * b; l1[l] += a1[q + l] * b;                                \
                    l2[l] += a2[q + l] * b; l3[l] += a3[q + l] * b;                                \
                }                                                                                  \
            for (; q < k; ++q) {                                                                   \
                l0[0] += a0[q] * B[q]; l1[0] += a1[q] * B[q]; l2[0] += a2[q] * B[q]; l3[0] += a3[q] * B[q];\
            }                                                                                      \
            T t0 = 0, t1 = 0, t2 = 0, t3 = 0;                                                      \
            for (int l = 0; l < 16; ++l) { t0 += l0[l]; t1 += l1[l]; t2 += l2[l]; t3 += l3[l]; }   \
            int64_t i = blk * 4;                                                                   \
            C[i * ldc] = t0; C[(i + 1) * ldc] = t1; C[(i + 2) * ldc] = t2; C[(i + 3) * ldc] = t3;  \
            continue;                                                                              \
        }                                                                                          \
        for (int64_t i = dense ? blk * 4 : blk; i < (dense ? m : blk + 1); ++i)                    \
            C[i * ldc] = DOT(k, A + i * rsa, csa, B, rsb);                                         \
    }                                                                                              \
    return 0;                                                                                      \
}
NR_MM_GEMV(nr_gemv_f32, float, nr_dot_f32)
NR_MM_GEMV(nr_gemv_f64, double, nr_dot_f64)
/* m == 1 (vector @ matrix): column chunks (split between threads) accumulate B's rows,
 * four rows per pass so each accumulator is loaded and stored once per four rows */
#define NR_VM_COLS 512
#define NR_MM_VECMAT(NAME, T)                                                                     \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,            \
                const T *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {            \
    (void)m; (void)rsa; (void)ldc;                                                                 \
    int64_t nch = (n + NR_VM_COLS - 1) / NR_VM_COLS;                                               \
    _Pragma("omp parallel for schedule(static) num_threads(threads) if(threads > 1)")             \
    for (int64_t ch = 0; ch < nch; ++ch) {                                                         \
        int64_t j0 = ch * NR_VM_COLS, w = nr_gmin(NR_VM_COLS, n - j0), q = 0;                      \
        T acc[NR_VM_COLS];                                                                         \
        for (int64_t j = 0; j < w; ++j) acc[j] = 0;                                                \
        if (csb == 1) {                                                                            \
            for (; q + 4 <= k; q += 4) {                                                           \
                T a0 = A[q * csa], a1 = A[(q + 1) * csa], a2 = A[(q + 2) * csa], a3 = A[(q + 3) * csa]; \
                const T *b0 = B + q * rsb + j0, *b1 = b0 + rsb, *b2 = b1 + rsb, *b3 = b2 + rsb;    \
                for (int64_t j = 0; j < w; ++j) acc[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j]; \
            }                                                                                      \
        }                                                                                          \
        for (; q < k; ++q) {                                                                       \
            T a0 = A[q * csa];                                                                     \
            const T *b0 = B + q * rsb + j0 * csb;                                                  \
            for (int64_t j = 0; j < w; ++j) acc[j] += a0 * b0[j * csb];                            \
        }                                                                                          \
        for (int64_t j = 0; j < w; ++j) C[j0 + j] = acc[j];                                        \
    }                                                                                              \
    return 0;                                                                                      \
}
NR_MM_VECMAT(nr_vecmat_f32, float)
NR_MM_VECMAT(nr_vecmat_f64, double)

#endif
