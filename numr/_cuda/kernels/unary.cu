// Unary element-wise kernels: one program per dtype T (see common.cuh).
// float16/bfloat16/float8 compute in float32 and round once on store.
// Kernel: <op>_<dtype>(O* out, Str so, const T* a, Str sa, Shp sh, i64 n)
#include "mathx.cuh"

enum {
  U_NEG, U_ABS, U_SIGN, U_SQRT, U_RSQRT, U_SQUARE, U_CBRT, U_RECIP, U_EXP, U_EXP2, U_EXPM1, U_LOG,
  U_LOG2, U_LOG10, U_LOG1P, U_SIN, U_COS, U_TAN, U_ASIN, U_ACOS, U_ATAN, U_SINH, U_COSH, U_TANH,
  U_ASINH, U_ACOSH, U_ATANH, U_FLOOR, U_CEIL, U_ROUND, U_TRUNC, U_ISNAN, U_ISINF, U_ISFINITE, U_BITNOT
};

template <int OP, class C> __device__ __forceinline__ C fop(C x) {  // real floats (float / double)
  if constexpr (OP == U_NEG) return -x;
  else if constexpr (OP == U_ABS) return fabs(x);
  else if constexpr (OP == U_SIGN) return x > 0 ? (C)1 : (x < 0 ? (C)-1 : (x == 0 ? (C)0 : x));
  else if constexpr (OP == U_SQRT) return sqrt(x);
  else if constexpr (OP == U_RSQRT) return (C)1 / sqrt(x);
  else if constexpr (OP == U_SQUARE) return x * x;
  else if constexpr (OP == U_CBRT) return cbrt(x);
  else if constexpr (OP == U_RECIP) return (C)1 / x;
  else if constexpr (OP == U_EXP) return exp(x);
  else if constexpr (OP == U_EXP2) return exp2(x);
  else if constexpr (OP == U_EXPM1) return expm1(x);
  else if constexpr (OP == U_LOG) return log(x);
  else if constexpr (OP == U_LOG2) return log2(x);
  else if constexpr (OP == U_LOG10) return log10(x);
  else if constexpr (OP == U_LOG1P) return log1p(x);
  else if constexpr (OP == U_SIN) return sin(x);
  else if constexpr (OP == U_COS) return cos(x);
  else if constexpr (OP == U_TAN) return tan(x);
  else if constexpr (OP == U_ASIN) return asin(x);
  else if constexpr (OP == U_ACOS) return acos(x);
  else if constexpr (OP == U_ATAN) return atan(x);
  else if constexpr (OP == U_SINH) return sinh(x);
  else if constexpr (OP == U_COSH) return cosh(x);
  else if constexpr (OP == U_TANH) return tanh(x);
  else if constexpr (OP == U_ASINH) return asinh(x);
  else if constexpr (OP == U_ACOSH) return acosh(x);
  else if constexpr (OP == U_ATANH) return atanh(x);
  else if constexpr (OP == U_FLOOR) return floor(x);
  else if constexpr (OP == U_CEIL) return ceil(x);
  else if constexpr (OP == U_ROUND) return rint(x);  // half to even, as NumPy
  else return trunc(x);
}

template <int OP, class I> __device__ __forceinline__ I iop(I x) {  // bool and integers
  if constexpr (Tr<I>::kind == K_B) {
    if constexpr (OP == U_BITNOT) return !x;
    else return x;  // abs, sign, square, floor, ceil, round, trunc
  } else {
    if constexpr (OP == U_NEG) return (I)(0 - (u64)x);
    else if constexpr (OP == U_ABS) { if constexpr (Tr<I>::kind == K_I) return x < 0 ? (I)(0 - (u64)x) : x; else return x; }
    else if constexpr (OP == U_SIGN) return (I)((x > 0) - (x < 0));
    else if constexpr (OP == U_SQUARE) return (I)((u64)x * (u64)x);
    else if constexpr (OP == U_BITNOT) return (I)~x;
    else return x;  // floor, ceil, round, trunc
  }
}

template <int OP, class C> __device__ __forceinline__ C cop(C z) {  // complex
  typedef typename CReal<C>::t R;
  if constexpr (OP == U_NEG) return -z;
  else if constexpr (OP == U_SIGN) {  // z/|z| as NumPy 2 (and the CPU kernels)
    R r = z.re, i = z.im, m = cabs_(z);
    if (m != m) return mkc<C>((R)NAN, (R)NAN);
    if (isinf(m)) {
      if (isinf(r) && isinf(i)) return mkc<C>((R)NAN, (R)NAN);
      if (isinf(r)) return mkc<C>((R)(r > 0 ? 1 : -1), (R)0);
      return mkc<C>((R)0, (R)(i > 0 ? 1 : -1));
    }
    if (m == 0) return mkc<C>((R)0, (R)0);
    return mkc<C>(r / m, i / m);
  }
  else if constexpr (OP == U_SQUARE) return z * z;
  else if constexpr (OP == U_SQRT) return csqrt_(z);
  else if constexpr (OP == U_EXP) return cexp_(z);
  else if constexpr (OP == U_LOG) return clog_(z);
  else if constexpr (OP == U_RECIP) {  // NumPy's formula
    R r = z.re, i = z.im;
    if (fabs(i) <= fabs(r)) { R q = i / r, d = r + i * q; return mkc<C>((R)1 / d, -q / d); }
    R q = r / i, d = r * q + i;
    return mkc<C>(q / d, (R)-1 / d);
  }
  else if constexpr (OP == U_SIN) return csin_(z);
  else if constexpr (OP == U_COS) return ccos_(z);
  else if constexpr (OP == U_TAN) return ctan_(z);
  else if constexpr (OP == U_SINH) return csinh_(z);
  else if constexpr (OP == U_COSH) return ccosh_(z);
  else return ctanh_(z);
}

