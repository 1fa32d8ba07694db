/* Element-wise activation kernels: one inner loop per (op, storage dtype) and a
 * small N-d driver with up to NRA_MAXOPS operands (the fused backward kernels
 * read grad, gate, up and write d_gate, d_up in one pass: 5 operands).
 *
 * Storage dtypes: float32, float64, float16 and bfloat16 (the last two load to
 * float32, compute, and round once on store). Dims arrive coalesced; a row
 * whose operands all have stride 1 runs an `omp simd` loop.
 */
#ifndef NUMR_ACTIVATION_LOOPS_H
#define NUMR_ACTIVATION_LOOPS_H

#include <stdint.h>
#include <omp.h>
#include "dtypes.h"
#include "nditer.h"
#include "activation_vmath.h"

#define NRA_MAXOPS 6
#define NRA_MAXDIMS 32
#define NRA_PAR_THRESHOLD 32768

typedef void (*nra_loop)(char **p, const int64_t *s, int64_t n, double prm);

/* ---- loads and stores per storage type (float compute for the 16-bit types) ---- */
#define NRA_LD_F32(v) (v)
#define NRA_ST_F32(v) (v)
#define NRA_LD_F64(v) (v)
#define NRA_ST_F64(v) (v)
#define NRA_LD_F16(v) nr_f16_to_f32(v)
#define NRA_ST_F16(v) nr_f32_to_f16(v)
#define NRA_LD_BF16(v) nr_bf16_to_f32(v)
#define NRA_ST_BF16(v) nr_f32_to_bf16(v)

/* y = EXPR(x, a) with `a` the op's parameter */
#define NRA_UNARY(name, S, C, LD, ST, EXPR)                                             \
    static void name(char **p, const int64_t *s, int64_t n, double prm) {             \
        const S *in = (const S *)p[0];                                                \
        S *out = (S *)p[1];                                                           \
        const C a = (C)prm;                                                           \
        (void)a;                                                                      \
        if (s[0] == 1 && s[1] == 1) {                                                 \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                     \
                const C x = LD(in[i]);                                                \
                out[i] = ST(EXPR);                                                    \
            }                                                                         \
        } else {                                                                      \
            for (int64_t i = 0; i < n; ++i) {                                         \
                const C x = LD(in[i * s[0]]);                                         \
                out[i * s[1]] = ST(EXPR);                                             \
            }                                                                         \
        }                                                                             \
    }

/* out = ACT(g) * u */
#define NRA_GATED(name, S, C, LD, ST, ACT)                                              \
    static void name(char **p, const int64_t *s, int64_t n, double prm) {             \
        const S *gp = (const S *)p[0], *up = (const S *)p[1];                         \
        S *out = (S *)p[2];                                                           \
        (void)prm;                                                                    \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1) {                                    \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                     \
                const C g = LD(gp[i]), u = LD(up[i]);                                 \
                out[i] = ST(ACT(g) * u);                                              \
            }                                                                         \
        } else {                                                                      \
            for (int64_t i = 0; i < n; ++i) {                                         \
                const C g = LD(gp[i * s[0]]), u = LD(up[i * s[1]]);                   \
                out[i * s[2]] = ST(ACT(g) * u);                                       \
            }                                                                         \
        }                                                                             \
    }

/* d_gate = dy * u * DACT(g), d_up = dy * ACT(g) */
#define NRA_GATED_BWD(name, S, C, LD, ST, ACT, DACT)                                    \
    static void name(char **p, const int64_t *s, int64_t n, double prm) {             \
        const S *dyp = (const S *)p[0], *gp = (const S *)p[1], *up = (const S *)p[2]; \
        S *dg = (S *)p[3], *du = (S *)p[4];                                           \
        (void)prm;                                                                    \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1 && s[4] == 1) {          \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                     \
                const C dy = LD(dyp[i]), g = LD(gp[i]), u = LD(up[i]);                \
                dg[i] = ST(dy * u * DACT(g));                                         \
                du[i] = ST(dy * ACT(g));                                              \
            }                                                                         \
        } else {                                                                      \
            for (int64_t i = 0; i < n; ++i) {                                         \
                const C dy = LD(dyp[i * s[0]]), g = LD(gp[i * s[1]]), u = LD(up[i * s[2]]); \
                dg[i * s[3]] = ST(dy * u * DACT(g));                                  \
                du[i * s[4]] = ST(dy * ACT(g));                                       \
            }                                                                         \
        }                                                                             \
    }

NRA_INLINE float nra_drelu_f(float x) { return x > 0.0f ? 1.0f : 0.0f; }
NRA_INLINE double nra_drelu_d(double x) { return x > 0.0 ? 1.0 : 0.0; }
NRA_INLINE float nra_dsigmoid_f(float x) { float s = nra_sigmoidf(x); return s * (1.0f - s); }
NRA_INLINE double nra_dsigmoid_d(double x) { double s = nra_sigmoid(x); return s * (1.0 - s); }

