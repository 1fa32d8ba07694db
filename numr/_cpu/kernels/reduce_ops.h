/* The reduce ops, instantiated per dtype from reduce_core.h, and one dispatch
 * function nr_reduce(op, dtype, x, y, spec). Accumulation rules:
 *   sum/prod: bool/int -> int64 bits, uint -> uint64 (wrapping, as NumPy);
 *             float32 sums: float lanes, double block totals; float16/bfloat16/
 *             float8 through float32 lanes; prod of floats in double;
 *             complex in complex (float lanes, double totals for complex64).
 *   max/min:  compute in the dtype (float32 for low precision); NaN is sticky.
 *   any/all:  non-zero test on the bits (low precision: sign bit masked).
 */
#ifndef NUMR_REDUCE_OPS_H
#define NUMR_REDUCE_OPS_H

#include <math.h>
#include "dtypes.h"
#include "reduce_core.h"
#include "reduce_arg.h"

enum { NR_RED_SUM = 0, NR_RED_PROD = 1, NR_RED_MAX = 2, NR_RED_MIN = 3, NR_RED_ARGMAX = 4,
       NR_RED_ARGMIN = 5, NR_RED_ANY = 6, NR_RED_ALL = 7 };

#define NR_ID(x) (x)
#define NR_LD_BOOL(x) ((uint64_t)((x) != 0))
#define NR_LD_SI(x) ((uint64_t)(int64_t)(x))
#define NR_LD_UI(x) ((uint64_t)(x))
#define NR_LD_F16(x) nr_f16_to_f32(x)
#define NR_LD_BF16(x) nr_bf16_to_f32(x)
#define NR_LD_E4(x) nr_f8e4m3_to_f32(x)
#define NR_LD_E5(x) nr_f8e5m2_to_f32(x)
#define NR_ADD(a, v) ((a) += (v))
#define NR_MUL(a, v) ((a) *= (v))
#define NR_MAXS(a, v) ((a) = ((v) > (a) || NR_ISNAN(v)) ? (v) : (a))
#define NR_MINS(a, v) ((a) = ((v) < (a) || NR_ISNAN(v)) ? (v) : (a))
#define NR_ORS(a, v) ((a) |= (v))
#define NR_ANDS(a, v) ((a) &= (v))
/* totals that no further value can change (reduce_core.h stops early) */
#define NR_ADD_DONE(t) 0
#define NR_MUL_DONE(t) 0
#define NR_MAXS_DONE(t) NR_ISNAN(t)
#define NR_MINS_DONE(t) NR_ISNAN(t)
#define NR_ORS_DONE(t) ((t) != 0)
#define NR_ANDS_DONE(t) ((t) == 0)
#define NR_ST_I64(t) ((int64_t)(t))
#define NR_ST_U64(t) ((uint64_t)(t))
#define NR_ST_F32(t) ((float)(t))
#define NR_ST_F64(t) ((double)(t))
#define NR_ST_F16(t) nr_f64_to_f16((double)(t))
#define NR_ST_BF16(t) nr_f32_to_bf16((float)(t))
#define NR_ST_E4(t) nr_f32_to_f8e4m3((float)(t))
#define NR_ST_E5(t) nr_f32_to_f8e5m2((float)(t))
#define NR_ST_C64(t) ((nr_c64)(t))
#define NR_ST_C128(t) ((nr_c128)(t))
#define NR_ST_KEEP(t) (t)

