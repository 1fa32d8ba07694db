/* numr dtypes for C kernels: codes, storage types, low-precision and complex helpers.
 *
 * API (everything is static inline / a macro; include this header from any kernel):
 *
 *   enum nr_dtype_code      NR_F64=0 NR_F32=1 NR_F16=2 NR_BF16=3 NR_F8E4M3=4 NR_F8E5M2=5
 *                           NR_I64=10 NR_I32=11 NR_I16=12 NR_I8=13 NR_U64=20 NR_U32=21
 *                           NR_U16=22 NR_U8=23 NR_BOOL=30 NR_C64=40 NR_C128=41
 *                           (equal to numr/dtypes.py's DType.code)
 *   nr_itemsize(code)       bytes per element (0 for an unknown code)
 *   nr_dense_index(code)    0..16, a dense index for tables (-1 for an unknown code);
 *                           NR_NUM_DTYPES = 17
 *
 *   Storage types: nr_f16, nr_bf16 (uint16_t bits), nr_f8e4m3, nr_f8e5m2 (uint8_t bits),
 *   nr_bool (uint8_t, 0 or 1; readers treat any non-zero byte as true),
 *   nr_c64 (float _Complex), nr_c128 (double _Complex).
 *
 *   Low precision <-> float32 (all round to nearest even, bit-exact with NumPy for float16
 *   and with ml_dtypes for bfloat16/float8, NaN stays NaN with its sign):
 *     float    nr_f16_to_f32(nr_f16)        nr_f16  nr_f32_to_f16(float)
 *     nr_f16   nr_f64_to_f16(double)        one correct rounding (as NumPy): via float32
 *                                           rounded to odd, which keeps the result exact
 *     float    nr_bf16_to_f32(nr_bf16)      nr_bf16 nr_f32_to_bf16(float)
 *     float    nr_f8e4m3_to_f32(nr_f8e4m3)  nr_f8e4m3 nr_f32_to_f8e4m3(float)
 *     float    nr_f8e5m2_to_f32(nr_f8e5m2)  nr_f8e5m2 nr_f32_to_f8e5m2(float)
 *   float8_e4m3fn has no infinity: +-inf and values that round past 448 become NaN
 *   (0x7f / 0xff), as ml_dtypes does; float8_e5m2 overflows to +-inf.
 *   float64 -> bfloat16/float8 goes through float32 (what ml_dtypes does, so results match
 *   it bit for bit; a value within 2**-24 relative of a rounding tie can round differently
 *   from one correct rounding).
 *
 *   Complex: NR_C64(re, im), NR_C128(re, im) build values; NR_CREAL(z), NR_CIMAG(z) read
 *   the parts (GCC/Clang __real__/__imag__, no <complex.h> needed).
 *
 *   nr_f32_bits(f) / nr_bits_f32(u), nr_f64_bits(d) / nr_bits_f64(u): type punning.
 */
#ifndef NUMR_DTYPES_H
#define NUMR_DTYPES_H

#include <stdint.h>
#include <string.h>
#if defined(__AVX512F__) || defined(__F16C__)
#include <immintrin.h>
#endif

enum nr_dtype_code {
    NR_F64 = 0, NR_F32 = 1, NR_F16 = 2, NR_BF16 = 3, NR_F8E4M3 = 4, NR_F8E5M2 = 5,
    NR_I64 = 10, NR_I32 = 11, NR_I16 = 12, NR_I8 = 13,
    NR_U64 = 20, NR_U32 = 21, NR_U16 = 22, NR_U8 = 23,
    NR_BOOL = 30, NR_C64 = 40, NR_C128 = 41
};
#define NR_NUM_DTYPES 17

typedef uint16_t nr_f16;
typedef uint16_t nr_bf16;
typedef uint8_t nr_f8e4m3;
typedef uint8_t nr_f8e5m2;
typedef uint8_t nr_bool;
typedef float _Complex nr_c64;
typedef double _Complex nr_c128;

#define NR_C64(re, im) __builtin_complex((float)(re), (float)(im))
#define NR_C128(re, im) __builtin_complex((double)(re), (double)(im))
#define NR_CREAL(z) (__real__(z))
#define NR_CIMAG(z) (__imag__(z))

static inline int nr_itemsize(int code) {
    switch (code) {
    case NR_F64: case NR_I64: case NR_U64: case NR_C64: return 8;
    case NR_F32: case NR_I32: case NR_U32: return 4;
    case NR_F16: case NR_BF16: case NR_I16: case NR_U16: return 2;
    case NR_F8E4M3: case NR_F8E5M2: case NR_I8: case NR_U8: case NR_BOOL: return 1;
    case NR_C128: return 16;
    default: return 0;
    }
}

