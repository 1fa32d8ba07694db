/* Binary arithmetic kernels: one inner loop per (op, dtype code) in
 * nr_binary_table, filled by nr_binary_init_*(). Semantics are NumPy's, plus
 * numr's rules for what NumPy leaves to warnings: integer x // 0 and x % 0 give
 * 0, integer overflow wraps, integer x ** negative gives 0 except for bases 1
 * and -1. Comparisons and logical ops share the table (binary_compare.h),
 * complex loops are in binary_complex.h.
 */
#ifndef NUMR_BINARY_ARITH_H
#define NUMR_BINARY_ARITH_H

#include <math.h>
#include <stdint.h>
#include "binary_iter.h"
#include "vmath_atan.h"
#include "vmath_f64_atan.h" /* float64 atan2 */
#include "vmath_pow.h"
#include "binary_pow.h"

#define NR_BINARY_OPS(X) X(add) X(sub) X(mul) X(div) X(floor_divide) X(remainder) X(pow)     \
    X(maximum) X(minimum) X(atan2) X(hypot) X(bitwise_and) X(bitwise_or) X(bitwise_xor)        \
    X(eq) X(ne) X(lt) X(le) X(gt) X(ge) X(logical_and) X(logical_or) X(logical_xor) X(fma)       \
    X(fmod) X(copysign) X(nextafter) X(ldexp) X(gcd) X(lcm) X(nan_to_num) X(frexp) X(logaddexp) \
    X(logaddexp2)

#define NR_ENUM_B(name) NR_B_##name,
enum { NR_BINARY_OPS(NR_ENUM_B) NR_B_COUNT };
#define NR_NAME_B(name) #name,
static const char *const nr_binary_names[] = {NR_BINARY_OPS(NR_NAME_B)};

static nr_loop_fn nr_binary_table[NR_B_COUNT][NR_NCODES];
#define NR_REG_B(op, code, fn) nr_binary_table[NR_B_##op][code] = fn

/* ---- float32 / float64 helpers (NumPy's npy_divmod) ---------------------------- */
#define NR_DEF_FLOAT_HELPERS(T, S, LM)                                                \
    static inline T nr_floordiv_##S(T a, T b) {                                       \
        if (!b) return a / b;                                                         \
        T mod = fmod##LM(a, b);                                                       \
        T div = (a - mod) / b;                                                        \
        if (mod && ((b < 0) != (mod < 0))) div -= 1;                                  \
        if (!div) return copysign##LM((T)0, a / b);                                   \
        T fl = floor##LM(div);                                                        \
        return div - fl > (T)0.5 ? fl + 1 : fl;                                       \
    }                                                                                 \
    static inline T nr_remainder_##S(T a, T b) {                                      \
        T mod = fmod##LM(a, b);                                                       \
        if (!b) return mod;                                                           \
        if (mod) return ((b < 0) != (mod < 0)) ? mod + b : mod;                       \
        return copysign##LM((T)0, b);                                                 \
    }

NR_DEF_FLOAT_HELPERS(float, f32, f)
NR_DEF_FLOAT_HELPERS(double, f64, )

/* NaN-propagating max/min */
#define NR_FMAX(x, y) (((x) >= (y) || (x) != (x)) ? (x) : (y))
#define NR_FMIN(x, y) (((x) <= (y) || (x) != (x)) ? (x) : (y))

