/* Element conversion between every ordered pair of numr's 17 dtypes, and the strided
 * N-d copy-with-cast / fill drivers built on it.
 *
 * Conversion rules (docs/architecture.md "Dtype rules"):
 *   - integer -> integer: C conversion (two's complement wrap, as NumPy);
 *   - float -> integer: truncation; NaN -> 0; +-inf and out-of-range values saturate to the
 *     integer type's min/max (unsigned: negatives -> 0);
 *   - anything -> bool: x != 0 (NaN -> true; complex: either part non-zero);
 *   - bool -> 0/1; complex -> real drops the imaginary part; real -> complex has im = 0;
 *   - float16/bfloat16/float8 load as float32 (exact); stores round once from float32,
 *     except float64 -> float16 which rounds once from double (as NumPy); float64 and
 *     integers -> bfloat16/float8 go through float32 (as ml_dtypes).
 *
 * nr_cvt_get(src_code, dst_code) returns an inner loop
 *     void f(const char *src, int64_t src_stride, char *dst, int64_t dst_stride, int64_t n)
 * (strides in elements) or NULL for an unknown code; same-dtype pairs return bit copies.
 * The N-d drivers nr_copy_nd / nr_fill_nd are in copy_bits.h.
 */
#ifndef NUMR_COPY_CAST_H
#define NUMR_COPY_CAST_H

#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "dtypes.h"
#include "copy_bits.h"

/* ---- storage types ---- */
#define NR_T_F64 double
#define NR_T_F32 float
#define NR_T_F16 nr_f16
#define NR_T_BF16 nr_bf16
#define NR_T_E4M3 nr_f8e4m3
#define NR_T_E5M2 nr_f8e5m2
#define NR_T_I64 int64_t
#define NR_T_I32 int32_t
#define NR_T_I16 int16_t
#define NR_T_I8 int8_t
#define NR_T_U64 uint64_t
#define NR_T_U32 uint32_t
#define NR_T_U16 uint16_t
#define NR_T_U8 uint8_t
#define NR_T_BOOL nr_bool
#define NR_T_C64 nr_c64
#define NR_T_C128 nr_c128

/* ---- load: storage -> native value (low precision -> float, bool -> 0/1) ---- */
#define NR_LD_F64(x) (x)
#define NR_LD_F32(x) (x)
#define NR_LD_F16(x) nr_f16_to_f32(x)
#define NR_LD_BF16(x) nr_bf16_to_f32(x)
#define NR_LD_E4M3(x) nr_f8e4m3_to_f32(x)
#define NR_LD_E5M2(x) nr_f8e5m2_to_f32(x)
#define NR_LD_I64(x) (x)
#define NR_LD_I32(x) (x)
#define NR_LD_I16(x) (x)
#define NR_LD_I8(x) (x)
#define NR_LD_U64(x) (x)
#define NR_LD_U32(x) (x)
#define NR_LD_U16(x) (x)
#define NR_LD_U8(x) (x)
#define NR_LD_BOOL(x) ((uint8_t)((x) != 0))
#define NR_LD_C64(x) (x)
#define NR_LD_C128(x) (x)

/* ---- float -> integer with NaN -> 0 and saturation ---- */
#define NR__DEF_SAT(NAME, T, MIN, MAX)                                                  \
    static inline T nr__##NAME##_f32(float v) {                                        \
        if (NR_ISNAN(v)) return 0;                                                     \
        if (v >= (float)(MAX)) return MAX;                                             \
        if (v <= (float)(MIN)) return MIN;                                             \
        return (T)v;                                                                   \
    }                                                                                  \
    static inline T nr__##NAME##_f64(double v) {                                       \
        if (NR_ISNAN(v)) return 0;                                                     \
        if (v >= (double)(MAX)) return MAX;                                            \
        if (v <= (double)(MIN)) return MIN;                                            \
        return (T)v;                                                                   \
    }
NR__DEF_SAT(i64, int64_t, INT64_MIN, INT64_MAX)
NR__DEF_SAT(i32, int32_t, INT32_MIN, INT32_MAX)
NR__DEF_SAT(i16, int16_t, INT16_MIN, INT16_MAX)
NR__DEF_SAT(i8, int8_t, INT8_MIN, INT8_MAX)
NR__DEF_SAT(u64, uint64_t, 0, UINT64_MAX)
NR__DEF_SAT(u32, uint32_t, 0, UINT32_MAX)
NR__DEF_SAT(u16, uint16_t, 0, UINT16_MAX)
NR__DEF_SAT(u8, uint8_t, 0, UINT8_MAX)

/* ---- store: native value -> storage of the destination type (C11 _Generic on the native type) ---- */
#define NR__INT(NAME, T, v) _Generic((v),                                             \
    float: nr__##NAME##_f32((float)NR_CREAL(v)), double: nr__##NAME##_f64((double)NR_CREAL(v)), \
    nr_c64: nr__##NAME##_f32((float)NR_CREAL(v)), nr_c128: nr__##NAME##_f64((double)NR_CREAL(v)), \
    default: (T)NR_CREAL(v))
