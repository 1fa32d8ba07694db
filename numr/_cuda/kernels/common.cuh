// numr CUDA kernels: shared types, dtype traits, conversions and strided indexing.
//
// Every program is compiled by NVRTC for one dtype: the host passes
// -DNUMR_DTYPE=<code> (numr.dtypes codes) and this header defines T (the
// storage type) and NUMR_TN (its name, used in kernel names).
// Shapes and strides travel as by-value kernel arguments (struct Shp / Str),
// never as host buffers, so captured CUDA graphs stay valid. Max rank: NUMR_MAXD.
#pragma once
#ifndef NUMR_EMU  // the host emulator (numr/_cuda/emu/emu.h) provides these
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#endif

#define NUMR_MAXD 8
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

struct f8e4 { unsigned char x; };
struct f8e5 { unsigned char x; };
struct __align__(8) c64 { float re, im; };
struct __align__(16) c128 { double re, im; };

struct Shp { int nd; i64 size[NUMR_MAXD]; };
struct Str { i64 s[NUMR_MAXD]; };

// ---- minimal type traits (NVRTC has no <type_traits>) --------------------
template <class A, class B> struct same_t { static constexpr bool v = false; };
template <class A> struct same_t<A, A> { static constexpr bool v = true; };

template <bool C, class A, class B> struct select_t { typedef A t; };
template <class A, class B> struct select_t<false, A, B> { typedef B t; };

enum { K_B = 0, K_I = 1, K_U = 2, K_F = 3, K_C = 4 };

// Tr<T>: kind, compute (accumulator) type, load to compute type, store from it.
template <class T> struct Tr;
#define NUMR_TR(TYPE, KIND, ACC)                                     \
  template <> struct Tr<TYPE> {                                      \
    static constexpr int kind = KIND;                                \
    typedef ACC acc;                                                 \
    static __device__ __forceinline__ acc load(TYPE v) { return (acc)v; } \
    static __device__ __forceinline__ TYPE store(acc v) { return (TYPE)v; } \
  };
NUMR_TR(bool, K_B, bool)
NUMR_TR(signed char, K_I, signed char)
NUMR_TR(short, K_I, short)
NUMR_TR(int, K_I, int)
NUMR_TR(i64, K_I, i64)
NUMR_TR(unsigned char, K_U, unsigned char)
NUMR_TR(unsigned short, K_U, unsigned short)
NUMR_TR(u32, K_U, u32)
NUMR_TR(u64, K_U, u64)
NUMR_TR(float, K_F, float)
NUMR_TR(double, K_F, double)
NUMR_TR(c64, K_C, c64)
NUMR_TR(c128, K_C, c128)
template <> struct Tr<__half> {
  static constexpr int kind = K_F;
  typedef float acc;
  static __device__ __forceinline__ float load(__half v) { return __half2float(v); }
  static __device__ __forceinline__ __half store(float v) { return __float2half_rn(v); }
};
template <> struct Tr<__nv_bfloat16> {
  static constexpr int kind = K_F;
  typedef float acc;
  static __device__ __forceinline__ float load(__nv_bfloat16 v) { return __bfloat162float(v); }
  static __device__ __forceinline__ __nv_bfloat16 store(float v) { return __float2bfloat16_rn(v); }
};
// float8: NaN on overflow for e4m3fn and inf for e5m2 (ml_dtypes' results): __NV_NOSAT
template <> struct Tr<f8e4> {
  static constexpr int kind = K_F;
  typedef float acc;
  static __device__ __forceinline__ float load(f8e4 v) {
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(v.x, __NV_E4M3)));
  }
  static __device__ __forceinline__ f8e4 store(float v) {
    f8e4 r; r.x = __nv_cvt_float_to_fp8(v, __NV_NOSAT, __NV_E4M3); return r;
  }
};
template <> struct Tr<f8e5> {
  static constexpr int kind = K_F;
  typedef float acc;
  static __device__ __forceinline__ float load(f8e5 v) {
    return __half2float(__half(__nv_cvt_fp8_to_halfraw(v.x, __NV_E5M2)));
  }
  static __device__ __forceinline__ f8e5 store(float v) {
    f8e5 r; r.x = __nv_cvt_float_to_fp8(v, __NV_NOSAT, __NV_E5M2); return r;
  }
};

