// fill (full, zeros, fill_) and clamp: one program per dtype T.
#include "mathx.cuh"

template <class V> __device__ __forceinline__ void fill_k(V* o, Str so, Shp sh, i64 n, V v) {
  GRID_STRIDE(i, n) {
    i64 oo;
    coords(i, sh, so, oo);
    o[oo] = v;
  }
}
// fill_<dtype>(T* out, Str so, Shp sh, i64 n, T value)
extern "C" __global__ void KNAME(fill)(T* o, Str so, Shp sh, i64 n, T v) { fill_k<T>(o, so, sh, n, v); }

#if !NUMR_IS_C
// clamp_<dtype>(out, so, x, sx, lo, slo, hi, shi, sh, n, has_lo, has_hi): NaN in x stays NaN,
// a NaN bound gives NaN (NumPy's clip).
template <class V>
__device__ __forceinline__ void clamp_k(V* o, Str so, const V* x, Str sx, const V* lo, Str sl, const V* hi, Str shh,
                                        Shp sh, i64 n, int has_lo, int has_hi) {
  GRID_STRIDE(i, n) {
    i64 oo, ox, ol, oh;
    coords(i, sh, so, sx, sl, shh, oo, ox, ol, oh);
    Acc<V> v = ld<V>(x[ox]);
    if constexpr (Tr<V>::kind == K_F) {
      if (has_lo) v = max_nan(v, ld<V>(lo[ol]));
      if (has_hi) v = min_nan(v, ld<V>(hi[oh]));
    } else {
      if (has_lo) { Acc<V> l = ld<V>(lo[ol]); v = v < l ? l : v; }
      if (has_hi) { Acc<V> h = ld<V>(hi[oh]); v = v > h ? h : v; }
    }
    o[oo] = st<V>(v);
  }
}
extern "C" __global__ void KNAME(clamp)(T* o, Str so, const T* x, Str sx, const T* lo, Str sl, const T* hi, Str shh,
                                        Shp sh, i64 n, int has_lo, int has_hi) {
  clamp_k<T>(o, so, x, sx, lo, sl, hi, shh, sh, n, has_lo, has_hi);
}
#endif
