// Reductions over any set of dims: one program per input dtype T.
//
// The host splits x's dims into kept (-> output index o, row-major, output contiguous) and
// reduced (-> index r in [0, nred)), each coalesced and passed as Shp/Str. Three kernels per op:
//   <op>_rows_<T>: a block per (output, chunk of r): threads stride over r, warp-shuffle + block reduce
//   <op>_cols_<T>: a thread per output (coalesced when the kept dims are the fast ones), a chunk of r per grid row
//   <op>_comb_<T>: a block per output combines its G chunk partials (float32 sums: pairwise-like tree)
// With G == 1 the first kernel writes the result directly. Accumulators: double for float sums
// and products, int64/uint64 for integer sums and products, (value, index) for argmax/argmin.
#include "mathx.cuh"

enum { R_SUM, R_PROD, R_MAX, R_MIN, R_ANY, R_ALL, R_ARGMAX, R_ARGMIN };

template <class V> struct SumA {  // accumulator and result type of sum/prod
  static constexpr int k = Tr<V>::kind;
  // real floats accumulate in double: float32 sums stay accurate even when one thread adds a long column
  typedef typename select_t<k == K_B || k == K_I, i64, typename select_t<k == K_U, u64,
          typename select_t<k == K_F, double, V>::t>::t>::t A;
  typedef typename select_t<k == K_B || k == K_I, i64, typename select_t<k == K_U, u64, V>::t>::t O;
};

template <class AV> struct ArgA { AV v; i64 i; };

template <class V, int OP> struct Red;

template <class V> struct Red<V, R_SUM> {
  typedef typename SumA<V>::A A; typedef typename SumA<V>::O O;
  static __device__ __forceinline__ A init() { return cvt<A>(0); }
  static __device__ __forceinline__ A load(V x, i64) { return cvt<A>(x); }
  static __device__ __forceinline__ A comb(A a, A b) { return a + b; }
  static __device__ __forceinline__ O fin(A a) { return cvt<O>(a); }
};
template <class V> struct Red<V, R_PROD> {
  typedef typename SumA<V>::A A; typedef typename SumA<V>::O O;
  static __device__ __forceinline__ A init() { return cvt<A>(1); }
  static __device__ __forceinline__ A load(V x, i64) { return cvt<A>(x); }
  static __device__ __forceinline__ A comb(A a, A b) { return a * b; }
  static __device__ __forceinline__ O fin(A a) { return cvt<O>(a); }
};
template <class V, bool MAX> struct RedMM {
  typedef Acc<V> A; typedef V O;
  static __device__ __forceinline__ A init() {
    if constexpr (Tr<V>::kind == K_F) return MAX ? (A)-INFINITY : (A)INFINITY;
    else if constexpr (Tr<V>::kind == K_B) return !MAX;
    else return MAX ? Lim<V>::lo() : Lim<V>::hi();
  }
  static __device__ __forceinline__ A load(V x, i64) { return ld<V>(x); }
  static __device__ __forceinline__ A comb(A a, A b) {
    if constexpr (Tr<V>::kind == K_F) return MAX ? max_nan(a, b) : min_nan(a, b);
    else return MAX ? (a > b ? a : b) : (a < b ? a : b);
  }
  static __device__ __forceinline__ O fin(A a) { return st<V>(a); }
};
template <class V> struct Red<V, R_MAX> : RedMM<V, true> {};
template <class V> struct Red<V, R_MIN> : RedMM<V, false> {};
template <class V, bool ANY> struct RedAA {
  typedef bool A; typedef bool O;
  static __device__ __forceinline__ A init() { return !ANY; }
  static __device__ __forceinline__ A load(V x, i64) { return cvt<bool>(x); }
  static __device__ __forceinline__ A comb(A a, A b) { return ANY ? (a || b) : (a && b); }
  static __device__ __forceinline__ O fin(A a) { return a; }
};
template <class V> struct Red<V, R_ANY> : RedAA<V, true> {};
template <class V> struct Red<V, R_ALL> : RedAA<V, false> {};
template <class V, bool MAX> struct RedArg {  // first index of the max/min; the first NaN wins
  typedef ArgA<Acc<V>> A; typedef i64 O;
  static __device__ __forceinline__ A init() { A a; a.v = Acc<V>(); a.i = -1; return a; }
  static __device__ __forceinline__ A load(V x, i64 r) { A a; a.v = ld<V>(x); a.i = r; return a; }
  static __device__ __forceinline__ A comb(A a, A b) {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    bool an = a.v != a.v, bn = b.v != b.v;
    if (an || bn) {
      if (an && bn) return a.i < b.i ? a : b;
      return an ? a : b;
    }
    if (a.v == b.v) return a.i < b.i ? a : b;
    return (MAX ? a.v > b.v : a.v < b.v) ? a : b;
  }
  static __device__ __forceinline__ O fin(A a) { return a.i < 0 ? 0 : a.i; }
};
template <class V> struct Red<V, R_ARGMAX> : RedArg<V, true> {};
template <class V> struct Red<V, R_ARGMIN> : RedArg<V, false> {};

