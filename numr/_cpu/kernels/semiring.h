/* Semiring matrix products C[i, j] = RED_k COMB(A[i, k], B[k, j]) (semiring_matmul).
 *
 *   int nr_semiring(int code, int semiring, const char *A, const char *B, char *C, const nr_mm_spec *s)
 *
 * semiring: 0 min_plus, 1 max_plus, 2 max_min, 3 min_max, 4 or_and, 5 plus_max (numr/ops/generic/
 * matmul.py SEMIRINGS order). Dtypes: float32, float64, int32, int64, uint32, uint64 and bool
 * (or_and only); the caller casts float16/bfloat16/float8 to float32 (exact for min/max and a wider
 * sum) and sends narrow integers to the composite (their wrap-around needs the narrow type).
 * A: any strides; B: rows contiguous (csb == 1, row stride rsb); C contiguous batch x m x n.
 * Batch dims with per-operand strides (0 = broadcast). Returns 0, or -1 for an unknown dtype or
 * semiring.
 *
 * Blocking: 4 rows of C x 256 columns stay in registers/L1 while k runs; each B row slice is read
 * once for the 4 rows and the inner loop over columns vectorises (min/max with NaN kept by a
 * blend, integer sums in the unsigned type so they wrap). OpenMP over (batch, row block) pairs.
 * NaN: min/max propagate NaN as nr.minimum/maximum (a NaN accumulator stays NaN).
 */
#ifndef NUMR_SEMIRING_H
#define NUMR_SEMIRING_H

#include <stdint.h>
#include "dtypes.h"
#include "gemm_ops.h" /* nr_mm_spec: the batch spec matmul uses (csb is 1 here) */
#include "threads.h"


#define NR_SR_MR 4
#define NR_SR_NB 256

/* NaN-propagating min/max of two values of a real type (for integers x != x folds to 0) */
#define NR_SR_MIN(x, y) (((y) < (x) || (y) != (y)) ? (y) : (x))
#define NR_SR_MAX(x, y) (((y) > (x) || (y) != (y)) ? (y) : (x))

/* one (semiring, type) kernel: NAME(A, B, C, spec, ident) with the combine COMB(a, b) and the
 * fold RED(acc, v) macros; U is the unsigned type used for integer sums */
