/* clamp(x, lo, hi) for real dtypes: NaN in x stays NaN, a NaN bound gives NaN, lo > hi
 * gives hi (NumPy's minimum(maximum(x, lo), hi)). Low precision compares in float32 and
 * stores the chosen value back (exact). ctx points to two ints: has_lo, has_hi. */
#ifndef NUMR_COPY_CLAMP_H
#define NUMR_COPY_CLAMP_H

#include "copy_cast.h"
#include "copy_ternary.h"

/* A missing bound is the dtype's lowest/highest value read with stride 0, so that every
 * case is one loop with no per-element flag (a flag test kept the float16 loop scalar). */
#define NR__LOWEST_F64 (-INFINITY)
#define NR__HIGHEST_F64 INFINITY
#define NR__LOWEST_F32 (-INFINITY)
#define NR__HIGHEST_F32 INFINITY
#define NR__LOWEST_F16 0xFC00u /* -inf */
#define NR__HIGHEST_F16 0x7C00u
#define NR__LOWEST_BF16 0xFF80u
#define NR__HIGHEST_BF16 0x7F80u
#define NR__LOWEST_E4M3 0xFEu  /* -448: e4m3fn has no inf */
#define NR__HIGHEST_E4M3 0x7Eu
#define NR__LOWEST_E5M2 0xFCu
#define NR__HIGHEST_E5M2 0x7Cu
#define NR__LOWEST_I64 INT64_MIN
#define NR__HIGHEST_I64 INT64_MAX
#define NR__LOWEST_I32 INT32_MIN
#define NR__HIGHEST_I32 INT32_MAX
#define NR__LOWEST_I16 INT16_MIN
#define NR__HIGHEST_I16 INT16_MAX
#define NR__LOWEST_I8 INT8_MIN
#define NR__HIGHEST_I8 INT8_MAX
#define NR__LOWEST_U64 0
#define NR__HIGHEST_U64 UINT64_MAX
#define NR__LOWEST_U32 0
#define NR__HIGHEST_U32 UINT32_MAX
#define NR__LOWEST_U16 0
#define NR__HIGHEST_U16 UINT16_MAX
#define NR__LOWEST_U8 0
#define NR__HIGHEST_U8 UINT8_MAX
#define NR__LOWEST_BOOL 0
#define NR__HIGHEST_BOOL 1

/* one loop, expanded with constant strides where they are known so those copies vectorise */
#define NR__CLAMP_LOOP(S, SX, SL, SH, SO)                                              \
    for (int64_t i = 0; i < n; ++i) {                                                  \
        C_ v = NR_LD_##S(x[i * (SX)]);                                                 \
        const C_ lo = NR_LD_##S(l[i * (SL)]), hi = NR_LD_##S(h[i * (SH)]);             \
        v = (v < lo || NR_ISNAN(lo)) ? lo : v;                                         \
        v = (v > hi || NR_ISNAN(hi)) ? hi : v;                                         \
        o[i * (SO)] = NR_ST_##S(v);                                                    \
    }

#define NR__DEF_CLAMP(S)                                                               \
    static void nr_clamp_##S(char *const *p, const int64_t *st, int64_t n, const void *ctx) { \
        const int *flags = (const int *)ctx;                                           \
        const NR_T_##S lowest = (NR_T_##S)NR__LOWEST_##S, highest = (NR_T_##S)NR__HIGHEST_##S; \
        const NR_T_##S *x = (const NR_T_##S *)p[0];                                    \
        const NR_T_##S *l = flags[0] ? (const NR_T_##S *)p[1] : &lowest;               \
        const NR_T_##S *h = flags[1] ? (const NR_T_##S *)p[2] : &highest;              \
        const int64_t sx = st[0], sl = flags[0] ? st[1] : 0, sh = flags[1] ? st[2] : 0, so = st[3]; \
        NR_T_##S *o = (NR_T_##S *)p[3];                                                \
        typedef __typeof__(NR_LD_##S(x[0]) + 0) C_;                                    \
        /* selects, not branches: data straddling a bound costs no mispredictions */   \
        if (sx == 1 && so == 1 && sl == 0 && sh == 0) {                                \
            NR__CLAMP_LOOP(S, 1, 0, 0, 1) /* scalar or missing bounds */               \
        } else if (sx == 1 && sl == 1 && sh == 1 && so == 1) {                         \
            NR__CLAMP_LOOP(S, 1, 1, 1, 1) /* dense bounds */                           \
        } else {                                                                       \
            NR__CLAMP_LOOP(S, sx, sl, sh, so)                                          \
        }                                                                              \
    }
NR__DEF_CLAMP(F64) NR__DEF_CLAMP(F32) NR__DEF_CLAMP(F16) NR__DEF_CLAMP(BF16)
NR__DEF_CLAMP(E4M3) NR__DEF_CLAMP(E5M2) NR__DEF_CLAMP(I64) NR__DEF_CLAMP(I32)
NR__DEF_CLAMP(I16) NR__DEF_CLAMP(I8) NR__DEF_CLAMP(U64) NR__DEF_CLAMP(U32)
NR__DEF_CLAMP(U16) NR__DEF_CLAMP(U8) NR__DEF_CLAMP(BOOL)

static inline nr_ternary_fn nr_clamp_get(int code) {
    switch (code) {
    case NR_F64: return nr_clamp_F64; case NR_F32: return nr_clamp_F32;
    case NR_F16: return nr_clamp_F16; case NR_BF16: return nr_clamp_BF16;
    case NR_F8E4M3: return nr_clamp_E4M3; case NR_F8E5M2: return nr_clamp_E5M2;
    case NR_I64: return nr_clamp_I64; case NR_I32: return nr_clamp_I32;
    case NR_I16: return nr_clamp_I16; case NR_I8: return nr_clamp_I8;
    case NR_U64: return nr_clamp_U64; case NR_U32: return nr_clamp_U32;
    case NR_U16: return nr_clamp_U16; case NR_U8: return nr_clamp_U8;
    case NR_BOOL: return nr_clamp_BOOL;
    default: return 0;
    }
}

#endif
