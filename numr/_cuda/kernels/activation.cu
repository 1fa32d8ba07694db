// Activations, the fused gated forms act(gate) * up, their fused backward kernels, and row kernels
// for softmax / log_softmax / softmax_bwd. One program per float dtype T; float16/bfloat16/float8
// compute in float32 and round once on store. Formulas match the CPU kernels
// (numr/_cpu/kernels/activation_vmath.h): stable at +-inf and for large |x|.
#include "mathx.cuh"

#if NUMR_IS_F
typedef Acc<T> C;  // float or double

__device__ __forceinline__ C sigm(C x) { return (C)1 / ((C)1 + exp(-x)); }
// Phi(x) = erfc(z) / 2 with z = -x / sqrt(2). In the lower tail erfc's relative slope is
// -2z, so the rounding error dz of z (product and constant) would cost 2*z*dz (1e-5 at
// x = -12 in float32): it is corrected to first order.
__device__ __forceinline__ C phi(C x) {
  const C c_hi = (C)0.70710678118654752440, c_lo = (C)(0.70710678118654752440 - (double)c_hi);
  const C z = -x * c_hi, dz = fma(-x, c_hi, -z) - x * c_lo;
  const C r = (C)0.5 * erfc(z);
  return z > (C)0 ? r * ((C)1 - (C)2 * z * dz) : r;
}
#define SQRT_2_OVER_PI 0.79788456080286535588
#define INV_SQRT_2PI 0.39894228040143267794
#define GELU_C 0.044715

enum { A_RELU, A_LEAKY, A_ELU, A_SIGMOID, A_SILU, A_GELU, A_GELUT, A_SOFTPLUS };

template <int OP> __device__ __forceinline__ C act(C x, C a) {
  if constexpr (OP == A_RELU) return x < (C)0 ? (C)0 : x;
  else if constexpr (OP == A_LEAKY) return x > (C)0 ? x : x * a;
  else if constexpr (OP == A_ELU) return x > (C)0 ? x : a * expm1(x);
  else if constexpr (OP == A_SIGMOID) return sigm(x);
  else if constexpr (OP == A_SILU) { C r = x * sigm(x); return x == -(C)INFINITY ? (C)0 : r; }
  else if constexpr (OP == A_GELU) { C r = x * phi(x); return x == -(C)INFINITY ? (C)0 : r; }
  else if constexpr (OP == A_GELUT) {
    C u = (C)(2 * SQRT_2_OVER_PI) * (x + (C)GELU_C * x * x * x);
    C r = x * sigm(u);
    return x == -(C)INFINITY ? (C)0 : r;
  }
  else return (x > (C)0 ? x : (C)0) + log1p(exp(-fabs(x)));
}

template <int OP> __device__ __forceinline__ C dact(C x) {
  if constexpr (OP == A_RELU) return x > (C)0 ? (C)1 : (C)0;
  else if constexpr (OP == A_SIGMOID) { C s = sigm(x); return s * ((C)1 - s); }
  else if constexpr (OP == A_SILU) {
    C s = sigm(x);
    C r = s * ((C)1 + x * ((C)1 - s));
    return fabs(x) > (C)60 ? (x > 0 ? (C)1 : (C)0) : r;
  }
  else if constexpr (OP == A_GELU) {
    C r = phi(x) + x * (C)INV_SQRT_2PI * exp((C)-0.5 * x * x);
    return fabs(x) > (C)60 ? (x > 0 ? (C)1 : (C)0) : r;
  }
  else {  // A_GELUT
    C u2 = (C)(2 * SQRT_2_OVER_PI) * (x + (C)GELU_C * x * x * x);
    C s = sigm(u2);
    C du2 = (C)(2 * SQRT_2_OVER_PI) * ((C)1 + (C)(3 * GELU_C) * x * x);
    C r = s + x * s * ((C)1 - s) * du2;
    return fabs(x) > (C)60 ? (x > 0 ? (C)1 : (C)0) : r;
  }
}

