// 2:4 structured sparse @ dense (numr/ops/traits/sparse24.py): out (m, n) = A @ b with A (m, k)
// compressed as vals (m, k/2, contiguous: the two kept entries of each group of 4 columns) and
// meta (m, k/4 uint8, contiguous: bits 0-1 the first kept column within the group, bits 2-3 the
// second). One thread per output element in a grid-stride loop, consecutive threads along n so
// b's rows are read coalesced; each group costs two loads of b instead of four. Floats accumulate
// in Acc<T> (float for float16/bfloat16/float8). The 2-bit fields cannot leave the group.
#include "common.cuh"

#if NUMR_IS_F
// sparse24_matmul_<T>(T* out, const T* vals, const unsigned char* meta, const T* b, i64 sb0, i64 sb1,
//                     i64 m, i64 k, i64 n); out is contiguous (m, n)
extern "C" __global__ void KNAME(sparse24_matmul)(T* out, const T* vals, const unsigned char* meta, const T* b,
                                                  i64 sb0, i64 sb1, i64 m, i64 k, i64 n) {
  typedef Acc<T> A;
  const i64 total = m * n, groups = k / 4;
  for (i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (i64)gridDim.x * blockDim.x) {
    const i64 i = t / n, j = t % n;
    const T* v = vals + i * (k / 2);
    const unsigned char* md = meta + i * groups;
    const T* bj = b + j * sb1;
    A acc = (A)0;
    for (i64 q = 0; q < groups; ++q) {
      const unsigned int c = md[q];
      acc = acc + ld(v[2 * q]) * ld(bj[(4 * q + (c & 3u)) * sb0]);
      acc = acc + ld(v[2 * q + 1]) * ld(bj[(4 * q + ((c >> 2) & 3u)) * sb0]);
    }
    out[t] = st<T>(acc);
  }
}
#endif