template <class T> using Acc = typename Tr<T>::acc;
template <class T> __device__ __forceinline__ Acc<T> ld(T v) { return Tr<T>::load(v); }
template <class T> __device__ __forceinline__ T st(Acc<T> v) { return Tr<T>::store(v); }

// ---- limits of integer types -----------------------------------------
template <class T> struct Lim;
#define NUMR_LIM(TYPE, LO, HI, FLO, FHI) \
  template <> struct Lim<TYPE> { static __device__ __forceinline__ TYPE lo() { return LO; } \
    static __device__ __forceinline__ TYPE hi() { return HI; } \
    static constexpr double flo = FLO; static constexpr double fhi = FHI; };
// fhi: the smallest double that no longer fits (exclusive bound); flo: the lowest that fits
NUMR_LIM(signed char, -128, 127, -128.0, 128.0)
NUMR_LIM(short, -32768, 32767, -32768.0, 32768.0)
NUMR_LIM(int, (-2147483647 - 1), 2147483647, -2147483648.0, 2147483648.0)
NUMR_LIM(i64, (-9223372036854775807LL - 1), 9223372036854775807LL, -9223372036854775808.0, 9223372036854775808.0)
NUMR_LIM(unsigned char, 0, 255, 0.0, 256.0)
NUMR_LIM(unsigned short, 0, 65535, 0.0, 65536.0)
NUMR_LIM(u32, 0u, 4294967295u, 0.0, 4294967296.0)
NUMR_LIM(u64, 0ull, 18446744073709551615ull, 0.0, 18446744073709551616.0)

// ---- conversions between every pair of dtypes (docs/architecture.md rules) ----
// NaN -> integer gives 0; +-inf and out-of-range floats saturate; float -> bool is x != 0;
// complex -> real drops the imaginary part.
template <class D> __device__ __forceinline__ D from_f64(double x) {
  constexpr int k = Tr<D>::kind;
  if constexpr (k == K_B) { return x != 0.0; }
  else if constexpr (k == K_I || k == K_U) {
    if (x != x) return (D)0;
    if (x >= Lim<D>::fhi) return Lim<D>::hi();
    if (x < Lim<D>::flo) return Lim<D>::lo();
    return (D)x;
  }
  else if constexpr (k == K_C) { D r; r.re = x; r.im = 0; return r; }
  else if constexpr (same_t<D, double>::v) { return x; }
  else if constexpr (same_t<D, float>::v) { return (float)x; }
  else if constexpr (same_t<D, __half>::v) { return __double2half(x); }
  // bfloat16 and float8 round through float32, as ml_dtypes does (documented in docs/architecture.md)
  else if constexpr (same_t<D, __nv_bfloat16>::v) { return __float2bfloat16_rn((float)x); }
  else if constexpr (same_t<D, f8e4>::v) { f8e4 r; r.x = __nv_cvt_float_to_fp8((float)x, __NV_NOSAT, __NV_E4M3); return r; }
  else { f8e5 r; r.x = __nv_cvt_float_to_fp8((float)x, __NV_NOSAT, __NV_E5M2); return r; }
}

template <class D, class S> __device__ __forceinline__ D cvt(S x) {
  constexpr int ks = Tr<S>::kind, kd = Tr<D>::kind;
  if constexpr (same_t<D, S>::v) { return x; }
  else if constexpr (ks == K_C) {
    if constexpr (kd == K_C) { D r; r.re = x.re; r.im = x.im; return r; }
    else if constexpr (kd == K_B) { return x.re != 0 || x.im != 0; }
    else { return cvt<D>(x.re); }
  }
  else if constexpr (ks == K_B) {
    if constexpr (kd == K_F || kd == K_C) { return from_f64<D>(x ? 1.0 : 0.0); }
    else { return (D)(x ? 1 : 0); }
  }
  else if constexpr (ks == K_I || ks == K_U) {
    if constexpr (kd == K_B) { return x != 0; }
    else if constexpr (kd == K_I || kd == K_U) { return (D)x; }  // wraps, as NumPy
    else if constexpr (same_t<D, float>::v) { return (float)x; }
    else if constexpr (kd == K_C) { D r; r.re = x; r.im = 0; return r; }
    else { return from_f64<D>((double)x); }
  }
  else {  // real float source
    if constexpr (same_t<S, float>::v || same_t<S, double>::v) {
      if constexpr (same_t<D, float>::v) { return (float)x; }
      else { return from_f64<D>((double)x); }
    } else {
      float f = Tr<S>::load(x);  // float16/bfloat16/float8: exact in float
      if constexpr (same_t<D, float>::v) { return f; }
      else { return from_f64<D>((double)f); }
    }
  }
}

