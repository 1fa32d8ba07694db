// Binary element-wise kernels (and fma): one program per compute dtype T.
// Inputs arrive already promoted to T and broadcast (stride 0) by numr.ops.prepare.
// Kernel: <op>_<dtype>(T* out, Str so, const T* a, Str sa, const T* b, Str sb, Shp sh, i64 n)
#include "mathx.cuh"

enum { B_ADD, B_SUB, B_MUL, B_DIV, B_FLOORDIV, B_REM, B_POW, B_MAX, B_MIN, B_ATAN2, B_HYPOT, B_AND, B_OR, B_XOR,
       B_FMOD, B_COPYSIGN, B_NEXTAFTER, B_LDEXP, B_GCD, B_LCM };  // from B_FMOD: mx_ (end of file)

template <int OP, class V> __device__ __forceinline__ V mx_(V a, V b);

template <int OP, class C> __device__ __forceinline__ C bf(C a, C b) {  // real floats
  if constexpr (OP == B_ADD) return a + b;
  else if constexpr (OP == B_SUB) return a - b;
  else if constexpr (OP == B_MUL) return a * b;
  else if constexpr (OP == B_DIV) return a / b;
  else if constexpr (OP == B_FLOORDIV) { C m; return floordiv_f(a, b, &m); }
  else if constexpr (OP == B_REM) { C m; if (b == 0) return fmod(a, b); floordiv_f(a, b, &m); return m; }
  else if constexpr (OP == B_POW) return pow(a, b);  // IEEE pow: exact signs for integral exponents
  else if constexpr (OP == B_MAX) return max_nan(a, b);
  else if constexpr (OP == B_MIN) return min_nan(a, b);
  else if constexpr (OP == B_ATAN2) return atan2(a, b);
  else return hypot(a, b);
}

template <int OP, class I> __device__ __forceinline__ I bi(I a, I b) {  // integers
  if constexpr (OP == B_ADD) return (I)((u64)a + (u64)b);
  else if constexpr (OP == B_SUB) return (I)((u64)a - (u64)b);
  else if constexpr (OP == B_MUL) return (I)((u64)a * (u64)b);
  else if constexpr (OP == B_FLOORDIV) return floordiv_i(a, b);
  else if constexpr (OP == B_REM) return rem_i(a, b);
  else if constexpr (OP == B_POW) return pow_i(a, b);
  else if constexpr (OP == B_MAX) return a > b ? a : b;
  else if constexpr (OP == B_MIN) return a < b ? a : b;
  else if constexpr (OP == B_AND) return a & b;
  else if constexpr (OP == B_OR) return a | b;
  else return a ^ b;
}

template <int OP> __device__ __forceinline__ bool bb(bool a, bool b) {  // bool: add = or, mul = and
  if constexpr (OP == B_ADD || OP == B_OR || OP == B_MAX) return a || b;
  else if constexpr (OP == B_MUL || OP == B_AND || OP == B_MIN) return a && b;
  else return a != b;
}

template <int OP, class C> __device__ __forceinline__ C bc(C a, C b) {  // complex
  if constexpr (OP == B_ADD) return a + b;
  else if constexpr (OP == B_SUB) return a - b;
  else if constexpr (OP == B_MUL) return a * b;
  else if constexpr (OP == B_DIV) return a / b;
  else return cpow_(a, b);
}

template <int OP, class V> __device__ __forceinline__ V bapply(V a, V b) {
  constexpr int k = Tr<V>::kind;
  if constexpr (OP >= B_FMOD) return mx_<OP - B_FMOD, V>(a, b);
  else if constexpr (k == K_F) return st<V>(bf<OP>(ld<V>(a), ld<V>(b)));
  else if constexpr (k == K_C) return bc<OP>(a, b);
  else if constexpr (k == K_B) return bb<OP>(a, b);
  else return bi<OP>(a, b);
}

template <int OP, class V>
__device__ __forceinline__ void binary_k(V* o, Str so, const V* a, Str sa, const V* b, Str sb, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa, ob;
    coords(i, sh, so, sa, sb, oo, oa, ob);
    o[oo] = bapply<OP, V>(a[oa], b[ob]);
  }
}

template <class V> __device__ __forceinline__ V fma_(V a, V b, V c) {
  constexpr int k = Tr<V>::kind;
  if constexpr (k == K_F) return st<V>(fma(ld<V>(a), ld<V>(b), ld<V>(c)));
  else if constexpr (k == K_C) return a * b + c;
  else if constexpr (k == K_B) return (a && b) || c;
  else return (V)((u64)a * (u64)b + (u64)c);
}

template <class V>
__device__ __forceinline__ void fma_k(V* o, Str so, const V* a, Str sa, const V* b, Str sb, const V* c, Str sc,
                                      Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa, ob, oc;
    coords(i, sh, so, sa, sb, sc, oo, oa, ob, oc);
    o[oo] = fma_<V>(a[oa], b[ob], c[oc]);
  }
}

#define BIN(name, OP)                                                                                   \
  extern "C" __global__ void KNAME(name)(T* o, Str so, const T* a, Str sa, const T* b, Str sb, Shp sh, \
                                         i64 n) { binary_k<OP, T>(o, so, a, sa, b, sb, sh, n); }

