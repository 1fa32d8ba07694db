/* NumPy's element-wise math extras in the binary table: fmod (C's: sign of the dividend),
 * copysign, nextafter, ldexp (the exponent arrives as an integral value of the float dtype),
 * gcd and lcm (NumPy's sign rules), and two ops with their own operand lists:
 * nan_to_num (x, the 3 replacement values as one stride-0 operand, out) and
 * frexp (x, mantissa out, int32 exponent out). float16/bfloat16 run the float32 loops
 * through binary_lowp.h where that is exact (fmod, copysign, ldexp); nextafter, nan_to_num
 * and frexp have their own half loops (nextafter steps the 16-bit pattern).
 */
#ifndef NUMR_BINARY_MATHX_H
#define NUMR_BINARY_MATHX_H

#include <math.h>
#include <stdint.h>
#include "binary_iter.h"
#include "vmath.h"
#include "vmath_f64.h"
#include "vmath_hyp.h" /* float64 log1p */

/* ---- fmod ---------------------------------------------------------------------- */
/* float32 fmod in double, vectorised: for |x| < 2**26 |y| (y finite), trunc(x / y) is exact (the
 * quotient's distance to an integer exceeds 2**-25, its rounding error is below 2**-27), n * y is
 * exact (26 + 24 bits) and so is x - n * y (it is the float32 result); the sign is x's, zeros
 * included. Other lanes (y zero, inf or NaN, huge ratios) are redone with fmodf: 65 -> 0.6 ms per 1M. */
#define NR_FMOD_OK(x, y) ((fabs(x) < 67108864.0 * fabs(y)) & (fabs(y) < (double)INFINITY))
#define NR_FMOD_FAST(x, y) copysignf((float)((double)(x) - trunc((double)(x) / (double)(y)) * (double)(y)), x)
static void nr_b_fmod_f32(char **p, const int64_t *s, int64_t n, const void *ctx) {
    (void)ctx;
    const float *a = (const float *)p[0], *b = (const float *)p[1];
    float *out = (float *)p[2];
    const int64_t sa = s[0], sb = s[1], so = s[2];
    if (sa == 1 && sb == 1 && so == 1) {
        int bad = 0;
        _Pragma("omp simd reduction(|:bad)") for (int64_t i = 0; i < n; ++i) {
            const float x = a[i], y = b[i];
            out[i] = NR_FMOD_FAST(x, y);
            bad |= !NR_FMOD_OK((double)x, (double)y);
        }
        if (bad)
            for (int64_t i = 0; i < n; ++i)
                if (!NR_FMOD_OK((double)a[i], (double)b[i])) out[i] = fmodf(a[i], b[i]);
    } else {
        for (int64_t i = 0; i < n; ++i) {
            const float x = a[i * sa], y = b[i * sb];
            out[i * so] = NR_FMOD_OK((double)x, (double)y) ? NR_FMOD_FAST(x, y) : fmodf(x, y);
        }
    }
}
NR_BINARY_LOOP_SCALAR(nr_b_fmod_f64, double, double, fmod(x, y))
/* <= 32-bit integers in double (vectorised): trunc(x / y) is exact there (see
 * NR_FLOORDIV_D in binary_arith.h), MIN fmod -1 gives 0; x fmod 0 gives 0 */
#define NR_DEF_NARROW_FMOD(T, S)                                                      \
    NR_BINARY_LOOP(nr_b_fmod_##S, T, T, (int64_t)((double)y == 0.0 ? 0.0              \
                   : (double)x - (double)y * trunc((double)x / (double)y)))
NR_DEF_NARROW_FMOD(int8_t, i8)
NR_DEF_NARROW_FMOD(int16_t, i16)
NR_DEF_NARROW_FMOD(int32_t, i32)
NR_DEF_NARROW_FMOD(uint8_t, u8)
NR_DEF_NARROW_FMOD(uint16_t, u16)
NR_DEF_NARROW_FMOD(uint32_t, u32)
NR_BINARY_LOOP_SCALAR(nr_b_fmod_i64, int64_t, int64_t, (y == 0 || y == -1) ? 0 : x % y)
NR_BINARY_LOOP_SCALAR(nr_b_fmod_u64, uint64_t, uint64_t, y == 0 ? 0 : x % y)

/* ---- copysign, nextafter, ldexp -------------------------------------------------- */
NR_BINARY_LOOP(nr_b_copysign_f32, float, float, copysignf(x, y))
NR_BINARY_LOOP(nr_b_copysign_f64, double, double, copysign(x, y))
NR_BINARY_LOOP_SCALAR(nr_b_nextafter_f32, float, float, nextafterf(x, y))
NR_BINARY_LOOP_SCALAR(nr_b_nextafter_f64, double, double, nextafter(x, y))
/* |n| beyond 2**12 over- or underflows every finite nonzero x alike: clamped before the int cast */
#define NR_LDEXP_N(y) ((int)((y) > 4096 ? 4096 : ((y) < -4096 ? -4096 : (y))))
NR_BINARY_LOOP_SCALAR(nr_b_ldexp_f32, float, float, ldexpf(x, NR_LDEXP_N(y)))
NR_BINARY_LOOP_SCALAR(nr_b_ldexp_f64, double, double, ldexp(x, NR_LDEXP_N(y)))

