/* Branch-free float32 math that GCC vectorises (glibc's expf does not without
 * -ffast-math), plus the scalar element functions of every activation in
 * float (float32/float16/bfloat16 compute) and double (float64).
 *
 * nra_expf: Cody-Waite range reduction + cephes degree-6 polynomial, ~1 ulp,
 * +inf for x > 88.72, 0 for x < -103.97, NaN stays NaN.
 * Activations follow their limits at +-inf (silu(-inf) = 0, gelu(-inf) = 0)
 * and never overflow in an intermediate (sigmoid, softplus, GELU tanh form).
 */
#ifndef NUMR_ACTIVATION_VMATH_H
#define NUMR_ACTIVATION_VMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* always inlined: GCC otherwise keeps some out of line in this large TU, and a call
 * inside an `omp simd` loop stops vectorisation (8x slower) */
#define NRA_INLINE static inline __attribute__((always_inline))

NRA_INLINE float nra_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

NRA_INLINE float nra_expf(float x) {
    float xc = x > 88.8f ? 88.8f : x;
    xc = xc < -104.0f ? -104.0f : xc;
    xc = xc == xc ? xc : 0.0f;
    const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f; /* round to int */
    const float r = xc - n * 0.693359375f - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float y = p * r * r + r + 1.0f;
    const int32_t ni = (int32_t)n, h = ni >> 1;
    y = y * nra_bits_f32((uint32_t)(h + 127) << 23) * nra_bits_f32((uint32_t)(ni - h + 127) << 23);
    return x == x ? y : x;
}

/* 1/(1+exp(-x)): exp(-x) is inf or 0 at the extremes, never NaN. */
NRA_INLINE float nra_sigmoidf(float x) { return 1.0f / (1.0f + nra_expf(-x)); }
NRA_INLINE double nra_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Phi(x) = 0.5 * erfc(-x / sqrt(2)) with erfc from Numerical Recipes' erfcc (relative error
 * < 1.2e-7 everywhere); the exponent's z*z is split with an fma so large |x| keeps accuracy. */
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
    const float zz = z * z, zlo = fmaf(z, z, -zz);
    const float ec = t * nra_expf(q - zz) * (1.0f - zlo);
    const float r = x >= 0.0f ? 1.0f - 0.5f * ec : 0.5f * ec;
    return fabsf(x) > 20.0f ? (x > 0.0f ? 1.0f : 0.0f) : r; /* Phi is 0 or 1 in float there */
}
NRA_INLINE double nra_phi(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }

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

NRA_DEFINE_FWD(float, f, nra_expf, nra_sigmoidf, nra_phif, log1pf, expm1f, fabsf)
NRA_DEFINE_FWD(double, d, exp, nra_sigmoid, nra_phi, log1p, expm1, fabs)

#endif