// ---- complex arithmetic --------------------------------------------------
template <class C> struct CReal;
template <> struct CReal<c64> { typedef float t; };
template <> struct CReal<c128> { typedef double t; };
template <class C> __device__ __forceinline__ C mkc(typename CReal<C>::t re, typename CReal<C>::t im) {
  C r; r.re = re; r.im = im; return r;
}
#define NUMR_CPLX_OPS(C)                                                                       \
  __device__ __forceinline__ C operator+(C a, C b) { return mkc<C>(a.re + b.re, a.im + b.im); } \
  __device__ __forceinline__ C operator-(C a, C b) { return mkc<C>(a.re - b.re, a.im - b.im); } \
  __device__ __forceinline__ C operator-(C a) { return mkc<C>(-a.re, -a.im); }                  \
  __device__ __forceinline__ C operator*(C a, C b) {                                            \
    return mkc<C>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }                      \
  __device__ __forceinline__ C operator/(C a, C b) { /* Smith's algorithm */                    \
    typedef CReal<C>::t R;                                                                      \
    if (fabs(b.re) >= fabs(b.im)) {                                                             \
      if (b.re == 0 && b.im == 0) return mkc<C>(a.re / fabs(b.re), a.im / fabs(b.re));          \
      R r = b.im / b.re, d = b.re + b.im * r;                                                   \
      return mkc<C>((a.re + a.im * r) / d, (a.im - a.re * r) / d);                              \
    }                                                                                           \
    R r = b.re / b.im, d = b.re * r + b.im;                                                     \
    return mkc<C>((a.re * r + a.im) / d, (a.im * r - a.re) / d); }                              \
  __device__ __forceinline__ bool operator==(C a, C b) { return a.re == b.re && a.im == b.im; } \
  __device__ __forceinline__ bool operator!=(C a, C b) { return !(a == b); }
NUMR_CPLX_OPS(c64)
NUMR_CPLX_OPS(c128)

// ---- strided indexing ------------------------------------------------------
// Offsets (in elements) of linear output index i in up to four operands.
__device__ __forceinline__ void coords(i64 i, const Shp& sh, const Str& a, i64& oa) {
  if (sh.nd <= 1) { oa = i * a.s[0]; return; }
  oa = 0;
  for (int d = sh.nd - 1; d >= 0; --d) { i64 c = i % sh.size[d]; i /= sh.size[d]; oa += c * a.s[d]; }
}
__device__ __forceinline__ void coords(i64 i, const Shp& sh, const Str& a, const Str& b, i64& oa, i64& ob) {
  if (sh.nd <= 1) { oa = i * a.s[0]; ob = i * b.s[0]; return; }
  oa = 0; ob = 0;
  for (int d = sh.nd - 1; d >= 0; --d) {
    i64 c = i % sh.size[d]; i /= sh.size[d]; oa += c * a.s[d]; ob += c * b.s[d];
  }
}
__device__ __forceinline__ void coords(i64 i, const Shp& sh, const Str& a, const Str& b, const Str& c_,
                                       i64& oa, i64& ob, i64& oc) {
  if (sh.nd <= 1) { oa = i * a.s[0]; ob = i * b.s[0]; oc = i * c_.s[0]; return; }
  oa = 0; ob = 0; oc = 0;
  for (int d = sh.nd - 1; d >= 0; --d) {
    i64 c = i % sh.size[d]; i /= sh.size[d]; oa += c * a.s[d]; ob += c * b.s[d]; oc += c * c_.s[d];
  }
}
__device__ __forceinline__ void coords(i64 i, const Shp& sh, const Str& a, const Str& b, const Str& c_,
                                       const Str& e, i64& oa, i64& ob, i64& oc, i64& oe) {
  if (sh.nd <= 1) { oa = i * a.s[0]; ob = i * b.s[0]; oc = i * c_.s[0]; oe = i * e.s[0]; return; }
  oa = 0; ob = 0; oc = 0; oe = 0;
  for (int d = sh.nd - 1; d >= 0; --d) {
    i64 c = i % sh.size[d]; i /= sh.size[d];
    oa += c * a.s[d]; ob += c * b.s[d]; oc += c * c_.s[d]; oe += c * e.s[d];
  }
}

