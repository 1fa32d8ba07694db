// Semiring matrix products C[i, j] = RED_k COMB(A[i, k], B[k, j]) (semiring_matmul). One program per
// dtype; kernels for float32/float64/int32/int64/uint32/uint64 (min_plus, max_plus, max_min, min_max,
// plus_max) and bool (or_and); other dtypes are cast by numr/_cuda/ops/matmul.py (low-precision
// floats to float32) or take the composite (narrow integers, whose sums must wrap in their width).
//
//   sr_<semiring>_<T>(T* out, const T* a, const T* b, Shp bsh, Str bsa, Str bsb, Str bsc, i64 M, i64 N,
//                     i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch)
// out contiguous [batch, M, N]; a and b any strides, batch strides 0 where broadcast.
// 64 x 64 block tile through shared memory, BK = 16 deep, 256 threads each owning 4 x 4 outputs.
// min/max propagate NaN (as nr.minimum/maximum); integer sums wrap (unsigned arithmetic).
#include "common.cuh"

#if NUMR_DTYPE == 0 || NUMR_DTYPE == 1 || NUMR_DTYPE == 10 || NUMR_DTYPE == 11 || NUMR_DTYPE == 20 || \
    NUMR_DTYPE == 21 || NUMR_IS_B
template <class V> __device__ __forceinline__ V sr_min(V x, V y) { return (y < x || y != y) ? y : x; }
template <class V> __device__ __forceinline__ V sr_max(V x, V y) { return (y > x || y != y) ? y : x; }
template <class V> __device__ __forceinline__ V sr_add(V x, V y) {
  if constexpr (Tr<V>::kind == K_F) return x + y;
  else return (V)((u64)x + (u64)y);  // wraps in V's width
}

// op codes: 0 add, 1 min, 2 max, 3 and, 4 or
template <int OP, class V> __device__ __forceinline__ V sr_apply(V x, V y) {
  if constexpr (OP == 0) return sr_add<V>(x, y);
  else if constexpr (OP == 1) return sr_min<V>(x, y);
  else if constexpr (OP == 2) return sr_max<V>(x, y);
  else if constexpr (OP == 3) return (V)(x && y);
  else return (V)(x || y);
}

#define SR_BM 64
#define SR_BN 64
#define SR_BK 16

template <class V, int COMB, int RED>
__device__ __forceinline__ void sr_tile(V* out, const V* a, const V* b, Shp bsh, Str bsa, Str bsb, Str bsc, i64 M,
                                        i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch, V ident) {
  __shared__ V As[SR_BK][SR_BM];
  __shared__ V Bs[SR_BK][SR_BN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const i64 m0 = (i64)blockIdx.y * SR_BM, n0 = (i64)blockIdx.x * SR_BN;
  for (i64 z = blockIdx.z; z < nbatch; z += gridDim.z) {
    i64 oa, ob, oc;
    coords(z, bsh, bsa, bsb, bsc, oa, ob, oc);
    const V* pa = a + oa;
    const V* pb = b + ob;
    V acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[i][j] = ident;
    for (i64 k0 = 0; k0 < K; k0 += SR_BK) {
      const int kn = (int)(K - k0 < SR_BK ? K - k0 : SR_BK);
      for (int e = threadIdx.x; e < SR_BM * SR_BK; e += 256) {
        int r = e / SR_BK, c = e % SR_BK;
        i64 gm = m0 + r;
        As[c][r] = (gm < M && c < kn) ? pa[gm * sam + (k0 + c) * sak] : ident;
      }
      for (int e = threadIdx.x; e < SR_BK * SR_BN; e += 256) {
        int r = e / SR_BN, c = e % SR_BN;
        i64 gn = n0 + c;
        Bs[r][c] = (r < kn && gn < N) ? pb[(k0 + r) * sbk + gn * sbn] : ident;
      }
      __syncthreads();
      for (int kk = 0; kk < kn; ++kk) {  // only the valid depth: padding never enters the fold
        V av[4], bv[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) av[i] = As[kk][ty + 16 * i];
#pragma unroll
        for (int j = 0; j < 4; ++j) bv[j] = Bs[kk][tx + 16 * j];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = sr_apply<RED, V>(acc[i][j], sr_apply<COMB, V>(av[i], bv[j]));
      }
      __syncthreads();
    }
    V* po = out + oc;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      i64 gm = m0 + ty + 16 * i;
      if (gm >= M) continue;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        i64 gn = n0 + tx + 16 * j;
        if (gn < N) po[gm * N + gn] = acc[i][j];
      }
    }
  }
}

#define SR_KERNEL(NAME, COMB, RED, IDENT)                                                                   \
  extern "C" __global__ void __launch_bounds__(256) KNAME(NAME)(T * out, const T* a, const T* b, Shp bsh, \
      Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch) {      \
    sr_tile<T, COMB, RED>(out, a, b, bsh, bsa, bsb, bsc, M, N, K, sam, sak, sbk, sbn, nbatch, IDENT);        \
  }

#if NUMR_IS_B
SR_KERNEL(sr_or_and, 3, 4, false)
#else
#if NUMR_IS_F
#define SR_HI ((T)INFINITY)
#define SR_LO ((T)-INFINITY)
#else
#define SR_HI (Lim<T>::hi())
#define SR_LO (Lim<T>::lo())
#endif
SR_KERNEL(sr_min_plus, 0, 1, SR_HI)
SR_KERNEL(sr_max_plus, 0, 2, SR_LO)
SR_KERNEL(sr_max_min, 1, 2, SR_LO)
SR_KERNEL(sr_min_max, 2, 1, SR_HI)
SR_KERNEL(sr_plus_max, 2, 0, (T)0)
#endif
#endif
