/* clamp(x, lo, hi) for real dtypes: NaN in x stays NaN, a NaN bound gives NaN, lo > hi
 * gives hi (NumPy's minimum(maximum(x, lo), hi)). Low precision compares in float32 and
 * stores the chosen value back (exact). ctx points to two ints: has_lo, has_hi. */
#ifndef NUMR_COPY_CLAMP_H
#define NUMR_COPY_CLAMP_H

#include "copy_cast.h"
#include "copy_ternary.h"

/* one loop, expanded with constant strides where they are known so those copies vectorise */
#define NR__CLAMP_LOOP(S, SX, SL, SH, SO)                                              \
    for (int64_t i = 0; i < n; ++i) {                                                  \
        C_ v = NR_LD_##S(x[i * (SX)]);                                                 \
        if (has_lo) { C_ b = NR_LD_##S(l[i * (SL)]); v = (v < b || b != b) ? b : v; }  \
        if (has_hi) { C_ b = NR_LD_##S(h[i * (SH)]); v = (v > b || b != b) ? b : v; }  \
        o[i * (SO)] = NR_ST_##S(v);                                                    \
    }

#define NR__DEF_CLAMP(S)                                                               \
    static void nr_clamp_##S(char *const *p, const int64_t *st, int64_t n, const void *ctx) { \
        const int *flags = (const int *)ctx;                                           \
        const NR_T_##S *x = (const NR_T_##S *)p[0], *l = (const NR_T_##S *)p[1];       \
        const NR_T_##S *h = (const NR_T_##S *)p[2];                                    \
        NR_T_##S *o = (NR_T_##S *)p[3];                                                \
        int has_lo = flags[0], has_hi = flags[1];                                      \
        typedef __typeof__(NR_LD_##S(x[0]) + 0) C_;                                    \
        /* selects, not branches: data straddling a bound costs no mispredictions */   \
        if (st[0] == 1 && st[3] == 1 && (!has_lo || st[1] == 0) && (!has_hi || st[2] == 0)) { \
            NR__CLAMP_LOOP(S, 1, 0, 0, 1) /* scalar bounds */                          \
        } else if (st[0] == 1 && st[1] == 1 && st[2] == 1 && st[3] == 1) {             \
            NR__CLAMP_LOOP(S, 1, 1, 1, 1) /* dense bounds */                           \
        } else {                                                                       \
            NR__CLAMP_LOOP(S, st[0], st[1], st[2], st[3])                              \
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