#define NR_SR_DEFINE(NAME, T, U, COMB, RED)                                                        \
    static void NAME(const T *A, const T *B, T *C, const nr_mm_spec *s, T ident) {                \
        const int64_t m = s->m, n = s->n, k = s->k, rsa = s->rsa, csa = s->csa, rsb = s->rsb;      \
        int64_t nbatch = 1;                                                                        \
        for (int d = 0; d < s->nb; ++d) nbatch *= s->bshape[d];                                    \
        const int64_t mblocks = (m + NR_SR_MR - 1) / NR_SR_MR;                                     \
        const int64_t work = nbatch * mblocks;                                                     \
        int threads = (double)nbatch * m * n * (k ? k : 1) > 65536.0 ? nr_max_threads() : 1;       \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(threads)")                      \
        for (int64_t w = 0; w < work; ++w) {                                                       \
            int64_t z = w / mblocks, i0 = (w % mblocks) * NR_SR_MR, oa = 0, ob = 0, oc = 0, r = z; \
            for (int d = s->nb - 1; d >= 0; --d) {                                                 \
                int64_t c = r % s->bshape[d];                                                      \
                r /= s->bshape[d];                                                                 \
                oa += c * s->bstride[0][d];                                                        \
                ob += c * s->bstride[1][d];                                                        \
                oc += c * s->bstride[2][d];                                                        \
            }                                                                                      \
            const T *a = A + oa, *b = B + ob;                                                      \
            T *cz = C + oc;                                                                        \
            const int rows = (int)(m - i0 < NR_SR_MR ? m - i0 : NR_SR_MR);                         \
            T acc[NR_SR_MR][NR_SR_NB];                                                             \
            for (int64_t j0 = 0; j0 < n; j0 += NR_SR_NB) {                                         \
                const int cols = (int)(n - j0 < NR_SR_NB ? n - j0 : NR_SR_NB);                     \
                for (int q = 0; q < NR_SR_MR; ++q)                                                 \
                    for (int j = 0; j < cols; ++j) acc[q][j] = ident;                              \
                for (int64_t kk = 0; kk < k; ++kk) {                                               \
                    const T *brow = b + kk * rsb + j0;                                             \
                    T av[NR_SR_MR];                                                                \
                    for (int q = 0; q < NR_SR_MR; ++q)                                             \
                        av[q] = a[(i0 + (q < rows ? q : 0)) * rsa + kk * csa];                     \
                    for (int q = 0; q < NR_SR_MR; ++q) {                                           \
                        const T x = av[q];                                                         \
                        T *restrict cq = acc[q];                                                   \
                        _Pragma("GCC ivdep")                                                       \
                        for (int j = 0; j < cols; ++j) {                                           \
                            const T y = brow[j];                                                   \
                            const T v = COMB(x, y);                                                \
                            cq[j] = RED(cq[j], v);                                                 \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                for (int q = 0; q < rows; ++q)                                                     \
                    for (int j = 0; j < cols; ++j) cz[(i0 + q) * n + j0 + j] = acc[q][j];          \
            }                                                                                      \
        }                                                                                          \
    }

#define NR_SR_AND(x, y) ((uint8_t)(((x) != 0) & ((y) != 0)))
#define NR_SR_OR(x, y) ((x) | (y))

/* the six semirings of one type T (U: its unsigned type for wrapping sums) */
#define NR_SR_TYPE(SFX, T, U)                                                                      \
    typedef T nr_sr_t_##SFX;                                                                       \
    typedef U nr_sr_u_##SFX;                                                                       \
    NR_SR_DEFINE(nr_sr_min_plus_##SFX, T, U, NR_SR_ADD_##SFX, NR_SR_MIN)                           \
    NR_SR_DEFINE(nr_sr_max_plus_##SFX, T, U, NR_SR_ADD_##SFX, NR_SR_MAX)                           \
    NR_SR_DEFINE(nr_sr_max_min_##SFX, T, U, NR_SR_MIN, NR_SR_MAX)                                  \
    NR_SR_DEFINE(nr_sr_min_max_##SFX, T, U, NR_SR_MAX, NR_SR_MIN)                                  \
    NR_SR_DEFINE(nr_sr_plus_max_##SFX, T, U, NR_SR_MAX, NR_SR_ADD_##SFX)

#define NR_SR_ADD_f32(x, y) ((x) + (y))
#define NR_SR_ADD_f64(x, y) ((x) + (y))
#define NR_SR_ADD_i32(x, y) ((int32_t)((uint32_t)(x) + (uint32_t)(y)))
#define NR_SR_ADD_i64(x, y) ((int64_t)((uint64_t)(x) + (uint64_t)(y)))
#define NR_SR_ADD_u32(x, y) ((uint32_t)((x) + (y)))
#define NR_SR_ADD_u64(x, y) ((uint64_t)((x) + (y)))

NR_SR_TYPE(f32, float, uint32_t)
NR_SR_TYPE(f64, double, uint64_t)
NR_SR_TYPE(i32, int32_t, uint32_t)
NR_SR_TYPE(i64, int64_t, uint64_t)
NR_SR_TYPE(u32, uint32_t, uint32_t)
NR_SR_TYPE(u64, uint64_t, uint64_t)
NR_SR_DEFINE(nr_sr_or_and_b, uint8_t, uint8_t, NR_SR_AND, NR_SR_OR)

#define NR_SR_DISPATCH(SFX, T, MINV, MAXV)                                                         \
    {                                                                                              \
        const T *a = (const T *)A, *b = (const T *)B;                                              \
        T *c = (T *)C;                                                                             \
        switch (semiring) {                                                                        \
        case 0: nr_sr_min_plus_##SFX(a, b, c, s, MAXV); return 0;                                  \
        case 1: nr_sr_max_plus_##SFX(a, b, c, s, MINV); return 0;                                  \
        case 2: nr_sr_max_min_##SFX(a, b, c, s, MINV); return 0;                                   \
        case 3: nr_sr_min_max_##SFX(a, b, c, s, MAXV); return 0;                                   \
        case 5: nr_sr_plus_max_##SFX(a, b, c, s, (T)0); return 0;                                  \
        default: return -1;                                                                        \
        }                                                                                          \
    }

static int nr_semiring(int code, int semiring, const char *A, const char *B, char *C, const nr_mm_spec *s) {
    switch (code) {
    case NR_F32: NR_SR_DISPATCH(f32, float, -__builtin_inff(), __builtin_inff())
    case NR_F64: NR_SR_DISPATCH(f64, double, -__builtin_inf(), __builtin_inf())
    case NR_I32: NR_SR_DISPATCH(i32, int32_t, INT32_MIN, INT32_MAX)
    case NR_I64: NR_SR_DISPATCH(i64, int64_t, INT64_MIN, INT64_MAX)
    case NR_U32: NR_SR_DISPATCH(u32, uint32_t, 0, UINT32_MAX)
    case NR_U64: NR_SR_DISPATCH(u64, uint64_t, 0, UINT64_MAX)
    case NR_BOOL:
        if (semiring != 4) return -1;
        nr_sr_or_and_b((const uint8_t *)A, (const uint8_t *)B, (uint8_t *)C, s, 0);
        return 0;
    default: return -1;
    }
}

#endif
