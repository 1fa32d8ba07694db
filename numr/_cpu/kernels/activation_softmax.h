/* Fused softmax / log_softmax / softmax backward over contiguous rows.
 *
 * One row is small enough to stay in cache, so a row costs one read of x from
 * memory and one write of y: pass 1 finds the max, pass 2 writes exp(x - max)
 * and sums it, pass 3 scales (float16/bfloat16 recompute exp in pass 3 instead
 * of storing rounded values). A row of all -inf uses max 0, so exp gives 0,
 * the sum is 0 and the row becomes 0 (softmax) or -inf (log_softmax): no NaN.
 * Rows are split between OpenMP threads above a size threshold.
 */
#ifndef NUMR_ACTIVATION_SOFTMAX_H
#define NUMR_ACTIVATION_SOFTMAX_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "activation_loops.h"

#define NRA_ROWMAX(C, LD)                                                     \
    C m = -(C)INFINITY;                                                       \
    _Pragma("omp simd reduction(max:m)") for (int64_t i = 0; i < n; ++i) {    \
        const C v = LD(x[i]);                                                 \
        m = v > m ? v : m;                                                    \
    }                                                                         \
    if (m == -(C)INFINITY) m = 0;

/* mode 0: softmax, 1: log_softmax */
#define NRA_SOFTMAX_ROW(name, S, C, LD, ST, EXP, LOG, STORE_EXP)              \
    static void name(const S *x, S *y, int64_t n, int mode) {                 \
        NRA_ROWMAX(C, LD)                                                     \
        C sum = 0;                                                            \
        if (mode == 1 || !STORE_EXP) {                                        \
            _Pragma("omp simd reduction(+:sum)") for (int64_t i = 0; i < n; ++i) \
                sum += EXP(LD(x[i]) - m);                                     \
        }                                                                     \
        if (mode == 1) {                                                      \
            const C lse = m + LOG(sum);                                       \
            if (sum == 0) {                                                   \
                for (int64_t i = 0; i < n; ++i) y[i] = ST(-(C)INFINITY);      \
                return;                                                       \
            }                                                                 \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)               \
                y[i] = ST(LD(x[i]) - lse);                                    \
            return;                                                           \
        }                                                                     \
        if (STORE_EXP) {                                                      \
            _Pragma("omp simd reduction(+:sum)") for (int64_t i = 0; i < n; ++i) { \
                const C e = EXP(LD(x[i]) - m);                                \
                y[i] = ST(e);                                                 \
                sum += e;                                                     \
            }                                                                 \
            const C inv = sum == 0 ? (C)0 : (C)1 / sum; /* NaN stays NaN */  \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)               \
                y[i] = ST(LD(y[i]) * inv);                                    \
        } else {                                                              \
            const C inv = sum == 0 ? (C)0 : (C)1 / sum; /* NaN stays NaN */  \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)               \
                y[i] = ST(EXP(LD(x[i]) - m) * inv);                           \
        }                                                                     \
    }

/* gx = y * (g - sum(g * y)) */
#define NRA_SOFTMAX_BWD_ROW(name, S, C, LD, ST)                               \
    static void name(const S *g, const S *y, S *gx, int64_t n) {              \
        C dot = 0;                                                            \
        _Pragma("omp simd reduction(+:dot)") for (int64_t i = 0; i < n; ++i)  \
            dot += LD(g[i]) * LD(y[i]);                                       \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)                   \
            gx[i] = ST(LD(y[i]) * (LD(g[i]) - dot));                          \
    }