/* Every op for one storage type: SFX names the loops, C the compute type, CS the
 * element-function suffix (f or d). */
#define NRA_ALL(SFX, S, C, CS, LD, ST)                                                           \
    NRA_UNARY(nra_relu_##SFX, S, C, LD, ST, nra_relu_##CS(x))                                   \
    NRA_UNARY(nra_leaky_##SFX, S, C, LD, ST, nra_leaky_##CS(x, a))                              \
    NRA_UNARY(nra_elu_##SFX, S, C, LD, ST, nra_elu_##CS(x, a))                                  \
    NRA_UNARY(nra_sigmoid_##SFX, S, C, LD, ST, nra_sigmoid_##CS(x))                             \
    NRA_UNARY(nra_silu_##SFX, S, C, LD, ST, nra_silu_##CS(x))                                   \
    NRA_UNARY(nra_gelu_##SFX, S, C, LD, ST, nra_gelu_##CS(x))                                   \
    NRA_UNARY(nra_gelut_##SFX, S, C, LD, ST, nra_gelut_##CS(x))                                 \
    NRA_UNARY(nra_softplus_##SFX, S, C, LD, ST, nra_softplus_##CS(x))                           \
    NRA_GATED(nra_silu_mul_##SFX, S, C, LD, ST, nra_silu_##CS)                                  \
    NRA_GATED(nra_gelu_mul_##SFX, S, C, LD, ST, nra_gelu_##CS)                                  \
    NRA_GATED(nra_gelut_mul_##SFX, S, C, LD, ST, nra_gelut_##CS)                                \
    NRA_GATED(nra_relu_mul_##SFX, S, C, LD, ST, nra_relu_##CS)                                  \
    NRA_GATED(nra_sigmoid_mul_##SFX, S, C, LD, ST, nra_sigmoid_##CS)                            \
    NRA_GATED_BWD(nra_silu_mul_bwd_##SFX, S, C, LD, ST, nra_silu_##CS, nra_dsilu_##CS)          \
    NRA_GATED_BWD(nra_gelu_mul_bwd_##SFX, S, C, LD, ST, nra_gelu_##CS, nra_dgelu_##CS)          \
    NRA_GATED_BWD(nra_gelut_mul_bwd_##SFX, S, C, LD, ST, nra_gelut_##CS, nra_dgelut_##CS)       \
    NRA_GATED_BWD(nra_relu_mul_bwd_##SFX, S, C, LD, ST, nra_relu_##CS, nra_drelu_##CS)          \
    NRA_GATED_BWD(nra_sigmoid_mul_bwd_##SFX, S, C, LD, ST, nra_sigmoid_##CS, nra_dsigmoid_##CS) \
    static const nra_loop nra_table_##SFX[] = {                                                  \
        nra_relu_##SFX, nra_leaky_##SFX, nra_elu_##SFX, nra_sigmoid_##SFX, nra_silu_##SFX,       \
        nra_gelu_##SFX, nra_gelut_##SFX, nra_softplus_##SFX, nra_silu_mul_##SFX,                 \
        nra_gelu_mul_##SFX, nra_gelut_mul_##SFX, nra_relu_mul_##SFX, nra_sigmoid_mul_##SFX,      \
        nra_silu_mul_bwd_##SFX, nra_gelu_mul_bwd_##SFX, nra_gelut_mul_bwd_##SFX,                 \
        nra_relu_mul_bwd_##SFX, nra_sigmoid_mul_bwd_##SFX};

NRA_ALL(f32, float, float, f, NRA_LD_F32, NRA_ST_F32)
NRA_ALL(f64, double, double, d, NRA_LD_F64, NRA_ST_F64)
NRA_ALL(f16, nr_f16, float, f, NRA_LD_F16, NRA_ST_F16)
NRA_ALL(bf16, nr_bf16, float, f, NRA_LD_BF16, NRA_ST_BF16)

#define NRA_NUM_OPS 18

/* float16 runs with every operand contiguous go through the float32 loop in blocks: the
 * block conversions use F16C (dtypes.h), which the per-element bit arithmetic of the
 * float16 loops cannot; results are the same (both compute in float, round once). */
#define NRA_F16_BLOCK 256
static void nra_f16_blocks(int k, int nin, int nout, char **p, const int64_t *s, int64_t n, double prm) {
    for (int i = 0; i < nin + nout; ++i)
        if (s[i] != 1) {
            nra_table_f16[k](p, s, n, prm);
            return;
        }
    float buf[NRA_MAXOPS][NRA_F16_BLOCK];
    const int64_t ones[NRA_MAXOPS] = {1, 1, 1, 1, 1, 1};
    char *q[NRA_MAXOPS];
    for (int i = 0; i < nin + nout; ++i) q[i] = (char *)buf[i];
    for (int64_t j = 0; j < n; j += NRA_F16_BLOCK) {
        const int64_t m = n - j < NRA_F16_BLOCK ? n - j : NRA_F16_BLOCK;
        for (int i = 0; i < nin; ++i) nr_f16_to_f32_n((const nr_f16 *)p[i] + j, buf[i], m);
        nra_table_f32[k](q, ones, m, prm);
        for (int o = nin; o < nin + nout; ++o) nr_f32_to_f16_n(buf[o], (nr_f16 *)p[o] + j, m);
    }
}
#define NRA_F16B(k, NIN, NOUT)                                                          \
    static void nra_f16b_##k(char **p, const int64_t *s, int64_t n, double prm) {       \
        nra_f16_blocks(k, NIN, NOUT, p, s, n, prm);                                     \
    }
NRA_F16B(0, 1, 1) NRA_F16B(1, 1, 1) NRA_F16B(2, 1, 1) NRA_F16B(3, 1, 1) NRA_F16B(4, 1, 1)
NRA_F16B(5, 1, 1) NRA_F16B(6, 1, 1) NRA_F16B(7, 1, 1) NRA_F16B(8, 2, 1) NRA_F16B(9, 2, 1)
NRA_F16B(10, 2, 1) NRA_F16B(11, 2, 1) NRA_F16B(12, 2, 1) NRA_F16B(13, 3, 2) NRA_F16B(14, 3, 2)
NRA_F16B(15, 3, 2) NRA_F16B(16, 3, 2) NRA_F16B(17, 3, 2)
static const nra_loop nra_table_f16_blocked[NRA_NUM_OPS] = {
    nra_f16b_0, nra_f16b_1, nra_f16b_2, nra_f16b_3, nra_f16b_4, nra_f16b_5, nra_f16b_6,
    nra_f16b_7, nra_f16b_8, nra_f16b_9, nra_f16b_10, nra_f16b_11, nra_f16b_12, nra_f16b_13,
    nra_f16b_14, nra_f16b_15, nra_f16b_16, nra_f16b_17};

/* The loop of op `op` (index into the tables above) for dtype code `code`, or NULL. */
static nra_loop nra_lookup(int op, int code) {
    if (op < 0 || op >= NRA_NUM_OPS) return 0;
    switch (code) {
    case NR_F32: return nra_table_f32[op];
    case NR_F64: return nra_table_f64[op];
    case NR_F16: return nra_table_f16_blocked[op];
    case NR_BF16: return nra_table_bf16[op];
    default: return 0;
    }
}

/* Run `fn` over an N-d iteration space (ndim >= 1, shape[ndim-1] is the row) with
 * `nops` operands: base addresses, element strides (nops rows of ndim) and item size. */
static void nra_range(nra_loop fn, int nops, int ndim, const int64_t *shape, const int64_t *strides,
                      char *const *base, int itemsize, double prm, int64_t start, int64_t end) {
    const int64_t inner = shape[ndim - 1];
    int64_t idx[NRA_MAXDIMS];
    int64_t rem = start / inner;
    for (int d = ndim - 2; d >= 0; --d) {
        idx[d] = rem % shape[d];
        rem /= shape[d];
    }
    int64_t col = start % inner;
    char *p[NRA_MAXOPS];
    int64_t s[NRA_MAXOPS];
    for (int op = 0; op < nops; ++op) s[op] = strides[op * ndim + ndim - 1];
    while (start < end) {
        int64_t n = inner - col;
        if (n > end - start) n = end - start;
        for (int op = 0; op < nops; ++op) {
            int64_t off = col * s[op];
            for (int d = 0; d < ndim - 1; ++d) off += idx[d] * strides[op * ndim + d];
            p[op] = base[op] + off * itemsize;
        }
        fn(p, s, n, prm);
        start += n;
        col = 0;
        for (int d = ndim - 2; d >= 0; --d) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
}

/* Work is cut into blocks of NRA_BLOCK elements handed out dynamically: on a busy machine a
 * descheduled thread then delays one block, not half of the tensor. */
#define NRA_BLOCK 65536

static void nra_run(nra_loop fn, int nops, int ndim, const int64_t *shape, const int64_t *strides,
                    char *const *base, int itemsize, double prm) {
    const int64_t total = nr_prod(shape, ndim);
    if (total <= 0) return;
    const int64_t nblocks = (total + NRA_BLOCK - 1) / NRA_BLOCK;
    if (total < NRA_PAR_THRESHOLD || nblocks < 2 || nr_max_threads() < 2) {
        nra_range(fn, nops, ndim, shape, strides, base, itemsize, prm, 0, total);
        return;
    }
    #pragma omp parallel for schedule(dynamic, 1) num_threads(nr_max_threads())
    for (int64_t b = 0; b < nblocks; ++b) {
        int64_t lo = b * NRA_BLOCK, hi = lo + NRA_BLOCK;
        if (hi > total) hi = total;
        nra_range(fn, nops, ndim, shape, strides, base, itemsize, prm, lo, hi);
    }
}

#endif
