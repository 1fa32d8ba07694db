/* Complex unary kernels (complex64, complex128), with NumPy's formulas where
 * they differ from C99's: square and reciprocal as NumPy computes them, sign
 * as z/|z| (NumPy 2), abs as hypot into the real dtype. Transcendentals use
 * the C99 complex functions (which NumPy also uses where the platform has them).
 */
#ifndef NUMR_UNARY_COMPLEX_H
#define NUMR_UNARY_COMPLEX_H

#include <complex.h>
#include <math.h>
#include "unary_ops.h"
#include "vmath_pow.h"

#define NR_CDEF(T, C, LM)                                                             \
    static inline C nr_csquare_##LM##_(C z) {                                         \
        T r = creal##LM(z), i = cimag##LM(z);                                         \
        return __builtin_complex((T)(r * r - i * i), (T)(r * i + i * r));              \
    }                                                                                 \
    static inline C nr_crecip_##LM##_(C z) {                                          \
        T r = creal##LM(z), i = cimag##LM(z);                                         \
        if (fabs##LM(i) <= fabs##LM(r)) {                                             \
            T q = i / r, d = r + i * q;                                               \
            return __builtin_complex((T)(1 / d), (T)(-q / d));                        \
        }                                                                             \
        T q = r / i, d = r * q + i;                                                   \
        return __builtin_complex((T)(q / d), (T)(-1 / d));                            \
    }                                                                                 \
    static inline C nr_csign_##LM##_(C z) {                                           \
        T r = creal##LM(z), i = cimag##LM(z), a = hypot##LM(r, i);                   \
        if (isnan(a)) return __builtin_complex((T)NAN, (T)NAN);                       \
        if (isinf(a)) {                                                               \
            if (isinf(r) && isinf(i)) return __builtin_complex((T)NAN, (T)NAN);       \
            if (isinf(r)) return __builtin_complex((T)(r > 0 ? 1 : -1), (T)0);        \
            return __builtin_complex((T)0, (T)(i > 0 ? 1 : -1));                      \
        }                                                                             \
        if (a == 0) return __builtin_complex((T)0, (T)0);                             \
        return __builtin_complex(r / a, i / a);                                       \
    }

NR_CDEF(float, nr_c64, f)
NR_CDEF(double, nr_c128, )

#define NR_DEF_COMPLEX_UNARY(T, C, S, LM, HYPOT)                                      \
    NR_UNARY_LOOP(nr_u_neg_##S, C, C, -x)                                            \
    NR_UNARY_LOOP(nr_u_abs_##S, C, T, HYPOT(creal##LM(x), cimag##LM(x)))             \
    NR_UNARY_LOOP(nr_u_sign_##S, C, C, nr_csign_##LM##_(x))                          \
    NR_UNARY_LOOP(nr_u_square_##S, C, C, nr_csquare_##LM##_(x))                      \
    NR_UNARY_LOOP(nr_u_sqrt_##S, C, C, csqrt##LM(x))                                 \
    NR_UNARY_LOOP(nr_u_exp_##S, C, C, cexp##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_log_##S, C, C, clog##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_reciprocal_##S, C, C, nr_crecip_##LM##_(x))                   \
    NR_UNARY_LOOP(nr_u_sin_##S, C, C, csin##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_cos_##S, C, C, ccos##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_tan_##S, C, C, ctan##LM(x))                                   \
    NR_UNARY_LOOP(nr_u_sinh_##S, C, C, csinh##LM(x))                                 \
    NR_UNARY_LOOP(nr_u_cosh_##S, C, C, ccosh##LM(x))                                 \
    NR_UNARY_LOOP(nr_u_tanh_##S, C, C, ctanh##LM(x))                                 \
    NR_UNARY_LOOP(nr_u_isnan_##S, C, uint8_t, isnan(creal##LM(x)) || isnan(cimag##LM(x))) \
    NR_UNARY_LOOP(nr_u_isinf_##S, C, uint8_t, isinf(creal##LM(x)) || isinf(cimag##LM(x))) \
    NR_UNARY_LOOP(nr_u_isfinite_##S, C, uint8_t,                                     \
                  isfinite(creal##LM(x)) && isfinite(cimag##LM(x)))                  \
    NR_UNARY_LOOP(nr_u_logical_not_##S, C, uint8_t, creal##LM(x) == 0 && cimag##LM(x) == 0)

/* complex64 abs: vmath_pow.h's hypot in double, vectorised */
NR_DEF_COMPLEX_UNARY(float, nr_c64, c64, f, nr_hypotf)
NR_DEF_COMPLEX_UNARY(double, nr_c128, c128, , hypot)

#define NR_REG_COMPLEX_UNARY(code, S)                                                 \
    do {                                                                              \
        NR_REG_U(neg, code, nr_u_neg_##S); NR_REG_U(abs, code, nr_u_abs_##S);         \
        NR_REG_U(sign, code, nr_u_sign_##S); NR_REG_U(square, code, nr_u_square_##S); \
        NR_REG_U(sqrt, code, nr_u_sqrt_##S); NR_REG_U(exp, code, nr_u_exp_##S);       \
        NR_REG_U(log, code, nr_u_log_##S);                                            \
        NR_REG_U(reciprocal, code, nr_u_reciprocal_##S);                              \
        NR_REG_U(sin, code, nr_u_sin_##S); NR_REG_U(cos, code, nr_u_cos_##S);         \
        NR_REG_U(tan, code, nr_u_tan_##S); NR_REG_U(sinh, code, nr_u_sinh_##S);       \
        NR_REG_U(cosh, code, nr_u_cosh_##S); NR_REG_U(tanh, code, nr_u_tanh_##S);     \
        NR_REG_U(isnan, code, nr_u_isnan_##S); NR_REG_U(isinf, code, nr_u_isinf_##S); \
        NR_REG_U(isfinite, code, nr_u_isfinite_##S);                                  \
        NR_REG_U(logical_not, code, nr_u_logical_not_##S);                            \
    } while (0)

static void nr_unary_init_complex(void) {
    NR_REG_COMPLEX_UNARY(40, c64);
    NR_REG_COMPLEX_UNARY(41, c128);
}

#endif