// <act>_<T>(T* out, Str so, const T* x, Str sx, Shp sh, i64 n, double param)
template <int OP> __device__ __forceinline__ void act_k(T* o, Str so, const T* x, Str sx, Shp sh, i64 n, double p) {
  const C a = (C)p;
  GRID_STRIDE(i, n) {
    i64 oo, ox;
    coords(i, sh, so, sx, oo, ox);
    o[oo] = st<T>(act<OP>(ld<T>(x[ox]), a));
  }
}
// <act>_mul_<T>(T* out, Str so, const T* g, Str sg, const T* u, Str su, Shp sh, i64 n)
template <int OP>
__device__ __forceinline__ void gated_k(T* o, Str so, const T* g, Str sg, const T* u, Str su, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, og, ou;
    coords(i, sh, so, sg, su, oo, og, ou);
    o[oo] = st<T>(act<OP>(ld<T>(g[og]), (C)0) * ld<T>(u[ou]));
  }
}
// <act>_mul_bwd_<T>(T* dg, Str sdg, T* du, Str sdu, const T* dy, Str sdy, const T* g, Str sg, const T* u, Str su,
//                   Shp sh, i64 n): dg = dy * u * act'(g), du = dy * act(g)
template <int OP>
__device__ __forceinline__ void gated_bwd_k(T* dg, Str sdg, T* du, Str sdu, const T* dy, Str sdy, const T* g, Str sg,
                                            const T* u, Str su, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 r = i, odg = 0, odu = 0, ody = 0, og = 0, ou = 0;
    for (int d = sh.nd - 1; d >= 0; --d) {
      i64 c = r % sh.size[d];
      r /= sh.size[d];
      odg += c * sdg.s[d]; odu += c * sdu.s[d]; ody += c * sdy.s[d]; og += c * sg.s[d]; ou += c * su.s[d];
    }
    C y = ld<T>(dy[ody]), x = ld<T>(g[og]), v = ld<T>(u[ou]);
    dg[odg] = st<T>(y * v * dact<OP>(x));
    du[odu] = st<T>(y * act<OP>(x, (C)0));
  }
}

#define ACT(name, OP)                                                                                            \
  extern "C" __global__ void KNAME(name)(T* o, Str so, const T* x, Str sx, Shp sh, i64 n, double p) {           \
    act_k<OP>(o, so, x, sx, sh, n, p);                                                                           \
  }
#define GATED(name, OP)                                                                                          \
  extern "C" __global__ void KNAME(name##_mul)(T* o, Str so, const T* g, Str sg, const T* u, Str su, Shp sh,     \
                                               i64 n) { gated_k<OP>(o, so, g, sg, u, su, sh, n); }               \
  extern "C" __global__ void KNAME(name##_mul_bwd)(T* dg, Str sdg, T* du, Str sdu, const T* dy, Str sdy,         \
                                                   const T* g, Str sg, const T* u, Str su, Shp sh, i64 n) {      \
    gated_bwd_k<OP>(dg, sdg, du, sdu, dy, sdy, g, sg, u, su, sh, n);                                            \
  }

ACT(relu, A_RELU) ACT(leaky_relu, A_LEAKY) ACT(elu, A_ELU) ACT(sigmoid, A_SIGMOID) ACT(silu, A_SILU)
ACT(gelu, A_GELU) ACT(gelu_tanh, A_GELUT) ACT(softplus, A_SOFTPLUS)
GATED(silu, A_SILU) GATED(gelu, A_GELU) GATED(gelu_tanh, A_GELUT) GATED(relu, A_RELU) GATED(sigmoid, A_SIGMOID)

