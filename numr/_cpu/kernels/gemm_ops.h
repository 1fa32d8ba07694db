/* matmul for every dtype, and the batch loop.
 *   float32/float64: up to NR_MM_DIRECT_WORK multiply-adds with contiguous B rows, the
 *     unpacked kernel (gemm_direct.h); larger or strided-B products the packed kernel
 *     (gemm_kernel.h); n == 1 or m == 1 a dot-product or row-streaming kernel (a packed
 *     panel would be padded to NR columns).
 *   float16/bfloat16/float8: packed float32 kernel (panels converted while packing)
 *     into a float32 scratch C, rounded once into the output.
 *   integers: exact and wrapping; products and sums mod 2**bits are the same for
 *     signed and unsigned operands, so one unsigned kernel per width serves both.
 *   bool: C = OR_k (A and B), as NumPy.  complex: one real GEMM against B's real embedding
 *     (NR_CGEMM; tiny products: a row-blocked kernel).
 * The simple row-blocked kernels keep a row of NR_MM_COLS accumulators per output row and
 * stream B rows through it (vectorised when B's column stride is 1).
 */
#ifndef NUMR_GEMM_OPS_H
#define NUMR_GEMM_OPS_H

#include "dtypes.h"
#include "nditer.h"
#include "gemm_kernel.h"
#include "gemm_direct.h"
#include "gemm_vec.h"
#include "gemm_cvec.h"

#define NR_LDF(x) (x)
NR_GEMM_DEFINE(nr_gemm_f32, float, float, NR_LDF, nr_ukr_f32)
NR_GEMM_DEFINE(nr_gemm_f64, double, double, NR_LDF, nr_ukr_f64)
NR_GEMM_DEFINE(nr_gemm_f16, nr_f16, float, nr_f16_to_f32, nr_ukr_f32)
NR_GEMM_DEFINE(nr_gemm_bf16, nr_bf16, float, nr_bf16_to_f32, nr_ukr_f32)
NR_GEMM_DEFINE(nr_gemm_e4, nr_f8e4m3, float, nr_f8e4m3_to_f32, nr_ukr_f32)
NR_GEMM_DEFINE(nr_gemm_e5, nr_f8e5m2, float, nr_f8e5m2_to_f32, nr_ukr_f32)

#define NR_MM_COLS 256
/* Products up to 512^3 multiply-adds whose A fits in a core's L2 skip packing (gemm_direct.h):
 * measured on Zen 5 (2 threads), the unpacked kernel was 1.2-1.9x faster than the packed one from
 * 64^3 to 512^3 and about even at 1024^2 x 1024, 2x slower at 2048^3 (A re-read from L3 for
 * every column panel). */
#ifndef NR_MM_DIRECT_WORK
#define NR_MM_DIRECT_WORK 134217728.0
#endif
#ifndef NR_MM_DIRECT_A_BYTES
#define NR_MM_DIRECT_A_BYTES 2097152.0
#endif
/* whether an m x k @ k x n real product (B rows contiguous) takes the unpacked kernel */
static inline int nr_mm_direct_ok(double m, double n, double k, int itemsize) {
    return m > 1 && n > 1 && m * n * k <= NR_MM_DIRECT_WORK && m * k * itemsize <= NR_MM_DIRECT_A_BYTES;
}

/* Row-blocked kernel: rows of C split between threads. ACC: accumulator type,
 * FMA(acc, a, b) folds one product, ST: accumulator -> T. */
#define NR_MM_SIMPLE(NAME, T, ACC, LD, FMA, ST)                                                  \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa,            \
                const T *B, int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {            \
    _Pragma("omp parallel for schedule(static) num_threads(threads) if(threads > 1)")             \
    for (int64_t i = 0; i < m; ++i) {                                                              \
        ACC acc[NR_MM_COLS];                                                                       \
        for (int64_t j0 = 0; j0 < n; j0 += NR_MM_COLS) {                                           \
            int64_t w = nr_gmin(NR_MM_COLS, n - j0);                                               \
            for (int64_t j = 0; j < w; ++j) acc[j] = (ACC){0};                                     \
            for (int64_t q = 0; q < k; ++q) {                                                      \
                ACC a = LD(A[i * rsa + q * csa]);                                                  \
                const T *b = B + q * rsb + j0 * csb;                                               \
                if (csb == 1) { for (int64_t j = 0; j < w; ++j) FMA(acc[j], a, LD(b[j])); }        \
                else { for (int64_t j = 0; j < w; ++j) FMA(acc[j], a, LD(b[j * csb])); }           \
            }                                                                                      \
            for (int64_t j = 0; j < w; ++j) C[i * ldc + j0 + j] = ST(acc[j]);                      \
        }                                                                                          \
    }                                                                                              \
    return 0;                                                                                      \
}