static inline int nr_dense_index(int code) {
    switch (code) {
    case NR_F64: return 0; case NR_F32: return 1; case NR_F16: return 2; case NR_BF16: return 3;
    case NR_F8E4M3: return 4; case NR_F8E5M2: return 5;
    case NR_I64: return 6; case NR_I32: return 7; case NR_I16: return 8; case NR_I8: return 9;
    case NR_U64: return 10; case NR_U32: return 11; case NR_U16: return 12; case NR_U8: return 13;
    case NR_BOOL: return 14; case NR_C64: return 15; case NR_C128: return 16;
    default: return -1;
    }
}

static inline uint32_t nr_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float nr_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t nr_f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double nr_bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* x is NaN, for any real type (0 for integers). Not `x != x`: on a float converted from
 * float16, GCC narrows that to a float16 compare, which without AVX512-FP16 is a libgcc
 * call per element (float16 clamp ran at 10 ns an element); __builtin_isnan is not narrowed. */
#define NR_ISNAN(x) _Generic((x), float: __builtin_isnan((float)(x)), \
                             double: __builtin_isnan((double)(x)), default: 0)

/* ---- shared helpers for small IEEE-like formats (M mantissa bits, exponent bias B) ---- */

/* Round a finite, non-NaN float magnitude (bits `a`, sign cleared) to nearest even in a
 * format with M mantissa bits and bias B. Returns the magnitude code, which may exceed the
 * largest finite code: the caller maps that to inf or NaN. Float subnormals round to 0
 * (they are far below every target's smallest subnormal except bfloat16's, which has its
 * own routine). */
static inline uint32_t nr__round_small(uint32_t a, int M, int B) {
    if ((a >> 23) == 0) return 0;
    int32_t e = (int32_t)(a >> 23) - 127 + B;
    uint32_t m = (a & 0x7fffffu) | 0x800000u;
    int shift = e >= 1 ? 23 - M : 23 - M + 1 - e;
    if (shift > 24) return 0;
    uint32_t v = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (v & 1u))) v++;
    if (e >= 1) v += (uint32_t)(e - 1) << M;
    return v;
}

/* Decode a magnitude code (sign removed) of a format with M mantissa bits and bias B whose
 * exponent field is not the special all-ones one. Exact in float. */
static inline float nr__decode_small(uint32_t c, int M, int B) {
    uint32_t e = c >> M, m = c & ((1u << M) - 1u);
    if (e == 0) /* subnormal: m * 2**(1 - B - M) */
        return (float)m * nr_bits_f32((uint32_t)(127 + 1 - B - M) << 23);
    return nr_bits_f32(((e - B + 127) << 23) | (m << (23 - M)));
}

/* float64 -> float32 rounded to odd: truncate toward zero, then set the last bit when inexact.
 * Rounding that value again to a format with <= 22 significant bits gives the correctly
 * rounded result of the double (no double-rounding error); branch-free so loops vectorise. */
static inline float nr__f64_to_f32_odd(double d) {
    float f = (float)d;
    double back = (double)f;
    uint32_t b = nr_f32_bits(f);
    b -= (uint32_t)(__builtin_fabs(back) > __builtin_fabs(d)); /* rounded away from zero: step back */
    b |= (uint32_t)(back != d);                                 /* inexact (or NaN): sticky bit */
    return nr_bits_f32(b);
}

/* ---- float16 ----
 * Branch-free bit arithmetic (after Maratyszcza's FP16 library), so that loops over float16
 * vectorise: GCC 12 vectorises no _Float16 conversion without AVX512-FP16. Bit-identical to
 * the IEEE conversions (round to nearest even; NaN quieted, payload kept), checked over all
 * 2**16 and all 2**32 inputs. */
