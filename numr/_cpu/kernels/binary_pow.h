/* Floating pow loops: shortcuts for one exponent for the whole run, and the general loops.
 *
 * A scalar exponent (stride 0): `x ** 0.5`, `x ** -1` and `x ** 1` are common and have exact shortcuts that keep
 * pow's C99 results: sqrt(x) is the correctly rounded x**0.5 (plus 0.0 turns -0
 * into pow's +0, and pow(-inf, 0.5) = +inf is selected); 1/x and x are exact. For
 * float32, x**3 and x**-0.5 are computed in double and rounded once (correctly rounded
 * but for double-rounding ties, like nr_powf, and cheaper). NumPy takes the same shortcuts
 * (with sqrt's -0 and NaN for -inf); x**2 is x*x before any kernel (binary.py).
 * Any other exponent, and non-scalar exponents, run the general loop (below).
 */
#ifndef NUMR_BINARY_POW_H
#define NUMR_BINARY_POW_H

#include <math.h>
#include <stdint.h>
#include "vmath_pow.h"
#include "vmath_f64_pow.h"

/* out = EXPR(x) over the run, a vectorised loop when contiguous */
#define NR_POW_MAP(T, EXPR)                                                           \
    do {                                                                              \
        if (sa == 1 && so == 1) {                                                     \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                     \
                const T x = a[i];                                                     \
                out[i] = (T)(EXPR);                                                   \
            }                                                                         \
        } else {                                                                      \
            for (int64_t i = 0; i < n; ++i) {                                         \
                const T x = a[i * sa];                                                \
                out[i * so] = (T)(EXPR);                                              \
            }                                                                         \
        }                                                                             \
        return 1;                                                                     \
    } while (0)

/* 1 when exponent y has a shortcut (and the run is done), else 0 */
#define NR_DEF_POW_SCALAR(S, T, LM, EXTRA)                                            \
    static int nr_pow_by_scalar_##S(const T *a, T y, T *out, int64_t sa, int64_t so,  \
                                    int64_t n) {                                      \
        if (y == (T)1) NR_POW_MAP(T, x);                                              \
        if (y == (T)-1) NR_POW_MAP(T, (T)1 / x);                                      \
        if (y == (T)0.5)                                                              \
            NR_POW_MAP(T, x == -(T)INFINITY ? (T)INFINITY : sqrt##LM(x) + (T)0);      \
        EXTRA                                                                         \
        return 0;                                                                     \
    }

#define NR_POW_EXTRA_F32                                                              \
    if (y == 3.0f) NR_POW_MAP(float, (double)x * (double)x * (double)x);              \
    if (y == -0.5f)                                                                   \
        NR_POW_MAP(float, x == -INFINITY ? 0.0 : 1.0 / (sqrt((double)x) + 0.0));
NR_DEF_POW_SCALAR(f32, float, f, NR_POW_EXTRA_F32)
NR_DEF_POW_SCALAR(f64, double, , )

/* The general loops (nr_b_pow_any_S) in blocks of NR_POW_BLOCK, in two passes: the first
 * computes y * log|x| of the block (vmath_pow.h, vmath_f64_pow.h) into a small array and notes
 * whether any element needs a C99 special case, the second takes the exp, with the special
 * cases' selects only for blocks that need them. A one-pass loop ran ~40% slower: its
 * iterations, log then exp then selects, are one long dependency chain, too long for the
 * out-of-order window to overlap two of them. Runs with a scalar operand (stride 0) stay
 * vectorised; other strides take the plain per-element loop. */
#define NR_POW_BLOCK 256

/* one block: m elements read as X and Y (expressions of i), written to o[i] */
#define NR_POW_BLOCK_PASSES(T, X, Y, PASS1, FAST, FULL, PLAIN)                         \
    do {                                                                              \
        int special = 0;                                                              \
        _Pragma("omp simd reduction(|:special)") for (int64_t i = 0; i < m; ++i) {   \
            const T x = (X), y = (Y);                                                 \
            PASS1;                                                                    \
            special |= !PLAIN(x, y);                                                  \
        }                                                                             \
        if (special) {                                                                \
            _Pragma("omp simd") for (int64_t i = 0; i < m; ++i) {                     \
                const T x = (X), y = (Y);                                             \
                o[i] = (FULL);                                                        \
            }                                                                         \
        } else {                                                                      \
            _Pragma("omp simd") for (int64_t i = 0; i < m; ++i) o[i] = (FAST);        \
        }                                                                             \
    } while (0)

/* PASS1 fills the block arrays declared by DECL from x, y (and i); FAST finishes element i
 * when no element of the block is special, FULL(x, y) otherwise; ONE(x, y) is the plain
 * per-element function for other strides */
#define NR_DEF_POW_BLOCKED(name, T, DECL, PASS1, FAST, FULL, PLAIN, ONE)              \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *a = (const T *)p[0], *b = (const T *)p[1];                         \
        T *out = (T *)p[2];                                                         \
        const int64_t sa = s[0], sb = s[1], so = s[2];                              \
        if (so != 1 || sa < 0 || sa > 1 || sb < 0 || sb > 1 || (sa | sb) == 0) {   \
            for (int64_t i = 0; i < n; ++i) out[i * so] = ONE(a[i * sa], b[i * sb]); \
            return;                                                                 \
        }                                                                           \
        DECL;                                                                       \
        for (int64_t i0 = 0; i0 < n; i0 += NR_POW_BLOCK) {                          \
            const int64_t m = n - i0 < NR_POW_BLOCK ? n - i0 : NR_POW_BLOCK;        \
            const T *ab = a + i0 * sa, *bb = b + i0 * sb;                           \
            T *o = out + i0;                                                        \
            if (sa && sb)                                                           \
                NR_POW_BLOCK_PASSES(T, ab[i], bb[i], PASS1, FAST, FULL, PLAIN);     \
            else if (sa)                                                            \
                NR_POW_BLOCK_PASSES(T, ab[i], bb[0], PASS1, FAST, FULL, PLAIN);     \
            else                                                                    \
                NR_POW_BLOCK_PASSES(T, ab[0], bb[i], PASS1, FAST, FULL, PLAIN);     \
        }                                                                           \
    }

