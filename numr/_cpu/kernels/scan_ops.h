/* cumsum / cumprod kernels for every dtype.
 *
 * Index spaces (prepared by numr/_cpu/ops/cumulative.py, nothing copied):
 *   rows: kept dims (kshape, input strides kxs, output strides kys);
 *   scan: the scanned dims in order (sshape, input strides sxs; one dim for
 *         dim=int, every dim for dim=None), output element i of the scan at i * ys.
 * horizontal: each row runs its scan sequentially (rows split between threads).
 * vertical:   one scanned dim whose stride exceeds the innermost kept dim's:
 *             a chunk of NR_SCAN_COLS columns advances one scan step at a time,
 *             so cumsum along dim 0 of a C-contiguous matrix reads rows in order.
 * Accumulators: int64/uint64 bits (wrapping) for bool/int, double for real floats,
 * complex128 for complex; one rounding per stored element.
 */
#ifndef NUMR_SCAN_OPS_H
#define NUMR_SCAN_OPS_H

#include <stdint.h>
#include <omp.h>
#include "dtypes.h"
#include "nditer.h"

#define NR_SCAN_COLS 256
#define NR_SCAN_CHUNK 256 /* horizontal: elements per chunk (on the stack) */

typedef struct {
    int nk;
    int64_t kshape[NR_MAXDIMS], kxs[NR_MAXDIMS], kys[NR_MAXDIMS];
    int ns;                                    /* >= 1 */
    int64_t sshape[NR_MAXDIMS], sxs[NR_MAXDIMS];
    int64_t ys;
    int vertical;
} nr_scan_spec;

#define NR_SCAN_DEFINE(NAME, T, OUT_T, ACC, LD, ID, OP, ST)                                       \
static void NAME##_rows(const T *x, OUT_T *y, const nr_scan_spec *s, int64_t r0, int64_t r1) {    \
    nr_outer_iter it, si;                                                                          \
    const int64_t *ks[2] = {s->kxs, s->kys}, *ss[1] = {s->sxs};                                    \
    int64_t n0 = s->sshape[s->ns - 1], st0 = s->sxs[s->ns - 1], ys = s->ys;                        \
    int64_t nseg = nr_prod(s->sshape, s->ns - 1);                                                  \
    nr_outer_init(&it, 2, s->nk, s->kshape, ks, r0);                                               \
    for (int64_t r = r0; r < r1; ++r) {                                                            \
        const T *xr = x + it.off[0];                                                               \
        OUT_T *yr = y + it.off[1];                                                                 \
        ACC acc = (ID);                                                                            \
        nr_outer_init(&si, 1, s->ns - 1, s->sshape, ss, 0);                                        \
        for (int64_t g = 0; g < nseg; ++g) {                                                       \
            const T *p = xr + si.off[0];                                                           \
            /* 16-bit and 8-bit types, per chunk: loads converted, the sequential chain alone, */  \
            /* stores converted, so the conversions vectorise (float16 cumsum was 6x float32's) */ \
            /* the row's first element starts the chain as it is: (ID) OP x0 would turn -0.0 */   \
            /* into 0.0 in a sum and (-inf+0j) into (-inf+nanj) in a complex product */            \
            int64_t first = g == 0 && n0 > 0;                                                      \
            if (first) { acc = (ACC)LD(p[0]); yr[0] = ST(acc); }                                   \
            if (sizeof(T) > 2) { /* trivial loads and stores: one pass is faster */               \
                for (int64_t i = first; i < n0; ++i) { acc = acc OP (ACC)LD(p[i * st0]); yr[i * ys] = ST(acc); } \
                yr += n0 * ys;                                                                     \
                nr_outer_next(&si);                                                                \
                continue;                                                                          \
            }                                                                                      \
            for (int64_t i0 = 0; i0 < n0; i0 += NR_SCAN_CHUNK) {                                   \
                const int64_t m = n0 - i0 < NR_SCAN_CHUNK ? n0 - i0 : NR_SCAN_CHUNK;              \
                const T *pc = p + i0 * st0;                                                        \
                OUT_T *yc = yr + i0 * ys;                                                          \
                ACC buf[NR_SCAN_CHUNK];                                                            \
                if (st0 == 1) { for (int64_t i = 0; i < m; ++i) buf[i] = (ACC)LD(pc[i]); }        \
                else { for (int64_t i = 0; i < m; ++i) buf[i] = (ACC)LD(pc[i * st0]); }           \
                for (int64_t i = i0 ? 0 : first; i < m; ++i) buf[i] = acc = acc OP buf[i];        \
                if (ys == 1) { for (int64_t i = 0; i < m; ++i) yc[i] = ST(buf[i]); }              \
                else { for (int64_t i = 0; i < m; ++i) yc[i * ys] = ST(buf[i]); }                 \
            }                                                                                      \
            yr += n0 * ys;                                                                         \
            nr_outer_next(&si);                                                                    \
        }                                                                                          \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}                                                                                                  \