#define NR_DEF_FLOAT_BINARY(T, S, LM)                                                 \
    NR_BINARY_LOOP(nr_b_add_##S, T, T, x + y)                                        \
    NR_BINARY_LOOP(nr_b_sub_##S, T, T, x - y)                                        \
    NR_BINARY_LOOP(nr_b_mul_##S, T, T, x * y)                                        \
    NR_BINARY_LOOP(nr_b_div_##S, T, T, x / y)                                        \
    NR_BINARY_LOOP_SCALAR(nr_b_floor_divide_##S, T, T, nr_floordiv_##S(x, y))        \
    NR_BINARY_LOOP_SCALAR(nr_b_remainder_##S, T, T, nr_remainder_##S(x, y))          \
    NR_BINARY_LOOP(nr_b_maximum_##S, T, T, NR_FMAX(x, y))                            \
    NR_BINARY_LOOP(nr_b_minimum_##S, T, T, NR_FMIN(x, y))                            \
    NR_TERNARY_LOOP(nr_b_fma_##S, T, fma##LM(x, y, z))

NR_DEF_FLOAT_BINARY(float, f32, f)
NR_DEF_FLOAT_BINARY(double, f64, )

/* pow, atan2, hypot: vectorised (vmath_pow.h, vmath_f64_pow.h, vmath_atan.h,
 * vmath_f64_atan.h); the general pow loops are in binary_pow.h */
NR_BINARY_LOOP(nr_b_atan2_f32, float, float, nr_atan2f(x, y))
NR_BINARY_LOOP(nr_b_hypot_f32, float, float, nr_hypotf(x, y))
NR_DEF_POW_LOOP(f32, float) /* nr_b_pow_f32/f64: shortcuts for x ** 0.5, 1, -1 (binary_pow.h) */
NR_DEF_POW_LOOP(f64, double)
NR_BINARY_LOOP(nr_b_atan2_f64, double, double, nr_atan2(x, y))
#if defined(__AVX2__)
NR_BINARY_LOOP(nr_b_hypot_f64, double, double, nr_hypot(x, y))
#else /* SSE2 only (NUMR_PORTABLE) or not x86: that loop stays scalar, slower than libm's hypot */
NR_BINARY_LOOP_SCALAR(nr_b_hypot_f64, double, double, hypot(x, y))
#endif

/* ---- integers ---------------------------------------------------------------------
 * add/sub/mul/fma/bitwise only depend on the bits: one loop per width (U: the
 * unsigned type, W: unsigned arithmetic type wide enough to avoid promotion to int). */
#define NR_DEF_BITS_BINARY(U, W, B)                                                   \
    NR_BINARY_LOOP(nr_b_add_##B, U, U, (W)x + (W)y)                                  \
    NR_BINARY_LOOP(nr_b_sub_##B, U, U, (W)x - (W)y)                                  \
    NR_BINARY_LOOP(nr_b_mul_##B, U, U, (W)x * (W)y)                                  \
    NR_BINARY_LOOP(nr_b_and_##B, U, U, x & y)                                        \
    NR_BINARY_LOOP(nr_b_or_##B, U, U, x | y)                                         \
    NR_BINARY_LOOP(nr_b_xor_##B, U, U, x ^ y)                                        \
    NR_TERNARY_LOOP(nr_b_fma_##B, U, (W)x * (W)y + (W)z)

NR_DEF_BITS_BINARY(uint8_t, uint32_t, b8)
NR_DEF_BITS_BINARY(uint16_t, uint32_t, b16)
NR_DEF_BITS_BINARY(uint32_t, uint32_t, b32)
NR_DEF_BITS_BINARY(uint64_t, uint64_t, b64)

/* x ** e by square-and-multiply in 64-bit wrapping arithmetic (the low bits
 * are the same as in the narrow type). Negative e: 0 except for bases +-1. */
static inline int64_t nr_ipow_s(int64_t x, int64_t e) {
    if (e < 0) return x == 1 ? 1 : (x == -1 ? ((e & 1) ? -1 : 1) : 0);
    uint64_t r = 1, b = (uint64_t)x;
    while (e) {
        if (e & 1) r *= b;
        b *= b;
        e >>= 1;
    }
    return (int64_t)r;
}

static inline uint64_t nr_ipow_u(uint64_t b, uint64_t e) {
    uint64_t r = 1;
    while (e) {
        if (e & 1) r *= b;
        b *= b;
        e >>= 1;
    }
    return r;
}

/* floor division and Python-style remainder; x // 0 = x % 0 = 0; MIN // -1 wraps */
#define NR_SFLOORDIV(T, U, x, y)                                                      \
    ((y) == 0 ? (T)0 : ((y) == -1 ? (T)((U)0 - (U)(x))                                \
        : (T)((x) / (y) - (((x) % (y) != 0) & (((x) < 0) != ((y) < 0))))))
#define NR_SREM(T, x, y)                                                              \
    ((y) == 0 || (y) == -1 ? (T)0                                                     \
        : (T)((x) % (y) + ((((x) % (y) != 0) & (((x) % (y) < 0) != ((y) < 0))) ? (y) : 0)))

/* The same for integers of at most 32 bits, in double so that the loop vectorises: x / y
 * rounds to within 2**-20 / |y| of the quotient, and a quotient that is not an integer is
 * at least 1 / |y| from one, so floor is exact; x - y * q is exact too. */
#define NR_FLOORDIV_D(x, y) floor((double)(x) / ((double)(y) == 0.0 ? 1.0 : (double)(y)))
#define NR_DEF_NARROW_DIVISION(T, S)                                                  \
    NR_BINARY_LOOP(nr_b_floor_divide_##S, T, T,                                      \
                   (int64_t)((double)y == 0.0 ? 0.0 : NR_FLOORDIV_D(x, y)))          \
    NR_BINARY_LOOP(nr_b_remainder_##S, T, T,                                         \
                   (int64_t)((double)y == 0.0 ? 0.0 : (double)x - (double)y * NR_FLOORDIV_D(x, y)))

NR_DEF_NARROW_DIVISION(int8_t, i8)
NR_DEF_NARROW_DIVISION(int16_t, i16)
NR_DEF_NARROW_DIVISION(int32_t, i32)
NR_DEF_NARROW_DIVISION(uint8_t, u8)
NR_DEF_NARROW_DIVISION(uint16_t, u16)
NR_DEF_NARROW_DIVISION(uint32_t, u32)
#include "binary_intdiv.h" /* the 64-bit ones: by a scalar through a magic multiplier */

#define NR_DEF_SIGNED_BINARY(T, U, S)                                                 \
    NR_BINARY_LOOP_SCALAR(nr_b_pow_##S, T, T, nr_ipow_s(x, y))                       \
    NR_BINARY_LOOP(nr_b_maximum_##S, T, T, x > y ? x : y)                            \
    NR_BINARY_LOOP(nr_b_minimum_##S, T, T, x < y ? x : y)

NR_DEF_SIGNED_BINARY(int8_t, uint8_t, i8)
NR_DEF_SIGNED_BINARY(int16_t, uint16_t, i16)
NR_DEF_SIGNED_BINARY(int32_t, uint32_t, i32)
NR_DEF_SIGNED_BINARY(int64_t, uint64_t, i64)

#define NR_DEF_UNSIGNED_BINARY(U, S)                                                  \
    NR_BINARY_LOOP_SCALAR(nr_b_pow_##S, U, U, nr_ipow_u(x, y))                       \
    NR_BINARY_LOOP(nr_b_maximum_##S, U, U, x > y ? x : y)                            \
    NR_BINARY_LOOP(nr_b_minimum_##S, U, U, x < y ? x : y)

NR_DEF_UNSIGNED_BINARY(uint8_t, u8)
NR_DEF_UNSIGNED_BINARY(uint16_t, u16)
NR_DEF_UNSIGNED_BINARY(uint32_t, u32)
NR_DEF_UNSIGNED_BINARY(uint64_t, u64)

/* bool (0/1 bytes): add is or, mul is and, fma is (x and y) or z */
NR_TERNARY_LOOP(nr_b_fma_bool, uint8_t, (x & y) | z)

#define NR_REG_FLOAT_BINARY(code, S)                                                  \
    do {                                                                              \
        NR_REG_B(add, code, nr_b_add_##S); NR_REG_B(sub, code, nr_b_sub_##S);         \
        NR_REG_B(mul, code, nr_b_mul_##S); NR_REG_B(div, code, nr_b_div_##S);         \
        NR_REG_B(floor_divide, code, nr_b_floor_divide_##S);                          \
        NR_REG_B(remainder, code, nr_b_remainder_##S); NR_REG_B(pow, code, nr_b_pow_##S); \
        NR_REG_B(maximum, code, nr_b_maximum_##S); NR_REG_B(minimum, code, nr_b_minimum_##S); \
        NR_REG_B(atan2, code, nr_b_atan2_##S); NR_REG_B(hypot, code, nr_b_hypot_##S); \
        NR_REG_B(fma, code, nr_b_fma_##S);                                            \
    } while (0)

#define NR_REG_INT_BINARY(code, B, S)                                                 \
    do {                                                                              \
        NR_REG_B(add, code, nr_b_add_##B); NR_REG_B(sub, code, nr_b_sub_##B);         \
        NR_REG_B(mul, code, nr_b_mul_##B); NR_REG_B(fma, code, nr_b_fma_##B);         \
        NR_REG_B(bitwise_and, code, nr_b_and_##B); NR_REG_B(bitwise_or, code, nr_b_or_##B); \
        NR_REG_B(bitwise_xor, code, nr_b_xor_##B);                                    \
        NR_REG_B(floor_divide, code, nr_b_floor_divide_##S);                          \
        NR_REG_B(remainder, code, nr_b_remainder_##S); NR_REG_B(pow, code, nr_b_pow_##S); \
        NR_REG_B(maximum, code, nr_b_maximum_##S); NR_REG_B(minimum, code, nr_b_minimum_##S); \
    } while (0)

static void nr_binary_init_arith(void) {
    NR_REG_FLOAT_BINARY(1, f32);
    NR_REG_FLOAT_BINARY(0, f64);
    NR_REG_INT_BINARY(13, b8, i8); NR_REG_INT_BINARY(23, b8, u8);
    NR_REG_INT_BINARY(12, b16, i16); NR_REG_INT_BINARY(22, b16, u16);
    NR_REG_INT_BINARY(11, b32, i32); NR_REG_INT_BINARY(21, b32, u32);
    NR_REG_INT_BINARY(10, b64, i64); NR_REG_INT_BINARY(20, b64, u64);
    NR_REG_B(add, 30, nr_b_or_b8); NR_REG_B(mul, 30, nr_b_and_b8);
    NR_REG_B(maximum, 30, nr_b_or_b8); NR_REG_B(minimum, 30, nr_b_and_b8);
    NR_REG_B(bitwise_and, 30, nr_b_and_b8); NR_REG_B(bitwise_or, 30, nr_b_or_b8);
    NR_REG_B(bitwise_xor, 30, nr_b_xor_b8); NR_REG_B(fma, 30, nr_b_fma_bool);
}

#endif
