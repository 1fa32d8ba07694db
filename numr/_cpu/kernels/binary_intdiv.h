/* 64-bit integer floor division and Python-style remainder (int64, uint64).
 *
 * x86 has no vector integer division and a 64-bit `idiv` costs 20-90 cycles, so
 * `x // 7` on int64 ran at a fifth of NumPy's speed. When the divisor is one value
 * for the whole run (a scalar operand: stride 0), it is turned once into a magic
 * number, and each quotient is a multiply-high and shifts (Granlund & Montgomery's
 * method in the form of libdivide's u64 algorithm, with its 65-bit "add" variant).
 * Signed floor division runs the unsigned one on a non-negative numerator:
 * floor(x / d) = ~(~x / d) for x < 0 < d, and -x / |d| or ~((x - 1) / |d|) for d < 0,
 * so no case overflows (MIN // -1 wraps to MIN as before). The remainder is
 * x - q * d in wrapping arithmetic. Other stride patterns divide per element
 * (NR_SFLOORDIV / NR_SREM in binary_arith.h). x // 0 = x % 0 = 0.
 */
#ifndef NUMR_BINARY_INTDIV_H
#define NUMR_BINARY_INTDIV_H

#include <math.h>
#include <stdint.h>
#include "nditer.h" /* nr_abs64 */

/* q = ((mulhi(magic, n) with the add step when `add`) >> shift) = n / d for every n */
typedef struct {
    uint64_t magic;
    int shift, add, one;
} nr_udiv64;

static nr_udiv64 nr_udiv64_gen(uint64_t d) /* d >= 1 */ {
    nr_udiv64 r = {0, 0, 0, d == 1};
    const int l = 63 - __builtin_clzll(d);
    if (d == 1) return r;
    if ((d & (d - 1)) == 0) { /* 2**l: ((n - 0) >> 1 + 0) >> (l - 1) */
        r.add = 1;
        r.shift = l - 1;
        return r;
    }
    const unsigned __int128 num = (unsigned __int128)1 << (64 + l);
    uint64_t m = (uint64_t)(num / d);
    const uint64_t rem = (uint64_t)(num % d);
    if (d - rem >= ((uint64_t)1 << l)) { /* the 64-bit magic is not enough: 65 bits */
        m += m;
        const uint64_t twice = rem + rem;
        m += (twice >= d) | (twice < rem);
        r.add = 1;
    }
    r.magic = m + 1;
    r.shift = l;
    return r;
}

/* the high 64 bits of m * n from 32-bit halves: GCC vectorises these (vpmuludq), not a
 * 128-bit product */
static inline uint64_t nr_mulhi64(uint64_t m, uint64_t n) {
    const uint64_t ml = m & 0xffffffffu, mh = m >> 32, nl = n & 0xffffffffu, nh = n >> 32;
    const uint64_t ll = ml * nl, hl = mh * nl, lh = ml * nh, hh = mh * nh;
    const uint64_t mid = (ll >> 32) + (hl & 0xffffffffu) + (lh & 0xffffffffu);
    return hh + (hl >> 32) + (lh >> 32) + (mid >> 32);
}

static inline uint64_t nr_udiv64_do(const nr_udiv64 *v, uint64_t n) {
    const uint64_t q = nr_mulhi64(v->magic, n);
    const uint64_t t = v->add ? ((n - q) >> 1) + q : q;
    return v->one ? n : t >> v->shift;
}

/* floor(x / d) for d != 0; v divides by |d|. The flip is a mask, not a select: GCC turned
 * selects on the sign of x into a branch, mispredicted half the time on mixed signs. */
static inline int64_t nr_sfloordiv64_by(int64_t x, int64_t d, const nr_udiv64 *v) {
    const uint64_t ux = (uint64_t)x;
    const uint64_t f = d > 0 ? (uint64_t)(x >> 63) : 0 - (uint64_t)(x > 0);
    const uint64_t n = d > 0 ? ux ^ f : ((ux - 1) & f) | ((0 - ux) & ~f);
    return (int64_t)(nr_udiv64_do(v, n) ^ f);
}

/* Per-element signed floor division in double, which vectorises: exact when |x|, |y| <= 2**51.
 * Both convert exactly; x/y rounds to within |x/y| 2**-53 < 1/(4|y|) of the quotient, and a
 * quotient that is not an integer is at least 1/|y| from one, so floor is exact (as for the
 * narrow types in binary_arith.h); q*y and x - q*y are exact integers below 2**52. The
 * conversions are bit tricks (adding 1.5 * 2**52 puts an integer's bits in the low mantissa),
 * since GCC 12 vectorises no int64 <-> double conversion here. *rem gets the Python-style
 * remainder; y == 0 gives 0 for both. Larger operands are redone with NR_SFLOORDIV / NR_SREM. */
