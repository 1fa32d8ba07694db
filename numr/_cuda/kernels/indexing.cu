// Gathers, scatters and scatter-adds along one dim, and nonzero: one program per dtype T.
// The host views x as [outer..., L, inner...] (outer and inner coalesced); `pos` is the position of
// the indexed dim in that view. Index tensors are int64 (strided), negative values count from the end;
// the host validates them first with check_index_int64 (a flag, no out-of-bounds access either way).
#include "common.cuh"
#include "atomic.cuh"

#if NUMR_DTYPE == 10
// check_index_int64(const i64* idx, i64 sidx, i64 n, i64 size, int* bad): bad = 1 if any index is
// outside [-size, size)
extern "C" __global__ void check_index_int64(const i64* idx, i64 sidx, i64 n, i64 size, int* bad) {
  GRID_STRIDE(i, n) {
    i64 v = idx[i * sidx];
    if (v < -size || v >= size) *bad = 1;
  }
}
// index_winner_int64(i64* win, const i64* idx, i64 sidx, i64 n, i64 size): win[j] = the last position
// holding index j (win starts at -1), so index_put_ keeps the last value of a repeated index
extern "C" __global__ void index_winner_int64(i64* win, const i64* idx, i64 sidx, i64 n, i64 size) {
  GRID_STRIDE(i, n) {
    i64 j = idx[i * sidx];
    if (j < 0) j += size;
    if (j >= 0 && j < size) atomicMax((long long*)&win[j], (long long)i);
  }
}
#endif

__device__ __forceinline__ void split(i64 i, const Shp& sh, const Str& so, const Str& sx, int pos, i64& oo, i64& ox,
                                      i64& c) {
  oo = 0; ox = 0; c = 0;
  for (int d = sh.nd - 1; d >= 0; --d) {
    i64 q = i % sh.size[d];
    i /= sh.size[d];
    oo += q * so.s[d];
    if (d == pos) c = q; else ox += q * sx.s[d];
  }
}

// element i of the view sh through index position c: its offset oo in the view's tensor, its offset ox in
// x (index applied at pos, negative counting from the end); returns the index normalised, -1 out of range
__device__ __forceinline__ i64 index_slot(i64 i, const Shp& sh, const Str& so, const Str& sx, int pos, const i64* idx,
                                          i64 sidx, i64 size, i64& oo, i64& ox, i64& c) {
  split(i, sh, so, sx, pos, oo, ox, c);
  i64 j = idx[c * sidx];
  if (j < 0) j += size;
  if (j < 0 || j >= size) return -1;
  ox += j * sx.s[pos];
  return j;
}

// index_select_<T>(T* out, Str so, const T* x, Str sx, Shp sh, i64 n, int pos, const i64* idx, i64 sidx, i64 size)
// sh is the output's view; sx has x's strides (the one at pos is used with the looked-up index)
template <class V>
__device__ __forceinline__ void select_k(V* o, Str so, const V* x, Str sx, Shp sh, i64 n, int pos, const i64* idx,
                                         i64 sidx, i64 size) {
  GRID_STRIDE(i, n) {
    i64 oo, ox, c;
    const bool in_range = index_slot(i, sh, so, sx, pos, idx, sidx, size, oo, ox, c) >= 0;
    o[oo] = in_range ? x[ox] : cvt<V>(0);
  }
}
extern "C" __global__ void KNAME(index_select)(T* o, Str so, const T* x, Str sx, Shp sh, i64 n, int pos,
                                               const i64* idx, i64 sidx, i64 size) {
  select_k<T>(o, so, x, sx, sh, n, pos, idx, sidx, size);
}

// index_put_<T>(T* x, Str sx, const T* v, Str sv, Shp sh, i64 n, int pos, const i64* idx, i64 sidx, i64 size,
//               const i64* win): sh is the values' view (L = len(index) at pos); only the last position of
// a repeated index writes (win from index_winner_int64)
template <class V>
__device__ __forceinline__ void put_k(V* x, Str sx, const V* v, Str sv, Shp sh, i64 n, int pos, const i64* idx,
                                      i64 sidx, i64 size, const i64* win) {
  GRID_STRIDE(i, n) {
    i64 ov, ox, c;
    i64 j = index_slot(i, sh, sv, sx, pos, idx, sidx, size, ov, ox, c);
    if (j >= 0 && win[j] == c) x[ox] = v[ov];
  }
}
extern "C" __global__ void KNAME(index_put)(T* x, Str sx, const T* v, Str sv, Shp sh, i64 n, int pos, const i64* idx,
                                            i64 sidx, i64 size, const i64* win) {
  put_k<T>(x, sx, v, sv, sh, n, pos, idx, sidx, size, win);
}

// index_add_<T>(T* x, Str sx, const T* v, Str sv, Shp sh, i64 n, int pos, const i64* idx, i64 sidx, i64 size):
// x[.., idx[c], ..] += v[.., c, ..], one thread per element of the source view sh (L = len(index) at
// pos); repeated indices meet in atomic_add (atomic.cuh), so floating-point sums run in any order
#if !NUMR_IS_B
template <class V>
__device__ __forceinline__ void add_k(V* x, Str sx, const V* v, Str sv, Shp sh, i64 n, int pos, const i64* idx,
                                      i64 sidx, i64 size) {
  GRID_STRIDE(i, n) {
    i64 ov, ox, c;
    if (index_slot(i, sh, sv, sx, pos, idx, sidx, size, ov, ox, c) >= 0) atomic_add(&x[ox], v[ov]);
  }
}
extern "C" __global__ void KNAME(index_add)(T* x, Str sx, const T* v, Str sv, Shp sh, i64 n, int pos, const i64* idx,
                                            i64 sidx, i64 size) {
  add_k<T>(x, sx, v, sv, sh, n, pos, idx, sidx, size);
}
#endif

// nonzero, pass 1: nz_count_<T>(i64* counts, const T* x, Shp sh, Str sx, i64 n): non-zeros per block
extern "C" __global__ void KNAME(nz_count)(i64* counts, const T* x, Shp sh, Str sx, i64 n) {
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  int f = 0;
  if (i < n) {
    i64 ox;
    coords(i, sh, sx, ox);
    f = cvt<bool>(x[ox]);
  }
  int c = __syncthreads_count(f);
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// nonzero, pass 2 (after an inclusive cumsum of the counts):
// nz_write_<T>(i64* out, const i64* incl, const T* x, Shp sh, Str sx, i64 n, Shp full): row-major coordinates
// in the original shape `full` (rank <= NUMR_MAXD)
extern "C" __global__ void KNAME(nz_write)(i64* out, const i64* incl, const T* x, Shp sh, Str sx, i64 n, Shp full) {
  __shared__ int warp_cnt[32];
  i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  int f = 0;
  if (i < n) {
    i64 ox;
    coords(i, sh, sx, ox);
    f = cvt<bool>(x[ox]);
  }
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  unsigned m = __ballot_sync(0xffffffffu, f);
  if (lane == 0) warp_cnt[wid] = __popc(m);
  __syncthreads();
  if (!f) return;
  i64 pos = blockIdx.x ? incl[blockIdx.x - 1] : 0;
  for (int w = 0; w < wid; ++w) pos += warp_cnt[w];
  pos += __popc(m & ((1u << lane) - 1u));
  i64 r = i;
  for (int d = full.nd - 1; d >= 0; --d) {
    out[pos * full.nd + d] = r % full.size[d];
    r /= full.size[d];
  }
}