#define NR_FMA_INT(acc, a, b) ((acc) += (a) * (b))
#define NR_CAST_U8(x) ((uint8_t)(x))
#define NR_CAST_U16(x) ((uint16_t)(x))
#define NR_CAST_SAME(x) (x)
/* complex: the plain product (no C99 Annex G NaN recovery, as BLAS) */
#define NR_FMA_CPLX(acc, a, b) do {                                                               \
        __typeof__(a) b_ = (b);                                                                    \
        __real__ (acc) += __real__ (a) * __real__ b_ - __imag__ (a) * __imag__ b_;                 \
        __imag__ (acc) += __real__ (a) * __imag__ b_ + __imag__ (a) * __real__ b_;                 \
    } while (0)

NR_MM_SIMPLE(nr_mm_u8, uint8_t, uint32_t, NR_CAST_SAME, NR_FMA_INT, NR_CAST_U8)
NR_MM_SIMPLE(nr_mm_u16, uint16_t, uint32_t, NR_CAST_SAME, NR_FMA_INT, NR_CAST_U16)
NR_MM_SIMPLE(nr_mm_u32, uint32_t, uint32_t, NR_CAST_SAME, NR_FMA_INT, NR_CAST_SAME)
NR_MM_SIMPLE(nr_mm_u64, uint64_t, uint64_t, NR_CAST_SAME, NR_FMA_INT, NR_CAST_SAME)
/* bool: OR of ANDs on the raw bytes (any non-zero byte is true): acc |= (a ? b : 0) */
#define NR_ST_NZ(x) ((uint8_t)((x) != 0))
#define NR_FMA_BOOL(acc, a, b) ((acc) |= (uint8_t)(-(uint8_t)((a) != 0)) & (b))
NR_MM_SIMPLE(nr_mm_bool, uint8_t, uint8_t, NR_CAST_SAME, NR_FMA_BOOL, NR_ST_NZ)
NR_MM_SIMPLE(nr_mm_c64, nr_c64, nr_c64, NR_CAST_SAME, NR_FMA_CPLX, NR_CAST_SAME)
NR_MM_SIMPLE(nr_mm_c128, nr_c128, nr_c128, NR_CAST_SAME, NR_FMA_CPLX, NR_CAST_SAME)

/* complex products above NR_MM_SMALL_WORK, the plain product (as BLAS). With A's columns
 * contiguous, one real GEMM: A read in place as real (m x 2k: re, im interleaved) times the
 * real embedding B' (2k x 2n, [[br, bi], [-bi, br]] per element) gives C's interleaved parts.
 * Otherwise four real GEMMs on the interleaved parts (the real dtype read with doubled
 * strides) and C = (ArBr - AiBi) + i (ArBi + AiBr). */