static inline float nr_f16_to_f32(nr_f16 h) {
    const uint32_t w = (uint32_t)h << 16, two_w = w + w;
    /* normal, inf and NaN: the exponent rebiased by 224, then scaled by 2**-112 */
    const float normal = nr_bits_f32((two_w >> 4) + (0xE0u << 23)) * 0x1.0p-112f;
    /* subnormal: the mantissa under the exponent of 0.5, minus 0.5 (exact) */
    const float sub = nr_bits_f32((two_w >> 17) | (126u << 23)) - 0.5f;
    const uint32_t mag = two_w < (1u << 27) ? nr_f32_bits(sub) : nr_f32_bits(normal);
    return nr_bits_f32((w & 0x80000000u) | mag);
}
static inline nr_f16 nr_f32_to_f16(float f) {
    const uint32_t w = nr_f32_bits(f), two_w = w + w;
    /* |f| scaled so that one float32 addition below rounds it to float16's precision */
    float base = (__builtin_fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
    const uint32_t e = two_w & 0xFF000000u;
    const uint32_t bias = e > 0x71000000u ? e : 0x71000000u;
    base = nr_bits_f32((bias >> 1) + 0x07800000u) + base;
    const uint32_t b = nr_f32_bits(base);
    const uint32_t nonsign = ((b >> 13) & 0x7C00u) + (b & 0x0FFFu);
    const uint32_t nan = 0x7E00u | ((w >> 13) & 0x1FFu);            /* quiet, payload kept */
    const uint32_t m = 0u - (uint32_t)(two_w > 0xFF000000u);         /* NaN */
    return (nr_f16)(((w >> 16) & 0x8000u) | (nan & m) | (nonsign & ~m));
}
/* n contiguous float16 <-> float32, for the loops that convert whole blocks: F16C's
 * vcvtph2ps / vcvtps2ph where the target has them (one instruction per 8 or 16 values; the
 * same IEEE results as the bit arithmetic, which handles the tail and other targets). */
static inline void nr_f16_to_f32_n(const nr_f16 *src, float *dst, int64_t n) {
    int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(dst + i, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(src + i))));
#elif defined(__F16C__)
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
#endif
    for (; i < n; ++i) dst[i] = nr_f16_to_f32(src[i]);
}
static inline void nr_f32_to_f16_n(const float *src, nr_f16 *dst, int64_t n) {
    int64_t i = 0;
#if defined(__AVX512F__)
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256((__m256i *)(dst + i),
                            _mm512_cvtps_ph(_mm512_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#elif defined(__F16C__)
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(dst + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
#endif
    for (; i < n; ++i) dst[i] = nr_f32_to_f16(src[i]);
}

/* float64 -> float16 with one rounding (via float32 rounded to odd). */
static inline nr_f16 nr_f64_to_f16(double d) { return nr_f32_to_f16(nr__f64_to_f32_odd(d)); }

/* ---- bfloat16 ---- */
static inline float nr_bf16_to_f32(nr_bf16 h) { return nr_bits_f32((uint32_t)h << 16); }
static inline nr_bf16 nr_f32_to_bf16(float f) {
    uint32_t u = nr_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (nr_bf16)(((u >> 16) & 0x8000u) | 0x7fc0u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (nr_bf16)(u >> 16);
}

/* ---- float8_e4m3fn: bias 7, 3 mantissa bits, no inf, NaN = S.1111.111, max 448 ---- */
static inline float nr_f8e4m3_to_f32(nr_f8e4m3 c) {
    uint32_t s = (uint32_t)(c & 0x80u) << 24, a = c & 0x7fu;
    if (a == 0x7fu) return nr_bits_f32(s | 0x7fc00000u);
    return nr_bits_f32(s | nr_f32_bits(nr__decode_small(a, 3, 7)));
}
static inline nr_f8e4m3 nr_f32_to_f8e4m3(float f) {
    uint32_t u = nr_f32_bits(f), a = u & 0x7fffffffu;
    uint8_t s = (uint8_t)((u >> 24) & 0x80u);
    if (a >= 0x7f800000u) return s | 0x7fu;
    uint32_t c = nr__round_small(a, 3, 7);
    return s | (uint8_t)(c > 0x7eu ? 0x7fu : c);
}

/* ---- float8_e5m2: bias 15, 2 mantissa bits, IEEE inf/NaN ---- */
static inline float nr_f8e5m2_to_f32(nr_f8e5m2 c) {
    uint32_t s = (uint32_t)(c & 0x80u) << 24, a = c & 0x7fu;
    if (a == 0x7cu) return nr_bits_f32(s | 0x7f800000u);
    if (a > 0x7cu) return nr_bits_f32(s | 0x7fc00000u);
    return nr_bits_f32(s | nr_f32_bits(nr__decode_small(a, 2, 15)));
}
static inline nr_f8e5m2 nr_f32_to_f8e5m2(float f) {
    uint32_t u = nr_f32_bits(f), a = u & 0x7fffffffu;
    uint8_t s = (uint8_t)((u >> 24) & 0x80u);
    if (a > 0x7f800000u) return s | 0x7eu;
    if (a == 0x7f800000u) return s | 0x7cu;
    uint32_t c = nr__round_small(a, 2, 15);
    return s | (uint8_t)(c > 0x7cu ? 0x7cu : c);
}

#endif
