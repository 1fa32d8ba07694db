// Casts and strided copies: one program per *source* dtype T, one kernel per destination.
// to_<dst>_<src>(D* out, Str so, const T* a, Str sa, Shp sh, i64 n); out may be any strided view
// (copy_ into slices), a may be broadcast. Conversion rules: cvt<> in common.cuh.
#include "common.cuh"

template <class D, class S>
__device__ __forceinline__ void cast_k(D* o, Str so, const S* a, Str sa, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa;
    coords(i, sh, so, sa, oo, oa);
    o[oo] = cvt<D, S>(a[oa]);
  }
}

#define CAST(DN, D) \
  extern "C" __global__ void KNAME(to_##DN)(D* o, Str so, const T* a, Str sa, Shp sh, i64 n) { cast_k<D, T>(o, so, a, sa, sh, n); }

CAST(bool, bool) CAST(int8, signed char) CAST(int16, short) CAST(int32, int) CAST(int64, i64)
CAST(uint8, unsigned char) CAST(uint16, unsigned short) CAST(uint32, u32) CAST(uint64, u64)
CAST(float16, __half) CAST(bfloat16, __nv_bfloat16) CAST(float32, float) CAST(float64, double)
CAST(float8_e4m3fn, f8e4) CAST(float8_e5m2, f8e5) CAST(complex64, c64) CAST(complex128, c128)

// contiguous same-size copy by bytes, 16 at a time where aligned (device-to-device copies)
extern "C" __global__ void KNAME(copy_bytes)(unsigned char* o, const unsigned char* a, i64 nbytes) {
  i64 n16 = ((((u64)o | (u64)a) & 15) == 0) ? nbytes / 16 : 0;
  const uint4* a4 = (const uint4*)a;
  uint4* o4 = (uint4*)o;
  GRID_STRIDE(i, n16) { o4[i] = a4[i]; }
  GRID_STRIDE(j, nbytes - n16 * 16) { o[n16 * 16 + j] = a[n16 * 16 + j]; }
}
