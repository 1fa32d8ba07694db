// sort and searchsorted: one program per dtype T (every real dtype, bool and integers).
// Each element maps to an order-preserving unsigned key K (u32, or u64 for 64-bit dtypes):
// -0.0 -> +0.0, every NaN -> the largest key, the sign-flip trick for floats (float16, bfloat16
// and float8 through their exact float value); signed ints flip the sign bit; descending
// complements the key. (key, row index) pairs compare on the PAIR, so the bitonic network is
// stable. A row is padded to a power of two plen with sentinel pairs (KMAX, i >= n).
// sort_chunk_<T>: a block per chunk of slots in shared memory; loads from x (or from the global
// pairs kk/ii), runs the stages k0..k1 (strides below the chunk), stores the outputs (values
// gathered from x, int64 indices) or the pairs. Rows of plen <= LCAP are sorted whole, several
// per block when short; longer rows: chunks sorted, then per stage sort_step_<T> (up to three
// global compare-exchange strides >= chunk per launch) and a chunk pass for the short strides.
// searchsorted_<T>: a thread per value, binary search on the keys of its sorted row.
#include "common.cuh"

#if !NUMR_IS_C
template <class V> struct SK { typedef u32 t; };
template <> struct SK<double> { typedef u64 t; };
template <> struct SK<i64> { typedef u64 t; };
template <> struct SK<u64> { typedef u64 t; };
typedef SK<T>::t K;
#define KMAX ((K)~(K)0)
#define LCAP (sizeof(K) == 8 ? 2048 : 4096)

template <class V> __device__ __forceinline__ K key_of(V v) {
  if constexpr (Tr<V>::kind == K_F) {
    if constexpr (same_t<V, double>::v) {
      if (v != v) return KMAX;
      double f = v == 0.0 ? 0.0 : v;
      u64 b;
      memcpy(&b, &f, 8);
      return (b >> 63) ? ~b : (b | (1ull << 63));
    } else {
      float f = Tr<V>::load(v);  // float16/bfloat16/float8: exact in float
      if (f != f) return KMAX;
      if (f == 0.0f) f = 0.0f;
      u32 b;
      memcpy(&b, &f, 4);
      return (b >> 31) ? ~b : (b | 0x80000000u);
    }
  } else if constexpr (Tr<V>::kind == K_I) {
    if constexpr (sizeof(V) == 8) return (K)((u64)v ^ (1ull << 63));
    else return (K)((u32)(int)v ^ 0x80000000u);
  } else {
    return (K)v;
  }
}

// element (row, i) of a contiguous tensor sorted along a dim of size n with `inner` elements after it
__device__ __forceinline__ i64 at(i64 row, i64 i, i64 n, i64 inner) {
  return inner == 1 ? row * n + i : (row / inner) * n * inner + row % inner + i * inner;
}

__device__ __forceinline__ bool pless(K ka, u32 ia, K kb, u32 ib) { return ka < kb || (ka == kb && ia < ib); }

