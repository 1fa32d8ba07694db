// cumsum / cumprod along one dim: one program per (result) dtype T; the client casts the input
// to the result dtype first. A block per line: chunks of blockDim elements are scanned with
// warp shuffles, a carry runs from chunk to chunk. float16/bfloat16/float8 accumulate in float32.
// <op>_<T>(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so, i64 sx)
#include "common.cuh"

template <class V, bool PROD>
__device__ __forceinline__ void scan_k(V* out, const V* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so,
                                       i64 sx) {
  typedef Acc<V> A;
  __shared__ A warp_tot[32];
  __shared__ A carry_s;
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
  const A ident = cvt<A>(PROD ? 1 : 0);
  for (i64 line = blockIdx.x; line < nlines; line += gridDim.x) {
    i64 bo, bx;
    coords(line, lsh, lso, lsx, bo, bx);
    if (threadIdx.x == 0) carry_s = ident;
    __syncthreads();
    for (i64 c = 0; c < L; c += blockDim.x) {
      i64 j = c + threadIdx.x;
      A v = j < L ? ld<V>(x[bx + j * sx]) : ident;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        A u = shfl_up_any(v, d);
        if (lane >= d) v = PROD ? u * v : u + v;
      }
      if (lane == 31) warp_tot[wid] = v;
      __syncthreads();
      if (wid == 0) {
        A t = lane < nw ? warp_tot[lane] : ident;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          A u = shfl_up_any(t, d);
          if (lane >= d) t = PROD ? u * t : u + t;
        }
        if (lane < nw) warp_tot[lane] = t;  // inclusive scan of the warp totals
      }
      __syncthreads();
      // the line's first element starts the chain as it is: ident + -0.0 would be +0.0 and
      // 1 * (-inf+0j) would be (-inf+nanj); so the warp and chunk prefixes join only where they exist
      A r = v;
      if (wid > 0) r = PROD ? warp_tot[wid - 1] * r : warp_tot[wid - 1] + r;
      if (c > 0) r = PROD ? carry_s * r : carry_s + r;
      if (j < L) out[bo + j * so] = st<V>(r);
      __syncthreads();
      if (threadIdx.x == blockDim.x - 1) carry_s = r;
      __syncthreads();
    }
  }
}

#if !NUMR_IS_B
extern "C" __global__ void KNAME(cumsum)(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so,
                                         i64 sx) { scan_k<T, false>(out, x, lsh, lso, lsx, nlines, L, so, sx); }
extern "C" __global__ void KNAME(cumprod)(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so,
                                          i64 sx) { scan_k<T, true>(out, x, lsh, lso, lsx, nlines, L, so, sx); }
#endif
