// The matmul family's extra products, on one shared-memory tile routine (tile_fold: 64 x 64 block
// tile, BK = 16 deep, 256 threads each owning 4 x 4 outputs; only the valid depth of a k step is
// folded, so padding never enters a fold). a and b any strides, batch strides 0 where broadcast.
//
//   sr_<semiring>_<T>(T* out, const T* a, const T* b, Shp bsh, Str bsa, Str bsb, Str bsc, i64 M, i64 N,
//                     i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch)
//     semiring_matmul: C = RED_k COMB(a[i, k], b[k, j]) for float32/float64/int32/int64/uint32/uint64
//     (min_plus, max_plus, max_min, min_max, plus_max) and bool (or_and); out contiguous [batch, M, N];
//     min/max propagate NaN (as nr.minimum/maximum); integer sums wrap (unsigned arithmetic).
//   scaled_mm_<T>(float* out, const T* a, const T* b, const float* sa, i64 ssa, const float* sb, i64 ssb,
//                 const float* bias, i64 sqm, i64 sqn, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn)
//     torch._scaled_mm for float8 T: float32 accumulation of the exact float8 -> float32 values, then
//     out[i, j] = acc * sa[i * ssa] * sb[j * ssb] (+ bias[i * sqm + j * sqn]); out contiguous [M, N].
#include "common.cuh"

template <class V> __device__ __forceinline__ V sr_min(V x, V y) { return (y < x || y != y) ? y : x; }
template <class V> __device__ __forceinline__ V sr_max(V x, V y) { return (y > x || y != y) ? y : x; }

// op codes: 0 add, 1 min, 2 max, 3 and, 4 or, 5 multiply-add (the scaled_mm product)
template <int OP, class A> __device__ __forceinline__ A sr_apply(A x, A y) {
  if constexpr (OP == 0) {
    if constexpr (Tr<A>::kind == K_F) return x + y;
    else return (A)((u64)x + (u64)y);  // wraps in A's width
  } else if constexpr (OP == 1) return sr_min<A>(x, y);
  else if constexpr (OP == 2) return sr_max<A>(x, y);
  else if constexpr (OP == 3) return (A)(x && y);
  else return (A)(x || y);
}

// acc[i][j] = RED(acc, COMB(a, b)) over k, A the accumulator/shared type (a and b converted as read);
// COMB == 5: a fused multiply-add. The caller stores acc (rows ty + 16 i, columns tx + 16 j).
template <class V, class A, int COMB, int RED>
__device__ __forceinline__ void tile_fold(A (&acc)[4][4], A (*As)[64], A (*Bs)[64], const V* pa, const V* pb,
                                          i64 m0, i64 n0, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn,
                                          A ident) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = ident;
  for (i64 k0 = 0; k0 < K; k0 += 16) {
    const int kn = (int)(K - k0 < 16 ? K - k0 : 16);
    for (int e = threadIdx.x; e < 64 * 16; e += 256) {
      int r = e / 16, c = e % 16;
      i64 gm = m0 + r;
      As[c][r] = (gm < M && c < kn) ? (A)ld(pa[gm * sam + (k0 + c) * sak]) : ident;
      int r2 = e / 64, c2 = e % 64;
      i64 gn = n0 + c2;
      Bs[r2][c2] = (r2 < kn && gn < N) ? (A)ld(pb[(k0 + r2) * sbk + gn * sbn]) : ident;
    }
    __syncthreads();
    for (int kk = 0; kk < kn; ++kk) {
      A av[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) { av[i] = As[kk][ty + 16 * i]; bv[i] = Bs[kk][tx + 16 * i]; }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if constexpr (COMB == 5) acc[i][j] = fma(av[i], bv[j], acc[i][j]);
          else acc[i][j] = sr_apply<RED, A>(acc[i][j], sr_apply<COMB, A>(av[i], bv[j]));
        }
    }
    __syncthreads();
  }
}

#if NUMR_DTYPE == 0 || NUMR_DTYPE == 1 || NUMR_DTYPE == 10 || NUMR_DTYPE == 11 || NUMR_DTYPE == 20 || \
    NUMR_DTYPE == 21 || NUMR_IS_B
template <int COMB, int RED>
__device__ __forceinline__ void sr_kernel(T* out, const T* a, const T* b, Shp bsh, Str bsa, Str bsb, Str bsc, i64 M,
                                          i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch, T ident) {
  __shared__ T As[16][64];
  __shared__ T Bs[16][64];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const i64 m0 = (i64)blockIdx.y * 64, n0 = (i64)blockIdx.x * 64;
  for (i64 z = blockIdx.z; z < nbatch; z += gridDim.z) {
    i64 oa, ob, oc;
    coords(z, bsh, bsa, bsb, bsc, oa, ob, oc);
    T acc[4][4];
    tile_fold<T, T, COMB, RED>(acc, As, Bs, a + oa, b + ob, m0, n0, M, N, K, sam, sak, sbk, sbn, ident);
    for (int i = 0; i < 4; ++i) {
      i64 gm = m0 + ty + 16 * i;
      for (int j = 0; j < 4; ++j) {
        i64 gn = n0 + tx + 16 * j;
        if (gm < M && gn < N) out[oc + gm * N + gn] = acc[i][j];
      }
    }
  }
}

#define SR_KERNEL(NAME, COMB, RED, IDENT)                                                                   \
  extern "C" __global__ void __launch_bounds__(256) KNAME(NAME)(T * out, const T* a, const T* b, Shp bsh, \
      Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 nbatch) {      \
    sr_kernel<COMB, RED>(out, a, b, bsh, bsa, bsb, bsc, M, N, K, sam, sak, sbk, sbn, nbatch, IDENT);          \
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

#if NUMR_DTYPE == 4 || NUMR_DTYPE == 5
extern "C" __global__ void __launch_bounds__(256) KNAME(scaled_mm)(float* out, const T* a, const T* b,
    const float* sa, i64 ssa, const float* sb, i64 ssb, const float* bias, i64 sqm, i64 sqn, i64 M, i64 N, i64 K,
    i64 sam, i64 sak, i64 sbk, i64 sbn) {
  __shared__ float As[16][64];
  __shared__ float Bs[16][64];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const i64 m0 = (i64)blockIdx.y * 64, n0 = (i64)blockIdx.x * 64;
  float acc[4][4];
  tile_fold<T, float, 5, 0>(acc, As, Bs, a, b, m0, n0, M, N, K, sam, sak, sbk, sbn, 0.0f);
  for (int i = 0; i < 4; ++i) {
    i64 gm = m0 + ty + 16 * i;
    for (int j = 0; j < 4; ++j) {
      i64 gn = n0 + tx + 16 * j;
      if (gm < M && gn < N) {
        float v = acc[i][j] * sa[gm * ssa] * sb[gn * ssb];
        if (bias) v += bias[gm * sqm + gn * sqn];
        out[gm * N + gn] = v;
      }
    }
  }
}
#endif