// A block per chunk of `chunk` slots of the flat (row, padded position) range: part of one row
// (chunk < plen) or chunk / plen whole rows. mode bit 0: load the pairs kk/ii (else from x),
// bit 1: store the pairs (else the values and indices of the rows' first n positions). x, y and
// o are contiguous in the tensor's shape: row r is (outer r / inner, inner r % inner), read and
// written with stride inner (no transposed copies).
extern "C" __global__ void KNAME(sort_chunk)(T* y, i64* o, const T* x, K* kk, u32* ii, i64 rows, i64 n, i64 inner,
                                             i64 plen, i64 chunk, i64 k0, i64 k1, int desc, int mode) {
  __shared__ K sk[LCAP];
  __shared__ u32 si[LCAP];
  const u32 C = (u32)chunk, lid = threadIdx.x, nt = blockDim.x, pmask = (u32)(plen - 1);
  const i64 nchunks = (rows * plen + chunk - 1) / chunk;
  for (i64 g = blockIdx.x; g < nchunks; g += gridDim.x) {
    const i64 f0 = g * chunk;
    for (u32 p = lid; p < C; p += nt) {
      const i64 f = f0 + p, row = f / plen;
      const u32 i = (u32)(f & pmask);
      if (mode & 1) {
        sk[p] = kk[f];
        si[p] = ii[f];
      } else {
        const bool in = row < rows && i < n;
        const K kv = in ? key_of<T>(x[at(row, i, n, inner)]) : KMAX;
        sk[p] = (desc && in) ? (K)~kv : kv;
        si[p] = i;
      }
    }
    __syncthreads();
    for (u32 k = (u32)k0; k <= (u32)k1; k <<= 1) {
      for (u32 j = (k < C ? k : C) >> 1; j > 0; j >>= 1) {
        for (u32 t = lid; t < C / 2; t += nt) {
          const u32 p = 2 * t - (t & (j - 1)), q = p | j;
          const K a = sk[p], b = sk[q];
          const u32 ia = si[p], ib = si[q];
          if (pless(b, ib, a, ia) == ((((u32)f0 + p) & pmask & k) == 0)) {
            sk[p] = b; sk[q] = a; si[p] = ib; si[q] = ia;
          }
        }
        __syncthreads();
      }
    }
    for (u32 p = lid; p < C; p += nt) {
      const i64 f = f0 + p, row = f / plen;
      const u32 i = (u32)(f & pmask);
      if (mode & 2) {
        kk[f] = sk[p];
        ii[f] = si[p];
      } else if (row < rows && i < n) {
        const i64 e = at(row, i, n, inner);
        y[e] = x[at(row, si[p], n, inner)];
        o[e] = (i64)si[p];
      }
    }
    __syncthreads();
  }
}

// ns consecutive global strides (j << (ns - 1)) down to j of stage k at once: a thread holds the
// 2**ns pairs at base + m * j (m < 2**ns) in registers.
extern "C" __global__ void KNAME(sort_step)(K* kk, u32* ii, i64 rows, i64 plen, i64 j, i64 k, int ns) {
  const i64 per = plen >> ns;  // threads per row
  const int m = 1 << ns;
  GRID_STRIDE(t, rows * per) {
    const i64 row = t / per, tt = t % per;
    const i64 base = row * plen + (tt / j) * (j << ns) + (tt % j);  // ns zero bits inserted at stride j
    const bool asc = (((tt / j) * (j << ns)) & k) == 0;  // the stage bit lies above every stride of the run
    K kr[8];
    u32 ir[8];
    // loops unrolled over the constant bound 8 (guards on m), so kr/ir stay in registers
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      if (e < m) { kr[e] = kk[base + e * j]; ir[e] = ii[base + e * j]; }
    }
#pragma unroll
    for (int h = 4; h > 0; h >>= 1) {
#pragma unroll
      for (int e = 0; e < 8; ++e) {
        const int f = e | h;
        if (h < m && !(e & h) && f < m) {
          const K a = kr[e], b = kr[f];
          const u32 ia = ir[e], ib = ir[f];
          if (pless(b, ib, a, ia) == asc) { kr[e] = b; kr[f] = a; ir[e] = ib; ir[f] = ia; }
        }
      }
    }
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      if (e < m) { kk[base + e * j] = kr[e]; ii[base + e * j] = ir[e]; }
    }
  }
}

// o[e] = the insertion point of v[e] into its row of ss (row e / vlen when nd, else the only row)
extern "C" __global__ void KNAME(searchsorted)(i64* o, const T* ss, const T* v, i64 nv, i64 m, i64 vlen, int nd,
                                               int right) {
  GRID_STRIDE(e, nv) {
    const T* row = ss + (nd ? (e / vlen) * m : 0);
    const K kv = key_of<T>(v[e]);
    i64 lo = 0, hi = m;
    while (lo < hi) {
      i64 mid = (lo + hi) >> 1;
      K km = key_of<T>(row[mid]);
      if (right ? !(kv < km) : km < kv) lo = mid + 1; else hi = mid;
    }
    o[e] = lo;
  }
}
#endif
