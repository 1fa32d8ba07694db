// CSR @ dense: out (n_rows, m) = A @ x, one warp per output row (numr/ops/traits/sparse.py).
// m == 1: the lanes stride over the row's entries and a warp shuffle sums them; m > 1: the lanes
// stride over the m columns, each walking the row's entries (x's rows are read coalesced). Floats
// accumulate in Acc<T> (float for float16/bfloat16/float8), complex in complex. The structure is
// checked as it is read: a row whose [indptr[r], indptr[r+1]) leaves [0, nnz) or a column index
// outside [0, n_cols) sets *bad and is skipped, so nothing is read out of bounds.
#include "common.cuh"

#if NUMR_IS_F || NUMR_IS_C
template <class A> __device__ __forceinline__ A acc_zero() {
  if constexpr (Tr<A>::kind == K_C) return mkc<A>(0, 0); else return (A)0;
}

// csr_matmul_<T>(T* out, const i64* indptr, const i64* indices, const T* vals, const T* x, i64 sx0, i64 sx1,
//                i64 n_cols, i64 m, i64 n_rows, i64 nnz, int* bad); out is contiguous (n_rows, m)
extern "C" __global__ void KNAME(csr_matmul)(T* out, const i64* indptr, const i64* indices, const T* vals,
                                             const T* x, i64 sx0, i64 sx1, i64 n_cols, i64 m, i64 n_rows,
                                             i64 nnz, int* bad) {
  typedef Acc<T> A;
  const int lane = threadIdx.x & 31;
  const i64 nwarps = ((i64)gridDim.x * blockDim.x) >> 5;
  for (i64 r = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < n_rows; r += nwarps) {
    const i64 lo = indptr[r], hi = indptr[r + 1];
    const bool ok = lo >= 0 && lo <= hi && hi <= nnz;  // the same for every lane of the warp
    if (!ok && lane == 0) *bad = 1;
    if (m == 1) {
      A acc = acc_zero<A>();
      if (ok) {
        for (i64 k = lo + lane; k < hi; k += 32) {
          const i64 c = indices[k];
          if ((u64)c >= (u64)n_cols) { *bad = 1; continue; }
          acc = acc + ld(vals[k]) * ld(x[c * sx0]);
        }
      }
#pragma unroll
      for (int d = 16; d > 0; d >>= 1) acc = acc + shfl_down_any(acc, d);
      if (lane == 0) out[r] = st<T>(acc);
    } else {
      for (i64 j = lane; j < m; j += 32) {
        A acc = acc_zero<A>();
        if (ok) {
          for (i64 k = lo; k < hi; ++k) {
            const i64 c = indices[k];
            if ((u64)c >= (u64)n_cols) { *bad = 1; continue; }
            acc = acc + ld(vals[k]) * ld(x[c * sx0 + j * sx1]);
          }
        }
        out[r * m + j] = st<T>(acc);
      }
    }
  }
}
#endif
