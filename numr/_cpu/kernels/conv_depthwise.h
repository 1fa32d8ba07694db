/* Direct 2-d convolution for the one-input-channel-per-group case (depthwise: groups = C, each
 * output channel co reads input channel co / mult), forward, input gradient (which is also the
 * depthwise conv_transpose2d) and weight gradient.
 *
 * The unfold + batched-matmul composite copies the input kernel-size times and then runs C
 * matrix-vector products; here each (sample, channel) plane is one OpenMP task that walks the
 * kernel offsets and, for each, adds w * (a shifted input row) into an output row that stays in
 * L1. Padding is handled by clipping each row's range, never by a padded copy; with stride 1 the
 * inner loop is a contiguous axpy the compiler vectorises. Planes are contiguous (N, C, H, W).
 *
 * Geometry (per spatial dim): output o reads input o * s + k * d - p for kernel tap k.
 */
#ifndef NUMR_CONV_DEPTHWISE_H
#define NUMR_CONV_DEPTHWISE_H

#include <stdint.h>
#include <omp.h>
#include "dtypes.h"
#include "threads.h"

#define NCD_PAR_THRESHOLD 32768
#define NCD_MAX_KW 64 /* widest kernel the direct path takes (numr/_cpu/ops/conv.py checks) */
#define NCD_PAR(tasks, work) ((tasks) > 1 && (work) >= NCD_PAR_THRESHOLD && nr_max_threads() > 1)

typedef struct {
    int64_t n, c, mult;    /* batch, input channels, output channels per input channel */
    int64_t h, w, oh, ow;  /* input and output plane sizes */
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
} ncd_geom;

/* Outputs o in [lo, hi) whose input o * s + off lies in [0, size). */
static inline void ncd_range(int64_t size, int64_t out, int64_t s, int64_t off, int64_t *lo, int64_t *hi) {
    int64_t a = off >= 0 ? 0 : (-off + s - 1) / s;
    int64_t b = size - 1 - off < 0 ? 0 : (size - 1 - off) / s + 1;
    *lo = a;
    *hi = b < out ? b : out;
    if (*hi < *lo) *hi = *lo;
}

/* y[ox] += v * x[ox * s + off] over [lo, hi) */
#define NCD_AXPY(T, y, x, v, s, off, lo, hi)                                          \
    do {                                                                              \
        if ((s) == 1) {                                                               \
            const T *xs_ = (x) + (off);                                               \
            _Pragma("omp simd") for (int64_t o_ = (lo); o_ < (hi); ++o_) (y)[o_] += (v) * xs_[o_]; \
        } else {                                                                      \
            for (int64_t o_ = (lo); o_ < (hi); ++o_) (y)[o_] += (v) * (x)[o_ * (s) + (off)]; \
        }                                                                             \
    } while (0)