#define NR__MAGIC_D 6755399441055744.0 /* 1.5 * 2**52 */
#define NR__BIG64(v) ((uint64_t)(v) + (1ull << 51) > (1ull << 52))
static inline __attribute__((always_inline)) double nr__i64_to_d(int64_t v) {
    return nr_bits_f64(nr_f64_bits(NR__MAGIC_D) + (uint64_t)v) - NR__MAGIC_D;
}
static inline __attribute__((always_inline)) int64_t nr__d_to_i64(double v) {
    return (int64_t)(nr_f64_bits(v + NR__MAGIC_D) - nr_f64_bits(NR__MAGIC_D));
}
static inline __attribute__((always_inline)) int64_t nr__sfloordiv64_d(int64_t x, int64_t y, int64_t *rem) {
    const double xd = nr__i64_to_d(x), yd = nr__i64_to_d(y + (y == 0));
    const double q = floor(xd / yd);
    *rem = y == 0 ? 0 : nr__d_to_i64(xd - q * yd);
    return y == 0 ? 0 : nr__d_to_i64(q);
}
/* the same for uint64 operands up to 2**51 (BIG: NR__BIG64U) */
#define NR__BIG64U(v) ((uint64_t)(v) > (1ull << 51))
static inline __attribute__((always_inline)) uint64_t nr__udiv64_vq(uint64_t x, uint64_t y) {
    int64_t r;
    return (uint64_t)nr__sfloordiv64_d((int64_t)x, (int64_t)y, &r);
}
static inline __attribute__((always_inline)) uint64_t nr__udiv64_vr(uint64_t x, uint64_t y) {
    int64_t r;
    nr__sfloordiv64_d((int64_t)x, (int64_t)y, &r);
    return (uint64_t)r;
}
static inline __attribute__((always_inline)) int64_t nr__sfloordiv64_q(int64_t x, int64_t y) {
    int64_t r;
    return nr__sfloordiv64_d(x, y, &r);
}
static inline __attribute__((always_inline)) int64_t nr__sfloordiv64_r(int64_t x, int64_t y) {
    int64_t r;
    nr__sfloordiv64_d(x, y, &r);
    return r;
}

/* One loop per (op, type): the divisor's magic when b has stride 0; else per element, through
 * VEC on contiguous runs, with BIG operands redone by PER_ELEMENT. */
#define NR_DEF_DIV64_LOOP(name, T, PER_ELEMENT, ABS, BY, BIG, VEC)                   \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *a = (const T *)p[0], *b = (const T *)p[1];                         \
        T *out = (T *)p[2];                                                         \
        const int64_t sa = s[0], sb = s[1], so = s[2];                              \
        if (sb == 0 && b[0] != 0 && n > 1) {                                        \
            const T y = b[0];                                                       \
            const nr_udiv64 v = nr_udiv64_gen(ABS(y));                              \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const T x = a[i * sa];                                              \
                out[i * so] = (BY);                                                 \
            }                                                                       \
            return;                                                                 \
        }                                                                           \
        if (sa == 1 && sb == 1 && so == 1) {                                        \
            int any = 0;                                                            \
            _Pragma("omp simd reduction(|:any)") for (int64_t i = 0; i < n; ++i) {  \
                const T x = a[i], y = b[i];                                         \
                out[i] = VEC(x, y);                                                 \
                any |= BIG(x) | BIG(y);                                             \
            }                                                                       \
            if (any)                                                                \
                for (int64_t i = 0; i < n; ++i) {                                   \
                    const T x = a[i], y = b[i];                                     \
                    if (BIG(x) | BIG(y)) out[i] = (T)(PER_ELEMENT);                 \
                }                                                                   \
            return;                                                                 \
        }                                                                           \
        for (int64_t i = 0; i < n; ++i) {                                           \
            const T x = a[i * sa], y = b[i * sb];                                   \
            out[i * so] = (T)(PER_ELEMENT);                                         \
        }                                                                           \
    }

#define NR_UNSIGNED_ID(y) (y)
NR_DEF_DIV64_LOOP(nr_b_floor_divide_i64, int64_t, NR_SFLOORDIV(int64_t, uint64_t, x, y), nr_abs64,
                  nr_sfloordiv64_by(x, y, &v), NR__BIG64, nr__sfloordiv64_q)
NR_DEF_DIV64_LOOP(nr_b_remainder_i64, int64_t, NR_SREM(int64_t, x, y), nr_abs64,
                  (int64_t)((uint64_t)x - (uint64_t)nr_sfloordiv64_by(x, y, &v) * (uint64_t)y),
                  NR__BIG64, nr__sfloordiv64_r)
NR_DEF_DIV64_LOOP(nr_b_floor_divide_u64, uint64_t, y == 0 ? 0 : x / y, NR_UNSIGNED_ID, nr_udiv64_do(&v, x),
                  NR__BIG64U, nr__udiv64_vq)
NR_DEF_DIV64_LOOP(nr_b_remainder_u64, uint64_t, y == 0 ? 0 : x % y, NR_UNSIGNED_ID,
                  x - nr_udiv64_do(&v, x) * y, NR__BIG64U, nr__udiv64_vr)

#endif
