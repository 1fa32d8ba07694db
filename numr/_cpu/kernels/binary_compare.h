/* Comparison (eq ne lt le gt ge) and logical (and or xor) kernels: bool
 * (0/1 byte) results. Comparisons follow IEEE (any comparison with NaN is
 * false except ne); logical ops read each operand as x != 0 (NaN is true).
 */
#ifndef NUMR_BINARY_COMPARE_H
#define NUMR_BINARY_COMPARE_H

#include "binary_arith.h"

#define NR_DEF_ORDER(T, S)                                                            \
    NR_BINARY_LOOP(nr_b_lt_##S, T, uint8_t, x < y)                                   \
    NR_BINARY_LOOP(nr_b_le_##S, T, uint8_t, x <= y)                                  \
    NR_BINARY_LOOP(nr_b_gt_##S, T, uint8_t, x > y)                                   \
    NR_BINARY_LOOP(nr_b_ge_##S, T, uint8_t, x >= y)

#define NR_DEF_EQ(T, S)                                                               \
    NR_BINARY_LOOP(nr_b_eq_##S, T, uint8_t, x == y)                                  \
    NR_BINARY_LOOP(nr_b_ne_##S, T, uint8_t, x != y)                                  \
    NR_BINARY_LOOP(nr_b_land_##S, T, uint8_t, (x != 0) & (y != 0))                   \
    NR_BINARY_LOOP(nr_b_lor_##S, T, uint8_t, (x != 0) | (y != 0))                    \
    NR_BINARY_LOOP(nr_b_lxor_##S, T, uint8_t, (x != 0) ^ (y != 0))

/* eq/ne/logical depend only on the bits for integers (not for floats: -0 == 0) */
NR_DEF_EQ(uint8_t, b8)
NR_DEF_EQ(uint16_t, b16)
NR_DEF_EQ(uint32_t, b32)
NR_DEF_EQ(uint64_t, b64)
NR_DEF_EQ(float, f32)
NR_DEF_EQ(double, f64)
NR_DEF_ORDER(float, f32)
NR_DEF_ORDER(double, f64)
NR_DEF_ORDER(int8_t, i8)
NR_DEF_ORDER(int16_t, i16)
NR_DEF_ORDER(int32_t, i32)
NR_DEF_ORDER(int64_t, i64)
NR_DEF_ORDER(uint8_t, u8)
NR_DEF_ORDER(uint16_t, u16)
NR_DEF_ORDER(uint32_t, u32)
NR_DEF_ORDER(uint64_t, u64)

#define NR_REG_COMPARE(code, E, O)                                                    \
    do {                                                                              \
        NR_REG_B(eq, code, nr_b_eq_##E); NR_REG_B(ne, code, nr_b_ne_##E);             \
        NR_REG_B(logical_and, code, nr_b_land_##E);                                   \
        NR_REG_B(logical_or, code, nr_b_lor_##E);                                     \
        NR_REG_B(logical_xor, code, nr_b_lxor_##E);                                   \
        NR_REG_B(lt, code, nr_b_lt_##O); NR_REG_B(le, code, nr_b_le_##O);             \
        NR_REG_B(gt, code, nr_b_gt_##O); NR_REG_B(ge, code, nr_b_ge_##O);             \
    } while (0)

static void nr_binary_init_compare(void) {
    NR_REG_COMPARE(1, f32, f32);
    NR_REG_COMPARE(0, f64, f64);
    NR_REG_COMPARE(13, b8, i8); NR_REG_COMPARE(23, b8, u8); NR_REG_COMPARE(30, b8, u8);
    NR_REG_COMPARE(12, b16, i16); NR_REG_COMPARE(22, b16, u16);
    NR_REG_COMPARE(11, b32, i32); NR_REG_COMPARE(21, b32, u32);
    NR_REG_COMPARE(10, b64, i64); NR_REG_COMPARE(20, b64, u64);
}

#endif
