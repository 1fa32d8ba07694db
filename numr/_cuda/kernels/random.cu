// Seeded random numbers: Philox4x32-10, the exact streams of docs/architecture.md
// ("Random numbers"), so every backend gives the same numbers for a seed and stream.
// One thread per Philox block; key = (seed lo, seed hi), counter = (block lo, block hi, stream lo, stream hi).
#include "common.cuh"

struct u32x4 { u32 w[4]; };

__device__ __forceinline__ u32x4 philox(u64 block, u64 seed, u64 stream) {
  u32 c0 = (u32)block, c1 = (u32)(block >> 32), c2 = (u32)stream, c3 = (u32)(stream >> 32);
  u32 k0 = (u32)seed, k1 = (u32)(seed >> 32);
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    u32 lo0 = 0xD2511F53u * c0, hi0 = __umulhi(0xD2511F53u, c0);
    u32 lo1 = 0xCD9E8D57u * c2, hi1 = __umulhi(0xCD9E8D57u, c2);
    u32 n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0; c1 = n1; c2 = n2; c3 = n3;
  }
  u32x4 out;
  out.w[0] = c0; out.w[1] = c1; out.w[2] = c2; out.w[3] = c3;
  return out;
}

#if NUMR_IS_F
// rand_<dtype>(T* out, i64 n, u64 seed, u64 stream): uniform [0, 1)
template <class V> __device__ __forceinline__ void rand_k(V* o, i64 n, u64 seed, u64 stream) {
  if constexpr (same_t<V, double>::v) {
    GRID_STRIDE(b, (n + 1) / 2) {
      u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        i64 i = 2 * b + k;
        if (i < n) {
          u64 u = (((u64)r.w[2 * k] << 32) | r.w[2 * k + 1]) >> 11;
          o[i] = (double)u * 1.1102230246251565e-16;  // 2**-53
        }
      }
    }
  } else {
    GRID_STRIDE(b, (n + 3) / 4) {
      u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        i64 i = 4 * b + k;
        if (i < n) o[i] = st<V>((float)(r.w[k] >> 8) * 5.9604644775390625e-08f);  // 2**-24
      }
    }
  }
}
extern "C" __global__ void KNAME(rand)(T* o, i64 n, u64 seed, u64 stream) { rand_k<T>(o, n, seed, stream); }

// randn_<dtype>(T* out, i64 n, u64 seed, u64 stream): Box-Muller, float64 math for float64 output
template <class V> __device__ __forceinline__ void randn_k(V* o, i64 n, u64 seed, u64 stream) {
  GRID_STRIDE(b, (n + 1) / 2) {
    u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      i64 i = 2 * b + k;
      if (i >= n) break;
      if constexpr (same_t<V, double>::v) {
        double u1 = (double)((u64)r.w[2 * k] + 1) * 2.3283064365386963e-10;  // 2**-32
        double u2 = (double)r.w[2 * k + 1] * 2.3283064365386963e-10;
        o[i] = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
      } else {
        float u1 = (float)((u64)r.w[2 * k] + 1) * 2.3283064365386963e-10f;
        float u2 = (float)r.w[2 * k + 1] * 2.3283064365386963e-10f;
        o[i] = st<V>(sqrtf(-2.0f * logf(u1)) * cosf(6.2831853071795865f * u2));
      }
    }
  }
}
extern "C" __global__ void KNAME(randn)(T* o, i64 n, u64 seed, u64 stream) { randn_k<T>(o, n, seed, stream); }
#endif

#if NUMR_IS_INT
// randint_<dtype>(T* out, i64 n, u64 seed, u64 stream, u64 low, u64 span): low + w % span
template <class V> __device__ __forceinline__ void randint_k(V* o, i64 n, u64 seed, u64 stream, u64 low, u64 span) {
  if (span != 0 && span <= 4294967296ull) {
    GRID_STRIDE(b, (n + 3) / 4) {
      u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        i64 i = 4 * b + k;
        if (i < n) o[i] = (V)(low + (u64)r.w[k] % span);
      }
    }
  } else {
    GRID_STRIDE(b, (n + 1) / 2) {
      u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        i64 i = 2 * b + k;
        if (i < n) {
          u64 w = ((u64)r.w[2 * k] << 32) | r.w[2 * k + 1];
          o[i] = (V)(low + (span ? w % span : w));  // span 0 encodes 2**64 (the whole uint64 range)
        }
      }
    }
  }
}
extern "C" __global__ void KNAME(randint)(T* o, i64 n, u64 seed, u64 stream, u64 low, u64 span) {
  randint_k<T>(o, n, seed, stream, low, span);
}
#endif

// bernoulli keep-mask for dropout: keep_<dtype>(T* out, Str so, const T* x, Str sx, Shp sh, i64 n, u64 seed,
// u64 stream, float p, double scale): element i (row-major) uses rand's float32 stream: u < p drops it;
// kept values are x * scale with scale rounded to T first (as the generic composite computes it).
#if NUMR_IS_F
template <class V>
__device__ __forceinline__ void dropout_k(V* o, Str so, const V* x, Str sx, Shp sh, i64 n, u64 seed, u64 stream,
                                          float p, double scale) {
  float sc = cvt<float>(cvt<V>(scale));
  GRID_STRIDE(b, (n + 3) / 4) {
    u32x4 r = philox((u64)b, seed, stream);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      i64 i = 4 * b + k;
      if (i < n) {
        i64 oo, ox;
        coords(i, sh, so, sx, oo, ox);
        float u = (float)(r.w[k] >> 8) * 5.9604644775390625e-08f;
        if constexpr (same_t<V, double>::v) o[oo] = u < p ? 0.0 : x[ox] * scale;
        else o[oo] = st<V>(u < p ? 0.0f : ld<V>(x[ox]) * sc);
      }
    }
  }
}
extern "C" __global__ void KNAME(dropout)(T* o, Str so, const T* x, Str sx, Shp sh, i64 n, u64 seed, u64 stream,
                                          float p, double scale) {
  dropout_k<T>(o, so, x, sx, sh, n, seed, stream, p, scale);
}
#endif