// ---- warp and block reduction of any trivially copyable accumulator ----------------
template <class R> __device__ __forceinline__ typename R::A block_reduce(typename R::A v) {
  typedef typename R::A A;
  __shared__ A sm[32];
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v = R::comb(v, shfl_down_any(v, d));
  __syncthreads();  // sm may still be read by a previous call
  if (lane == 0) sm[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < nw ? sm[lane] : R::init();
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v = R::comb(v, shfl_down_any(v, d));
  }
  return v;  // valid in thread 0
}

template <class R, class V>
__device__ __forceinline__ void rows_k(typename R::O* out, typename R::A* part, const V* x, Shp ksh, Str kst, Shp rsh,
                                       Str rst, i64 nout, i64 nred, i64 chunk, i64 G) {
  typedef typename R::A A;
  i64 start = (i64)blockIdx.x * chunk;
  i64 end = start + chunk < nred ? start + chunk : nred;
  for (i64 o = blockIdx.y; o < nout; o += gridDim.y) {
    i64 base;
    coords(o, ksh, kst, base);
    A acc = R::init();
    for (i64 r = start + threadIdx.x; r < end; r += blockDim.x) {
      i64 off;
      coords(r, rsh, rst, off);
      acc = R::comb(acc, R::load(x[base + off], r));
    }
    acc = block_reduce<R>(acc);
    if (threadIdx.x == 0) {
      if (G == 1) out[o] = R::fin(acc);
      else part[o * G + blockIdx.x] = acc;
    }
  }
}

template <class R, class V>
__device__ __forceinline__ void cols_k(typename R::O* out, typename R::A* part, const V* x, Shp ksh, Str kst, Shp rsh,
                                       Str rst, i64 nout, i64 nred, i64 chunk, i64 G) {
  typedef typename R::A A;
  i64 start = (i64)blockIdx.y * chunk;
  i64 end = start + chunk < nred ? start + chunk : nred;
  for (i64 o = (i64)blockIdx.x * blockDim.x + threadIdx.x; o < nout; o += (i64)blockDim.x * gridDim.x) {
    i64 base;
    coords(o, ksh, kst, base);
    A acc = R::init();
    for (i64 r = start; r < end; ++r) {
      i64 off;
      coords(r, rsh, rst, off);
      acc = R::comb(acc, R::load(x[base + off], r));
    }
    if (G == 1) out[o] = R::fin(acc);
    else part[o * G + blockIdx.y] = acc;
  }
}

template <class R>
__device__ __forceinline__ void comb_k(typename R::O* out, const typename R::A* part, i64 nout, i64 G) {
  typedef typename R::A A;
  for (i64 o = blockIdx.x; o < nout; o += gridDim.x) {
    A acc = R::init();
    for (i64 g = threadIdx.x; g < G; g += blockDim.x) acc = R::comb(acc, part[o * G + g]);
    acc = block_reduce<R>(acc);
    if (threadIdx.x == 0) out[o] = R::fin(acc);
  }
}

#define RED(name, OP)                                                                                              \
  extern "C" __global__ void KNAME(name##_rows)(Red<T, OP>::O * out, Red<T, OP>::A * part, const T* x, Shp ksh,   \
                                                Str kst, Shp rsh, Str rst, i64 nout, i64 nred, i64 chunk, i64 G) { \
    rows_k<Red<T, OP>, T>(out, part, x, ksh, kst, rsh, rst, nout, nred, chunk, G);                                 \
  }                                                                                                                \
  extern "C" __global__ void KNAME(name##_cols)(Red<T, OP>::O * out, Red<T, OP>::A * part, const T* x, Shp ksh,   \
                                                Str kst, Shp rsh, Str rst, i64 nout, i64 nred, i64 chunk, i64 G) { \
    cols_k<Red<T, OP>, T>(out, part, x, ksh, kst, rsh, rst, nout, nred, chunk, G);                                 \
  }                                                                                                                \
  extern "C" __global__ void KNAME(name##_comb)(Red<T, OP>::O * out, const Red<T, OP>::A* part, i64 nout, i64 G) { \
    comb_k<Red<T, OP>>(out, part, nout, G);                                                                        \
  }

RED(sum, R_SUM) RED(prod, R_PROD) RED(any, R_ANY) RED(all, R_ALL)
#if !NUMR_IS_C
RED(max, R_MAX) RED(min, R_MIN) RED(argmax, R_ARGMAX) RED(argmin, R_ARGMIN)
#endif
