// arange, linspace and eye: one program per dtype T. Values are computed in float64
// (int64 for integer arange) and converted once, as the CPU backend does.
#include "common.cuh"

// arange_<dtype>(T* out, i64 n, double start, double step, i64 istart, i64 istep, int integer)
template <class V>
__device__ __forceinline__ void arange_k(V* o, i64 n, double start, double step, i64 istart, i64 istep, int integer) {
  GRID_STRIDE(i, n) {
    if (integer) o[i] = cvt<V>((i64)((u64)istart + (u64)i * (u64)istep));
    else o[i] = from_f64<V>(start + (double)i * step);
  }
}
extern "C" __global__ void KNAME(arange)(T* o, i64 n, double start, double step, i64 istart, i64 istep, int integer) {
  arange_k<T>(o, n, start, step, istart, istep, integer);
}

// linspace_<dtype>(T* out, i64 n, double start, double step, double stop, int endpoint): NumPy's
// i * step + start, the last value exactly stop when endpoint.
template <class V>
__device__ __forceinline__ void linspace_k(V* o, i64 n, double start, double step, double stop, int endpoint) {
  GRID_STRIDE(i, n) {
    double v = (double)i * step + start;
    if (endpoint && n > 1 && i == n - 1) v = stop;
    if constexpr (Tr<V>::kind == K_I || Tr<V>::kind == K_U) v = floor(v);  // NumPy floors for integers
    o[i] = from_f64<V>(v);
  }
}
extern "C" __global__ void KNAME(linspace)(T* o, i64 n, double start, double step, double stop, int endpoint) {
  linspace_k<T>(o, n, start, step, stop, endpoint);
}

// eye_<dtype>(T* out, i64 rows, i64 cols, i64 k): ones on diagonal k of a rows x cols matrix
template <class V> __device__ __forceinline__ void eye_k(V* o, i64 rows, i64 cols, i64 k) {
  GRID_STRIDE(i, rows * cols) {
    i64 r = i / cols, c = i % cols;
    o[i] = cvt<V>(c - r == k);
  }
}
extern "C" __global__ void KNAME(eye)(T* o, i64 rows, i64 cols, i64 k) { eye_k<T>(o, rows, cols, k); }
