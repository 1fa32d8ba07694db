/* topk by selection for small k (sort_ops.h sorts whole rows): each row keeps its k best
 * (key, position) pairs in a binary heap whose root is the worst kept pair, so most elements
 * cost one compare with the root. Keys as in sort_keys.h, complemented for the largest k, so
 * both cases select the k smallest keys; position breaks ties (the lower index wins: an
 * element equal to the root comes later and is rejected). The heap is then sorted in place
 * (pops to the end), giving sort order, and values are copied as bits by position.
 * Index spaces as nr_sort_spec: n input elements per row at stride xs; k outputs at vs/is.
 */
#ifndef NUMR_SORT_SELECT_H
#define NUMR_SORT_SELECT_H

#include "sort_ops.h"

#define NR_HEAP_DEFINE(KS, K)                                                                      \
/* (a, ia) after (b, ib) in (key, position) order */                                               \
static inline int nr_worse_##KS(K a, uint32_t ia, K b, uint32_t ib) { return a > b || (a == b && ia > ib); } \
static void nr_sift_##KS(K *k, uint32_t *ix, int64_t i, int64_t n) {                              \
    K v = k[i];                                                                                    \
    uint32_t p = ix[i];                                                                            \
    for (;;) {                                                                                     \
        int64_t c = 2 * i + 1;                                                                     \
        if (c >= n) break;                                                                         \
        if (c + 1 < n && nr_worse_##KS(k[c + 1], ix[c + 1], k[c], ix[c])) ++c;                    \
        if (!nr_worse_##KS(k[c], ix[c], v, p)) break;                                              \
        k[i] = k[c];                                                                               \
        ix[i] = ix[c];                                                                             \
        i = c;                                                                                     \
    }                                                                                              \
    k[i] = v;                                                                                      \
    ix[i] = p;                                                                                     \
}

NR_HEAP_DEFINE(k8, uint8_t)
NR_HEAP_DEFINE(k16, uint16_t)
NR_HEAP_DEFINE(k32, uint32_t)
NR_HEAP_DEFINE(k64, uint64_t)

#define NR_TOPK_DEFINE(SFX, U, K, KS, KEY)                                                         \
static int nr_topk_##SFX(const char *xc, char *vc, int64_t *io, const nr_sort_spec *s, int64_t kk) { \
    NR_SORT_ROWS_HEAD(U, K)                                                                        \
    _Pragma("omp parallel num_threads(nr_max_threads()) if(par) reduction(|:fail)")                \
    {                                                                                              \
        NR_SORT_THREAD_ROWS                                                                        \
        char *buf = a < b ? (char *)malloc((size_t)kk * (4 + sizeof(K)) + 64) : NULL;              \
        if (a < b && !buf) fail = 1;                                                               \
        if (buf) {                                                                                 \
            uint32_t *ix = (uint32_t *)buf;                                                        \
            K *k = (K *)(buf + (((size_t)kk * 4 + 7) & ~(size_t)7));                               \
            nr_outer_iter it;                                                                      \
            const int64_t *ks[3] = {s->kxs, s->kvs, s->kis};                                       \
            nr_outer_init(&it, 3, s->nk, s->kshape, ks, a);                                        \
            for (int64_t r = a; r < b; ++r) {                                                      \
                const U *xr = x + it.off[0];                                                       \
                U *vr = v + it.off[1];                                                             \
                int64_t *ir = io + it.off[2];                                                      \
                for (int64_t i = 0; i < kk; ++i) { k[i] = (K)(KEY(xr[i * xs]) ^ flip); ix[i] = (uint32_t)i; } \
                for (int64_t i = kk / 2 - 1; i >= 0; --i) nr_sift_##KS(k, ix, i, kk);             \
                K top = k[0];                                                                      \
                for (int64_t i = kk; i < n; ++i) {                                                 \
                    const K c = (K)(KEY(xr[i * xs]) ^ flip);                                       \
                    if (c < top) { k[0] = c; ix[0] = (uint32_t)i; nr_sift_##KS(k, ix, 0, kk); top = k[0]; } \
                }                                                                                  \
                for (int64_t m = kk - 1; m > 0; --m) { /* the worst to the end: ascending order */ \
                    K tk = k[0]; k[0] = k[m]; k[m] = tk;                                           \
                    uint32_t ti = ix[0]; ix[0] = ix[m]; ix[m] = ti;                                \
                    nr_sift_##KS(k, ix, 0, m);                                                     \
                }                                                                                  \
                for (int64_t j = 0; j < kk; ++j) { uint32_t p = ix[j]; ir[j * is] = p; vr[j * vs] = xr[p * xs]; } \
                nr_outer_next(&it);                                                                \
            }                                                                                      \
            free(buf);                                                                             \
        }                                                                                          \
    }                                                                                              \
    return fail ? -2 : 0;                                                                          \
}

NR_TOPK_DEFINE(b, uint8_t, uint8_t, k8, nr_key_b)
NR_TOPK_DEFINE(i8, uint8_t, uint8_t, k8, nr_key_i8)
NR_TOPK_DEFINE(u8, uint8_t, uint8_t, k8, nr_key_u8)
NR_TOPK_DEFINE(e4, uint8_t, uint8_t, k8, nr_key_e4)
NR_TOPK_DEFINE(e5, uint8_t, uint8_t, k8, nr_key_e5)
NR_TOPK_DEFINE(i16, uint16_t, uint16_t, k16, nr_key_i16)
NR_TOPK_DEFINE(u16, uint16_t, uint16_t, k16, nr_key_u16)
NR_TOPK_DEFINE(f16, uint16_t, uint16_t, k16, nr_key_f16)
NR_TOPK_DEFINE(bf16, uint16_t, uint16_t, k16, nr_key_bf16)
NR_TOPK_DEFINE(i32, uint32_t, uint32_t, k32, nr_key_i32)
NR_TOPK_DEFINE(u32, uint32_t, uint32_t, k32, nr_key_u32)
NR_TOPK_DEFINE(f32, uint32_t, uint32_t, k32, nr_key_f32)
NR_TOPK_DEFINE(i64, uint64_t, uint64_t, k64, nr_key_i64)
NR_TOPK_DEFINE(u64, uint64_t, uint64_t, k64, nr_key_u64)
NR_TOPK_DEFINE(f64, uint64_t, uint64_t, k64, nr_key_f64)

/* The k (>= 1, <= n) smallest keys of each row (largest values when s->desc), in order. */
static int nr_topk(int code, const char *x, char *v, int64_t *idx, const nr_sort_spec *s, int64_t k) {
#define NR_TOPK_CALL(SFX) return nr_topk_##SFX(x, v, idx, s, k);
    NR_SORT_DISPATCH(code, NR_TOPK_CALL)
#undef NR_TOPK_CALL
}

#endif
