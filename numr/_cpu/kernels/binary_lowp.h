/* float16 / bfloat16 / float8 through the float32 loops.
 *
 * One adapter serves every element-wise op: it converts blocks of each input
 * to float32 (exact), runs the op's float32 inner loop on them, and rounds the
 * block once on store (or lets a bool-valued loop write straight into the
 * output). Used by the unary and binary kernel tables.
 */
#ifndef NUMR_BINARY_LOWP_H
#define NUMR_BINARY_LOWP_H

#include "binary_iter.h"

#define NR_LOWP_BLOCK 256

static inline int nr_is_lowp(int code) { return code >= NR_F16 && code <= NR_F8E5M2; }

/* dst[i] = float(p[i*s]) for i < n */
static void nr_lowp_load(int code, const char *p, int64_t s, float *dst, int64_t n) {
    switch (code) {
    case NR_F16: {
        const nr_f16 *q = (const nr_f16 *)p;
        if (s == 1) {
            nr_f16_to_f32_n(q, dst, n);
        } else {
            for (int64_t i = 0; i < n; ++i) dst[i] = nr_f16_to_f32(q[i * s]);
        }
        break;
    }
    case NR_BF16: {
        const nr_bf16 *q = (const nr_bf16 *)p;
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) dst[i] = nr_bf16_to_f32(q[i * s]);
        break;
    }
    case NR_F8E4M3: {
        const nr_f8e4m3 *q = (const nr_f8e4m3 *)p;
        for (int64_t i = 0; i < n; ++i) dst[i] = nr_f8e4m3_to_f32(q[i * s]);
        break;
    }
    case NR_F8E5M2: {
        const nr_f8e5m2 *q = (const nr_f8e5m2 *)p;
        for (int64_t i = 0; i < n; ++i) dst[i] = nr_f8e5m2_to_f32(q[i * s]);
        break;
    }
    }
}

/* p[i*s] = round(src[i]) for i < n */
static void nr_lowp_store(int code, const float *src, char *p, int64_t s, int64_t n) {
    switch (code) {
    case NR_F16: {
        nr_f16 *q = (nr_f16 *)p;
        if (s == 1) {
            nr_f32_to_f16_n(src, q, n);
        } else {
            for (int64_t i = 0; i < n; ++i) q[i * s] = nr_f32_to_f16(src[i]);
        }
        break;
    }
    case NR_BF16: {
        nr_bf16 *q = (nr_bf16 *)p;
        _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) q[i * s] = nr_f32_to_bf16(src[i]);
        break;
    }
    case NR_F8E4M3: {
        nr_f8e4m3 *q = (nr_f8e4m3 *)p;
        for (int64_t i = 0; i < n; ++i) q[i * s] = nr_f32_to_f8e4m3(src[i]);
        break;
    }
    case NR_F8E5M2: {
        nr_f8e5m2 *q = (nr_f8e5m2 *)p;
        for (int64_t i = 0; i < n; ++i) q[i * s] = nr_f32_to_f8e5m2(src[i]);
        break;
    }
    }
}

typedef struct {
    nr_loop_fn f32;  /* the op's float32 loop */
    int nin;         /* number of inputs (1..3) */
    int code;        /* the low-precision dtype of the inputs */
    int out_code;    /* same as code, or NR_BOOL for predicates/comparisons */
} nr_lowp_ctx;

static void nr_lowp_loop(char **p, const int64_t *s, int64_t n, const void *vctx) {
    const nr_lowp_ctx *c = (const nr_lowp_ctx *)vctx;
    const int nin = c->nin, isz = nr_itemsize(c->code), osz = nr_itemsize(c->out_code);
    const int round_out = c->out_code == c->code;
    float buf[NR_MAXOPS][NR_LOWP_BLOCK];
    char *q[NR_MAXOPS];
    int64_t qs[NR_MAXOPS];
    for (int64_t i0 = 0; i0 < n; i0 += NR_LOWP_BLOCK) {
        const int64_t m = n - i0 < NR_LOWP_BLOCK ? n - i0 : NR_LOWP_BLOCK;
        for (int k = 0; k < nin; ++k) {
            q[k] = (char *)buf[k];
            if (s[k] == 0) { /* broadcast operand: convert once */
                nr_lowp_load(c->code, p[k], 0, buf[k], 1);
                qs[k] = 0;
            } else {
                nr_lowp_load(c->code, p[k] + i0 * s[k] * isz, s[k], buf[k], m);
                qs[k] = 1;
            }
        }
        if (round_out) {
            q[nin] = (char *)buf[nin];
            qs[nin] = 1;
        } else {
            q[nin] = p[nin] + i0 * s[nin] * osz;
            qs[nin] = s[nin];
        }
        c->f32(q, qs, m, NULL);
        if (round_out) nr_lowp_store(c->code, buf[nin], p[nin] + i0 * s[nin] * isz, s[nin], m);
    }
}

/* Contexts for (op, low-precision code) pairs, set up once per table. */
static void nr_lowp_fill(nr_loop_fn (*table)[NR_NCODES], nr_lowp_ctx (*ctxs)[4], int nops_table,
                         int nin_default, const unsigned char *bool_out, const unsigned char *nin_of) {
    for (int op = 0; op < nops_table; ++op) {
        for (int code = NR_F16; code <= NR_F8E5M2; ++code) {
            nr_lowp_ctx *c = &ctxs[op][code - NR_F16];
            c->f32 = table[op][NR_F32];
            c->nin = nin_of ? nin_of[op] : nin_default;
            c->code = code;
            c->out_code = bool_out[op] ? NR_BOOL : code;
        }
    }
}

/* The loop and context to run (op, code): a native loop, the adapter, or NULL. */
static inline nr_loop_fn nr_lowp_resolve(nr_loop_fn (*table)[NR_NCODES], nr_lowp_ctx (*ctxs)[4],
                                         int op, int code, const void **ctx) {
    *ctx = NULL;
    if (code < 0 || code >= NR_NCODES) return NULL;
    if (table[op][code]) return table[op][code];
    if (nr_is_lowp(code) && ctxs[op][code - NR_F16].f32) {
        *ctx = &ctxs[op][code - NR_F16];
        return nr_lowp_loop;
    }
    return NULL;
}

#endif
