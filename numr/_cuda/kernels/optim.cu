// Fused in-place optimizer steps (numr.optim; the composites are numr/ops/generic/optim.py): one
// grid-stride pass over contiguous param, grad and state of one dtype (float64, float32, and
// float16/bfloat16 computed in float32), op for op the composite's arithmetic: every product, sum,
// quotient and root rounded on its own (_rn intrinsics: no fma contraction), and for float16/
// bfloat16 every intermediate and scalar rounded to the dtype where the composite stores one.
#include "common.cuh"

#if NUMR_DTYPE <= 3
#ifdef NUMR_EMU
template <class A> __device__ __forceinline__ A mul_rn(A a, A b) { return a * b; }
template <class A> __device__ __forceinline__ A add_rn(A a, A b) { return a + b; }
template <class A> __device__ __forceinline__ A div_rn(A a, A b) { return a / b; }
template <class A> __device__ __forceinline__ A sqrt_rn(A a) { return sqrt(a); }
#else
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float div_rn(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double div_rn(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ float sqrt_rn(float a) { return __fsqrt_rn(a); }
__device__ __forceinline__ double sqrt_rn(double a) { return __dsqrt_rn(a); }
#endif

typedef Acc<T> A;
__device__ __forceinline__ A rnd(A x) { return ld(st<T>(x)); }  // round to T as a stored result
__device__ __forceinline__ A sc(double x) { return rnd((A)x); }  // a scalar operand, rounded to T

// adam_step_<T>(T* p, const T* g, T* m, T* v, T* vmax (NULL: no amsgrad), i64 n, double omb1,
//               double omb2, double b2, double sign, double wd_l2, double p_scale, double eps_c,
//               double step_size): g = sign grad (+ wd p); p *= p_scale; m += (g - m) omb1;
//               v = fma(g, g omb2, v b2); vmax = max(vmax, v); p -= m / (sqrt(v) + eps_c) step_size
extern "C" __global__ void KNAME(adam_step)(T* p, const T* g, T* m, T* v, T* vmax, i64 n, double omb1_,
                                            double omb2_, double b2_, double sign_, double wd_, double ps_,
                                            double epsc_, double ss_) {
  const A omb1 = sc(omb1_), omb2 = sc(omb2_), b2 = sc(b2_), sign = (A)sign_, wd = sc(wd_), ps = sc(ps_);
  const A epsc = sc(epsc_), ss = sc(ss_);
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    A pi = ld(p[i]), gi = mul_rn(ld(g[i]), sign);
    if (wd_ != 0) gi = rnd(add_rn(gi, rnd(mul_rn(pi, wd))));
    pi = rnd(mul_rn(pi, ps));
    A mi = ld(m[i]);
    mi = rnd(add_rn(mi, rnd(mul_rn(rnd(add_rn(gi, -mi)), omb1))));
    A vi = rnd(fma(gi, rnd(mul_rn(gi, omb2)), rnd(mul_rn(ld(v[i]), b2))));
    m[i] = st<T>(mi);
    v[i] = st<T>(vi);
    if (vmax) {
      const A x = ld(vmax[i]);
      vi = x != x || x > vi ? x : vi;
      vmax[i] = st<T>(vi);
    }
    const A d = rnd(add_rn(rnd(sqrt_rn(vi)), epsc));
    p[i] = st<T>(add_rn(pi, -rnd(mul_rn(rnd(div_rn(mi, d)), ss))));
  }
}

// sgd_step_<T>(T* p, const T* g, T* buf (NULL: no momentum), i64 n, double lr, double mu, double omd,
//              double sign, double wd, i64 first, i64 nesterov): g = sign grad (+ wd p); buf = g (first)
//              or buf mu + g omd; g = g + buf mu (nesterov) or buf; p -= g lr
extern "C" __global__ void KNAME(sgd_step)(T* p, const T* g, T* buf, i64 n, double lr_, double mu_, double omd_,
                                           double sign_, double wd_, i64 first, i64 nesterov) {
  const A lr = sc(lr_), mu = sc(mu_), omd = sc(omd_), sign = (A)sign_, wd = sc(wd_);
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
    A pi = ld(p[i]), gi = mul_rn(ld(g[i]), sign);
    if (wd_ != 0) gi = rnd(add_rn(gi, rnd(mul_rn(pi, wd))));
    if (buf) {
      const A b = first ? gi : rnd(add_rn(rnd(mul_rn(ld(buf[i]), mu)), rnd(mul_rn(gi, omd))));
      buf[i] = st<T>(b);
      gi = nesterov ? rnd(add_rn(gi, rnd(mul_rn(b, mu)))) : b;
    }
    p[i] = st<T>(add_rn(pi, -rnd(mul_rn(gi, lr))));
  }
}
#endif
