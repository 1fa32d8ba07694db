/* Unary element-wise kernels: one inner loop per (op, dtype code), in a table
 * filled by nr_unary_init(). Float32 transcendentals use the vectorised vmath*.h,
 * float64 too (vmath_f64*.h, vmath_hyp.h, vmath_cbrt.h); the rest
 * call libm per element or are plain expressions.
 * Integers wrap (two's complement); bool is stored as 0/1 bytes.
 * Complex loops are in unary_complex.h; float16/bfloat16/float8 run the
 * float32 loops through the adapter in binary_lowp.h.
 */
#ifndef NUMR_UNARY_OPS_H
#define NUMR_UNARY_OPS_H

#include <math.h>
#include <stdint.h>
#include "binary_iter.h"
#include "vmath_trig.h"
#include "vmath_atan.h"
#include "vmath_f64.h"
#include "vmath_f64_trig.h"
#include "vmath_f64_atan.h"
#include "vmath_hyp.h"
#include "vmath_cbrt.h"

#define NR_UNARY_OPS(X) X(neg) X(abs) X(sign) X(sqrt) X(rsqrt) X(square) X(cbrt) X(reciprocal) \
    X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) X(asin)      \
    X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(floor) X(ceil)        \
    X(round) X(trunc) X(isnan) X(isinf) X(isfinite) X(bitwise_not) X(logical_not) \
    X(signbit)

#define NR_ENUM_U(name) NR_U_##name,
enum { NR_UNARY_OPS(NR_ENUM_U) NR_U_COUNT };
#define NR_NAME_U(name) #name,
static const char *const nr_unary_names[] = {NR_UNARY_OPS(NR_NAME_U)};

static nr_loop_fn nr_unary_table[NR_U_COUNT][NR_NCODES];

/* A unary loop that recomputes rare inputs (BAD) with a scalar function (SLOW). */
#define NR_UNARY_LOOP_FIX(name, T, EXPR, BAD, SLOW)                                  \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *in = (const T *)p[0];                                              \
        T *out = (T *)p[1];                                                         \
        const int64_t si = s[0], so = s[1];                                         \
        if (si == 1 && so == 1) {                                                   \
            int any = 0;                                                            \
            _Pragma("omp simd reduction(|:any)") for (int64_t i = 0; i < n; ++i) {  \
                const T x = in[i];                                                  \
                out[i] = (EXPR);                                                    \
                any |= (BAD);                                                       \
            }                                                                       \
            if (any)                                                                \
                for (int64_t i = 0; i < n; ++i) {                                   \
                    const T x = in[i];                                              \
                    if (BAD) out[i] = (SLOW);                                       \
                }                                                                   \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const T x = in[i * si];                                             \
                out[i * so] = (BAD) ? (SLOW) : (EXPR);                              \
            }                                                                       \
        }                                                                           \
    }

/* ---- float32 / float64 ----------------------------------------------------- */
#define NR_SIGN_F(x) ((x) > 0 ? 1 : ((x) < 0 ? -1 : (x)))

