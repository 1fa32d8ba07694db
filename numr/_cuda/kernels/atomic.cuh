// atomic_add(p, v): *p += v as one atomic update, for every numr dtype but bool (index_add_).
// Native atomicAdd where the hardware has one: float32, int32/uint32, 64-bit integers (as unsigned
// long long: two's complement wraps the same), float64 (sm_60+), float16 (sm_70+), bfloat16
// (sm_80+), complex as two atomics on the parts (the parts are independent sums). Everything else
// (8/16-bit integers, float8, and the float types on older archs) is a compare-and-swap loop on
// the aligned 32-bit word holding the value; float8/float16/bfloat16 add in float32 and round back.
// Floating-point sums of a repeated target then happen in a nondeterministic order.
#pragma once
#include "common.cuh"

template <class V> __device__ __forceinline__ V add_wrap(V a, V b) {
  if constexpr (Tr<V>::kind == K_I || Tr<V>::kind == K_U) return (V)((u64)a + (u64)b);  // wraps, as NumPy
  else return st<V>(ld(a) + ld(b));
}

// the value at p (1 or 2 bytes) replaced by add_wrap(value, v) with a CAS on its aligned 32-bit word
// (the word stays inside the buffer: device buffers start 256-byte aligned and span whole 512-byte
// size classes; the emulator's checked buffers end on a page boundary)
template <class V> __device__ __forceinline__ void atomic_add_narrow(V* p, V v) {
  static_assert(sizeof(V) == 1 || sizeof(V) == 2, "atomic_add_narrow: 8- and 16-bit values only");
  typedef typename select_t<sizeof(V) == 1, unsigned char, unsigned short>::t B;
  u32* w = (u32*)((unsigned long long)p & ~3ull);
  const u32 sh = (u32)((unsigned long long)p & 3ull) * 8u;
  const u32 mask = (u32)(B)~(B)0 << sh;
  u32 old = *w, assumed;
  do {
    assumed = old;
    B bits = (B)((assumed & mask) >> sh);
    V cur;
    memcpy(&cur, &bits, sizeof(V));
    V nv = add_wrap<V>(cur, v);
    memcpy(&bits, &nv, sizeof(V));
    old = atomicCAS(w, assumed, (assumed & ~mask) | ((u32)bits << sh));
  } while (old != assumed);
}

__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(int* p, int v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(u32* p, u32 v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(u64* p, u64 v) { atomicAdd((unsigned long long*)p, (unsigned long long)v); }
__device__ __forceinline__ void atomic_add(i64* p, i64 v) { atomicAdd((unsigned long long*)p, (unsigned long long)v); }
__device__ __forceinline__ void atomic_add(double* p, double v) {
#if defined(NUMR_EMU) || __CUDA_ARCH__ >= 600
  atomicAdd(p, v);
#else
  unsigned long long* w = (unsigned long long*)p;
  unsigned long long old = *w, assumed;
  do {
    assumed = old;
    old = atomicCAS(w, assumed, (unsigned long long)__double_as_longlong(__longlong_as_double((long long)assumed) + v));
  } while (old != assumed);
#endif
}
__device__ __forceinline__ void atomic_add(__half* p, __half v) {
#if defined(NUMR_EMU) || __CUDA_ARCH__ >= 700
  atomicAdd(p, v);
#else
  atomic_add_narrow(p, v);
#endif
}
__device__ __forceinline__ void atomic_add(__nv_bfloat16* p, __nv_bfloat16 v) {
#if defined(NUMR_EMU) || __CUDA_ARCH__ >= 800
  atomicAdd(p, v);
#else
  atomic_add_narrow(p, v);
#endif
}
__device__ __forceinline__ void atomic_add(signed char* p, signed char v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(unsigned char* p, unsigned char v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(short* p, short v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(unsigned short* p, unsigned short v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(f8e4* p, f8e4 v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(f8e5* p, f8e5 v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(c64* p, c64 v) { atomicAdd(&p->re, v.re); atomicAdd(&p->im, v.im); }
__device__ __forceinline__ void atomic_add(c128* p, c128 v) { atomic_add(&p->re, v.re); atomic_add(&p->im, v.im); }
