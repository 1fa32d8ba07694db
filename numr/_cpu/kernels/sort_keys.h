/* Order-preserving unsigned keys for the sorting kernels (sort_ops.h).
 *
 * key(a) < key(b) exactly when a comes before b in numr's total order: numbers ascending,
 * -0.0 equal to 0.0, every NaN (either sign, any payload) after +inf. Floats: -0.0 -> +0.0,
 * NaN -> the largest key, then the sign-flip trick (negative: every bit flipped; positive:
 * the sign bit set). Signed integers: the sign bit flipped. bool: 0 or 1 (any non-zero byte
 * is true). Descending order complements the key (NaN then comes first), so one ascending
 * stable sort serves both directions. Every key function takes the element's bits (float32 and
 * float64 as uint32_t / uint64_t), so values are moved as bits and NaN payloads survive.
 */
#ifndef NUMR_SORT_KEYS_H
#define NUMR_SORT_KEYS_H

#include <stdint.h>
#include "dtypes.h"

/* a float's bits B (unsigned, W bits, sign bit S), magnitude above NANMIN-1 is NaN */
#define NR_FKEY(B, UT, S, NANMIN)                                                          \
    (((B) & (UT)~(S)) >= (NANMIN) ? (UT)~(UT)0                                             \
     : ((B) & (UT)~(S)) == 0 ? (UT)(S)                                                     \
     : ((B) & (S)) ? (UT)~(B) : (UT)((B) | (S)))

static inline uint8_t nr_key_b(nr_bool v) { return v != 0; }
static inline uint8_t nr_key_u8(uint8_t v) { return v; }
static inline uint16_t nr_key_u16(uint16_t v) { return v; }
static inline uint32_t nr_key_u32(uint32_t v) { return v; }
static inline uint64_t nr_key_u64(uint64_t v) { return v; }
static inline uint8_t nr_key_i8(int8_t v) { return (uint8_t)v ^ 0x80u; }
static inline uint16_t nr_key_i16(int16_t v) { return (uint16_t)v ^ 0x8000u; }
static inline uint32_t nr_key_i32(int32_t v) { return (uint32_t)v ^ 0x80000000u; }
static inline uint64_t nr_key_i64(int64_t v) { return (uint64_t)v ^ 0x8000000000000000ull; }
static inline uint8_t nr_key_e4(nr_f8e4m3 b) { return NR_FKEY(b, uint8_t, 0x80u, 0x7fu); }
static inline uint8_t nr_key_e5(nr_f8e5m2 b) { return NR_FKEY(b, uint8_t, 0x80u, 0x7du); }
static inline uint16_t nr_key_f16(nr_f16 b) { return NR_FKEY(b, uint16_t, 0x8000u, 0x7c01u); }
static inline uint16_t nr_key_bf16(nr_bf16 b) { return NR_FKEY(b, uint16_t, 0x8000u, 0x7f81u); }
static inline uint32_t nr_key_f32(uint32_t b) { return NR_FKEY(b, uint32_t, 0x80000000u, 0x7f800001u); }
static inline uint64_t nr_key_f64(uint64_t b) {
    return NR_FKEY(b, uint64_t, 0x8000000000000000ull, 0x7ff0000000000001ull);
}

#endif