#define NR_DEF_FLOAT_UNARY(T, S, LM)                                                  \
    NR_UNARY_LOOP(nr_u_neg_##S, T, T, -x)                                            \
    NR_UNARY_LOOP(nr_u_abs_##S, T, T, fabs##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_sign_##S, T, T, NR_SIGN_F(x))                                 \
    NR_UNARY_LOOP(nr_u_sqrt_##S, T, T, sqrt##LM(x))                                  \
    NR_UNARY_LOOP(nr_u_rsqrt_##S, T, T, (T)1 / sqrt##LM(x))                          \
    NR_UNARY_LOOP(nr_u_square_##S, T, T, x * x)                                      \
    NR_UNARY_LOOP(nr_u_reciprocal_##S, T, T, (T)1 / x)                               \
    NR_UNARY_LOOP(nr_u_floor_##S, T, T, floor##LM(x))                                \
    NR_UNARY_LOOP(nr_u_ceil_##S, T, T, ceil##LM(x))                                  \
    NR_UNARY_LOOP(nr_u_round_##S, T, T, rint##LM(x))                                 \
    NR_UNARY_LOOP(nr_u_trunc_##S, T, T, trunc##LM(x))                                \
    NR_UNARY_LOOP(nr_u_isnan_##S, T, uint8_t, x != x)                                \
    NR_UNARY_LOOP(nr_u_isinf_##S, T, uint8_t, fabs##LM(x) == (T)INFINITY)           \
    NR_UNARY_LOOP(nr_u_isfinite_##S, T, uint8_t, fabs##LM(x) < (T)INFINITY)         \
    NR_UNARY_LOOP(nr_u_logical_not_##S, T, uint8_t, x == 0)                         \
    NR_UNARY_LOOP(nr_u_signbit_##S, T, uint8_t, signbit(x) != 0)

NR_DEF_FLOAT_UNARY(float, f32, f)
NR_DEF_FLOAT_UNARY(double, f64, )

/* the transcendentals: float32 all vectorised (vmath*.h), float64 those named nr_* (the rest
 * is libm). sin/cos/tan of |x| >= NR_TRIG_BIG / NR_TRIG_BIG_D (and inf) are redone with libm. */
#define NR_TRIG_BAD(x) ((!(fabsf(x) < NR_TRIG_BIG)) & ((x) == (x)))
#define NR_TRANSCENDENTALS(X)                                                          \
    X(cbrt, nr_cbrtf, nr_cbrt) X(asinh, nr_asinhf, nr_asinh) X(acosh, nr_acoshf, nr_acosh) \
    X(atanh, nr_atanhf, nr_atanh)                                                      \
    X(exp, nr_expf, nr_exp) X(exp2, nr_exp2f, nr_exp2) X(expm1, nr_expm1f, nr_expm1)     \
    X(log, nr_logf, nr_log) X(log2, nr_log2f, nr_log2) X(log10, nr_log10f, nr_log10)    \
    X(log1p, nr_log1pf, nr_log1p) X(tanh, nr_tanhf, nr_tanh) X(sinh, nr_sinhf, nr_sinh) \
    X(cosh, nr_coshf, nr_cosh) X(atan, nr_atanf, nr_atan) X(asin, nr_asinf, nr_asin)    \
    X(acos, nr_acosf, nr_acos)
#define NR_DEF_TRANSCENDENTAL(op, F32, F64)                                            \
    NR_UNARY_LOOP(nr_u_##op##_f32, float, float, F32(x))                             \
    NR_UNARY_LOOP(nr_u_##op##_f64, double, double, F64(x))
NR_TRANSCENDENTALS(NR_DEF_TRANSCENDENTAL)
NR_UNARY_LOOP_FIX(nr_u_sin_f32, float, nr_sinf(x), NR_TRIG_BAD(x), sinf(x))
NR_UNARY_LOOP_FIX(nr_u_cos_f32, float, nr_cosf(x), NR_TRIG_BAD(x), cosf(x))
NR_UNARY_LOOP_FIX(nr_u_tan_f32, float, nr_tanf(x), NR_TRIG_BAD(x), tanf(x))
NR_UNARY_LOOP_FIX(nr_u_sin_f64, double, nr_sin(x), NR_TRIG_BAD_D(x), sin(x))
NR_UNARY_LOOP_FIX(nr_u_cos_f64, double, nr_cos(x), NR_TRIG_BAD_D(x), cos(x))
NR_UNARY_LOOP_FIX(nr_u_tan_f64, double, nr_tan(x), NR_TRIG_BAD_D(x), tan(x))

/* ---- integers and bool --------------------------------------------------------
 * Loops that only depend on the bits are shared by intN and uintN (W: the
 * unsigned type arithmetic is done in, wide enough that C does not promote
 * to signed int). */
#define NR_DEF_BITS_UNARY(U, W, S)                                                    \
    NR_UNARY_LOOP(nr_u_neg_##S, U, U, (W)0 - (W)x)                                   \
    NR_UNARY_LOOP(nr_u_square_##S, U, U, (W)x * (W)x)                                \
    NR_UNARY_LOOP(nr_u_copy_##S, U, U, x)                                            \
    NR_UNARY_LOOP(nr_u_bitwise_not_##S, U, U, ~x)                                    \
    NR_UNARY_LOOP(nr_u_false_##S, U, uint8_t, 0 * x)                                 \
    NR_UNARY_LOOP(nr_u_true_##S, U, uint8_t, 1 + 0 * x)                              \
    NR_UNARY_LOOP(nr_u_logical_not_##S, U, uint8_t, x == 0)

NR_DEF_BITS_UNARY(uint8_t, uint32_t, b8)
NR_DEF_BITS_UNARY(uint16_t, uint32_t, b16)
NR_DEF_BITS_UNARY(uint32_t, uint32_t, b32)
NR_DEF_BITS_UNARY(uint64_t, uint64_t, b64)

#define NR_DEF_SIGNED_UNARY(T, U, S)                                                  \
    NR_UNARY_LOOP(nr_u_abs_##S, T, T, x < 0 ? (T)((U)0 - (U)x) : x)                  \
    NR_UNARY_LOOP(nr_u_sign_##S, T, T, (x > 0) - (x < 0))                            \
    NR_UNARY_LOOP(nr_u_signbit_##S, T, uint8_t, x < 0)

NR_DEF_SIGNED_UNARY(int8_t, uint8_t, i8)
NR_DEF_SIGNED_UNARY(int16_t, uint16_t, i16)
NR_DEF_SIGNED_UNARY(int32_t, uint32_t, i32)
NR_DEF_SIGNED_UNARY(int64_t, uint64_t, i64)

#define NR_DEF_UNSIGNED_UNARY(U, S) NR_UNARY_LOOP(nr_u_sign_##S, U, U, x != 0)
NR_DEF_UNSIGNED_UNARY(uint8_t, u8)
NR_DEF_UNSIGNED_UNARY(uint16_t, u16)
NR_DEF_UNSIGNED_UNARY(uint32_t, u32)
NR_DEF_UNSIGNED_UNARY(uint64_t, u64)

NR_UNARY_LOOP(nr_u_not_bool, uint8_t, uint8_t, x == 0)

/* ---- registration -------------------------------------------------------------- */
#define NR_REG_U(op, code, fn) nr_unary_table[NR_U_##op][code] = fn

#define NR_REG_FLOAT_UNARY(code, S)                                                   \
    do {                                                                              \
        NR_REG_U(neg, code, nr_u_neg_##S); NR_REG_U(abs, code, nr_u_abs_##S);         \
        NR_REG_U(sign, code, nr_u_sign_##S); NR_REG_U(sqrt, code, nr_u_sqrt_##S);     \
        NR_REG_U(rsqrt, code, nr_u_rsqrt_##S); NR_REG_U(square, code, nr_u_square_##S); \
        NR_REG_U(cbrt, code, nr_u_cbrt_##S);                                          \
        NR_REG_U(reciprocal, code, nr_u_reciprocal_##S);                              \
        NR_REG_U(exp, code, nr_u_exp_##S); NR_REG_U(exp2, code, nr_u_exp2_##S);       \
        NR_REG_U(expm1, code, nr_u_expm1_##S); NR_REG_U(log, code, nr_u_log_##S);     \
        NR_REG_U(log2, code, nr_u_log2_##S); NR_REG_U(log10, code, nr_u_log10_##S);   \
        NR_REG_U(log1p, code, nr_u_log1p_##S); NR_REG_U(sin, code, nr_u_sin_##S);     \
        NR_REG_U(cos, code, nr_u_cos_##S); NR_REG_U(tan, code, nr_u_tan_##S);         \
        NR_REG_U(asin, code, nr_u_asin_##S); NR_REG_U(acos, code, nr_u_acos_##S);     \
        NR_REG_U(atan, code, nr_u_atan_##S); NR_REG_U(sinh, code, nr_u_sinh_##S);     \
        NR_REG_U(cosh, code, nr_u_cosh_##S); NR_REG_U(tanh, code, nr_u_tanh_##S);     \
        NR_REG_U(asinh, code, nr_u_asinh_##S); NR_REG_U(acosh, code, nr_u_acosh_##S); \
        NR_REG_U(atanh, code, nr_u_atanh_##S); NR_REG_U(floor, code, nr_u_floor_##S); \
        NR_REG_U(ceil, code, nr_u_ceil_##S); NR_REG_U(round, code, nr_u_round_##S);   \
        NR_REG_U(trunc, code, nr_u_trunc_##S); NR_REG_U(isnan, code, nr_u_isnan_##S); \
        NR_REG_U(isinf, code, nr_u_isinf_##S);                                        \
        NR_REG_U(isfinite, code, nr_u_isfinite_##S);                                  \
        NR_REG_U(logical_not, code, nr_u_logical_not_##S);                            \
        NR_REG_U(signbit, code, nr_u_signbit_##S);                                    \
    } while (0)

/* ops every integer dtype shares by bit width; B: b8..b64 */
#define NR_REG_INT_COMMON(code, B)                                                    \
    do {                                                                              \
        NR_REG_U(neg, code, nr_u_neg_##B); NR_REG_U(square, code, nr_u_square_##B);   \
        NR_REG_U(floor, code, nr_u_copy_##B); NR_REG_U(ceil, code, nr_u_copy_##B);    \
        NR_REG_U(round, code, nr_u_copy_##B); NR_REG_U(trunc, code, nr_u_copy_##B);   \
        NR_REG_U(isnan, code, nr_u_false_##B); NR_REG_U(isinf, code, nr_u_false_##B); \
        NR_REG_U(isfinite, code, nr_u_true_##B);                                      \
        NR_REG_U(bitwise_not, code, nr_u_bitwise_not_##B);                            \
        NR_REG_U(logical_not, code, nr_u_logical_not_##B);                            \
    } while (0)

static void nr_unary_init_real(void) {
    NR_REG_FLOAT_UNARY(1, f32);
    NR_REG_FLOAT_UNARY(0, f64);
    NR_REG_INT_COMMON(13, b8); NR_REG_INT_COMMON(23, b8);
    NR_REG_INT_COMMON(12, b16); NR_REG_INT_COMMON(22, b16);
    NR_REG_INT_COMMON(11, b32); NR_REG_INT_COMMON(21, b32);
    NR_REG_INT_COMMON(10, b64); NR_REG_INT_COMMON(20, b64);
    NR_REG_U(abs, 13, nr_u_abs_i8); NR_REG_U(sign, 13, nr_u_sign_i8); NR_REG_U(signbit, 13, nr_u_signbit_i8);
    NR_REG_U(abs, 12, nr_u_abs_i16); NR_REG_U(sign, 12, nr_u_sign_i16); NR_REG_U(signbit, 12, nr_u_signbit_i16);
    NR_REG_U(abs, 11, nr_u_abs_i32); NR_REG_U(sign, 11, nr_u_sign_i32); NR_REG_U(signbit, 11, nr_u_signbit_i32);
    NR_REG_U(abs, 10, nr_u_abs_i64); NR_REG_U(sign, 10, nr_u_sign_i64); NR_REG_U(signbit, 10, nr_u_signbit_i64);
    NR_REG_U(abs, 23, nr_u_copy_b8); NR_REG_U(sign, 23, nr_u_sign_u8); NR_REG_U(signbit, 23, nr_u_false_b8);
    NR_REG_U(abs, 22, nr_u_copy_b16); NR_REG_U(sign, 22, nr_u_sign_u16); NR_REG_U(signbit, 22, nr_u_false_b16);
    NR_REG_U(abs, 21, nr_u_copy_b32); NR_REG_U(sign, 21, nr_u_sign_u32); NR_REG_U(signbit, 21, nr_u_false_b32);
    NR_REG_U(abs, 20, nr_u_copy_b64); NR_REG_U(sign, 20, nr_u_sign_u64); NR_REG_U(signbit, 20, nr_u_false_b64);
    /* bool (code 30): 0/1 bytes */
    NR_REG_U(abs, 30, nr_u_copy_b8); NR_REG_U(sign, 30, nr_u_copy_b8);
    NR_REG_U(square, 30, nr_u_copy_b8);
    NR_REG_U(floor, 30, nr_u_copy_b8); NR_REG_U(ceil, 30, nr_u_copy_b8);
    NR_REG_U(round, 30, nr_u_copy_b8); NR_REG_U(trunc, 30, nr_u_copy_b8);
    NR_REG_U(isnan, 30, nr_u_false_b8); NR_REG_U(isinf, 30, nr_u_false_b8);
    NR_REG_U(isfinite, 30, nr_u_true_b8); NR_REG_U(signbit, 30, nr_u_false_b8);
    NR_REG_U(bitwise_not, 30, nr_u_not_bool); NR_REG_U(logical_not, 30, nr_u_not_bool);
}

#endif