/* nextafter of a 16-bit IEEE pattern (float16, bfloat16): x, y its values as float */
static inline uint16_t nr_nextafter_h(uint16_t ux, uint16_t uy, float x, float y) {
    if (x != x) return ux;
    if (y != y) return uy;
    if (x == y) return uy;
    if (x == 0) return (uint16_t)((uy & 0x8000u) | 1u);
    return (uint16_t)(((x < y) == (x > 0)) ? ux + 1 : ux - 1);
}
#define NR_DEF_NEXTAFTER_H(S, LD)                                                     \
    NR_BINARY_LOOP_SCALAR(nr_b_nextafter_##S, uint16_t, uint16_t,                    \
                          nr_nextafter_h(x, y, LD(x), LD(y)))
NR_DEF_NEXTAFTER_H(f16, nr_f16_to_f32)
NR_DEF_NEXTAFTER_H(bf16, nr_bf16_to_f32)

/* ---- gcd, lcm (NumPy: gcd >= 0 except |MIN| wrapping; lcm = |a / gcd * b| in T) ---- */
static inline uint64_t nr_gcd_u64(uint64_t a, uint64_t b) {
    if (!a) return b;
    if (!b) return a;
    const int sh = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) { const uint64_t t = a; a = b; b = t; }
        b -= a;
    } while (b);
    return a << sh;
}
#define NR_UABS(x) ((x) < 0 ? (uint64_t)0 - (uint64_t)(int64_t)(x) : (uint64_t)(x))
/* NumPy's lcm: |a| / gcd * |b|, wrapping to T (its C computes int8/16 in int, then narrows) */
static inline uint64_t nr_lcm_u64(uint64_t a, uint64_t b) {
    const uint64_t g = nr_gcd_u64(a, b);
    return g ? a / g * b : 0;
}
#define NR_DEF_GCD(T, S)                                                              \
    NR_BINARY_LOOP_SCALAR(nr_b_gcd_##S, T, T, nr_gcd_u64(NR_UABS(x), NR_UABS(y)))     \
    NR_BINARY_LOOP_SCALAR(nr_b_lcm_##S, T, T, nr_lcm_u64(NR_UABS(x), NR_UABS(y)))
#define NR_DEF_GCD_U(T, S)                                                            \
    NR_BINARY_LOOP_SCALAR(nr_b_gcd_##S, T, T, nr_gcd_u64(x, y))                      \
    NR_BINARY_LOOP_SCALAR(nr_b_lcm_##S, T, T, nr_lcm_u64(x, y))
NR_DEF_GCD(int8_t, i8)
NR_DEF_GCD(int16_t, i16)
NR_DEF_GCD(int32_t, i32)
NR_DEF_GCD(int64_t, i64)
NR_DEF_GCD_U(uint8_t, u8)
NR_DEF_GCD_U(uint16_t, u16)
NR_DEF_GCD_U(uint32_t, u32)
NR_DEF_GCD_U(uint64_t, u64)

/* ---- logaddexp, logaddexp2 (NumPy's npy_logaddexp): hi + log1p(exp(-|a - b|)); equal inputs give
 * a + ln2 (so +-inf with itself is itself), NaN propagates. Branch-free over the vmath functions:
 * one vectorised pass (the composite of numr/ops/generic/mathx.py takes ten) ---- */
#define NR_LAE(T, ABS, EXP, LOG1P, SCALE, EQ)                                        \
    ((x) == (y) ? (x) + (T)(EQ) : ((x) - (y) != (x) - (y) ? (x) - (y)               \
        : ((x) > (y) ? (x) : (y)) + (T)(SCALE) * LOG1P(EXP(-ABS((x) - (y))))))
#define NR_LN2 0.6931471805599453
#define NR_LOG2E 1.4426950408889634
NR_BINARY_LOOP(nr_b_logaddexp_f32, float, float, NR_LAE(float, fabsf, nr_expf, nr_log1pf, 1.0, NR_LN2))
NR_BINARY_LOOP(nr_b_logaddexp_f64, double, double, NR_LAE(double, fabs, nr_exp, nr_log1p, 1.0, NR_LN2))
NR_BINARY_LOOP(nr_b_logaddexp2_f32, float, float, NR_LAE(float, fabsf, nr_exp2f, nr_log1pf, NR_LOG2E, 1.0))
NR_BINARY_LOOP(nr_b_logaddexp2_f64, double, double, NR_LAE(double, fabs, nr_exp2, nr_log1p, NR_LOG2E, 1.0))

/* ---- nan_to_num: p[1] holds (nan, posinf, neginf) in the dtype, read once ---------- */
#define NR_ID(x) (x)
#define NR_DEF_NAN_TO_NUM(S, T, CT, LD)                                          \
    static void nr_b_nan_to_num_##S(char **p, const int64_t *s, int64_t n, const void *ctx) { \
        (void)ctx;                                                                  \
        const T *in = (const T *)p[0], *v = (const T *)p[1];                        \
        T *out = (T *)p[2];                                                         \
        const T rn = v[0], rp = v[1], rm = v[2];                                    \
        const int64_t si = s[0], so = s[2];                                         \
        if (si == 1 && so == 1) {                                                   \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const CT x = LD(in[i]);                                             \
                out[i] = x != x ? rn : (x == (CT)INFINITY ? rp : (x == -(CT)INFINITY ? rm : in[i])); \
            }                                                                       \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const CT x = LD(in[i * si]);                                        \
                out[i * so] = x != x ? rn : (x == (CT)INFINITY ? rp : (x == -(CT)INFINITY ? rm : in[i * si])); \
            }                                                                       \
        }                                                                           \
    }
NR_DEF_NAN_TO_NUM(f32, float, float, NR_ID)
NR_DEF_NAN_TO_NUM(f64, double, double, NR_ID)
NR_DEF_NAN_TO_NUM(f16, nr_f16, float, nr_f16_to_f32)
NR_DEF_NAN_TO_NUM(bf16, nr_bf16, float, nr_bf16_to_f32)
NR_DEF_NAN_TO_NUM(f8e4m3, nr_f8e4m3, float, nr_f8e4m3_to_f32)
NR_DEF_NAN_TO_NUM(f8e5m2, nr_f8e5m2, float, nr_f8e5m2_to_f32)

/* ---- frexp: mantissa in [0.5, 1) with x's sign, int32 exponent; 0, inf, NaN give (x, 0) ---- */
#define NR_DEF_FREXP(S, T, CT, LD, ST, FR)                                           \
    static void nr_b_frexp_##S(char **p, const int64_t *s, int64_t n, const void *ctx) { \
        (void)ctx;                                                                  \
        const T *in = (const T *)p[0];                                              \
        T *m = (T *)p[1];                                                           \
        int32_t *e = (int32_t *)p[2];                                               \
        for (int64_t i = 0; i < n; ++i) {                                           \
            int ex = 0;                                                             \
            const CT x = LD(in[i * s[0]]);                                          \
            const CT r = FR(x, &ex);                                                \
            m[i * s[1]] = x == x ? ST(r) : in[i * s[0]];  /* a NaN keeps its payload */ \
            e[i * s[2]] = (x == x && x - x == 0) ? ex : 0;                          \
        }                                                                           \
    }
