/* complex matmul with a vector operand (complex64/complex128): dot products, n == 1 (matrix @
 * vector) and m == 1 (vector @ matrix). The plain complex product as BLAS (no C99 Annex G NaN
 * recovery), written on the real and imaginary parts so it vectorises: the small-product
 * kernel's one complex accumulator was 10-150x slower than NumPy here. */
#ifndef NUMR_GEMM_CVEC_H
#define NUMR_GEMM_CVEC_H

#include <stdint.h>
#include "dtypes.h"
#include "gemm_vec.h" /* NR_DOT_SPLIT, NR_VM_COLS, nr_gmin */

/* sum over k of a[q] * b[q]; R is the real type, strides in complex elements */
#define NR_MM_CDOT(NAME, T, R)                                                                     \
static T NAME(int64_t k, const T *a, int64_t sa, const T *b, int64_t sb) {                        \
    const R *pa = (const R *)a, *pb = (const R *)b;                                                \
    R rr[8] = {0}, ii[8] = {0}, ri[8] = {0}, ir[8] = {0};                                          \
    int64_t q = 0;                                                                                 \
    if (sa == 1 && sb == 1) {                                                                      \
        for (; q + 8 <= k; q += 8)                                                                 \
            for (int l = 0; l < 8; ++l) {                                                          \
                R ar = pa[2 * (q + l)], ai = pa[2 * (q + l) + 1];                                  \
                R br = pb[2 * (q + l)], bi = pb[2 * (q + l) + 1];                                  \
                rr[l] += ar * br; ii[l] += ai * bi; ri[l] += ar * bi; ir[l] += ai * br;            \
            }                                                                                      \
    }                                                                                              \
    for (; q < k; ++q) {                                                                           \
        R ar = pa[2 * q * sa], ai = pa[2 * q * sa + 1], br = pb[2 * q * sb], bi = pb[2 * q * sb + 1]; \
        rr[0] += ar * br; ii[0] += ai * bi; ri[0] += ar * bi; ir[0] += ai * br;                    \
    }                                                                                              \
    R re = 0, im = 0;                                                                              \
    for (int l = 0; l < 8; ++l) { re += rr[l] - ii[l]; im += ri[l] + ir[l]; }                      \
    T t;                                                                                           \
    __real__ t = re; __imag__ t = im;                                                              \
    return t;                                                                                      \
}
NR_MM_CDOT(nr_cdot_c64, nr_c64, float)
NR_MM_CDOT(nr_cdot_c128, nr_c128, double)

/* n == 1: one dot product per row, rows split between threads; m == 1 too: k split between
 * threads, partial sums added in thread order */
#define NR_MM_CGEMV(NAME, T, DOT)                                                                  \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,             \
                const T *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {            \
    (void)n; (void)csb;                                                                            \
    if (m == 1) {                                                                                  \
        NR_DOT_SPLIT_RUN(T, DOT, k, A, csa, B, rsb, threads, C[0]);                                \
        return 0;                                                                                  \
    }                                                                                              \
    _Pragma("omp parallel for schedule(static) num_threads(threads) if(threads > 1)")              \
    for (int64_t i = 0; i < m; ++i) C[i * ldc] = DOT(k, A + i * rsa, csa, B, rsb);                 \
    return 0;                                                                                      \
}
NR_MM_CGEMV(nr_cgemv_c64, nr_c64, nr_cdot_c64)
NR_MM_CGEMV(nr_cgemv_c128, nr_c128, nr_cdot_c128)

/* m == 1: column chunks (split between threads) accumulate a[q] * B's row q in separate real and
 * imaginary accumulators */
#define NR_MM_CVECMAT(NAME, T, R)                                                                  \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,             \
                const T *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {            \
    (void)m; (void)rsa; (void)ldc;                                                                 \
    int64_t nch = (n + NR_VM_COLS - 1) / NR_VM_COLS;                                               \
    const R *pa = (const R *)A;                                                                    \
    _Pragma("omp parallel for schedule(static) num_threads(threads) if(threads > 1)")              \
    for (int64_t ch = 0; ch < nch; ++ch) {                                                         \
        int64_t j0 = ch * NR_VM_COLS, w = nr_gmin(NR_VM_COLS, n - j0);                             \
        R re[NR_VM_COLS], im[NR_VM_COLS];                                                          \
        for (int64_t j = 0; j < w; ++j) { re[j] = 0; im[j] = 0; }                                  \
        for (int64_t q = 0; q < k; ++q) {                                                          \
            R ar = pa[2 * q * csa], ai = pa[2 * q * csa + 1];                                      \
            const R *pb = (const R *)(B + q * rsb + j0 * csb);                                     \
            if (csb == 1) {                                                                        \
                for (int64_t j = 0; j < w; ++j) {                                                  \
                    R br = pb[2 * j], bi = pb[2 * j + 1];                                          \
                    re[j] += ar * br - ai * bi; im[j] += ar * bi + ai * br;                        \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t j = 0; j < w; ++j) {                                                  \
                    R br = pb[2 * j * csb], bi = pb[2 * j * csb + 1];                              \
                    re[j] += ar * br - ai * bi; im[j] += ar * bi + ai * br;                        \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        for (int64_t j = 0; j < w; ++j) { __real__ C[j0 + j] = re[j]; __imag__ C[j0 + j] = im[j]; } \
    }                                                                                              \
    return 0;                                                                                      \
}
NR_MM_CVECMAT(nr_cvecmat_c64, nr_c64, float)
NR_MM_CVECMAT(nr_cvecmat_c128, nr_c128, double)

#endif