NR_DEF_POW_BLOCKED(nr_b_pow_any_f32, float, double t[NR_POW_BLOCK],
                   t[i] = (double)y * nr__log2_powf(fabsf(x)), (float)nr__exp2_powf(t[i]),
                   nr__powf_special(x, y, (float)nr__exp2_powf(t[i])), NR_POWF_PLAIN, nr_powf)
#if defined(__AVX2__)
NR_DEF_POW_BLOCKED(nr_b_pow_any_f64, double, double th[NR_POW_BLOCK]; double tl[NR_POW_BLOCK],
                   const nr_dd t_ = nr__pow_ylogx(x, y); th[i] = t_.hi; tl[i] = t_.lo,
                   nr__pow_exp(th[i], tl[i]), nr__pow_special(x, y, nr__pow_exp(th[i], tl[i])),
                   NR_POW_PLAIN, nr_pow)
#else /* no gathers (SSE2-only NUMR_PORTABLE builds, non-x86): GCC leaves that loop scalar, and
       * scalar it is 2.5x slower than libm's pow (float32's is still 7x faster than before) */
NR_BINARY_LOOP_SCALAR(nr_b_pow_any_f64, double, double, pow(x, y))
#endif

/* nr_b_pow_S: the shortcut when the exponent is one scalar, else nr_b_pow_any_S */
#define NR_DEF_POW_LOOP(S, T)                                                         \
    static void nr_b_pow_##S(char **p, const int64_t *s, int64_t n, const void *ctx) {  \
        if (s[1] == 0 && n > 0 &&                                                     \
            nr_pow_by_scalar_##S((const T *)p[0], *(const T *)p[1], (T *)p[2], s[0], s[2], n)) \
            return;                                                                   \
        nr_b_pow_any_##S(p, s, n, ctx);                                               \
    }

#endif
