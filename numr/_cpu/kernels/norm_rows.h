/* Fused layer_norm / rms_norm over contiguous rows, forward and backward.
 *
 * One row (the normalized dims, made contiguous) stays in cache, so a row costs one read of x
 * (and of the residual) from memory and one write of y (and of x + residual): pass 1 sums x
 * (layer_norm only), pass 2 sums (x - mean)^2, pass 3 writes (x - mean) * rstd * w + b. Sums are
 * in float for float32/float16/bfloat16 and double for float64, as the composite computes.
 * The residual forms first write s = x + residual (rounded to the storage dtype) and normalize s.
 * The backward recomputes mean and rstd from x (the row is read once more, from cache) instead of
 * saving them, and writes dx = rstd * (g*w - mean(g*w) - xhat * mean(g*w*xhat)) (rms_norm: no
 * mean(g*w) term); dw = sum over rows of g*xhat and db = sum of g accumulate in double, one
 * buffer per thread added up at the end. Rows are split between OpenMP threads above a size
 * threshold.
 */
#ifndef NUMR_NORM_ROWS_H
#define NUMR_NORM_ROWS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "dtypes.h"
#include "threads.h"

#define NRN_PAR_THRESHOLD 32768
#define NRN_MAX_THREADS 256
#define NRN_ROWS_PAR(rows, n) ((rows) > 1 && (rows) * (n) >= NRN_PAR_THRESHOLD && nr_max_threads() > 1)

#define NRN_LD_F32(v) (v)
#define NRN_ST_F32(v) (v)
#define NRN_LD_F64(v) (v)
#define NRN_ST_F64(v) (v)
#define NRN_LD_F16(v) nr_f16_to_f32(v)
#define NRN_ST_F16(v) nr_f32_to_f16(v)
#define NRN_LD_BF16(v) nr_bf16_to_f32(v)
#define NRN_ST_BF16(v) nr_f32_to_bf16(v)

/* mean (0 for rms_norm) and rstd of one row of n >= 1 */
#define NRN_STATS(C, LD)                                                              \
    C mean = 0, sq = 0;                                                               \
    if (!rms) {                                                                       \
        C sum = 0;                                                                    \
        _Pragma("omp simd reduction(+:sum)") for (int64_t i = 0; i < n; ++i) sum += LD(x[i]); \
        mean = sum / (C)n;                                                            \
    }                                                                                 \
    _Pragma("omp simd reduction(+:sq)") for (int64_t i = 0; i < n; ++i) {             \
        const C d = LD(x[i]) - mean;                                                  \
        sq += d * d;                                                                  \
    }                                                                                 \
    const C rstd = (C)1 / (C)sqrt(sq / (C)n + eps);

/* y = (x - mean) * rstd [* w] [+ b]; with r: s = x + r first, and x is s */
#define NRN_FWD_ROW(name, S, C, LD, ST)                                               \
    static void name(const S *x, const S *r, S *s, const S *w, const S *b, S *y, int64_t n, \
                     C eps, int rms) {                                                \
        if (r) {                                                                      \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) s[i] = ST(LD(x[i]) + LD(r[i])); \
            x = s;                                                                    \
        }                                                                             \
        NRN_STATS(C, LD)                                                              \
        if (w && b) {                                                                 \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)                       \
                y[i] = ST((LD(x[i]) - mean) * rstd * LD(w[i]) + LD(b[i]));            \
        } else if (w) {                                                               \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)                       \
                y[i] = ST((LD(x[i]) - mean) * rstd * LD(w[i]));                       \
        } else if (b) {                                                               \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)                       \
                y[i] = ST((LD(x[i]) - mean) * rstd + LD(b[i]));                       \
        } else {                                                                      \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i)                       \
                y[i] = ST((LD(x[i]) - mean) * rstd);                                  \
        }                                                                             \
    }

/* the loops of one backward row, with gw = g * w (GW) or g */
#define NRN_BWD_LOOPS(C, LD, ST, GW)                                                  \
    C a = 0, p = 0;                                                                   \
    _Pragma("omp simd reduction(+:a, p)") for (int64_t i = 0; i < n; ++i) {           \
        const C gw = GW;                                                              \
        a += gw;                                                                      \
        p += gw * ((LD(x[i]) - mean) * rstd);                                         \
    }                                                                                 \
    a = rms ? (C)0 : a / (C)n;                                                        \
    p /= (C)n;                                                                        \
    if (acc) { /* dx, and g*xhat and g added to the thread's dw/db in the same pass */ \
        double *dw = acc, *db = acc + n;                                              \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                         \
            const C gi = LD(g[i]), xh = (LD(x[i]) - mean) * rstd, gw = GW;            \
            gx[i] = ST(rstd * (gw - a - xh * p));                                     \
            dw[i] += (double)(gi * xh);                                               \
            db[i] += (double)gi;                                                      \
        }                                                                             \
    } else {                                                                          \
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                         \
            const C gw = GW;                                                          \
            gx[i] = ST(rstd * (gw - a - (LD(x[i]) - mean) * rstd * p));               \
        }                                                                             \
    }

