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

// complex start/step (NumPy's complex arange/linspace): arange_complex_<T>(T* out, i64 n, double sr, double si,
// double tr, double ti, double er, double ei, int set_last): start + i*step in complex128; when set_last the
// last value is (er, ei) exactly (linspace's endpoint)
template <class V>
__device__ __forceinline__ void arange_c_k(V* o, i64 n, double sr, double si, double tr, double ti, double er,
                                           double ei, int set_last) {
  GRID_STRIDE(i, n) {
    c128 v;
    v.re = (double)i * tr + sr;
    v.im = (double)i * ti + si;
    if (set_last && i == n - 1) { v.re = er; v.im = ei; }
    o[i] = cvt<V>(v);
  }
}
extern "C" __global__ void KNAME(arange_complex)(T* o, i64 n, double sr, double si, double tr, double ti, double er,
                                                 double ei, int set_last) {
  arange_c_k<T>(o, n, sr, si, tr, ti, er, ei, set_last);
}