#define NR_CGEMM(NAME, CT, R, GEMM, GEMMD)                                                        \
static int NAME(int64_t m, int64_t n, int64_t k, const CT *A, int64_t rsa, int64_t csa,           \
                const CT *B, int64_t rsb, int64_t csb, CT *C, int64_t ldc, int threads) {          \
    if (m == 0 || n == 0) return 0;                                                                \
    const R *ar = (const R *)A, *ai = ar + 1, *br = (const R *)B, *bi = br + 1;                    \
    if (csa == 1) {                                                                                \
        R *e = (R *)nr_scratch(NR_SCR_CPLX0, sizeof(R) * 4 * k * n);                               \
        if (!e) return -1;                                                                         \
        for (int64_t q = 0; q < k; ++q) {                                                          \
            R *e0 = e + 2 * q * 2 * n, *e1 = e0 + 2 * n;                                           \
            for (int64_t j = 0; j < n; ++j) {                                                      \
                R re = br[2 * (q * rsb + j * csb)], im = bi[2 * (q * rsb + j * csb)];              \
                e0[2 * j] = re; e0[2 * j + 1] = im; e1[2 * j] = -im; e1[2 * j + 1] = re;           \
            }                                                                                      \
        }                                                                                          \
        int rc = nr_mm_direct_ok(m, 2.0 * n, 2.0 * k, sizeof(R))                                   \
            ? GEMMD(m, 2 * n, 2 * k, ar, 2 * rsa, 1, e, 2 * n, (R *)C, 2 * ldc, threads)            \
            : GEMM(m, 2 * n, 2 * k, ar, 2 * rsa, 1, e, 2 * n, 1, (R *)C, 2 * ldc, threads);         \
        nr_scratch_done(NR_SCR_CPLX0);                                                             \
        return rc ? -1 : 0;                                                                        \
    }                                                                                              \
    R *p = (R *)nr_scratch(NR_SCR_CPLX0, sizeof(R) * m * n);                                       \
    R *q = (R *)nr_scratch(NR_SCR_CPLX1, sizeof(R) * m * n);                                       \
    if (!p || !q) return -1;                                                                       \
    R *c = (R *)C;                                                                                 \
    int rc = GEMM(m, n, k, ar, 2 * rsa, 2 * csa, br, 2 * rsb, 2 * csb, p, n, threads);             \
    rc |= GEMM(m, n, k, ai, 2 * rsa, 2 * csa, bi, 2 * rsb, 2 * csb, q, n, threads);                \
    for (int64_t i = 0; i < m; ++i)                                                                \
        for (int64_t j = 0; j < n; ++j) c[2 * (i * ldc + j)] = p[i * n + j] - q[i * n + j];        \
    rc |= GEMM(m, n, k, ar, 2 * rsa, 2 * csa, bi, 2 * rsb, 2 * csb, p, n, threads);                \
    rc |= GEMM(m, n, k, ai, 2 * rsa, 2 * csa, br, 2 * rsb, 2 * csb, q, n, threads);                \
    for (int64_t i = 0; i < m; ++i)                                                                \
        for (int64_t j = 0; j < n; ++j) c[2 * (i * ldc + j) + 1] = p[i * n + j] + q[i * n + j];    \
    nr_scratch_done(NR_SCR_CPLX0);                                                                 \
    nr_scratch_done(NR_SCR_CPLX1);                                                                 \
    return rc ? -1 : 0;                                                                            \
}
NR_CGEMM(nr_cgemm_c64, nr_c64, float, nr_gemm_f32, nr_gemmd_f32)
NR_CGEMM(nr_cgemm_c128, nr_c128, double, nr_gemm_f64, nr_gemmd_f64)

/* tiny products: packing and scratch allocation would cost more than the arithmetic */
NR_MM_SIMPLE(nr_small_f32, float, float, NR_CAST_SAME, NR_FMA_INT, NR_CAST_SAME)
NR_MM_SIMPLE(nr_small_f64, double, double, NR_CAST_SAME, NR_FMA_INT, NR_CAST_SAME)
#define NR_MM_SMALL_WORK 32768.0

typedef int (*nr_mm_fn)(int64_t, int64_t, int64_t, const void *, int64_t, int64_t, const void *,
                        int64_t, int64_t, void *, int64_t, int);

/* products with contiguous B rows, up to NR_MM_DIRECT_WORK: no packing (gemm_direct.h). Tiny
 * products with strided B rows (x @ w.T in a backward pass) copy B's k x n elements into
 * contiguous rows first: that copy is 1/m of the arithmetic, the row-blocked kernel that
 * would read B with its column stride does not vectorise (2.3x slower at 32x16 @ 16x32). */