/* dx of one row; acc (2n doubles: dw then db) gathers g*xhat and g when not NULL */
#define NRN_BWD_ROW(name, S, C, LD, ST)                                               \
    static void name(const S *g, const S *x, const S *w, S *gx, double *acc, int64_t n, \
                     C eps, int rms) {                                                \
        NRN_STATS(C, LD)                                                              \
        if (w) {                                                                      \
            NRN_BWD_LOOPS(C, LD, ST, LD(g[i]) * LD(w[i]))                             \
        } else {                                                                      \
            NRN_BWD_LOOPS(C, LD, ST, LD(g[i]))                                        \
        }                                                                             \
    }

#define NRN_ALL(SFX, S, C, LD, ST)                                                    \
    NRN_FWD_ROW(nrn_fwd_row_##SFX, S, C, LD, ST)                                      \
    NRN_BWD_ROW(nrn_bwd_row_##SFX, S, C, LD, ST)

NRN_ALL(f32, float, float, NRN_LD_F32, NRN_ST_F32)
NRN_ALL(f64, double, double, NRN_LD_F64, NRN_ST_F64)
NRN_ALL(f16, nr_f16, float, NRN_LD_F16, NRN_ST_F16)
NRN_ALL(bf16, nr_bf16, float, NRN_LD_BF16, NRN_ST_BF16)

/* Forward of `rows` contiguous rows of n >= 1 (rms: rms_norm, else layer_norm); w, b, r and s
 * may be NULL (r and s together). Returns -1 for a dtype without a kernel. */
static int nrn_forward(int code, const void *x, const void *r, void *s, const void *w, const void *b,
                       void *y, int64_t rows, int64_t n, double eps, int rms) {
#define NRN_FWD_CASE(CODE, SFX, S, C)                                                 \
    case CODE: {                                                                      \
        const S *xs = (const S *)x, *rs = (const S *)r, *ws = (const S *)w, *bs = (const S *)b; \
        S *ss = (S *)s, *ys = (S *)y;                                                 \
        _Pragma("omp parallel for schedule(static) if(NRN_ROWS_PAR(rows, n)) num_threads(nr_max_threads())") \
        for (int64_t i = 0; i < rows; ++i)                                            \
            nrn_fwd_row_##SFX(xs + i * n, rs ? rs + i * n : NULL, ss ? ss + i * n : NULL, ws, bs, \
                              ys + i * n, n, (C)eps, rms);                            \
        return 0;                                                                     \
    }
    switch (code) {
        NRN_FWD_CASE(NR_F32, f32, float, float)
        NRN_FWD_CASE(NR_F64, f64, double, double)
        NRN_FWD_CASE(NR_F16, f16, nr_f16, float)
        NRN_FWD_CASE(NR_BF16, bf16, nr_bf16, float)
    default: return -1;
    }
#undef NRN_FWD_CASE
}

/* Backward: gx for every row; dwdb (2n doubles, overwritten: dw then db) when not NULL.
 * Returns -1 for a dtype without a kernel, -2 when a thread's buffer cannot be allocated. */
static int nrn_backward(int code, const void *g, const void *x, const void *w, void *gx, double *dwdb,
                        int64_t rows, int64_t n, double eps, int rms) {
    int failed = 0;
    if (dwdb) memset(dwdb, 0, 2 * (size_t)n * sizeof(double));
#define NRN_BWD_CASE(CODE, SFX, S, C)                                                 \
    case CODE: {                                                                      \
        const S *gs = (const S *)g, *xs = (const S *)x, *ws = (const S *)w;           \
        S *o = (S *)gx;                                                               \
        /* each thread's dw/db partial sums, added in thread order afterwards (deterministic) */ \
        double *accs[NRN_MAX_THREADS] = {NULL};                                       \
        int nth = NRN_ROWS_PAR(rows, n) ? nr_max_threads() : 1;                       \
        if (nth > NRN_MAX_THREADS) nth = NRN_MAX_THREADS;                             \
        _Pragma("omp parallel num_threads(nth) if(nth > 1)")                          \
        {                                                                             \
            int t = omp_get_thread_num();                                             \
            double *acc = dwdb ? (double *)calloc(2 * (size_t)n, sizeof(double)) : NULL; \
            accs[t] = acc;                                                            \
            if (dwdb && !acc) {                                                       \
                _Pragma("omp atomic write") failed = 1;                               \
            }                                                                         \
            _Pragma("omp for schedule(static)")                                       \
            for (int64_t i = 0; i < rows; ++i)                                        \
                nrn_bwd_row_##SFX(gs + i * n, xs + i * n, ws, o + i * n, acc, n, (C)eps, rms); \
        }                                                                             \
        for (int t = 0; t < nth; ++t) {                                               \
            if (!accs[t]) continue;                                                   \
            for (int64_t j = 0; j < 2 * n; ++j) dwdb[j] += accs[t][j];                \
            free(accs[t]);                                                            \
        }                                                                             \
        return failed ? -2 : 0;                                                       \
    }
    switch (code) {
        NRN_BWD_CASE(NR_F32, f32, float, float)
        NRN_BWD_CASE(NR_F64, f64, double, double)
        NRN_BWD_CASE(NR_F16, f16, nr_f16, float)
        NRN_BWD_CASE(NR_BF16, bf16, nr_bf16, float)
    default: return -1;
    }
#undef NRN_BWD_CASE
}

#endif