#define NRA_SOFTMAX_ALL(SFX, S, C, LD, ST, EXP, LOG, STORE_EXP)               \
    NRA_SOFTMAX_ROW(nra_softmax_row_##SFX, S, C, LD, ST, EXP, LOG, STORE_EXP) \
    NRA_SOFTMAX_BWD_ROW(nra_softmax_bwd_row_##SFX, S, C, LD, ST)

NRA_SOFTMAX_ALL(f32, float, float, NRA_LD_F32, NRA_ST_F32, nr_expf, nr_logf, 1)
NRA_SOFTMAX_ALL(f64, double, double, NRA_LD_F64, NRA_ST_F64, nr_exp, nr_log, 1)
NRA_SOFTMAX_ALL(f16, nr_f16, float, NRA_LD_F16, NRA_ST_F16, nr_expf, nr_logf, 0)
NRA_SOFTMAX_ALL(bf16, nr_bf16, float, NRA_LD_BF16, NRA_ST_BF16, nr_expf, nr_logf, 0)

/* A float16 row through the float32 row kernel: the row converted with F16C (dtypes.h), which
 * the per-element loads cannot use. Same results: both compute in float and round once. */
#define NRA_F16_ROW_STACK 4096
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized" /* n >= 1: the conversion fills buf */
static void nra_softmax_row_f16c(const nr_f16 *x, nr_f16 *y, int64_t n, int mode) {
    float stack[2 * NRA_F16_ROW_STACK];
    float *buf = n <= NRA_F16_ROW_STACK ? stack : (float *)malloc(2 * (size_t)n * sizeof(float));
    if (!buf) {
        nra_softmax_row_f16(x, y, n, mode);
        return;
    }
    nr_f16_to_f32_n(x, buf, n);
    nra_softmax_row_f32(buf, buf + n, n, mode);
    nr_f32_to_f16_n(buf + n, y, n);
    if (buf != stack) free(buf);
}
#pragma GCC diagnostic pop

#define NRA_ROWS_PAR(rows, n) ((rows) > 1 && (rows) * (n) >= NRA_PAR_THRESHOLD && nr_max_threads() > 1)

/* softmax (mode 0) or log_softmax (mode 1) of `rows` contiguous rows of n; returns -1 for a bad dtype. */
static int nra_softmax(int code, const void *x, void *y, int64_t rows, int64_t n, int mode) {
#define NRA_SM_CASE(CODE, SFX, S)                                                      \
    case CODE: {                                                                       \
        const S *xs = (const S *)x;                                                    \
        S *ys = (S *)y;                                                                \
        _Pragma("omp parallel for schedule(dynamic, 8) if(NRA_ROWS_PAR(rows, n))")         \
        for (int64_t r = 0; r < rows; ++r) nra_softmax_row_##SFX(xs + r * n, ys + r * n, n, mode); \
        return 0;                                                                      \
    }
    switch (code) {
        NRA_SM_CASE(NR_F32, f32, float)
        NRA_SM_CASE(NR_F64, f64, double)
        NRA_SM_CASE(NR_F16, f16c, nr_f16)
        NRA_SM_CASE(NR_BF16, bf16, nr_bf16)
    default: return -1;
    }
#undef NRA_SM_CASE
}

static int nra_softmax_bwd(int code, const void *g, const void *y, void *gx, int64_t rows, int64_t n) {
#define NRA_SMB_CASE(CODE, SFX, S)                                                     \
    case CODE: {                                                                       \
        const S *gs = (const S *)g, *ys = (const S *)y;                                \
        S *o = (S *)gx;                                                                \
        _Pragma("omp parallel for schedule(dynamic, 8) if(NRA_ROWS_PAR(rows, n))")         \
        for (int64_t r = 0; r < rows; ++r) nra_softmax_bwd_row_##SFX(gs + r * n, ys + r * n, o + r * n, n); \
        return 0;                                                                      \
    }
    switch (code) {
        NRA_SMB_CASE(NR_F32, f32, float)
        NRA_SMB_CASE(NR_F64, f64, double)
        NRA_SMB_CASE(NR_F16, f16, nr_f16)
        NRA_SMB_CASE(NR_BF16, bf16, nr_bf16)
    default: return -1;
    }
#undef NRA_SMB_CASE
}

#endif
