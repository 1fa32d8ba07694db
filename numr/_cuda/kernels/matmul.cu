// Matrix products: one program per dtype T. Batched with broadcast batch dims (batch strides,
// 0 where broadcast), any row/column strides, an optional fused bias (strided, broadcast).
//
//   mm_<T>       shared-memory tiled SIMT kernel, 64x64 tile, 4x4 outputs per thread (every dtype)
//   mm_big_<T>   128x128 tile, 8x8 outputs per thread (float32 / float64 on large products)
//   mm_tc_<T>    tensor cores (PTX mma.sync m16n8k16, float32 accumulation) for float16 / bfloat16, sm_80+
// Arguments: (T* out, const T* a, const T* b, const T* bias, Shp bsh, Str bsa, Str bsb, Str bsc,
//             i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 scm, i64 scn, i64 nbatch)
// out is contiguous [batch, M, N]; bias may be NULL.
#include "common.cuh"

template <class V> struct MMAcc {  // accumulator: wide ints wrap exactly like the narrow type
  static constexpr int k = Tr<V>::kind;
  typedef typename select_t<k == K_B, int, typename select_t<k == K_I, i64,
          typename select_t<k == K_U, u64, Acc<V>>::t>::t>::t A;
};

template <class A> __device__ __forceinline__ A mac(A acc, A x, A y) {
  if constexpr (Tr<A>::kind == K_F) return fma(x, y, acc);
  else if constexpr (Tr<A>::kind == K_C) return acc + x * y;
  else if constexpr (same_t<A, int>::v) return acc | (x & y);  // bool: any(a and b)
  else return (A)((u64)acc + (u64)x * (u64)y);
}

template <class V, class A> __device__ __forceinline__ V mm_store(A acc, const V* bias, i64 boff) {
  if constexpr (same_t<V, bool>::v) {
    bool r = acc != 0;
    if (bias) r = r || bias[boff];
    return r;
  } else {
    V r = cvt<V>(acc);
    if (bias) {
      if constexpr (Tr<V>::kind == K_F) r = st<V>(ld<V>(r) + ld<V>(bias[boff]));
      else if constexpr (Tr<V>::kind == K_C) r = r + bias[boff];
      else r = (V)((u64)r + (u64)bias[boff]);
    }
    return r;
  }
}

#define MM_ARGS                                                                                        \
  V *out, const V *a, const V *b, const V *bias, Shp bsh, Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, \
      i64 sam, i64 sak, i64 sbk, i64 sbn, i64 scm, i64 scn, i64 nbatch