extern "C" __global__ void KNAME(fma)(T* o, Str so, const T* a, Str sa, const T* b, Str sb, const T* c, Str sc,
                                      Shp sh, i64 n) { fma_k<T>(o, so, a, sa, b, sb, c, sc, sh, n); }

BIN(add, B_ADD) BIN(mul, B_MUL)
#if NUMR_IS_F
BIN(sub, B_SUB) BIN(div, B_DIV) BIN(floor_divide, B_FLOORDIV) BIN(remainder, B_REM) BIN(pow, B_POW)
BIN(maximum, B_MAX) BIN(minimum, B_MIN) BIN(atan2, B_ATAN2) BIN(hypot, B_HYPOT)
#elif NUMR_IS_C
BIN(sub, B_SUB) BIN(div, B_DIV) BIN(pow, B_POW)
#elif NUMR_IS_INT
BIN(sub, B_SUB) BIN(floor_divide, B_FLOORDIV) BIN(remainder, B_REM) BIN(pow, B_POW) BIN(maximum, B_MAX)
BIN(minimum, B_MIN) BIN(bitwise_and, B_AND) BIN(bitwise_or, B_OR) BIN(bitwise_xor, B_XOR)
#else
BIN(maximum, B_MAX) BIN(minimum, B_MIN) BIN(bitwise_and, B_AND) BIN(bitwise_or, B_OR) BIN(bitwise_xor, B_XOR)
#endif

// ---- NumPy's math extras: fmod (C's, sign of the dividend; integer x fmod 0 = 0), copysign,
// nextafter (float32/float64), ldexp (the exponent an integral value of T), gcd/lcm (NumPy's
// signs: |MIN| wraps), nan_to_num (three replacement values as kernel arguments) and frexp
// (mantissa and int32 exponent outputs). Half types compute in float (ld/st): exact for these.
template <class V> __device__ __forceinline__ u64 uabs_(V x) {
  if constexpr (Tr<V>::kind == K_I) return x < 0 ? (u64)0 - (u64)(i64)x : (u64)x;
  else return (u64)x;
}
__device__ __forceinline__ u64 gcd_u64_(u64 a, u64 b) { while (b) { u64 t = a % b; a = b; b = t; } return a; }

template <int OP, class V> __device__ __forceinline__ V mx_(V a, V b) {
  constexpr int k = Tr<V>::kind;
  if constexpr (OP == 0) {  // fmod
    if constexpr (k == K_F) return st<V>(fmod(ld<V>(a), ld<V>(b)));
    else if constexpr (k == K_I) return (b == 0 || b == (V)-1) ? (V)0 : (V)(a % b);
    else return b == 0 ? (V)0 : (V)(a % b);
  } else if constexpr (OP == 1) { return st<V>(copysign(ld<V>(a), ld<V>(b)));
  } else if constexpr (OP == 2) {  // float32 by name: a double nextafter would step the wrong format
    if constexpr (sizeof(Acc<V>) == 4) return st<V>(nextafterf(ld<V>(a), ld<V>(b)));
    else return st<V>(nextafter(ld<V>(a), ld<V>(b)));
  } else if constexpr (OP == 3) {
    Acc<V> n = ld<V>(b);
    return st<V>(ldexp(ld<V>(a), (int)(n > 4096 ? 4096 : (n < -4096 ? -4096 : n))));
  } else if constexpr (OP == 4) { return (V)gcd_u64_(uabs_(a), uabs_(b));
  } else {  // lcm, NumPy's |a| / gcd * |b| wrapping to V
    const u64 g = gcd_u64_(uabs_(a), uabs_(b));
    return (V)(g ? uabs_(a) / g * uabs_(b) : 0);
  }
}

#if NUMR_IS_F
BIN(fmod, B_FMOD) BIN(copysign, B_COPYSIGN) BIN(ldexp, B_LDEXP)
#if !NUMR_IS_LOWP
BIN(nextafter, B_NEXTAFTER)
#endif
extern "C" __global__ void KNAME(nan_to_num)(T* o, Str so, const T* a, Str sa, Shp sh, i64 n, double vn,
                                             double vp, double vm) {
  const T rn = from_f64<T>(vn), rp = from_f64<T>(vp), rm = from_f64<T>(vm);
  GRID_STRIDE(i, n) {
    i64 oo, oa;
    coords(i, sh, so, sa, oo, oa);
    const T v = a[oa];
    const Acc<T> x = ld<T>(v);
    o[oo] = x != x ? rn : (isinf(x) ? (x > 0 ? rp : rm) : v);
  }
}
extern "C" __global__ void KNAME(frexp)(T* m, Str sm, int* e, Str se, const T* a, Str sa, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 om, oe, oa;
    coords(i, sh, sm, se, sa, om, oe, oa);
    const T v = a[oa];
    const Acc<T> x = ld<T>(v);
    int ex = 0;
    const Acc<T> r = frexp(x, &ex);
    const bool fin = isfinite(x);
    m[om] = fin ? st<T>(r) : v;
    e[oe] = fin ? ex : 0;
  }
}
#elif NUMR_IS_INT
BIN(fmod, B_FMOD) BIN(gcd, B_GCD) BIN(lcm, B_LCM)
#endif
