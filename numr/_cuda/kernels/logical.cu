// Logical ops: operands read as truth values (x != 0; NaN is true), results bool.
// and/or/xor run on bool inputs (numr.ops.prepare casts); logical_not on every dtype.
#include "common.cuh"

template <class V>
__device__ __forceinline__ void not_k(bool* o, Str so, const V* a, Str sa, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa;
    coords(i, sh, so, sa, oo, oa);
    o[oo] = !cvt<bool>(a[oa]);
  }
}

extern "C" __global__ void KNAME(logical_not)(bool* o, Str so, const T* a, Str sa, Shp sh, i64 n) {
  not_k<T>(o, so, a, sa, sh, n);
}

#if NUMR_IS_B
enum { L_AND, L_OR, L_XOR };
template <int OP>
__device__ __forceinline__ void log_k(bool* o, Str so, const bool* a, Str sa, const bool* b, Str sb, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa, ob;
    coords(i, sh, so, sa, sb, oo, oa, ob);
    bool x = a[oa], y = b[ob];
    o[oo] = OP == L_AND ? (x && y) : (OP == L_OR ? (x || y) : (x != y));
  }
}
#define LOG(name, OP)                                                                                         \
  extern "C" __global__ void KNAME(name)(bool* o, Str so, const bool* a, Str sa, const bool* b, Str sb, Shp sh, \
                                         i64 n) { log_k<OP>(o, so, a, sa, b, sb, sh, n); }
LOG(logical_and, L_AND) LOG(logical_or, L_OR) LOG(logical_xor, L_XOR)
#endif
