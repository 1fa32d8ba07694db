// numr CUDA kernels: element functions shared by several families
// (complex math, NumPy's floor division/remainder, integer pow, NaN-propagating max/min).
#pragma once
#include "common.cuh"

// ---- real helpers ----------------------------------------------------------
template <class C> __device__ __forceinline__ bool isnan_(C x) { return x != x; }

template <class C> __device__ __forceinline__ C max_nan(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  return a > b ? a : b;
}
template <class C> __device__ __forceinline__ C min_nan(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  return a < b ? a : b;
}

// NumPy's npy_divmod: floor division and the remainder with the sign of b
template <class C> __device__ __forceinline__ C floordiv_f(C a, C b, C* modulus) {
  C mod = fmod(a, b);
  if (b == 0) { *modulus = mod; return a / b; }
  C div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) { mod += b; div -= (C)1; }
  } else {
    mod = copysign((C)0, b);
  }
  C fl;
  if (div != 0) {
    fl = floor(div);
    if (div - fl > (C)0.5) fl += (C)1;
  } else {
    fl = copysign((C)0, a / b);
  }
  *modulus = mod;
  return fl;
}

// integer floor division / remainder: Python semantics, x // 0 == x % 0 == 0
template <class I> __device__ __forceinline__ I floordiv_i(I a, I b) {
  if (b == 0) return 0;
  if constexpr (Tr<I>::kind == K_I) {
    if (b == (I)-1) return (I)(0 - (u64)a);  // wraps for the minimum, as NumPy
    I q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
  } else {
    return a / b;
  }
}
template <class I> __device__ __forceinline__ I rem_i(I a, I b) {
  if (b == 0) return 0;
  if constexpr (Tr<I>::kind == K_I) {
    if (b == (I)-1) return 0;
    I r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else {
    return a % b;
  }
}

// integer power: exact with wrap-around; negative exponents give 0 except for bases 1 and -1
template <class I> __device__ __forceinline__ I pow_i(I a, I b) {
  if constexpr (Tr<I>::kind == K_I) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == (I)-1) return (b & 1) ? (I)-1 : (I)1;
      return 0;
    }
  }
  u64 base = (u64)(i64)a, r = 1;
  u64 e = (u64)b;
  if constexpr (Tr<I>::kind == K_U) base = (u64)a;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return (I)r;
}

// ---- complex math (c64 / c128) ------------------------------------------------
template <class C> __device__ __forceinline__ typename CReal<C>::t cabs_(C z) { return hypot(z.re, z.im); }
template <class C> __device__ __forceinline__ C cexp_(C z) {  // with C99 Annex G special values
  typedef typename CReal<C>::t R;
  R x = z.re, y = z.im;
  if (isinf(x)) {
    if (x < 0) {
      if (!isfinite(y)) return mkc<C>((R)0, (R)0);
      return mkc<C>((R)0 * cos(y), (R)0 * sin(y));
    }
    if (y == 0) return mkc<C>(x, y);
    if (!isfinite(y)) return mkc<C>(x, y - y);
    return mkc<C>(x * cos(y), x * sin(y));
  }
  if (x != x) return y == 0 ? mkc<C>(x, y) : mkc<C>(x, x);
  if (!isfinite(y)) return mkc<C>(y - y, y - y);
  R e = exp(x);
  if (y == 0) return mkc<C>(e, y);
  return mkc<C>(e * cos(y), e * sin(y));
}
template <class C> __device__ __forceinline__ C clog_(C z) { return mkc<C>(log(cabs_(z)), atan2(z.im, z.re)); }
template <class C> __device__ __forceinline__ C csqrt_(C z) {
  typedef typename CReal<C>::t R;
  if (z.re == 0 && z.im == 0) return mkc<C>((R)0, z.im);
  if (isinf(z.im)) return mkc<C>((R)INFINITY, z.im);
  if (z.re != z.re) return mkc<C>(z.re, z.re);
  if (isinf(z.re)) {
    if (z.re > 0) return mkc<C>(z.re, z.im != z.im ? z.im : copysign((R)0, z.im));
    return mkc<C>(z.im != z.im ? fabs(z.im - z.im) : (R)0, copysign((R)INFINITY, z.im));
  }
  R t = sqrt((fabs(z.re) + cabs_(z)) * (R)0.5);
  if (z.re >= 0) return mkc<C>(t, z.im / (2 * t));
  return mkc<C>(fabs(z.im) / (2 * t), copysign(t, z.im));
}
template <class C> __device__ __forceinline__ C csin_(C z) {
  return mkc<C>(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im));
}
template <class C> __device__ __forceinline__ C ccos_(C z) {
  return mkc<C>(cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im));
}
template <class C> __device__ __forceinline__ C csinh_(C z) {
  return mkc<C>(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im));
}
template <class C> __device__ __forceinline__ C ccosh_(C z) {
  return mkc<C>(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im));
}
template <class C> __device__ __forceinline__ C ctanh_(C z) {
  typedef typename CReal<C>::t R;
  if (fabs(z.re) > (R)20) {  // tanh(x + iy) -> sign(x) without overflow
    R e = exp(-2 * fabs(z.re));
    return mkc<C>(copysign((R)1, z.re), 4 * sin(z.im) * cos(z.im) * e);
  }
  R d = cosh(2 * z.re) + cos(2 * z.im);
  return mkc<C>(sinh(2 * z.re) / d, sin(2 * z.im) / d);
}
template <class C> __device__ __forceinline__ C ctan_(C z) {  // tan(z) = -i tanh(iz)
  C t = ctanh_(mkc<C>(-z.im, z.re));
  return mkc<C>(t.im, -t.re);
}
template <class C> __device__ __forceinline__ C cpow_(C a, C b) {  // NumPy's npy_cpow
  typedef typename CReal<C>::t R;
  if (b.re == 0 && b.im == 0) return mkc<C>((R)1, (R)0);
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) return mkc<C>((R)0, (R)0);  // NumPy 2: any Re b > 0
    return mkc<C>((R)NAN, (R)NAN);
  }
  if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == (R)(int)b.re) {  // exact small integer powers
    int n = (int)b.re;
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return a * (a * a);
    int m = n < 0 ? -n : n;
    C r = mkc<C>((R)1, (R)0), p = a;
    for (int mask = 1; mask <= m; mask <<= 1) {
      if (m & mask) r = r * p;
      p = p * p;
    }
    return n < 0 ? mkc<C>((R)1, (R)0) / r : r;
  }
  return cexp_(b * clog_(a));
}
template <class C> __device__ __forceinline__ bool cisnan_(C z) { return z.re != z.re || z.im != z.im; }
