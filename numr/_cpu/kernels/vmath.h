/* Branch-free float32 exp, exp2, expm1, log, log2, log10 and log1p that GCC vectorises.
 *
 * glibc's expf/logf are scalar calls (libmvec is only used under -ffast-math,
 * which would break NaN/inf), so element-wise loops over them run at a third
 * of NumPy's speed. These are range reduction + polynomial (Cephes
 * coefficients), written with selects instead of branches so that
 * `#pragma omp simd` loops vectorise; NaN, +-inf, overflow, underflow and
 * subnormal inputs/outputs are handled explicitly. Accuracy (tested against
 * float64 NumPy in tests/ops/test_unary.py): <= 2 ulp.
 * Trigonometric and tanh live in vmath_trig.h.
 */
#ifndef NUMR_VMATH_H
#define NUMR_VMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "dtypes.h" /* nr_f32_bits, nr_bits_f32 */


/* Always inlined: a call left out of line inside an `omp simd` loop stops it
 * vectorising (8x slower), and GCC does leave some out in large units. */
#define NR_VMATH static inline __attribute__((always_inline))

/* NaN and zero tests that GCC cannot narrow to a float16 compare when x was converted from
 * float16 (a libgcc call per element without AVX512-FP16; see NR_ISNAN in dtypes.h) */
#define NR_ISZERO_F32(x) ((nr_f32_bits(x) << 1) == 0u)

#define NR_LOG2E_F 1.44269504088896341f
#define NR_LN2_HI_F 0.693359375f      /* ln 2 split: n*hi is exact for |n| < 2^15 */
#define NR_LN2_LO_F -2.12194440e-4f

/* c ? a : b as a bit blend. Plain selects at the end of a function let GCC
 * sink the whole computation of b into a branch, which then does not
 * if-convert (the FP ops in it might trap) and the loop stays scalar. */
NR_VMATH float nr_sel_f32(int c, float a, float b) {
    const uint32_t m = 0u - (uint32_t)(c != 0);
    return nr_bits_f32((nr_f32_bits(a) & m) | (nr_f32_bits(b) & ~m));
}

NR_VMATH double nr_sel_f64(int c, double a, double b) {
    const uint64_t m = 0u - (uint64_t)(c != 0);
    return nr_bits_f64((nr_f64_bits(a) & m) | (nr_f64_bits(b) & ~m));
}

/* 2**n for an integer n in [-126, 127] (bits built directly). */
NR_VMATH float nr_pow2i_f32(int32_t n) { return nr_bits_f32((uint32_t)(n + 127) << 23); }

/* exp(r) - 1 - r for |r| <= ln2/2, divided by r*r: Cephes expf polynomial. */
NR_VMATH float nr_exp_poly_f32(float r) {
    float p = 1.9875691500E-4f;
    p = p * r + 1.3981999507E-3f;
    p = p * r + 8.3334519073E-3f;
    p = p * r + 4.1665795894E-2f;
    p = p * r + 1.6666665459E-1f;
    p = p * r + 5.0000001201E-1f;
    return p;
}

/* p * 2**n for n in [-151, 129] as an unsigned bit difference (NaN p: any n), in two steps
 * (each exponent in [-76, 65]) so that a subnormal result rounds once. Shared by exp, exp2. */
NR_VMATH float nr__scale2_f32(float p, uint32_t n) {
    const uint32_t n1 = (uint32_t)((int32_t)n >> 1), n2 = n - n1;
    return (p * nr_bits_f32((n1 + 127u) << 23)) * nr_bits_f32((n2 + 127u) << 23);
}

/* e**x. Results below FLT_MIN are correctly scaled subnormals; above
 * ln(FLT_MAX) they overflow to +inf. NaN needs no select: the clamps keep it,
 * it reaches the polynomial, and the exponent bits it yields are only ever
 * multiplied by that NaN. n is read from the bits of the rounded float rather
 * than converted (a NaN conversion would be undefined). */
NR_VMATH float nr_expf(float x) {
    float xc = x > 89.0f ? 89.0f : x;
    xc = xc < -104.0f ? -104.0f : xc;
    const float shifted = xc * NR_LOG2E_F + 12582912.0f;  /* 1.5 * 2**23: rounds to integer */
    const float fn = shifted - 12582912.0f;                /* in [-150, 128] */
    const float r = (xc - fn * NR_LN2_HI_F) - fn * NR_LN2_LO_F;
    const float p = nr_exp_poly_f32(r) * (r * r) + r + 1.0f;
    return nr__scale2_f32(p, nr_f32_bits(shifted) - nr_f32_bits(12582912.0f));
}

/* e**x - 1, accurate near 0: expm1(r) from the same polynomial, then
 * 2**n * expm1(r) + (2**n - 1), exact in float for the n where it matters. */
NR_VMATH float nr_expm1f(float x) {
    const int nan = NR_ISNAN(x);
    float xc = nan ? 0.0f : x;
    xc = xc > 89.0f ? 89.0f : xc;
    xc = xc < -20.0f ? -20.0f : xc;                   /* expm1(-20) rounds to -1 */
    const float fn = rintf(xc * NR_LOG2E_F);           /* in [-29, 128] */
    const float r = (xc - fn * NR_LN2_HI_F) - fn * NR_LN2_LO_F;
    const float pm = nr_exp_poly_f32(r) * (r * r) + r; /* expm1(r) */
    const int32_t n = (int32_t)fn;
    const int32_t nc = n > 24 ? 24 : n;
    const float t = nr_pow2i_f32(nc);
    const float small = t * pm + (t - 1.0f);
    const int32_t n1 = n >> 1, n2 = n - n1;
    const float big = ((pm + 1.0f) * nr_pow2i_f32(n1)) * nr_pow2i_f32(n2) - 1.0f;
    const float y = n > 24 ? big : small;
    return nr_sel_f32(nan | NR_ISZERO_F32(x), x, y); /* NaN, and the sign of zero */
}

