/* argmax/argmin: the first index whose value BETTER(v, best) beats everything before it
 * (a NaN beats any number, so the first NaN wins). Index = linear index over the reduced
 * dims (row-major, order kept by the caller).
 *
 * Each contiguous run of the innermost reduced dim goes to NAME##_run(p, len, &best), which
 * returns the run's first extreme. Two kinds:
 *   NR_ARG_RUN_VEC (32- and 64-bit types): one pass over GCC vector types. Each lane keeps
 *     its first strict winner and that winner's index, the lanes are folded at the end with
 *     ties to the smaller index; floats note NaN on the way and, if one was seen, return the
 *     first NaN instead. Vector extensions rather than `omp simd` over lane arrays, which GCC
 *     kept in memory (3.5x slower).
 *   NR_ARG_RUN_BLOCKS (the rest): per block, a vectorised NaN-sticky extreme, located only
 *     when it beats the best so far.
 */
#ifndef NUMR_REDUCE_ARG_H
#define NUMR_REDUCE_ARG_H

#include "reduce_core.h"

#define NR_ARG_UNROLL 4
#define NR_ARG_SEGMENT (1 << 30) /* 32-bit lane indices: runs are cut into segments */

/* Lanes where mask M (evaluated once) is set take value v and index c into (a, i); VT/VI:
 * the vector types. */
#define NR_ARG_TAKE(VT, VI, M, a, i, v, c)                                                         \
    do {                                                                                           \
        const VI m_ = (M);                                                                         \
        (a) = (VT)(((VI)(v) & m_) | ((VI)(a) & ~m_));                                              \
        (i) = ((c) & m_) | ((i) & ~m_);                                                            \
    } while (0)

/* The winner of (v, c) against (a, i), lane-wise: the better value, ties to the smaller index. */
#define NR_ARG_MERGE(VT, VI, CMP, a, i, v, c)                                                      \
    NR_ARG_TAKE(VT, VI, CMP(v, a) | (((v) == (a)) & ((c) < (i))), a, i, v, c)

/* Folds vector a/i (values, indices) to half width (HT/HI) into ha/hi. */
#define NR_ARG_HALVE(HT, HI, CMP, a, i, ha, hi)                                                    \
    do {                                                                                           \
        HT a_hi_; HI i_hi_;                                                                        \
        memcpy(&(ha), &(a), sizeof(HT)); memcpy(&a_hi_, (char *)&(a) + sizeof(HT), sizeof(HT));    \
        memcpy(&(hi), &(i), sizeof(HI)); memcpy(&i_hi_, (char *)&(i) + sizeof(HI), sizeof(HI));    \
        NR_ARG_MERGE(HT, HI, CMP, ha, hi, a_hi_, i_hi_);                                           \
    } while (0)

