// Host emulation of the small part of CUDA that numr's kernels use, so the .cu sources can be
// compiled with g++ and run on the CPU in tests (numr/_cuda/emulate.py, NUMR_CUDA_EMULATE=1).
// Threads of a block are cooperative coroutines (ucontext): __syncthreads, warp shuffles and
// ballots are real barriers. 16-bit and 8-bit float conversions are emulated in software
// (round to nearest even, NaN/inf as ml_dtypes). The tensor-core mma.sync m16n8k16 is a
// warp-collective exchange in the PTX ISA's fragment layout, so the sm_80 kernel runs on the host.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <ucontext.h>
#include <vector>
#include <utility>

#define NUMR_EMU 1
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline __attribute__((always_inline))
#define __shared__ static
#define __launch_bounds__(x)
#define __align__(n) __attribute__((aligned(n)))

using std::isinf;
using std::isfinite;
using std::isnan;

struct dim3 { unsigned x = 1, y = 1, z = 1; };
extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
// A 16-byte vector load or store must be 16-byte aligned on the GPU (else the launch fails with
// CUDA_ERROR_MISALIGNED_ADDRESS); the emulated copies check it.
static inline void emu_check_align16(const void* p) {
  if ((uintptr_t)p & 15) { fprintf(stderr, "emu: misaligned 16-byte vector access at %p\n", p); abort(); }
}
struct alignas(16) uint4 {
  unsigned x, y, z, w;
  uint4() = default;
  uint4(const uint4& o) : x(o.x), y(o.y), z(o.z), w(o.w) { emu_check_align16(&o); }
  uint4& operator=(const uint4& o) {
    emu_check_align16(&o);
    emu_check_align16(this);
    x = o.x; y = o.y; z = o.z; w = o.w;
    return *this;
  }
};

// ---- cooperative threads ----------------------------------------------------------------
void emu_yield();
void emu_syncthreads();
void emu_warp_sync();
extern thread_local unsigned char emu_slots[1024][16];
extern thread_local int emu_ints[1024];

static inline int emu_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
#define __syncthreads() emu_syncthreads()
#define __syncwarp() emu_warp_sync()

template <class V> static inline V emu_shfl(V v, int src_lane_delta, int mode) {
  static_assert(sizeof(V) <= 16, "shuffle of a value larger than 16 bytes");
  int tid = emu_tid(), lane = tid & 31, base = tid - lane;
  memcpy(emu_slots[tid], &v, sizeof(V));
  emu_warp_sync();
  int src = mode == 0 ? lane + src_lane_delta : lane - src_lane_delta;
  V r = v;
  if (src >= 0 && src < 32 && base + src < (int)(blockDim.x * blockDim.y * blockDim.z)) memcpy(&r, emu_slots[base + src], sizeof(V));
  emu_warp_sync();
  return r;
}
template <class V> static inline V __shfl_down_sync(unsigned, V v, int d) { return emu_shfl(v, d, 0); }
template <class V> static inline V __shfl_up_sync(unsigned, V v, int d) { return emu_shfl(v, d, 1); }
static inline unsigned __ballot_sync(unsigned, int p) {
  int tid = emu_tid(), lane = tid & 31, base = tid - lane;
  emu_ints[tid] = p != 0;
  emu_warp_sync();
  unsigned m = 0;
  int nthreads = blockDim.x * blockDim.y * blockDim.z;
  for (int l = 0; l < 32 && base + l < nthreads; ++l) m |= (unsigned)emu_ints[base + l] << l;
  emu_warp_sync();
  return m;
}
static inline int __syncthreads_count(int p) {
  int tid = emu_tid();
  emu_ints[tid] = p != 0;
  emu_syncthreads();
  int c = 0, nthreads = blockDim.x * blockDim.y * blockDim.z;
  for (int t = 0; t < nthreads; ++t) c += emu_ints[t];
  emu_syncthreads();
  return c;
}
static inline long long atomicMax(long long* p, long long v) {  // cooperative threads: no races
  long long old = *p;
  if (v > old) *p = v;
  return old;
}
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
static inline float rsqrt(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }

// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}: D = A (16x16) B (16x8) + C, float32 accumulation.
// Each lane holds, with g = lane / 4 and t = lane % 4 (PTX ISA "Matrix Fragments for mma.m16n8k16"):
//   a[0..3]: A[g][2t..2t+1], A[g+8][2t..2t+1], A[g][2t+8..2t+9], A[g+8][2t+8..2t+9] (two 16-bit values)
//   b[0..1]: B[2t..2t+1][g], B[2t+8..2t+9][g];  c[0..3]: C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]
static inline float emu_half_bits(unsigned short x, bool bf16);
static inline void emu_mma16816(float* c, const unsigned* a, const unsigned* b, bool bf16) {
  static thread_local unsigned frag[1024][6];
  int tid = emu_tid(), lane = tid & 31, base = tid - lane;
  for (int i = 0; i < 4; ++i) frag[tid][i] = a[i];
  frag[tid][4] = b[0];
  frag[tid][5] = b[1];
  emu_warp_sync();
  auto elem = [&](int ln, int reg, int k) {
    return emu_half_bits((unsigned short)(frag[base + ln][reg] >> (16 * (k & 1))), bf16);
  };
  const int g = lane >> 2, t = lane & 3;
  for (int q = 0; q < 4; ++q) {
    int row = g + (q >= 2 ? 8 : 0), col = 2 * t + (q & 1);
    float acc = c[q];
    for (int k = 0; k < 16; ++k) {
      float x = elem((row & 7) * 4 + (k & 7) / 2, (row >= 8) + 2 * (k >= 8), k);
      float y = elem(col * 4 + (k & 7) / 2, 4 + (k >= 8), k);
      acc = fmaf(x, y, acc);
    }
    c[q] = acc;
  }
  emu_warp_sync();
}

