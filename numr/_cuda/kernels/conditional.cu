// where(cond, a, b): cond is bool (cast by the client), a and b of dtype T, all broadcast.
#include "common.cuh"

template <class V>
__device__ __forceinline__ void where_k(V* o, Str so, const bool* c, Str sc, const V* a, Str sa, const V* b, Str sb,
                                        Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oc, oa, ob;
    coords(i, sh, so, sc, sa, sb, oo, oc, oa, ob);
    o[oo] = c[oc] ? a[oa] : b[ob];
  }
}

extern "C" __global__ void KNAME(where)(T* o, Str so, const bool* c, Str sc, const T* a, Str sa, const T* b, Str sb,
                                        Shp sh, i64 n) { where_k<T>(o, so, c, sc, a, sa, b, sb, sh, n); }