#define NR_MM_DIRECT(NAME, T, GEMMD)                                                              \
static int NAME(int64_t m, int64_t n, int64_t k, const T *A, int64_t rsa, int64_t csa, const T *B, \
                int64_t rsb, int64_t csb, T *C, int64_t ldc, int threads) {                        \
    if (csb == 1) return GEMMD(m, n, k, A, rsa, csa, B, rsb, C, ldc, threads);                     \
    T *bt = (T *)nr_scratch(NR_SCR_BT, sizeof(T) * k * n);                                         \
    if (!bt) return -1;                                                                            \
    for (int64_t j = 0; j < n; ++j)                                                                \
        for (int64_t q = 0; q < k; ++q) bt[q * n + j] = B[q * rsb + j * csb];                      \
    int rc = GEMMD(m, n, k, A, rsa, csa, bt, n, C, ldc, threads);                                  \
    nr_scratch_done(NR_SCR_BT);                                                                    \
    return rc;                                                                                     \
}
NR_MM_DIRECT(nr_direct_f32, float, nr_gemmd_f32)
NR_MM_DIRECT(nr_direct_f64, double, nr_gemmd_f64)
typedef void (*nr_cvt_fn)(const float *, void *, int64_t);

#define NR_CVT(NAME, TO, CV)                                                                      \
static void NAME(const float *s, void *d, int64_t n) { for (int64_t i = 0; i < n; ++i) ((TO *)d)[i] = CV(s[i]); }
NR_CVT(nr_cvt_f16, nr_f16, nr_f32_to_f16)
NR_CVT(nr_cvt_bf16, nr_bf16, nr_f32_to_bf16)
NR_CVT(nr_cvt_e4, nr_f8e4m3, nr_f32_to_f8e4m3)
NR_CVT(nr_cvt_e5, nr_f8e5m2, nr_f32_to_f8e5m2)

typedef struct {
    int nb;                                  /* batch dims (coalesced) */
    int64_t bshape[NR_MAXDIMS];
    int64_t bstride[3][NR_MAXDIMS];          /* element strides of A, B, C per batch dim */
    int64_t m, n, k, rsa, csa, rsb, csb;     /* C is contiguous: row stride n */
} nr_mm_spec;

/* Products of batch chunk ch of nchunk (chunk 0 of 1: all) with `inner` threads each. */
static int nr_mm_batches(nr_mm_fn fn, nr_cvt_fn cvt, int isz, const char *A, const char *B, char *C,
                         const nr_mm_spec *s, int64_t ch, int64_t nchunk, int inner) {
    int64_t nbatch = nr_prod(s->bshape, s->nb), mn = s->m * s->n;
    int64_t b0 = nbatch * ch / nchunk, b1 = nbatch * (ch + 1) / nchunk;
    float *scratch = cvt ? (float *)nr_scratch(NR_SCR_OUT, sizeof(float) * (mn ? mn : 1)) : NULL;
    if (cvt && !scratch) return -1;
    int failed = 0;
    nr_outer_iter it;
    const int64_t *strides[3] = {s->bstride[0], s->bstride[1], s->bstride[2]};
    nr_outer_init(&it, 3, s->nb, s->bshape, strides, b0);
    for (int64_t b = b0; b < b1; ++b) {
        char *c = C + it.off[2] * isz;
        void *dst = cvt ? (void *)scratch : (void *)c;
        if (fn(s->m, s->n, s->k, A + it.off[0] * isz, s->rsa, s->csa, B + it.off[1] * isz, s->rsb,
               s->csb, dst, s->n, inner))
            failed = 1;
        if (cvt) cvt(scratch, c, mn);
        nr_outer_next(&it);
    }
    if (cvt) nr_scratch_done(NR_SCR_OUT);
    return failed ? -1 : 0;
}

/* Multiply-adds from which threads inside one product pay for waking the team (measured on
 * 2 cores: at 2^17 float32 multiply-adds, 6 us on one thread, about even on two). */
static double nr_mm_parallel_work(int code) {
    switch (code) {
    case NR_F32: case NR_F64: return 131072.0;
    case NR_C64: case NR_C128: return 262144.0;  /* four real multiply-adds each */
    case NR_F16: case NR_BF16: case NR_F8E4M3: case NR_F8E5M2: return 2097152.0;
    default: return 65536.0;  /* integers and bool: scalar kernels, slower per multiply-add */
    }
}

