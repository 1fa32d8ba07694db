/* The scalar element functions of every activation, in float (float32/float16/
 * bfloat16 compute) and double (float64), over vmath's branch-free exp, expm1
 * and log1p so that the float loops vectorise.
 * Activations follow their limits at +-inf (silu(-inf) = 0, gelu(-inf) = 0)
 * and never overflow in an intermediate (sigmoid, softplus, GELU tanh form).
 */
#ifndef NUMR_ACTIVATION_VMATH_H
#define NUMR_ACTIVATION_VMATH_H

#include <math.h>
#include "vmath_hyp.h" /* float64 log1p, expm1 (with vmath_f64.h) */
#include "vmath_erf.h" /* float64 erfc */

#define NRA_INLINE NR_VMATH

/* 1/(1+exp(-x)): exp(-x) is inf or 0 at the extremes, never NaN. Below -88.7 (float) the
 * result, a subnormal, flushes to 0 as in PyTorch: computing e/(1+e) from e = exp(-|x|)
 * would keep it but measured 35% slower. */
NRA_INLINE float nra_sigmoidf(float x) { return 1.0f / (1.0f + nr_expf(-x)); }
NRA_INLINE double nra_sigmoid(double x) { return 1.0 / (1.0 + nr_exp(-x)); }

/* Phi(x) = 0.5 * erfc(-x / sqrt(2)) with erfc from Numerical Recipes' erfcc (relative error
 * < 1.2e-7 everywhere): erfc(z) = t * exp(q(t) - z*z), t = 1/(1 + z/2). The exponent is
 * built from h = x*x/2 rather than from the rounded z, and the rounding errors of x*x and of
 * q - h are carried in a correction factor: far in the tail each would otherwise cost
 * h * 6e-8 of relative accuracy (1e-5 at x = -12). */
NRA_INLINE float nra_phif(float x) {
    const float z = fabsf(x) * 0.70710678118654752f;
    const float t = 1.0f / (1.0f + 0.5f * z);
    float q = 0.17087277f;
    q = q * t - 0.82215223f;
    q = q * t + 1.48851587f;
    q = q * t - 1.13520398f;
    q = q * t + 0.27886807f;
    q = q * t - 0.18628806f;
    q = q * t + 0.09678418f;
    q = q * t + 0.37409196f;
    q = q * t + 1.00002368f;
    q = q * t - 1.26551223f;
    const float xx = x * x, xxlo = fmaf(x, x, -xx);
    const float h = 0.5f * xx, s = q - h;
    const float err = q - (s + h); /* Fast2Sum: exact while h >= |q|, where it matters */
    const float ec = t * nr_expf(s) * fmaf(-0.5f, xxlo, 1.0f + err);
    const float r = x >= 0.0f ? 1.0f - 0.5f * ec : 0.5f * ec;
    return fabsf(x) > 20.0f ? (x > 0.0f ? 1.0f : 0.0f) : r; /* Phi is 0 or 1 in float there */
}
/* float64: fdlibm's erfc, vectorised (vmath_erf.h); its far-tail error is the rounding of -x/sqrt(2) */
NRA_INLINE double nra_phi(double x) { return 0.5 * nr_erfc(-x * 0.70710678118654752440); }

#define NRA_SQRT_2_OVER_PI 0.79788456080286535588
#define NRA_INV_SQRT_2PI 0.39894228040143267794
#define NRA_GELU_C 0.044715

/* ---- forward element functions: T is float or double ---- */
#define NRA_DEFINE_FWD(T, SFX, EXP, SIG, PHI, LOG1P, EXPM1, FABS)                            \
    NRA_INLINE T nra_relu_##SFX(T x) { return x < (T)0 ? (T)0 : x; }                      \
    NRA_INLINE T nra_leaky_##SFX(T x, T a) { return x > (T)0 ? x : x * a; }               \
    NRA_INLINE T nra_elu_##SFX(T x, T a) { return x > (T)0 ? x : a * EXPM1(x); }          \
    NRA_INLINE T nra_sigmoid_##SFX(T x) { return SIG(x); }                                \
    NRA_INLINE T nra_silu_##SFX(T x) { T r = x * SIG(x); return x == -(T)INFINITY ? (T)0 : r; } \
    NRA_INLINE T nra_gelu_##SFX(T x) { T r = x * PHI(x); return x == -(T)INFINITY ? (T)0 : r; } \
    NRA_INLINE T nra_gelut_##SFX(T x) {                                                   \
        T u = (T)(2 * NRA_SQRT_2_OVER_PI) * (x + (T)NRA_GELU_C * x * x * x);                 \
        T r = x * SIG(u);                                                                    \
        return x == -(T)INFINITY ? (T)0 : r;                                                 \
    }                                                                                        \
    NRA_INLINE T nra_softplus_##SFX(T x) {                                                \
        return (x > (T)0 ? x : (T)0) + LOG1P(EXP(-FABS(x)));                                 \
    }                                                                                        \
    /* derivatives (for the fused backward kernels) */                                       \
    NRA_INLINE T nra_dsilu_##SFX(T x) {                                                   \
        T s = SIG(x);                                                                        \
        T r = s * ((T)1 + x * ((T)1 - s));                                                   \
        return FABS(x) > (T)60 ? (x > 0 ? (T)1 : (T)0) : r;                                  \
    }                                                                                        \
    NRA_INLINE T nra_dgelu_##SFX(T x) {                                                   \
        T r = PHI(x) + x * (T)NRA_INV_SQRT_2PI * EXP((T)-0.5 * x * x);                       \
        return FABS(x) > (T)60 ? (x > 0 ? (T)1 : (T)0) : r;                                  \
    }                                                                                        \
    NRA_INLINE T nra_dgelut_##SFX(T x) {                                                  \
        T u2 = (T)(2 * NRA_SQRT_2_OVER_PI) * (x + (T)NRA_GELU_C * x * x * x);                \
        T s = SIG(u2);                                                                       \
        T du2 = (T)(2 * NRA_SQRT_2_OVER_PI) * ((T)1 + (T)(3 * NRA_GELU_C) * x * x);          \
        T r = s + x * s * ((T)1 - s) * du2;                                                  \
        return FABS(x) > (T)60 ? (x > 0 ? (T)1 : (T)0) : r;                                  \
    }

NRA_DEFINE_FWD(float, f, nr_expf, nra_sigmoidf, nra_phif, nr_log1pf, nr_expm1f, fabsf)
/* log1p(e) for e = exp(-|x|) in [0, 1] (or NaN): log1p's core without its special cases (the
 * selects of nr_log1p for -1, inf and tiny inputs made softplus's loop spill registers) */
NRA_INLINE double nra_log1p_unit(double e) {
    const double u = 1.0 + e;
    return nr__log_core(u, (e - (u - 1.0)) / u, 0.0);
}
NRA_DEFINE_FWD(double, d, nr_exp, nra_sigmoid, nra_phi, nra_log1p_unit, nr_expm1, fabs)

#endif
