/* Complex binary kernels (complex64, complex128) computed as NumPy does:
 * the textbook product (no C99 Annex G inf recovery), Smith's division and
 * NumPy's npy_cpow (exact repeated multiplication for small integer powers).
 */
#ifndef NUMR_BINARY_COMPLEX_H
#define NUMR_BINARY_COMPLEX_H

#include <complex.h>
#include <math.h>
#include "binary_compare.h"

#define NR_BCDEF(T, C, LM)                                                            \
    static inline C nr_cmul_##LM##_(C a, C b) {                                       \
        T ar = creal##LM(a), ai = cimag##LM(a), br = creal##LM(b), bi = cimag##LM(b); \
        return __builtin_complex((T)(ar * br - ai * bi), (T)(ar * bi + ai * br));     \
    }                                                                                 \
    static inline C nr_cdiv_##LM##_(C a, C b) {                                       \
        T ar = creal##LM(a), ai = cimag##LM(a), br = creal##LM(b), bi = cimag##LM(b); \
        T abr = fabs##LM(br), abi = fabs##LM(bi);                                     \
        if (abr >= abi) {                                                             \
            if (abr == 0 && abi == 0)                                                 \
                return __builtin_complex((T)(ar / abr), (T)(ai / abi));               \
            T rat = bi / br, scl = (T)1 / (br + bi * rat);                            \
            return __builtin_complex((T)((ar + ai * rat) * scl), (T)((ai - ar * rat) * scl)); \
        }                                                                             \
        T rat = br / bi, scl = (T)1 / (bi + br * rat);                                \
        return __builtin_complex((T)((ar * rat + ai) * scl), (T)((ai * rat - ar) * scl)); \
    }                                                                                 \
    static inline C nr_cpow_##LM##_(C a, C b) {                                       \
        T ar = creal##LM(a), ai = cimag##LM(a), br = creal##LM(b), bi = cimag##LM(b); \
        if (br == 0 && bi == 0) return __builtin_complex((T)1, (T)0);                 \
        if (ar == 0 && ai == 0) {                                                     \
            if (br > 0) return __builtin_complex((T)0, (T)0); /* NumPy 2: any Re b > 0 */ \
            return __builtin_complex((T)NAN, (T)NAN);                                 \
        }                                                                             \
        if (bi == 0 && br > -100 && br < 100 && br == (T)(int)br) {                   \
            int n = (int)br;                                                          \
            if (n == 1) return a;                                                     \
            if (n == 2) return nr_cmul_##LM##_(a, a);                                 \
            if (n == 3) return nr_cmul_##LM##_(a, nr_cmul_##LM##_(a, a));             \
            int m = n < 0 ? -n : n;                                                   \
            C r = __builtin_complex((T)1, (T)0), p = a;                               \
            for (int mask = 1; mask <= m; mask <<= 1) {                               \
                if (m & mask) r = nr_cmul_##LM##_(r, p);                              \
                p = nr_cmul_##LM##_(p, p);                                            \
            }                                                                         \
            return n < 0 ? nr_cdiv_##LM##_(__builtin_complex((T)1, (T)0), r) : r;     \
        }                                                                             \
        return cpow##LM(a, b);                                                        \
    }

NR_BCDEF(float, nr_c64, f)
NR_BCDEF(double, nr_c128, )

#define NR_CTRUE(x, LM) (creal##LM(x) != 0 || cimag##LM(x) != 0)

#define NR_DEF_COMPLEX_BINARY(T, C, S, LM)                                            \
    NR_BINARY_LOOP(nr_b_add_##S, C, C, x + y)                                        \
    NR_BINARY_LOOP(nr_b_sub_##S, C, C, x - y)                                        \
    NR_BINARY_LOOP(nr_b_mul_##S, C, C, nr_cmul_##LM##_(x, y))                        \
    NR_BINARY_LOOP_SCALAR(nr_b_div_##S, C, C, nr_cdiv_##LM##_(x, y))                 \
    NR_BINARY_LOOP_SCALAR(nr_b_pow_##S, C, C, nr_cpow_##LM##_(x, y))                 \
    NR_TERNARY_LOOP(nr_b_fma_##S, C, nr_cmul_##LM##_(x, y) + z)                      \
    NR_BINARY_LOOP(nr_b_eq_##S, C, uint8_t, creal##LM(x) == creal##LM(y) && cimag##LM(x) == cimag##LM(y)) \
    NR_BINARY_LOOP(nr_b_ne_##S, C, uint8_t, creal##LM(x) != creal##LM(y) || cimag##LM(x) != cimag##LM(y)) \
    NR_BINARY_LOOP(nr_b_land_##S, C, uint8_t, NR_CTRUE(x, LM) && NR_CTRUE(y, LM))    \
    NR_BINARY_LOOP(nr_b_lor_##S, C, uint8_t, NR_CTRUE(x, LM) || NR_CTRUE(y, LM))     \
    NR_BINARY_LOOP(nr_b_lxor_##S, C, uint8_t, NR_CTRUE(x, LM) != NR_CTRUE(y, LM))

NR_DEF_COMPLEX_BINARY(float, nr_c64, c64, f)
NR_DEF_COMPLEX_BINARY(double, nr_c128, c128, )

#define NR_REG_COMPLEX_BINARY(code, S)                                                \
    do {                                                                              \
        NR_REG_B(add, code, nr_b_add_##S); NR_REG_B(sub, code, nr_b_sub_##S);         \
        NR_REG_B(mul, code, nr_b_mul_##S); NR_REG_B(div, code, nr_b_div_##S);         \
        NR_REG_B(pow, code, nr_b_pow_##S); NR_REG_B(fma, code, nr_b_fma_##S);         \
        NR_REG_B(eq, code, nr_b_eq_##S); NR_REG_B(ne, code, nr_b_ne_##S);             \
        NR_REG_B(logical_and, code, nr_b_land_##S);                                   \
        NR_REG_B(logical_or, code, nr_b_lor_##S);                                     \
        NR_REG_B(logical_xor, code, nr_b_lxor_##S);                                   \
    } while (0)

static void nr_binary_init_complex(void) {
    NR_REG_COMPLEX_BINARY(40, c64);
    NR_REG_COMPLEX_BINARY(41, c128);
}

#endif
