// Comparisons -> bool: one program per compute dtype T (complex: eq/ne only).
// NaN compares unequal to everything (ne is true).
// Kernel: <op>_<dtype>(bool* out, Str so, const T* a, Str sa, const T* b, Str sb, Shp sh, i64 n)
#include "common.cuh"

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

template <int OP, class V> __device__ __forceinline__ bool cmp(V x, V y) {
  if constexpr (Tr<V>::kind == K_C) {
    if constexpr (OP == C_EQ) return x == y;
    else return x != y;
  } else {
    Acc<V> a = ld<V>(x), b = ld<V>(y);
    if constexpr (OP == C_EQ) return a == b;
    else if constexpr (OP == C_NE) return a != b;
    else if constexpr (OP == C_LT) return a < b;
    else if constexpr (OP == C_LE) return a <= b;
    else if constexpr (OP == C_GT) return a > b;
    else return a >= b;
  }
}

template <int OP, class V>
__device__ __forceinline__ void cmp_k(bool* o, Str so, const V* a, Str sa, const V* b, Str sb, Shp sh, i64 n) {
  GRID_STRIDE(i, n) {
    i64 oo, oa, ob;
    coords(i, sh, so, sa, sb, oo, oa, ob);
    o[oo] = cmp<OP, V>(a[oa], b[ob]);
  }
}

#define CMP(name, OP)                                                                                      \
  extern "C" __global__ void KNAME(name)(bool* o, Str so, const T* a, Str sa, const T* b, Str sb, Shp sh, \
                                         i64 n) { cmp_k<OP, T>(o, so, a, sa, b, sb, sh, n); }

CMP(eq, C_EQ) CMP(ne, C_NE)
#if !NUMR_IS_C
CMP(lt, C_LT) CMP(le, C_LE) CMP(gt, C_GT) CMP(ge, C_GE)
#endif