static void NAME##_vertical(const T *x, OUT_T *y, const nr_scan_spec *s, int64_t t0, int64_t t1) { \
    int nko = s->nk - 1;                                                                           \
    int64_t m = s->kshape[nko], xs = s->kxs[nko], yks = s->kys[nko];                               \
    int64_t nch = (m + NR_SCAN_COLS - 1) / NR_SCAN_COLS, n = s->sshape[0], sx = s->sxs[0];         \
    const int64_t *ks[2] = {s->kxs, s->kys};                                                       \
    ACC acc[NR_SCAN_COLS];                                                                         \
    for (int64_t task = t0; task < t1; ++task) {                                                   \
        int64_t o = task / nch, j0 = (task % nch) * NR_SCAN_COLS;                                  \
        int64_t cw = m - j0 < NR_SCAN_COLS ? m - j0 : NR_SCAN_COLS;                                \
        nr_outer_iter ko;                                                                          \
        nr_outer_init(&ko, 2, nko, s->kshape, ks, o);                                              \
        const T *xb = x + ko.off[0] + j0 * xs;                                                     \
        OUT_T *yb = y + ko.off[1] + j0 * yks;                                                      \
        for (int64_t j = 0; j < cw; ++j) acc[j] = n ? (ACC)LD(xb[j * xs]) : (ACC)(ID);             \
        for (int64_t j = 0; j < cw && n; ++j) yb[j * yks] = ST(acc[j]);                           \
        for (int64_t i = 1; i < n; ++i) {                                                          \
            const T *p = xb + i * sx;                                                              \
            OUT_T *q = yb + i * s->ys;                                                             \
            if (xs == 1 && yks == 1) {                                                             \
                for (int64_t j = 0; j < cw; ++j) { acc[j] = acc[j] OP (ACC)LD(p[j]); q[j] = ST(acc[j]); } \
            } else {                                                                               \
                for (int64_t j = 0; j < cw; ++j) {                                                 \
                    acc[j] = acc[j] OP (ACC)LD(p[j * xs]); q[j * yks] = ST(acc[j]);                \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
}                                                                                                  \
static void NAME(const char *xc, char *yc, const nr_scan_spec *s) {                                \
    const T *x = (const T *)xc;                                                                    \
    OUT_T *y = (OUT_T *)yc;                                                                        \
    int64_t nrow = nr_prod(s->kshape, s->nk), ns = nr_prod(s->sshape, s->ns);                      \
    int nth = nr_max_threads();                                                                    \
    int64_t ntask = nrow;                                                                          \
    if (s->vertical) {                                                                             \
        int64_t m = s->kshape[s->nk - 1];                                                          \
        ntask = nrow / m * ((m + NR_SCAN_COLS - 1) / NR_SCAN_COLS);                                \
    }                                                                                              \
    int par = nth > 1 && ntask > 1 && nrow * ns >= NR_PARALLEL_THRESHOLD;                          \
    _Pragma("omp parallel if(par)")                                                                \
    {                                                                                              \
        int t = omp_get_thread_num(), nt = omp_get_num_threads();                                  \
        int64_t a = ntask * t / nt, b = ntask * (t + 1) / nt;                                      \
        if (s->vertical) NAME##_vertical(x, y, s, a, b); else NAME##_rows(x, y, s, a, b);          \
    }                                                                                              \
}

#define NR_SC_ID(x) (x)
#define NR_SC_B(x) ((uint64_t)((x) != 0))
#define NR_SC_SI(x) ((uint64_t)(int64_t)(x))
#define NR_SC_I64(a) ((int64_t)(a))
#define NR_SC_U64(a) ((uint64_t)(a))
#define NR_SC_F32(a) ((float)(a))
#define NR_SC_F64(a) ((double)(a))
#define NR_SC_F16(a) nr_f64_to_f16(a)
#define NR_SC_BF16(a) nr_f32_to_bf16((float)(a))
#define NR_SC_E4(a) nr_f32_to_f8e4m3((float)(a))
#define NR_SC_E5(a) nr_f32_to_f8e5m2((float)(a))
#define NR_SC_C64(a) ((nr_c64)(a))
#define NR_SC_C128(a) ((nr_c128)(a))

#define NR_SCAN_BOTH(SFX, T, OUT_T, ACC, LD, ST)                                                  \
    NR_SCAN_DEFINE(nr_cumsum_##SFX, T, OUT_T, ACC, LD, 0, +, ST)                                  \
    NR_SCAN_DEFINE(nr_cumprod_##SFX, T, OUT_T, ACC, LD, 1, *, ST)

NR_SCAN_BOTH(b, nr_bool, int64_t, uint64_t, NR_SC_B, NR_SC_I64)
NR_SCAN_BOTH(i8, int8_t, int64_t, uint64_t, NR_SC_SI, NR_SC_I64)
NR_SCAN_BOTH(i16, int16_t, int64_t, uint64_t, NR_SC_SI, NR_SC_I64)
NR_SCAN_BOTH(i32, int32_t, int64_t, uint64_t, NR_SC_SI, NR_SC_I64)
NR_SCAN_BOTH(i64, int64_t, int64_t, uint64_t, NR_SC_SI, NR_SC_I64)
NR_SCAN_BOTH(u8, uint8_t, uint64_t, uint64_t, NR_SC_ID, NR_SC_U64)
NR_SCAN_BOTH(u16, uint16_t, uint64_t, uint64_t, NR_SC_ID, NR_SC_U64)
NR_SCAN_BOTH(u32, uint32_t, uint64_t, uint64_t, NR_SC_ID, NR_SC_U64)
NR_SCAN_BOTH(u64, uint64_t, uint64_t, uint64_t, NR_SC_ID, NR_SC_U64)
NR_SCAN_BOTH(f16, nr_f16, nr_f16, double, nr_f16_to_f32, NR_SC_F16)
NR_SCAN_BOTH(bf16, nr_bf16, nr_bf16, double, nr_bf16_to_f32, NR_SC_BF16)
NR_SCAN_BOTH(e4, nr_f8e4m3, nr_f8e4m3, double, nr_f8e4m3_to_f32, NR_SC_E4)
NR_SCAN_BOTH(e5, nr_f8e5m2, nr_f8e5m2, double, nr_f8e5m2_to_f32, NR_SC_E5)
NR_SCAN_BOTH(f32, float, float, double, NR_SC_ID, NR_SC_F32)
NR_SCAN_BOTH(f64, double, double, double, NR_SC_ID, NR_SC_F64)
NR_SCAN_BOTH(c64, nr_c64, nr_c64, nr_c128, NR_SC_ID, NR_SC_C64)
NR_SCAN_BOTH(c128, nr_c128, nr_c128, nr_c128, NR_SC_ID, NR_SC_C128)

typedef void (*nr_scan_fn)(const char *, char *, const nr_scan_spec *);
#define NR_SCAN_TABLE(P) {                                                                        \
    P##f64, P##f32, P##f16, P##bf16, P##e4, P##e5, P##i64, P##i32, P##i16, P##i8,                 \
    P##u64, P##u32, P##u16, P##u8, P##b, P##c64, P##c128 }

/* op 0: cumsum, 1: cumprod. Returns -1 for an unknown dtype. */
static int nr_scan(int op, int code, const char *x, char *y, const nr_scan_spec *s) {
    static const nr_scan_fn sum[17] = NR_SCAN_TABLE(nr_cumsum_), prod[17] = NR_SCAN_TABLE(nr_cumprod_);
    int di = nr_dense_index(code);
    if (di < 0 || op < 0 || op > 1) return -1;
    (op ? prod : sum)[di](x, y, s);
    return 0;
}

#endif