template <int OP, class O, class V> __device__ __forceinline__ O apply(V v) {
  constexpr int k = Tr<V>::kind;
  if constexpr (OP == U_ISNAN || OP == U_ISINF || OP == U_ISFINITE) {
    if constexpr (k == K_F) {
      Acc<V> x = ld<V>(v);
      if constexpr (OP == U_ISNAN) return x != x;
      else if constexpr (OP == U_ISINF) return isinf(x);
      else return isfinite(x);
    } else if constexpr (k == K_C) {
      if constexpr (OP == U_ISNAN) return cisnan_(v);
      else if constexpr (OP == U_ISINF) return isinf(v.re) || isinf(v.im);
      else return isfinite(v.re) && isfinite(v.im);
    } else {
      return OP == U_ISFINITE;
    }
  } else if constexpr (k == K_F) {
    return st<V>(fop<OP>(ld<V>(v)));
  } else if constexpr (k == K_C) {
    if constexpr (OP == U_ABS) return cabs_(v);
    else return cop<OP>(v);
  } else {
    return iop<OP>(v);
  }
}

template <int OP, class O, class V>
__device__ __forceinline__ void unary_k(O* o, Str so, const V* a, Str sa, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa;
    coords(i, sh, so, sa, oo, oa);
    o[oo] = apply<OP, O, V>(a[oa]);
  }
}

#define UN(name, OP, O) \
  extern "C" __global__ void KNAME(name)(O* o, Str so, const T* a, Str sa, Shp sh, i64 n) { unary_k<OP, O>(o, so, a, sa, sh, n); }

UN(isnan, U_ISNAN, bool)
UN(isinf, U_ISINF, bool)
UN(isfinite, U_ISFINITE, bool)

#if NUMR_IS_F
UN(neg, U_NEG, T) UN(abs, U_ABS, T) UN(sign, U_SIGN, T) UN(sqrt, U_SQRT, T) UN(rsqrt, U_RSQRT, T)
UN(square, U_SQUARE, T) UN(cbrt, U_CBRT, T) UN(reciprocal, U_RECIP, T) UN(exp, U_EXP, T)
UN(exp2, U_EXP2, T) UN(expm1, U_EXPM1, T) UN(log, U_LOG, T) UN(log2, U_LOG2, T) UN(log10, U_LOG10, T)
UN(log1p, U_LOG1P, T) UN(sin, U_SIN, T) UN(cos, U_COS, T) UN(tan, U_TAN, T) UN(asin, U_ASIN, T)
UN(acos, U_ACOS, T) UN(atan, U_ATAN, T) UN(sinh, U_SINH, T) UN(cosh, U_COSH, T) UN(tanh, U_TANH, T)
UN(asinh, U_ASINH, T) UN(acosh, U_ACOSH, T) UN(atanh, U_ATANH, T) UN(floor, U_FLOOR, T)
UN(ceil, U_CEIL, T) UN(round, U_ROUND, T) UN(trunc, U_TRUNC, T)
#elif NUMR_IS_C
UN(neg, U_NEG, T) UN(abs, U_ABS, typename CReal<T>::t) UN(sign, U_SIGN, T) UN(square, U_SQUARE, T)
UN(sqrt, U_SQRT, T) UN(exp, U_EXP, T) UN(log, U_LOG, T) UN(reciprocal, U_RECIP, T) UN(sin, U_SIN, T)
UN(cos, U_COS, T) UN(tan, U_TAN, T) UN(sinh, U_SINH, T) UN(cosh, U_COSH, T) UN(tanh, U_TANH, T)
#else
#if NUMR_IS_INT
UN(neg, U_NEG, T)
#endif
UN(abs, U_ABS, T) UN(sign, U_SIGN, T) UN(square, U_SQUARE, T) UN(floor, U_FLOOR, T) UN(ceil, U_CEIL, T)
UN(round, U_ROUND, T) UN(trunc, U_TRUNC, T) UN(bitwise_not, U_BITNOT, T)
#endif

// signbit: the float's sign bit (-0.0 and negative NaNs too), x < 0 for signed integers
template <class V> __device__ __forceinline__ bool signbit_(V v) {
  constexpr int k = Tr<V>::kind;
  if constexpr (k == K_F) return copysign((Acc<V>)1, ld<V>(v)) < 0;
  else if constexpr (k == K_I) return v < 0;
  else return false;
}
#if !NUMR_IS_C
extern "C" __global__ void KNAME(signbit)(bool* o, Str so, const T* a, Str sa, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa;
    coords(i, sh, so, sa, oo, oa);
    o[oo] = signbit_<T>(a[oa]);
  }
}
#endif