#define NCD_KERNELS(SFX, T, ACC)                                                      \
    /* y (N, C*mult, oh, ow) = depthwise conv of x (N, C, h, w) with w (C*mult, kh, kw) + b */ \
    static void ncd_forward_##SFX(const ncd_geom *g, const T *x, const T *wt, const T *b, T *y) { \
        const int64_t co_n = g->c * g->mult, planes = g->n * co_n;                    \
        const int64_t work = planes * g->oh * g->ow * g->kh * g->kw;                  \
        _Pragma("omp parallel for schedule(static) if(NCD_PAR(planes, work)) num_threads(nr_max_threads())") \
        for (int64_t pl = 0; pl < planes; ++pl) {                                     \
            const int64_t n = pl / co_n, co = pl % co_n;                              \
            const T *xp = x + (n * g->c + co / g->mult) * g->h * g->w;                \
            const T *wp = wt + co * g->kh * g->kw;                                    \
            T *yp = y + pl * g->oh * g->ow;                                           \
            const T bv = b ? b[co] : (T)0;                                            \
            int64_t los[NCD_MAX_KW], his[NCD_MAX_KW]; /* each tap's output range: per plane */ \
            for (int64_t j = 0; j < g->kw; ++j)                                       \
                ncd_range(g->w, g->ow, g->sw, j * g->dw - g->pw, &los[j], &his[j]);   \
            for (int64_t oy = 0; oy < g->oh; ++oy) {                                  \
                T *yr = yp + oy * g->ow;                                              \
                for (int64_t ox = 0; ox < g->ow; ++ox) yr[ox] = bv;                   \
                for (int64_t i = 0; i < g->kh; ++i) {                                 \
                    const int64_t iy = oy * g->sh + i * g->dh - g->ph;                \
                    if (iy < 0 || iy >= g->h) continue;                               \
                    const T *xr = xp + iy * g->w;                                     \
                    const T *wr = wp + i * g->kw;                                     \
                    for (int64_t j = 0; j < g->kw; ++j)                               \
                        NCD_AXPY(T, yr, xr, wr[j], g->sw, j * g->dw - g->pw, los[j], his[j]); \
                }                                                                     \
            }                                                                         \
        }                                                                             \
    }                                                                                 \
    /* gx (N, C, h, w) = the adjoint of the forward applied to gy (N, C*mult, oh, ow): each input \
     * plane gathers from its mult output planes, so planes never race */           \
    static void ncd_input_grad_##SFX(const ncd_geom *g, const T *gy, const T *wt, T *gx) { \
        const int64_t planes = g->n * g->c, co_n = g->c * g->mult;                    \
        const int64_t work = planes * g->mult * g->oh * g->ow * g->kh * g->kw;        \
        _Pragma("omp parallel for schedule(static) if(NCD_PAR(planes, work)) num_threads(nr_max_threads())") \
        for (int64_t pl = 0; pl < planes; ++pl) {                                     \
            const int64_t n = pl / g->c, ci = pl % g->c;                              \
            T *xp = gx + pl * g->h * g->w;                                            \
            for (int64_t k = 0; k < g->h * g->w; ++k) xp[k] = (T)0;                   \
            for (int64_t m = 0; m < g->mult; ++m) {                                   \
                const int64_t co = ci * g->mult + m;                                  \
                const T *yp = gy + (n * co_n + co) * g->oh * g->ow;                   \
                const T *wp = wt + co * g->kh * g->kw;                                \
                for (int64_t oy = 0; oy < g->oh; ++oy) {                              \
                    const T *yr = yp + oy * g->ow;                                    \
                    for (int64_t i = 0; i < g->kh; ++i) {                             \
                        const int64_t iy = oy * g->sh + i * g->dh - g->ph;            \
                        if (iy < 0 || iy >= g->h) continue;                           \
                        T *xr = xp + iy * g->w;                                       \
                        for (int64_t j = 0; j < g->kw; ++j) {                         \
                            int64_t lo, hi;                                           \
                            const int64_t off = j * g->dw - g->pw;                    \
                            const T v = wp[i * g->kw + j];                            \
                            ncd_range(g->w, g->ow, g->sw, off, &lo, &hi);             \
                            if (g->sw == 1) {                                         \
                                T *xs = xr + off;                                     \
                                _Pragma("omp simd") for (int64_t o = lo; o < hi; ++o) xs[o] += v * yr[o]; \
                            } else {                                                  \
                                for (int64_t o = lo; o < hi; ++o) xr[o * g->sw + off] += v * yr[o]; \
                            }                                                         \
                        }                                                             \
                    }                                                                 \
                }                                                                     \
            }                                                                         \
        }                                                                             \
    }                                                                                 \
    /* gw (C*mult, kh, kw) = sum over samples and outputs of gy * the input each tap read; \
     * one task per output channel, sums in ACC */                                   \
    static void ncd_weight_grad_##SFX(const ncd_geom *g, const T *x, const T *gy, T *gw) { \
        const int64_t co_n = g->c * g->mult;                                          \
        const int64_t work = co_n * g->n * g->oh * g->ow * g->kh * g->kw;             \
        _Pragma("omp parallel for schedule(static) if(NCD_PAR(co_n, work)) num_threads(nr_max_threads())") \
        for (int64_t co = 0; co < co_n; ++co) {                                       \
            for (int64_t i = 0; i < g->kh; ++i)                                       \
                for (int64_t j = 0; j < g->kw; ++j) {                                 \
                    ACC acc = 0;                                                      \
                    int64_t lo, hi;                                                   \
                    const int64_t off = j * g->dw - g->pw;                            \
                    ncd_range(g->w, g->ow, g->sw, off, &lo, &hi);                     \
                    for (int64_t n = 0; n < g->n; ++n) {                              \
                        const T *xp = x + (n * g->c + co / g->mult) * g->h * g->w;    \
                        const T *yp = gy + (n * co_n + co) * g->oh * g->ow;           \
                        for (int64_t oy = 0; oy < g->oh; ++oy) {                      \
                            const int64_t iy = oy * g->sh + i * g->dh - g->ph;        \
                            if (iy < 0 || iy >= g->h) continue;                       \
                            const T *xr = xp + iy * g->w, *yr = yp + oy * g->ow;      \
                            if (g->sw == 1) {                                         \
                                const T *xs = xr + off;                               \
                                _Pragma("omp simd reduction(+:acc)") for (int64_t o = lo; o < hi; ++o) \
                                    acc += (ACC)yr[o] * (ACC)xs[o];                   \
                            } else {                                                  \
                                for (int64_t o = lo; o < hi; ++o) acc += (ACC)yr[o] * (ACC)xr[o * g->sw + off]; \
                            }                                                         \
                        }                                                             \
                    }                                                                 \
                    gw[(co * g->kh + i) * g->kw + j] = (T)acc;                        \
                }                                                                     \
        }                                                                             \
    }

NCD_KERNELS(f32, float, double)
NCD_KERNELS(f64, double, double)

/* mode 0: forward (a = x, b = bias or NULL, out = y); 1: input gradient (a = gy, out = gx);
 * 2: weight gradient (a = x, b = gy, out = gw). Returns -1 for a dtype without a kernel. */
static int ncd_run(int code, int mode, const ncd_geom *g, const void *a, const void *w, const void *b, void *out) {
#define NCD_CASE(CODE, SFX, T)                                                        \
    case CODE:                                                                        \
        if (mode == 0) ncd_forward_##SFX(g, (const T *)a, (const T *)w, (const T *)b, (T *)out); \
        else if (mode == 1) ncd_input_grad_##SFX(g, (const T *)a, (const T *)w, (T *)out); \
        else ncd_weight_grad_##SFX(g, (const T *)a, (const T *)b, (T *)out);          \
        return 0;
    switch (code) {
        NCD_CASE(NR_F32, f32, float)
        NCD_CASE(NR_F64, f64, double)
    default: return -1;
    }
#undef NCD_CASE
}

#endif