/* VT/VI: the vector types of T and of a same-width signed integer (the compare masks) */
#define NR_ARG_RUN_VEC(NAME, T, IT, CMP, BETTER, FLT)                                              \
typedef T NAME##_vt __attribute__((vector_size(64)));                                              \
typedef IT NAME##_vi __attribute__((vector_size(64)));                                             \
typedef T NAME##_vt32 __attribute__((vector_size(32)));                                            \
typedef IT NAME##_vi32 __attribute__((vector_size(32)));                                           \
typedef T NAME##_vt16 __attribute__((vector_size(16)));                                            \
typedef IT NAME##_vi16 __attribute__((vector_size(16)));                                           \
static inline NAME##_vt NAME##_load(const T *p) { NAME##_vt v; memcpy(&v, p, sizeof v); return v; } \
static int64_t NAME##_scalar(const T *p, int64_t n, T *bv) {                                       \
    T b = p[0]; int64_t bi = 0;                                                                    \
    for (int64_t j = 1; j < n && (!(FLT) || b == b); ++j)                                          \
        if (BETTER(p[j], b)) { b = p[j]; bi = j; }                                                 \
    *bv = b; return bi;                                                                            \
}                                                                                                  \
static int64_t NAME##_segment(const T *p, int64_t n, T *bv) {                                      \
    enum { W = 64 / sizeof(T), U = NR_ARG_UNROLL };                                                \
    if (n < W * U) return NAME##_scalar(p, n, bv);                                                 \
    NAME##_vt acc[U]; NAME##_vi idx[U], iota, cur, nan = {0};                                      \
    for (int l = 0; l < W; ++l) iota[l] = (IT)l;                                                   \
    for (int u = 0; u < U; ++u) {                                                                  \
        acc[u] = NAME##_load(p + u * W); idx[u] = iota + (IT)(u * W);                             \
        if (FLT) nan |= acc[u] != acc[u];                                                          \
    }                                                                                              \
    int64_t j = W * U;                                                                             \
    cur = iota + (IT)j;                                                                            \
    /* lane u takes v where v beats it strictly: each lane keeps its first winner */            \
    for (; j + W * U <= n; j += W * U)                                                             \
        for (int u = 0; u < U; ++u, cur += (IT)W) {                                                \
            const NAME##_vt v = NAME##_load(p + j + u * W);                                        \
            if (FLT) nan |= v != v;                                                                \
            NR_ARG_TAKE(NAME##_vt, NAME##_vi, CMP(v, acc[u]), acc[u], idx[u], v, cur);             \
        }                                                                                          \
    for (; j + W <= n; j += W, cur += (IT)W) {                                                     \
        const NAME##_vt v = NAME##_load(p + j);                                                    \
        if (FLT) nan |= v != v;                                                                    \
        NR_ARG_TAKE(NAME##_vt, NAME##_vi, CMP(v, acc[0]), acc[0], idx[0], v, cur);                 \
    }                                                                                              \
    IT any_nan = 0;                                                                                \
    for (int l = 0; l < W; ++l) any_nan |= nan[l];                                                 \
    for (int64_t k = j; (FLT) && k < n; ++k) any_nan |= p[k] != p[k];                              \
    if (any_nan) {                                                                                 \
        int64_t k = 0;                                                                             \
        while (p[k] == p[k]) ++k;                                                                  \
        *bv = p[k]; return k;                                                                      \
    }                                                                                              \
    for (int u = 1; u < U; ++u) NR_ARG_MERGE(NAME##_vt, NAME##_vi, CMP, acc[0], idx[0], acc[u], idx[u]); \
    NAME##_vt32 a32; NAME##_vi32 i32;                                                              \
    NR_ARG_HALVE(NAME##_vt32, NAME##_vi32, CMP, acc[0], idx[0], a32, i32);                         \
    NAME##_vt16 a16; NAME##_vi16 i16;                                                              \
    NR_ARG_HALVE(NAME##_vt16, NAME##_vi16, CMP, a32, i32, a16, i16);                               \
    T b = a16[0]; int64_t bi = i16[0];                                                             \
    for (int l = 1; l < (int)(16 / sizeof(T)); ++l) {                                              \
        const T v = a16[l]; const int64_t i = i16[l];                                              \
        const int t = CMP(v, b) | ((v == b) & (i < bi));                                           \
        b = t ? v : b; bi = t ? i : bi;                                                            \
    }                                                                                              \
    for (; j < n; ++j) if (CMP(p[j], b)) { b = p[j]; bi = j; }                                     \
    *bv = b; return bi;                                                                            \
}                                                                                                  \
static int64_t NAME##_run(const T *p, int64_t n, T *bv) {                                          \
    int64_t bi = NAME##_segment(p, nr_min64(n, NR_ARG_SEGMENT), bv);                               \
    for (int64_t s0 = NR_ARG_SEGMENT; s0 < n && (!(FLT) || *bv == *bv); s0 += NR_ARG_SEGMENT) {    \
        T sv; int64_t si = NAME##_segment(p + s0, nr_min64(n - s0, NR_ARG_SEGMENT), &sv);         \
        if (BETTER(sv, *bv)) { *bv = sv; bi = s0 + si; }                                           \
    }                                                                                              \
    return bi;                                                                                     \
}

#define NR_ARG_RUN_BLOCKS(NAME, T, C, LD, BETTER, STEP)                                            \
static int64_t NAME##_run(const T *q0, int64_t len, C *bv) {                                       \
    C best = LD(q0[0]);                                                                            \
    int64_t besti = 0;                                                                             \
    for (int64_t b0 = 0; b0 < len && !NR_ISNAN(best); b0 += NR_RED_BLOCK) {                       \
        int64_t m = nr_min64(NR_RED_BLOCK, len - b0), j = 0;                                       \
        const T *q = q0 + b0;                                                                      \
        C ln[NR_RED_LANES];                                                                        \
        for (int l = 0; l < NR_RED_LANES; ++l) ln[l] = LD(q[0]);                                   \
        for (; j + NR_RED_LANES <= m; j += NR_RED_LANES)                                           \
            for (int l = 0; l < NR_RED_LANES; ++l) { C v_ = LD(q[j + l]); STEP(ln[l], v_); }       \
        for (; j < m; ++j) { C v_ = LD(q[j]); STEP(ln[0], v_); }                                   \
        NR_RED_FOLD(ln, 32, STEP); NR_RED_FOLD(ln, 16, STEP); NR_RED_FOLD(ln, 8, STEP);           \
        NR_RED_FOLD(ln, 4, STEP); NR_RED_FOLD(ln, 2, STEP);                                        \
        C bm = ln[0];                                                                              \
        if (!BETTER(bm, best)) continue;                                                           \
        /* locate it: a vectorised any-match test per 64 elements, then a scan of the one */      \
        /* chunk that has it */                                                                    \
        const int nan_ = NR_ISNAN(bm);                                                             \
        for (int64_t c0 = 0; c0 < m; c0 += 64) {                                                   \
            int64_t e_ = nr_min64(64, m - c0);                                                     \
            int hit_ = 0;                                                                          \
            for (int64_t k = 0; k < e_; ++k) {                                                     \
                C v = LD(q[c0 + k]);                                                               \
                hit_ |= (v == bm) | (nan_ & NR_ISNAN(v));                                          \
            }                                                                                      \
            if (!hit_) continue;                                                                   \
            for (j = c0; j < c0 + e_; ++j) {                                                       \
                C v = LD(q[j]);                                                                    \
                if (v == bm || (nan_ && NR_ISNAN(v))) { best = v; besti = b0 + j; break; }         \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
    }                                                                                              \
    *bv = best; return besti;                                                                      \
}

#define NR_ARG_DEFINE(NAME, T, C, LD, BETTER)                                                      \
static void NAME##_range(const T *x, const nr_red_spec *s, int64_t a, int64_t b, C *bv, int64_t *bi) { \
    int64_t n0 = s->rshape[s->nr - 1], st0 = s->rxs[s->nr - 1];                                    \
    if (a >= b || n0 == 0) return;                                                                 \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[1] = {s->rxs};                                                          \
    nr_outer_init(&it, 1, s->nr - 1, s->rshape, strides, a / n0);                                  \
    int64_t i = a % n0, pos = a;                                                                   \
    C best = LD(x[it.off[0] + i * st0]);                                                           \
    int64_t besti = a;                                                                             \
    while (pos < b && !NR_ISNAN(best)) {                                                           \
        int64_t len = nr_min64(n0 - i, b - pos);                                                   \
        const T *p = x + it.off[0] + i * st0;                                                      \
        if (st0 == 1) {                                                                            \
            C bm; int64_t k = NAME##_run(p, len, &bm);                                             \
            if (BETTER(bm, best)) { best = bm; besti = pos + k; }                                  \
        } else {                                                                                   \
            for (int64_t j = 0; j < len; ++j) {                                                    \
                C v = LD(p[j * st0]);                                                              \
                if (BETTER(v, best)) { best = v; besti = pos + j; }                                \
            }                                                                                      \
        }                                                                                          \
        pos += len; i = 0;                                                                         \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
    *bv = best; *bi = besti;                                                                       \
}                                                                                                  \
static void NAME##_rows(const T *x, int64_t *y, const nr_red_spec *s, int64_t r0, int64_t r1,     \
                        int64_t nred) {                                                            \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[2] = {s->kxs, s->kys};                                                  \
    nr_outer_init(&it, 2, s->nk, s->kshape, strides, r0);                                          \
    for (int64_t r = r0; r < r1; ++r) {                                                            \
        C bv; int64_t bi = 0;                                                                      \
        NAME##_range(x + it.off[0], s, 0, nred, &bv, &bi);                                         \
        y[it.off[1]] = bi;                                                                         \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}                                                                                                  \
static void NAME(const char *xc, char *yc, const nr_red_spec *s) {                                 \
    const T *x = (const T *)xc;                                                                    \
    int64_t *y = (int64_t *)yc;                                                                    \
    int64_t nrow = nr_prod(s->kshape, s->nk), nred = nr_prod(s->rshape, s->nr);                    \
    int nth = nr_max_threads();                                                                    \
    if (nrow * nred < NR_PARALLEL_THRESHOLD || nth < 2) { NAME##_rows(x, y, s, 0, nrow, nred); return; } \
    if (nrow >= 4 * nth || nred < NR_PARALLEL_THRESHOLD) {                                         \
        int64_t nc = nr_min64(nrow, NR_RED_CHUNKS_PER_THREAD * nth);                                \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c)                                                           \
            NAME##_rows(x, y, s, nrow * c / nc, nrow * (c + 1) / nc, nred);                        \
        return;                                                                                    \
    }                                                                                              \
    C pv[NR_RED_MAXCHUNKS]; int64_t pi[NR_RED_MAXCHUNKS];                                          \
    int64_t nc = nr_red_nchunks(nred, nth);                                                        \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[2] = {s->kxs, s->kys};                                                  \
    nr_outer_init(&it, 2, s->nk, s->kshape, strides, 0);                                           \
    for (int64_t r = 0; r < nrow; ++r) {                                                           \
        const T *xr = x + it.off[0];                                                               \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c)                                                           \
            NAME##_range(xr, s, nred * c / nc, nred * (c + 1) / nc, &pv[c], &pi[c]);               \
        C best = pv[0]; int64_t besti = pi[0];                                                     \
        for (int64_t t = 1; t < nc; ++t)                                                           \
            if (BETTER(pv[t], best)) { best = pv[t]; besti = pi[t]; }                              \
        y[it.off[1]] = besti;                                                                      \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}


#endif