/* Run A @ B into C for dtype `code`; -1 for an unknown dtype or an allocation failure. */
static int nr_matmul(int code, const char *A, const char *B, char *C, const nr_mm_spec *s) {
    nr_mm_fn fn = NULL;
    nr_cvt_fn cvt = NULL;
    switch (code) {
    case NR_F32: fn = (nr_mm_fn)nr_gemm_f32; break;
    case NR_F64: fn = (nr_mm_fn)nr_gemm_f64; break;
    case NR_F16: fn = (nr_mm_fn)nr_gemm_f16; cvt = nr_cvt_f16; break;
    case NR_BF16: fn = (nr_mm_fn)nr_gemm_bf16; cvt = nr_cvt_bf16; break;
    case NR_F8E4M3: fn = (nr_mm_fn)nr_gemm_e4; cvt = nr_cvt_e4; break;
    case NR_F8E5M2: fn = (nr_mm_fn)nr_gemm_e5; cvt = nr_cvt_e5; break;
    case NR_I8: case NR_U8: fn = (nr_mm_fn)nr_mm_u8; break;
    case NR_I16: case NR_U16: fn = (nr_mm_fn)nr_mm_u16; break;
    case NR_I32: case NR_U32: fn = (nr_mm_fn)nr_mm_u32; break;
    case NR_I64: case NR_U64: fn = (nr_mm_fn)nr_mm_u64; break;
    case NR_BOOL: fn = (nr_mm_fn)nr_mm_bool; break;
    case NR_C64: fn = (nr_mm_fn)nr_mm_c64; break;
    case NR_C128: fn = (nr_mm_fn)nr_mm_c128; break;
    default: return -1;
    }
    int isz = nr_itemsize(code);
    if ((code == NR_F32 || code == NR_F64) && (s->n == 1 || s->m == 1)) {
        int f = code == NR_F32;
        fn = s->n == 1 ? (f ? (nr_mm_fn)nr_gemv_f32 : (nr_mm_fn)nr_gemv_f64)
                       : (f ? (nr_mm_fn)nr_vecmat_f32 : (nr_mm_fn)nr_vecmat_f64);
    } else if ((code == NR_F32 || code == NR_F64) && nr_mm_direct_ok(s->m, s->n, s->k, isz)
               && (s->csb == 1 || (double)s->m * s->n * s->k < NR_MM_SMALL_WORK)) {
        fn = code == NR_F32 ? (nr_mm_fn)nr_direct_f32 : (nr_mm_fn)nr_direct_f64;
    } else if ((code == NR_F32 || code == NR_F64) && (double)s->m * s->n * s->k < NR_MM_SMALL_WORK) {
        fn = code == NR_F32 ? (nr_mm_fn)nr_small_f32 : (nr_mm_fn)nr_small_f64;
    } else if ((code == NR_C64 || code == NR_C128) && (s->n == 1 || s->m == 1)) {
        int c = code == NR_C64;
        fn = s->n == 1 ? (c ? (nr_mm_fn)nr_cgemv_c64 : (nr_mm_fn)nr_cgemv_c128)
                       : (c ? (nr_mm_fn)nr_cvecmat_c64 : (nr_mm_fn)nr_cvecmat_c128);
    } else if ((code == NR_C64 || code == NR_C128) && (double)s->m * s->n * s->k >= NR_MM_SMALL_WORK) {
        fn = code == NR_C64 ? (nr_mm_fn)nr_cgemm_c64 : (nr_mm_fn)nr_cgemm_c128;
    }
    int64_t nbatch = nr_prod(s->bshape, s->nb);
    double work = (double)s->m * (double)s->n * (double)s->k;
    int nth = nr_max_threads();
    /* many small products: one thread per product; otherwise threads inside each product */
    int per_batch = nth > 1 && nbatch >= 2 * nth && work < 4.0e6;
    int inner = (nth > 1 && !per_batch && work * nbatch >= nr_mm_parallel_work(code)) ? nth : 1;
    int failed = 0;
    if (!per_batch)  /* no enclosing team: a parallel region nested in one (even an inactive
                        one) makes GNU OpenMP create fresh threads every call (~30 us) */
        return nr_mm_batches(fn, cvt, isz, A, B, C, s, 0, 1, inner);
    /* batch chunks handed out dynamically (a preempted thread delays one chunk) */
    int64_t nchunk = nbatch < 16 * nth ? nbatch : 16 * nth;
    _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")
    for (int64_t ch = 0; ch < nchunk; ++ch)
        if (nr_mm_batches(fn, cvt, isz, A, B, C, s, ch, nchunk, 1)) failed = 1;
    return failed ? -1 : 0;
}

#endif