// SIMT tiled kernel: BM x BN tile, BK deep, 256 threads as 16 x 16, each TM x TN outputs
template <class V, int BM, int BN, int BK, int TM, int TN>
__device__ __forceinline__ void mm_simt(MM_ARGS) {
  typedef typename MMAcc<V>::A A;
  __shared__ A As[BK][BM];
  __shared__ A Bs[BK][BN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const i64 m0 = (i64)blockIdx.y * BM, n0 = (i64)blockIdx.x * BN;
  for (i64 z = blockIdx.z; z < nbatch; z += gridDim.z) {
    i64 oa, ob, oc;
    coords(z, bsh, bsa, bsb, bsc, oa, ob, oc);
    const V* pa = a + oa;
    const V* pb = b + ob;
    A acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = cvt<A>(0);
    for (i64 k0 = 0; k0 < K; k0 += BK) {
      for (int e = threadIdx.x; e < BM * BK; e += 256) {
        int r = e / BK, c = e % BK;
        i64 gm = m0 + r, gk = k0 + c;
        As[c][r] = (gm < M && gk < K) ? cvt<A>(pa[gm * sam + gk * sak]) : cvt<A>(0);
      }
      for (int e = threadIdx.x; e < BK * BN; e += 256) {
        int r = e / BN, c = e % BN;
        i64 gk = k0 + r, gn = n0 + c;
        Bs[r][c] = (gk < K && gn < N) ? cvt<A>(pb[gk * sbk + gn * sbn]) : cvt<A>(0);
      }
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        A av[TM], bv[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) av[i] = As[kk][ty + 16 * i];
#pragma unroll
        for (int j = 0; j < TN; ++j) bv[j] = Bs[kk][tx + 16 * j];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = mac(acc[i][j], av[i], bv[j]);
      }
      __syncthreads();
    }
    V* po = out + z * M * N;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      i64 gm = m0 + ty + 16 * i;
      if (gm >= M) continue;
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        i64 gn = n0 + tx + 16 * j;
        if (gn < N) po[gm * N + gn] = mm_store<V, A>(acc[i][j], bias ? bias + oc : bias, gm * scm + gn * scn);
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(256) KNAME(mm)(T* out, const T* a, const T* b, const T* bias, Shp bsh,
    Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 scm, i64 scn, i64 nbatch) {
  mm_simt<T, 64, 64, 16, 4, 4>(out, a, b, bias, bsh, bsa, bsb, bsc, M, N, K, sam, sak, sbk, sbn, scm, scn, nbatch);
}

#if NUMR_DTYPE == 0 || NUMR_DTYPE == 1
extern "C" __global__ void __launch_bounds__(256) KNAME(mm_big)(T* out, const T* a, const T* b, const T* bias,
    Shp bsh, Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 scm, i64 scn,
    i64 nbatch) {
  mm_simt<T, 128, 128, 8, 8, 8>(out, a, b, bias, bsh, bsa, bsb, bsc, M, N, K, sam, sak, sbk, sbn, scm, scn, nbatch);
}
#endif

#if NUMR_DTYPE == 2 || NUMR_DTYPE == 3
// Tensor-core kernel (sm_80+): PTX mma.sync m16n8k16 with float32 accumulation (no mma.h needed).
// 128 x 128 block tile, BK = 32, 8 warps as 2 (M) x 4 (N), each warp 64 x 32 = 4 x 4 mma tiles.
// Shared tiles: As[m][k] and BsT[n][k] (B transposed so both fragments are 32-bit loads), rows
// padded against bank conflicts; global loads are 16 bytes at a time when contiguous and aligned.
#define TC_BM 128
#define TC_BN 128
#define TC_BK 32
#define TC_LD (TC_BK + 8)

template <class V>
__device__ __forceinline__ void load_tile_a(V (*As)[TC_LD], const V* pa, i64 m0, i64 k0, i64 M, i64 K,
                                            i64 sam, i64 sak, bool vec) {
  for (int e = threadIdx.x; e < TC_BM * TC_BK / 8; e += 256) {  // 128 rows x 4 vectors of 8
    int r = e / (TC_BK / 8), c = (e % (TC_BK / 8)) * 8;
    i64 gm = m0 + r, gk = k0 + c;
    if (vec && gm < M && gk + 8 <= K) {
      *(uint4*)&As[r][c] = *(const uint4*)(pa + gm * sam + gk);
    } else {
#pragma unroll
      for (int q = 0; q < 8; ++q)
        As[r][c + q] = (gm < M && gk + q < K) ? pa[gm * sam + (gk + q) * sak] : Tr<V>::store(0.0f);
    }
  }
}

template <class V>
__device__ __forceinline__ void load_tile_b(V (*Bt)[TC_LD], const V* pb, i64 k0, i64 n0, i64 K, i64 N,
                                            i64 sbk, i64 sbn, bool vec) {
  for (int e = threadIdx.x; e < TC_BK * TC_BN / 8; e += 256) {  // 32 rows (k) x 16 vectors of 8 (n)
    int r = e / (TC_BN / 8), c = (e % (TC_BN / 8)) * 8;
    i64 gk = k0 + r, gn = n0 + c;
    if (vec && gk < K && gn + 8 <= N) {
      uint4 v = *(const uint4*)(pb + gk * sbk + gn);
      const V* pv = (const V*)&v;
#pragma unroll
      for (int q = 0; q < 8; ++q) Bt[c + q][r] = pv[q];
    } else {
#pragma unroll
      for (int q = 0; q < 8; ++q)
        Bt[c + q][r] = (gk < K && gn + q < N) ? pb[gk * sbk + (gn + q) * sbn] : Tr<V>::store(0.0f);
    }
  }
}

__device__ __forceinline__ void mma16816(float* c, const u32* a, const u32* b) {
#if defined(NUMR_EMU)
  emu_mma16816(c, a, b, NUMR_DTYPE == 3);
#elif NUMR_DTYPE == 2
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

template <class V> __device__ __forceinline__ void mm_tc(MM_ARGS) {
#if __CUDA_ARCH__ >= 800 || defined(NUMR_EMU)
  __shared__ __align__(16) V As[TC_BM][TC_LD];
  __shared__ __align__(16) V Bt[TC_BN][TC_LD];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane >> 2, t = lane & 3;
  const int wm = (warp / 4) * 64, wn = (warp % 4) * 32;  // warp tile origin in the block tile
  const i64 m0 = (i64)blockIdx.y * TC_BM, n0 = (i64)blockIdx.x * TC_BN;
  for (i64 z = blockIdx.z; z < nbatch; z += gridDim.z) {
    i64 oa, ob, oc;
    coords(z, bsh, bsa, bsb, bsc, oa, ob, oc);
    const V* pa = a + oa;
    const V* pb = b + ob;
    const bool va = sak == 1 && (sam % 8) == 0 && (((u64)pa) & 15) == 0;
    const bool vb = sbn == 1 && (sbk % 8) == 0 && (((u64)pb) & 15) == 0;
    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.0f;
    for (i64 k0 = 0; k0 < K; k0 += TC_BK) {
      load_tile_a<V>(As, pa, m0, k0, M, K, sam, sak, va);
      load_tile_b<V>(Bt, pb, k0, n0, K, N, sbk, sbn, vb);
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < TC_BK; kk += 16) {
        u32 fa[4][4], fb[4][2];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int r = wm + i * 16 + g;
          fa[i][0] = *(const u32*)&As[r][kk + 2 * t];
          fa[i][1] = *(const u32*)&As[r + 8][kk + 2 * t];
          fa[i][2] = *(const u32*)&As[r][kk + 2 * t + 8];
          fa[i][3] = *(const u32*)&As[r + 8][kk + 2 * t + 8];
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int c = wn + j * 8 + g;
          fb[j][0] = *(const u32*)&Bt[c][kk + 2 * t];
          fb[j][1] = *(const u32*)&Bt[c][kk + 2 * t + 8];
        }
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) mma16816(acc[i][j], fa[i], fb[j]);
      }
      __syncthreads();
    }
    V* po = out + z * M * N;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          i64 gm = m0 + wm + i * 16 + g + (q >= 2 ? 8 : 0);
          i64 gn = n0 + wn + j * 8 + 2 * t + (q & 1);
          if (gm < M && gn < N) {
            float v = acc[i][j][q];
            if (bias) v += Tr<V>::load(bias[oc + gm * scm + gn * scn]);
            po[gm * N + gn] = Tr<V>::store(v);
          }
        }
      }
    }
  }
#endif
}

extern "C" __global__ void __launch_bounds__(256) KNAME(mm_tc)(T* out, const T* a, const T* b, const T* bias,
    Shp bsh, Str bsa, Str bsb, Str bsc, i64 M, i64 N, i64 K, i64 sam, i64 sak, i64 sbk, i64 sbn, i64 scm, i64 scn,
    i64 nbatch) {
  mm_tc<T>(out, a, b, bias, bsh, bsa, bsb, bsc, M, N, K, sam, sak, sbk, sbn, scm, scn, nbatch);
}
#endif