/* ---- sum and prod ---- */
#define NR_SUMPROD(SFX, T, OUT_T, LANE_S, TOT, LANE_P, LD, ST)                                    \
    NR_RED_DEFINE_L(nr_sum_##SFX, 64, T, OUT_T, LANE_S, TOT, LD, 0, NR_ADD, NR_ADD, ST)           \
    NR_RED_DEFINE(nr_prod_##SFX, T, OUT_T, LANE_P, TOT, LD, 1, NR_MUL, NR_MUL, ST)

NR_SUMPROD(b, nr_bool, int64_t, uint64_t, uint64_t, uint64_t, NR_LD_BOOL, NR_ST_I64)
NR_SUMPROD(i8, int8_t, int64_t, uint64_t, uint64_t, uint64_t, NR_LD_SI, NR_ST_I64)
NR_SUMPROD(i16, int16_t, int64_t, uint64_t, uint64_t, uint64_t, NR_LD_SI, NR_ST_I64)
NR_SUMPROD(i32, int32_t, int64_t, uint64_t, uint64_t, uint64_t, NR_LD_SI, NR_ST_I64)
NR_SUMPROD(i64, int64_t, int64_t, uint64_t, uint64_t, uint64_t, NR_LD_SI, NR_ST_I64)
NR_SUMPROD(u8, uint8_t, uint64_t, uint64_t, uint64_t, uint64_t, NR_LD_UI, NR_ST_U64)
NR_SUMPROD(u16, uint16_t, uint64_t, uint64_t, uint64_t, uint64_t, NR_LD_UI, NR_ST_U64)
NR_SUMPROD(u32, uint32_t, uint64_t, uint64_t, uint64_t, uint64_t, NR_LD_UI, NR_ST_U64)
NR_SUMPROD(u64, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, NR_LD_UI, NR_ST_U64)
NR_SUMPROD(f16, nr_f16, nr_f16, float, double, double, NR_LD_F16, NR_ST_F16)
NR_SUMPROD(bf16, nr_bf16, nr_bf16, float, double, double, NR_LD_BF16, NR_ST_BF16)
NR_SUMPROD(e4, nr_f8e4m3, nr_f8e4m3, float, double, double, NR_LD_E4, NR_ST_E4)
NR_SUMPROD(e5, nr_f8e5m2, nr_f8e5m2, float, double, double, NR_LD_E5, NR_ST_E5)
NR_SUMPROD(f32, float, float, float, double, double, NR_ID, NR_ST_F32)
NR_SUMPROD(f64, double, double, double, double, double, NR_ID, NR_ST_F64)
NR_SUMPROD(c64, nr_c64, nr_c64, nr_c64, nr_c128, nr_c128, NR_ID, NR_ST_C64)
NR_SUMPROD(c128, nr_c128, nr_c128, nr_c128, nr_c128, nr_c128, NR_ID, NR_ST_C128)

/* ---- max and min (C: compute type, LO/HI: identities), argmax and argmin ---- */
#define NR_MAXMIN(SFX, T, C, LD, ST, LO, HI)                                                      \
    NR_RED_DEFINE(nr_max_##SFX, T, T, C, C, LD, LO, NR_MAXS, NR_MAXS, ST)                         \
    NR_RED_DEFINE(nr_min_##SFX, T, T, C, C, LD, HI, NR_MINS, NR_MINS, ST)                         \
    NR_ARG_DEFINE(nr_argmax_##SFX, T, C, LD, NR_ARG_GT)                                           \
    NR_ARG_DEFINE(nr_argmin_##SFX, T, C, LD, NR_ARG_LT)

#define NR_GT(a, b) ((a) > (b))
#define NR_LT(a, b) ((a) < (b))
#define NR_ARG_GT(v, b) ((v) > (b) || (NR_ISNAN(v) && !NR_ISNAN(b)))
#define NR_ARG_LT(v, b) ((v) < (b) || (NR_ISNAN(v) && !NR_ISNAN(b)))
#define NR_LD_B01(x) ((uint8_t)((x) != 0))
#define NR_ST_B(t) ((nr_bool)(t))

/* the runs of argmax/argmin: one vector pass for 32/64-bit types (IT: the same-width signed
 * integer, FLT: whether NaN can occur), blocks for the rest */
#define NR_ARG_RUNS_VEC(SFX, T, IT, FLT)                                                          \
    NR_ARG_RUN_VEC(nr_argmax_##SFX, T, IT, NR_GT, NR_ARG_GT, FLT)                                 \
    NR_ARG_RUN_VEC(nr_argmin_##SFX, T, IT, NR_LT, NR_ARG_LT, FLT)
#define NR_ARG_RUNS_BLOCKS(SFX, T, C, LD)                                                         \
    NR_ARG_RUN_BLOCKS(nr_argmax_##SFX, T, C, LD, NR_ARG_GT, NR_MAXS)                              \
    NR_ARG_RUN_BLOCKS(nr_argmin_##SFX, T, C, LD, NR_ARG_LT, NR_MINS)

NR_ARG_RUNS_BLOCKS(b, nr_bool, uint8_t, NR_LD_B01)
NR_ARG_RUNS_BLOCKS(i8, int8_t, int8_t, NR_ID)
NR_ARG_RUNS_BLOCKS(i16, int16_t, int16_t, NR_ID)
NR_ARG_RUNS_VEC(i32, int32_t, int32_t, 0)
NR_ARG_RUNS_VEC(i64, int64_t, int64_t, 0)
NR_ARG_RUNS_BLOCKS(u8, uint8_t, uint8_t, NR_ID)
NR_ARG_RUNS_BLOCKS(u16, uint16_t, uint16_t, NR_ID)
NR_ARG_RUNS_VEC(u32, uint32_t, int32_t, 0)
NR_ARG_RUNS_VEC(u64, uint64_t, int64_t, 0)
NR_ARG_RUNS_BLOCKS(f16, nr_f16, float, NR_LD_F16)
NR_ARG_RUNS_BLOCKS(bf16, nr_bf16, float, NR_LD_BF16)
NR_ARG_RUNS_BLOCKS(e4, nr_f8e4m3, float, NR_LD_E4)
NR_ARG_RUNS_BLOCKS(e5, nr_f8e5m2, float, NR_LD_E5)
NR_ARG_RUNS_VEC(f32, float, int32_t, 1)
NR_ARG_RUNS_VEC(f64, double, int64_t, 1)

NR_MAXMIN(b, nr_bool, uint8_t, NR_LD_B01, NR_ST_B, 0, 1)
NR_MAXMIN(i8, int8_t, int8_t, NR_ID, NR_ST_KEEP, INT8_MIN, INT8_MAX)
NR_MAXMIN(i16, int16_t, int16_t, NR_ID, NR_ST_KEEP, INT16_MIN, INT16_MAX)
NR_MAXMIN(i32, int32_t, int32_t, NR_ID, NR_ST_KEEP, INT32_MIN, INT32_MAX)
NR_MAXMIN(i64, int64_t, int64_t, NR_ID, NR_ST_KEEP, INT64_MIN, INT64_MAX)
NR_MAXMIN(u8, uint8_t, uint8_t, NR_ID, NR_ST_KEEP, 0, UINT8_MAX)
NR_MAXMIN(u16, uint16_t, uint16_t, NR_ID, NR_ST_KEEP, 0, UINT16_MAX)
NR_MAXMIN(u32, uint32_t, uint32_t, NR_ID, NR_ST_KEEP, 0, UINT32_MAX)
NR_MAXMIN(u64, uint64_t, uint64_t, NR_ID, NR_ST_KEEP, 0, UINT64_MAX)
NR_MAXMIN(f16, nr_f16, float, NR_LD_F16, nr_f32_to_f16, -INFINITY, INFINITY)
NR_MAXMIN(bf16, nr_bf16, float, NR_LD_BF16, nr_f32_to_bf16, -INFINITY, INFINITY)
NR_MAXMIN(e4, nr_f8e4m3, float, NR_LD_E4, nr_f32_to_f8e4m3, -INFINITY, INFINITY)
NR_MAXMIN(e5, nr_f8e5m2, float, NR_LD_E5, nr_f32_to_f8e5m2, -INFINITY, INFINITY)
NR_MAXMIN(f32, float, float, NR_ID, NR_ST_KEEP, -INFINITY, INFINITY)
NR_MAXMIN(f64, double, double, NR_ID, NR_ST_KEEP, -INFINITY, INFINITY)

/* ---- any and all: a non-zero test on the stored bits, shared by equal-width dtypes ---- */
#define NR_NZ(x) ((uint8_t)((x) != 0))
#define NR_NZ7F(x) ((uint8_t)(((x) & 0x7f) != 0))
#define NR_NZ7FFF(x) ((uint8_t)(((x) & 0x7fff) != 0))
#define NR_ANYALL(SFX, T, LD)                                                                     \
    NR_RED_DEFINE(nr_any_##SFX, T, nr_bool, uint8_t, uint8_t, LD, 0, NR_ORS, NR_ORS, NR_ST_B)     \
    NR_RED_DEFINE(nr_all_##SFX, T, nr_bool, uint8_t, uint8_t, LD, 1, NR_ANDS, NR_ANDS, NR_ST_B)

NR_ANYALL(x8, uint8_t, NR_NZ)
NR_ANYALL(x16, uint16_t, NR_NZ)
NR_ANYALL(x32, uint32_t, NR_NZ)
NR_ANYALL(x64, uint64_t, NR_NZ)
NR_ANYALL(h16, uint16_t, NR_NZ7FFF)
NR_ANYALL(h8, uint8_t, NR_NZ7F)
NR_ANYALL(f32, float, NR_NZ)
NR_ANYALL(f64, double, NR_NZ)
NR_ANYALL(c64, nr_c64, NR_NZ)
NR_ANYALL(c128, nr_c128, NR_NZ)

typedef void (*nr_red_fn)(const char *, char *, const nr_red_spec *);

#define NR_RED_TABLE(P) {                                                                         \
    [0] = P##f64, [1] = P##f32, [2] = P##f16, [3] = P##bf16, [4] = P##e4, [5] = P##e5,            \
    [6] = P##i64, [7] = P##i32, [8] = P##i16, [9] = P##i8, [10] = P##u64, [11] = P##u32,          \
    [12] = P##u16, [13] = P##u8, [14] = P##b }

/* Run reduce op `op` on input dtype `code`; returns -1 when the pair has no kernel. */
static int nr_reduce(int op, int code, const char *x, char *y, const nr_red_spec *s) {
    static const nr_red_fn sum[17] = NR_RED_TABLE(nr_sum_), prod[17] = NR_RED_TABLE(nr_prod_);
    static const nr_red_fn mx[17] = NR_RED_TABLE(nr_max_), mn[17] = NR_RED_TABLE(nr_min_);
    static const nr_red_fn amx[17] = NR_RED_TABLE(nr_argmax_), amn[17] = NR_RED_TABLE(nr_argmin_);
    static const nr_red_fn any[17] = {
        nr_any_f64, nr_any_f32, nr_any_h16, nr_any_h16, nr_any_h8, nr_any_h8, nr_any_x64, nr_any_x32,
        nr_any_x16, nr_any_x8, nr_any_x64, nr_any_x32, nr_any_x16, nr_any_x8, nr_any_x8, nr_any_c64,
        nr_any_c128};
    static const nr_red_fn all[17] = {
        nr_all_f64, nr_all_f32, nr_all_h16, nr_all_h16, nr_all_h8, nr_all_h8, nr_all_x64, nr_all_x32,
        nr_all_x16, nr_all_x8, nr_all_x64, nr_all_x32, nr_all_x16, nr_all_x8, nr_all_x8, nr_all_c64,
        nr_all_c128};
    static const nr_red_fn *tables[8] = {sum, prod, mx, mn, amx, amn, any, all};
    int di = nr_dense_index(code);
    nr_red_fn fn = NULL;
    if (di < 0 || op < 0 || op > 7) return -1;
    if (di == 15 || di == 16) {
        if (op == NR_RED_SUM) fn = di == 15 ? nr_sum_c64 : nr_sum_c128;
        else if (op == NR_RED_PROD) fn = di == 15 ? nr_prod_c64 : nr_prod_c128;
        else if (op >= NR_RED_ANY) fn = tables[op][di];
    } else {
        fn = tables[op][di];
    }
    if (fn == NULL) return -1;
    fn(x, y, s);
    return 0;
}

#endif