// ---- row kernels: a block per row along `dim` ---------------------------------------------
// online (max, sum of exp(x - max)) pairs; +-inf maxima follow the generic composite
// (an all -inf row gives zeros / -inf; a +inf gives NaN where exp(inf)/inf)
struct MS { C m, s; };
__device__ __forceinline__ MS ms_comb(MS a, MS b) {
  MS r;
  r.m = max_nan(a.m, b.m);
  if (r.m != r.m) { r.s = r.m; return r; }
  if (isinf(r.m)) { r.s = r.m > 0 ? (C)INFINITY : (C)0; return r; }
  r.s = a.s * exp(a.m - r.m) + b.s * exp(b.m - r.m);
  return r;
}
template <class A, class F> __device__ __forceinline__ A block_all(A v, F comb) {
  __shared__ A sm[32];
  __shared__ A res;
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = comb(v, shfl_down_any(v, d));
  __syncthreads();
  if (lane == 0) sm[wid] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    A t = sm[0];
    for (int w = 1; w < nw; ++w) t = comb(t, sm[w]);
    res = t;
  }
  __syncthreads();
  return res;  // every thread
}

// softmax_<T>/log_softmax_<T>(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so, i64 sx)
template <bool LOG>
__device__ __forceinline__ void softmax_k(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so,
                                          i64 sx) {
  for (i64 line = blockIdx.x; line < nlines; line += gridDim.x) {
    i64 bo, bx;
    coords(line, lsh, lso, lsx, bo, bx);
    MS acc;
    acc.m = -(C)INFINITY; acc.s = 0;
    for (i64 j = threadIdx.x; j < L; j += blockDim.x) {
      MS e; e.m = ld<T>(x[bx + j * sx]); e.s = 1;
      acc = ms_comb(acc, e);
    }
    MS t = block_all(acc, ms_comb);
    C m = isinf(t.m) ? (C)0 : t.m;
    C s = t.s;
    if (isinf(t.m) && t.m > 0) s = (C)INFINITY;
    if (s == 0) s = 1;
    C ls = log(s);
    for (i64 j = threadIdx.x; j < L; j += blockDim.x) {
      C v = ld<T>(x[bx + j * sx]) - m;
      out[bo + j * so] = st<T>(LOG ? v - ls : exp(v) / s);
    }
  }
}
extern "C" __global__ void KNAME(softmax)(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L, i64 so,
                                          i64 sx) { softmax_k<false>(out, x, lsh, lso, lsx, nlines, L, so, sx); }
extern "C" __global__ void KNAME(log_softmax)(T* out, const T* x, Shp lsh, Str lso, Str lsx, i64 nlines, i64 L,
                                              i64 so, i64 sx) { softmax_k<true>(out, x, lsh, lso, lsx, nlines, L, so, sx); }

__device__ __forceinline__ C add_(C a, C b) { return a + b; }
// softmax_bwd_<T>(T* gx, const T* gy, const T* y, Shp lsh, Str lso, Str lsg, Str lsy, i64 nlines, i64 L, i64 so,
//                 i64 sg, i64 sy): gx = y * (gy - sum(gy * y))
extern "C" __global__ void KNAME(softmax_bwd)(T* gx, const T* gy, const T* y, Shp lsh, Str lso, Str lsg, Str lsy,
                                              i64 nlines, i64 L, i64 so, i64 sg, i64 sy) {
  for (i64 line = blockIdx.x; line < nlines; line += gridDim.x) {
    i64 bo, bg, by;
    coords(line, lsh, lso, lsg, lsy, bo, bg, by);
    C acc = 0;
    for (i64 j = threadIdx.x; j < L; j += blockDim.x) acc += ld<T>(gy[bg + j * sg]) * ld<T>(y[by + j * sy]);
    C dot = block_all(acc, add_);
    for (i64 j = threadIdx.x; j < L; j += blockDim.x) {
      C yv = ld<T>(y[by + j * sy]);
      gx[bo + j * so] = st<T>(yv * (ld<T>(gy[bg + j * sg]) - dot));
    }
  }
}
#endif