NR_DEF_FREXP(f32, float, float, NR_ID, NR_ID, frexpf)
NR_DEF_FREXP(f64, double, double, NR_ID, NR_ID, frexp)
NR_DEF_FREXP(f16, nr_f16, float, nr_f16_to_f32, nr_f32_to_f16, frexpf)
NR_DEF_FREXP(bf16, nr_bf16, float, nr_bf16_to_f32, nr_f32_to_bf16, frexpf)

#define NR_REG_MATHX_INT(code, S)                                                     \
    do {                                                                              \
        NR_REG_B(fmod, code, nr_b_fmod_##S); NR_REG_B(gcd, code, nr_b_gcd_##S);       \
        NR_REG_B(lcm, code, nr_b_lcm_##S);                                            \
    } while (0)
#define NR_REG_MATHX_FLOAT(code, S)                                                   \
    do {                                                                              \
        NR_REG_B(fmod, code, nr_b_fmod_##S); NR_REG_B(copysign, code, nr_b_copysign_##S); \
        NR_REG_B(nextafter, code, nr_b_nextafter_##S); NR_REG_B(ldexp, code, nr_b_ldexp_##S); \
        NR_REG_B(nan_to_num, code, nr_b_nan_to_num_##S); NR_REG_B(frexp, code, nr_b_frexp_##S); \
        NR_REG_B(logaddexp, code, nr_b_logaddexp_##S); NR_REG_B(logaddexp2, code, nr_b_logaddexp2_##S); \
    } while (0)

static void nr_binary_init_mathx(void) {
    NR_REG_MATHX_FLOAT(NR_F32, f32);
    NR_REG_MATHX_FLOAT(NR_F64, f64);
    NR_REG_MATHX_INT(13, i8); NR_REG_MATHX_INT(12, i16); NR_REG_MATHX_INT(11, i32); NR_REG_MATHX_INT(10, i64);
    NR_REG_MATHX_INT(23, u8); NR_REG_MATHX_INT(22, u16); NR_REG_MATHX_INT(21, u32); NR_REG_MATHX_INT(20, u64);
    NR_REG_B(nextafter, NR_F16, nr_b_nextafter_f16); NR_REG_B(nextafter, NR_BF16, nr_b_nextafter_bf16);
    NR_REG_B(frexp, NR_F16, nr_b_frexp_f16); NR_REG_B(frexp, NR_BF16, nr_b_frexp_bf16);
    NR_REG_B(nan_to_num, NR_F16, nr_b_nan_to_num_f16); NR_REG_B(nan_to_num, NR_BF16, nr_b_nan_to_num_bf16);
    NR_REG_B(nan_to_num, NR_F8E4M3, nr_b_nan_to_num_f8e4m3);
    NR_REG_B(nan_to_num, NR_F8E5M2, nr_b_nan_to_num_f8e5m2);
}

#endif