#define NR__LOWP(FN, v) _Generic((v), nr_c64: FN((float)NR_CREAL(v)), nr_c128: FN((float)NR_CREAL(v)), \
    default: FN((float)NR_CREAL(v)))
#define NR_ST_F64(v) ((double)NR_CREAL(v))
#define NR_ST_F32(v) ((float)NR_CREAL(v))
#define NR_ST_F16(v) _Generic((v), double: nr_f64_to_f16((double)NR_CREAL(v)), \
    nr_c128: nr_f64_to_f16((double)NR_CREAL(v)), default: nr_f32_to_f16((float)NR_CREAL(v)))
#define NR_ST_BF16(v) NR__LOWP(nr_f32_to_bf16, v)
#define NR_ST_E4M3(v) NR__LOWP(nr_f32_to_f8e4m3, v)
#define NR_ST_E5M2(v) NR__LOWP(nr_f32_to_f8e5m2, v)
#define NR_ST_I64(v) NR__INT(i64, int64_t, v)
#define NR_ST_I32(v) NR__INT(i32, int32_t, v)
#define NR_ST_I16(v) NR__INT(i16, int16_t, v)
#define NR_ST_I8(v) NR__INT(i8, int8_t, v)
#define NR_ST_U64(v) NR__INT(u64, uint64_t, v)
#define NR_ST_U32(v) NR__INT(u32, uint32_t, v)
#define NR_ST_U16(v) NR__INT(u16, uint16_t, v)
#define NR_ST_U8(v) NR__INT(u8, uint8_t, v)
#define NR_ST_BOOL(v) ((nr_bool)(NR_CREAL(v) != 0 || NR_CIMAG(v) != 0))
#define NR_ST_C64(v) _Generic((v), nr_c64: (nr_c64)(v), nr_c128: (nr_c64)(v), \
    default: NR_C64(NR_CREAL(v), 0))
#define NR_ST_C128(v) _Generic((v), nr_c64: (nr_c128)(v), nr_c128: (nr_c128)(v), \
    default: NR_C128(NR_CREAL(v), 0))

/* ---- the 17 x 17 inner loops ---- */
#define NR__DEF_CVT(S, D)                                                              \
    static void nr_cvt_##S##_##D(const char *src, int64_t ss, char *dst, int64_t ds,   \
                                 int64_t n) {                                          \
        const NR_T_##S *s = (const NR_T_##S *)src;                                     \
        NR_T_##D *d = (NR_T_##D *)dst;                                                 \
        for (int64_t i = 0; i < n; ++i) d[i * ds] = NR_ST_##D(NR_LD_##S(s[i * ss]));   \
    }
/* order = nr_dense_index order */
#define NR__FOR_DST(M, S) M(S, F64) M(S, F32) M(S, F16) M(S, BF16) M(S, E4M3) M(S, E5M2) \
    M(S, I64) M(S, I32) M(S, I16) M(S, I8) M(S, U64) M(S, U32) M(S, U16) M(S, U8)        \
    M(S, BOOL) M(S, C64) M(S, C128)
#define NR__FOR_SRC(M) M(F64) M(F32) M(F16) M(BF16) M(E4M3) M(E5M2) M(I64) M(I32) M(I16) \
    M(I8) M(U64) M(U32) M(U16) M(U8) M(BOOL) M(C64) M(C128)
#define NR__DEF_ROW(S) NR__FOR_DST(NR__DEF_CVT, S)
NR__FOR_SRC(NR__DEF_ROW)

#define NR__TAB_ENT(S, D) nr_cvt_##S##_##D,
#define NR__TAB_ROW(S) {NR__FOR_DST(NR__TAB_ENT, S)},
static const nr_cvt_fn nr_cvt_table[NR_NUM_DTYPES][NR_NUM_DTYPES] = {NR__FOR_SRC(NR__TAB_ROW)};

/* float16 <-> float32 runs: whole contiguous runs through the block converters (F16C) */
static void nr_cvt_f16_f32_runs(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) {
    if (ss == 1 && ds == 1) nr_f16_to_f32_n((const nr_f16 *)src, (float *)dst, n);
    else nr_cvt_F16_F32(src, ss, dst, ds, n);
}
static void nr_cvt_f32_f16_runs(const char *src, int64_t ss, char *dst, int64_t ds, int64_t n) {
    if (ss == 1 && ds == 1) nr_f32_to_f16_n((const float *)src, (nr_f16 *)dst, n);
    else nr_cvt_F32_F16(src, ss, dst, ds, n);
}

static inline nr_cvt_fn nr_cvt_get(int src_code, int dst_code) {
    int s = nr_dense_index(src_code), d = nr_dense_index(dst_code);
    if (s < 0 || d < 0) return 0;
    if (s == d) return nr_bits_fn(nr_itemsize(src_code));
    if (src_code == NR_F16 && dst_code == NR_F32) return nr_cvt_f16_f32_runs;
    if (src_code == NR_F32 && dst_code == NR_F16) return nr_cvt_f32_f16_runs;
    return nr_cvt_table[s][d];
}

#endif