/* log's pieces (Cephes logf): x = 2**fe * (1 + m) with 1 + m in [sqrt(1/2), sqrt(2)), and
 * y = log(1 + m) - m from the polynomial. Subnormal inputs are scaled by 2**23 first. */
NR_VMATH float nr__log_parts(float x, float *fe, float *y) {
    /* branch-free: the flags scale by powers of 2 instead of selecting an
     * operation (GCC does not if-convert a conditional FP op that may trap) */
    const uint32_t sub = x < 1.17549435e-38f;
    const float xs = x * nr_bits_f32(0x3f800000u + sub * (23u << 23)); /* * 2**23 */
    const uint32_t u = nr_f32_bits(xs);
    float m = nr_bits_f32((u & 0x007fffffu) | 0x3f000000u); /* [0.5, 1) */
    const uint32_t lo = m < 0.707106781186547524f;
    m = m * nr_bits_f32(0x3f800000u + (lo << 23)) - 1.0f;     /* * 2 below sqrt(1/2) */
    const int32_t e = (int32_t)((u >> 23) & 0xff) - 126 - (int32_t)lo - 23 * (int32_t)sub;
    *fe = (float)e;
    const float z = m * m;
    float p = 7.0376836292E-2f;
    p = p * m - 1.1514610310E-1f;
    p = p * m + 1.1676998740E-1f;
    p = p * m - 1.2420140846E-1f;
    p = p * m + 1.4249322787E-1f;
    p = p * m - 1.6668057665E-1f;
    p = p * m + 2.0000714765E-1f;
    p = p * m - 2.4999993993E-1f;
    p = p * m + 3.3333331174E-1f;
    *y = p * m * z - 0.5f * z;
    return m;
}

/* log(0) = -inf, log(inf) = inf, log(x < 0) = NaN, NaN stays: shared by log, log2, log10. */
NR_VMATH float nr__log_special(float x, float r) {
    const float special = x == 0.0f ? -INFINITY : (x == INFINITY ? INFINITY : NAN);
    return nr_sel_f32((x == INFINITY) | (x == 0.0f) | (x < 0.0f) | NR_ISNAN(x), special, r);
}

/* Natural log: fe * ln2 added in two parts (hi exact). */
NR_VMATH float nr_logf(float x) {
    float fe, y;
    const float m = nr__log_parts(x, &fe, &y);
    return nr__log_special(x, ((y + NR_LN2_LO_F * fe) + m) + NR_LN2_HI_F * fe);
}

/* log2 (Cephes log2f): (m + y) * log2(e) as m + y + (m + y) * (log2(e) - 1), so that m and fe
 * are added exactly; log2 of a power of two is exact. */
NR_VMATH float nr_log2f(float x) {
    float fe, y;
    const float m = nr__log_parts(x, &fe, &y);
    const float c = 0.44269504088896340736f; /* log2(e) - 1 */
    return nr__log_special(x, (((y * c + m * c) + y) + m) + fe);
}

/* log10 (Cephes log10f): log10(e) and log10(2) each split in two, small parts first. */
NR_VMATH float nr_log10f(float x) {
    float fe, y;
    const float m = nr__log_parts(x, &fe, &y);
    const float e_lo = 7.00731903251827651129E-4f, e_hi = 4.3359375E-1f;  /* log10(e) */
    const float t_lo = 2.48745663981195213739E-4f, t_hi = 3.0078125E-1f;  /* log10(2) */
    const float r = (((((y * e_lo + m * e_lo) + fe * t_lo) + y * e_hi) + m * e_hi) + fe * t_hi);
    return nr__log_special(x, r);
}

/* 2**x: n = rint(x), and 2**(x - n) = e**r with r = (x - n) * ln2 (x - n is exact), so
 * integer x gives 2**x exactly. Same scaling and limits as nr_expf. */
NR_VMATH float nr_exp2f(float x) {
    float xc = x > 129.0f ? 129.0f : x;
    xc = xc < -151.0f ? -151.0f : xc;
    const float shifted = xc + 12582912.0f;                /* 1.5 * 2**23: rounds to integer */
    const float r = (xc - (shifted - 12582912.0f)) * 0.693147180559945309f;
    const float p = nr_exp_poly_f32(r) * (r * r) + r + 1.0f;
    return nr__scale2_f32(p, nr_f32_bits(shifted) - nr_f32_bits(12582912.0f));
}

/* log(1 + x): log(u) plus the rounding error of u = 1 + x, (x - (u - 1)) / u. */
NR_VMATH float nr_log1pf(float x) {
    const float u = 1.0f + x;
    const float c = (x - (u - 1.0f)) / u;
    const float r = nr_logf(u) + c;
    const float special = x == -1.0f ? -INFINITY : x; /* inf, NaN and signed zeros stay */
    return nr_sel_f32((x == INFINITY) | (x == -1.0f) | NR_ISNAN(x) | NR_ISZERO_F32(x), special, r);
}

#endif