// warp shuffles of any trivially copyable value (moved as 32-bit words)
template <bool Up, class A> __device__ __forceinline__ A shfl_any(A v, int d) {
  constexpr int W = (sizeof(A) + 3) / 4;
  int w[W];
  memcpy(w, &v, sizeof(A));
#pragma unroll
  for (int k = 0; k < W; ++k)
    w[k] = Up ? __shfl_up_sync(0xffffffffu, w[k], d) : __shfl_down_sync(0xffffffffu, w[k], d);
  A r;
  memcpy(&r, w, sizeof(A));
  return r;
}
template <class A> __device__ __forceinline__ A shfl_down_any(A v, int d) { return shfl_any<false>(v, d); }
template <class A> __device__ __forceinline__ A shfl_up_any(A v, int d) { return shfl_any<true>(v, d); }

#define GRID_STRIDE(i, n) \
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)

// ---- the program's dtype ---------------------------------------------------
// numr.dtypes codes: float64 0, float32 1, float16 2, bfloat16 3, e4m3fn 4, e5m2 5,
// int64 10, int32 11, int16 12, int8 13, uint64 20, uint32 21, uint16 22, uint8 23,
// bool 30, complex64 40, complex128 41
#ifdef NUMR_DTYPE
#if NUMR_DTYPE == 0
typedef double T;
#define NUMR_TN float64
#elif NUMR_DTYPE == 1
typedef float T;
#define NUMR_TN float32
#elif NUMR_DTYPE == 2
typedef __half T;
#define NUMR_TN float16
#elif NUMR_DTYPE == 3
typedef __nv_bfloat16 T;
#define NUMR_TN bfloat16
#elif NUMR_DTYPE == 4
typedef f8e4 T;
#define NUMR_TN float8_e4m3fn
#elif NUMR_DTYPE == 5
typedef f8e5 T;
#define NUMR_TN float8_e5m2
#elif NUMR_DTYPE == 10
typedef i64 T;
#define NUMR_TN int64
#elif NUMR_DTYPE == 11
typedef int T;
#define NUMR_TN int32
#elif NUMR_DTYPE == 12
typedef short T;
#define NUMR_TN int16
#elif NUMR_DTYPE == 13
typedef signed char T;
#define NUMR_TN int8
#elif NUMR_DTYPE == 20
typedef u64 T;
#define NUMR_TN uint64
#elif NUMR_DTYPE == 21
typedef u32 T;
#define NUMR_TN uint32
#elif NUMR_DTYPE == 22
typedef unsigned short T;
#define NUMR_TN uint16
#elif NUMR_DTYPE == 23
typedef unsigned char T;
#define NUMR_TN uint8
#elif NUMR_DTYPE == 30
typedef bool T;
#define NUMR_TN bool
#elif NUMR_DTYPE == 40
typedef c64 T;
#define NUMR_TN complex64
#elif NUMR_DTYPE == 41
typedef c128 T;
#define NUMR_TN complex128
#else
#error "unknown NUMR_DTYPE"
#endif
#define NUMR_IS_F (NUMR_DTYPE <= 5)
#define NUMR_IS_LOWP (NUMR_DTYPE >= 2 && NUMR_DTYPE <= 5)
#define NUMR_IS_I (NUMR_DTYPE >= 10 && NUMR_DTYPE <= 13)
#define NUMR_IS_U (NUMR_DTYPE >= 20 && NUMR_DTYPE <= 23)
#define NUMR_IS_INT (NUMR_IS_I || NUMR_IS_U)
#define NUMR_IS_B (NUMR_DTYPE == 30)
#define NUMR_IS_C (NUMR_DTYPE >= 40)
#define NUMR_CAT2(a, b) a##_##b
#define NUMR_CAT(a, b) NUMR_CAT2(a, b)
// kernel name: <op>_<dtype name>, e.g. KNAME(exp) -> exp_float32
#define KNAME(op) NUMR_CAT(op, NUMR_TN)
#endif