// ---- software minifloats (round to nearest even from double) ---------------------------
// ebits/mbits/bias; fn: no infinities (e4m3fn: all-ones exponent+mantissa is NaN); sat unused (NOSAT)
static inline unsigned emu_to_mini(double x, int ebits, int mbits, bool fn) {
  unsigned sign = std::signbit(x) ? 1u << (ebits + mbits) : 0u;
  int bias = (1 << (ebits - 1)) - 1;
  unsigned expmax = (1u << ebits) - 1;
  unsigned nan_bits = fn ? ((expmax << mbits) | ((1u << mbits) - 1)) : ((expmax << mbits) | (1u << (mbits - 1)));
  unsigned inf_bits = fn ? nan_bits : (expmax << mbits);
  if (std::isnan(x)) return sign | nan_bits;
  double a = std::fabs(x);
  int emax = fn ? (int)expmax - bias : (int)expmax - 1 - bias;
  double maxval = fn ? std::ldexp(2.0 - std::ldexp(1.0, -(mbits - 1)), emax) : std::ldexp(2.0 - std::ldexp(1.0, -mbits), emax);
  if (std::isinf(x)) return sign | inf_bits;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
  int ue = e - 1;     // unbiased exponent
  int emin = 1 - bias;
  if (ue < emin) ue = emin;  // subnormal range
  double q = std::ldexp(a, mbits - ue);  // mantissa units
  double r = std::nearbyint(q);         // current rounding mode: nearest even
  double v = std::ldexp(r, ue - mbits);
  if (v > maxval) return sign | inf_bits;
  int ve;
  std::frexp(v, &ve);
  int be = ve - 1 + bias;
  if (v < std::ldexp(1.0, emin)) return sign | (unsigned)std::ldexp(v, bias - 1 + mbits);  // subnormal
  unsigned mant = (unsigned)(std::ldexp(v, mbits - (ve - 1))) - (1u << mbits);
  return sign | ((unsigned)be << mbits) | mant;
}
static inline double emu_from_mini(unsigned b, int ebits, int mbits, bool fn) {
  int bias = (1 << (ebits - 1)) - 1;
  unsigned expmax = (1u << ebits) - 1;
  bool neg = (b >> (ebits + mbits)) & 1;
  unsigned e = (b >> mbits) & expmax, m = b & ((1u << mbits) - 1);
  double v;
  if (fn && e == expmax && m == (1u << mbits) - 1) v = NAN;
  else if (!fn && e == expmax) v = m ? NAN : INFINITY;
  else if (e == 0) v = std::ldexp((double)m, 1 - bias - mbits);
  else v = std::ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
  return neg ? -v : v;
}

struct __half_raw { unsigned short x; };
struct __half {
  unsigned short x;
  __half() = default;
  __half(__half_raw r) : x(r.x) {}
};
struct __nv_bfloat16 { unsigned short x; };
static inline float __half2float(__half h) { return (float)emu_from_mini(h.x, 5, 10, false); }
static inline __half __double2half(double d) { __half h; h.x = (unsigned short)emu_to_mini(d, 5, 10, false); return h; }
static inline __half __float2half_rn(float f) { return __double2half(f); }
static inline float __bfloat162float(__nv_bfloat16 h) { unsigned u = (unsigned)h.x << 16; float f; memcpy(&f, &u, 4); return f; }
static inline float emu_half_bits(unsigned short x, bool bf16) {
  return bf16 ? __bfloat162float(__nv_bfloat16{x}) : __half2float(__half_raw{x});
}
static inline __nv_bfloat16 __double2bfloat16(double d) {
  __nv_bfloat16 r; r.x = (unsigned short)emu_to_mini(d, 8, 7, false); return r;
}
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __double2bfloat16(f); }
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
typedef unsigned char __nv_fp8_storage_t;
static inline __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t t) {
  double v = t == __NV_E4M3 ? emu_from_mini(x, 4, 3, true) : emu_from_mini(x, 5, 2, false);
  __half_raw r; r.x = __double2half(v).x; return r;
}
static inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t, __nv_fp8_interpretation_t t) {
  return (unsigned char)(t == __NV_E4M3 ? emu_to_mini(x, 4, 3, true) : emu_to_mini(x, 5, 2, false));
}
static inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t s, __nv_fp8_interpretation_t t) {
  return __nv_cvt_double_to_fp8(x, s, t);
}

// ---- atomics (atomic.cuh): threads are cooperative and never switch inside a call, so a plain
// read-modify-write is atomic. Results as the hardware's: integers wrap, floats round to nearest
// even once (the exact sum of two float16/bfloat16 values, in double, rounded back).
template <class V> static inline V emu_rmw(V* p, V v) { V old = *p; *p = v; return old; }
static inline int atomicAdd(int* p, int v) { return emu_rmw(p, (int)((unsigned)*p + (unsigned)v)); }
static inline unsigned atomicAdd(unsigned* p, unsigned v) { return emu_rmw(p, *p + v); }
static inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return emu_rmw(p, *p + v); }
static inline float atomicAdd(float* p, float v) { return emu_rmw(p, *p + v); }
static inline double atomicAdd(double* p, double v) { return emu_rmw(p, *p + v); }
static inline __half atomicAdd(__half* p, __half v) {
  return emu_rmw(p, __double2half((double)__half2float(*p) + (double)__half2float(v)));
}
static inline __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) {
  return emu_rmw(p, __double2bfloat16((double)__bfloat162float(*p) + (double)__bfloat162float(v)));
}
static inline unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned v) { return emu_rmw(p, *p == cmp ? v : *p); }
static inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long cmp, unsigned long long v) {
  return emu_rmw(p, *p == cmp ? v : *p);
}
