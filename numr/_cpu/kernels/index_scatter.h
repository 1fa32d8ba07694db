/* gather, scatter and scatter_reduce along a dim (torch semantics): one pass over the index.
 *
 *   nr_sg_gather(g, isz, ptr)          out[r, j] = x[r, idx[r, j]]        (ptr: out, x, idx)
 *   nr_sg_scatter(g, isz, ptr)         out[r, idx[r, j]] = src[r, j], j in order (last wins)
 *   nr_sg_reduce(g, code, op, incl, ptr)  out[r, idx[r, j]] (op)= src[r, j], j in order
 *
 * r runs over the index's remaining dims (coalesced: g->shape, strides g->rs[operand]); j over
 * the index's dim (g->k of them, strides g->ds[operand]). Operands (ptr[]): 0 out (a fresh copy
 * of x for the scatters), 1 x, 2 the int64 index, 3 src, 4 an int64 count scratch laid out as out
 * (mean only). Every output element is owned by one r, so the r range is split between threads
 * and each element's values are combined in index order: results are the same on every run and
 * for any thread count. Indices are checked (negatives wrapped) in the kernel: a bad one makes it
 * return 1, its output only partly written (callers discard it).
 */
#ifndef NUMR_INDEX_SCATTER_H
#define NUMR_INDEX_SCATTER_H

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include "nditer.h"
#include "dtypes.h"

#define NR_SG_OPS 5
enum { NR_SG_SUM = 0, NR_SG_PROD = 1, NR_SG_MEAN = 2, NR_SG_AMAX = 3, NR_SG_AMIN = 4 };

typedef struct {
    int rnd;                                /* remaining dims (coalesced) */
    const int64_t *shape;                   /* their sizes */
    const int64_t *rs[NR_SG_OPS];           /* their strides per operand (elements) */
    int64_t ds[NR_SG_OPS];                  /* strides along dim per operand (bytes, set by run) */
    int64_t in[NR_SG_OPS];                  /* strides of the innermost remaining dim (bytes) */
    int64_t k, size;                        /* index size along dim, x's size along dim */
    int jin;                                /* 1: j is the inner loop (the index's dim is its fastest) */
} nr_sg;

typedef int (*nr_sg_task)(const nr_sg *g, char *const *b, int64_t ni, int incl);

/* one task: ni positions of the innermost remaining dim from b[], every j of each */
#define NR__SG_FOR(BODY)                                                                      \
    if (g->jin) {                                                                             \
        for (int64_t i = 0; i < ni; ++i) for (int64_t j = 0; j < k; ++j) { BODY }             \
    } else {                                                                                  \
        for (int64_t j = 0; j < k; ++j) for (int64_t i = 0; i < ni; ++i) { BODY }             \
    }
#define NR__SG_POS                                                                            \
    const int64_t v_ = *(const int64_t *)(b[2] + i * in2 + j * ds2);                      \
    const int64_t p = v_ < 0 ? v_ + size : v_; (void)p;
#define NR__SG_CHECK if (v_ < -size || v_ >= size) return 1;
#define NR__SG_TASK_VARS(T)                                                                    \
    const int64_t in0 = g->in[0], in1 = g->in[1], in2 = g->in[2], in3 = g->in[3], in4 = g->in[4];   \
    const int64_t ds0 = g->ds[0], ds1 = g->ds[1], ds2 = g->ds[2], ds3 = g->ds[3], ds4 = g->ds[4];   \
    const int64_t k = g->k, size = g->size; /* locals: a store through out cannot change them */   \
    (void)in0; (void)in1; (void)in3; (void)in4; (void)ds1; (void)ds3; (void)ds4;                         \
    (void)incl;                                                                               \
    typedef T sg_t; (void)sizeof(sg_t);

/* the element-wise tasks, for itemsize-generic copies */
#define NR__SG_DEF_COPY(N, T)                                                                 \
    static int nr__sg_gather_##N(const nr_sg *g, char *const *b, int64_t ni, int incl) {      \
        NR__SG_TASK_VARS(T)                                                                   \
        if (g->jin && ds2 == (int64_t)sizeof(int64_t) && ds0 == (int64_t)sizeof(T)) {        \
            /* dense index and output rows: a branch-free loop (the check folded into a flag) */ \
            uint64_t badf = 0;                                                                \
            for (int64_t i = 0; i < ni; ++i) {                                                \
                const int64_t *ip = (const int64_t *)(b[2] + i * in2);                        \
                T *op = (T *)(b[0] + i * in0);                                                \
                const char *xp = b[1] + i * in1;                                              \
                for (int64_t j = 0; j < k; ++j) {                                             \
                    const int64_t v = ip[j];                                                  \
                    badf |= (uint64_t)v + (uint64_t)size >= (uint64_t)(2 * size);            \
                    const int64_t q = v < 0 ? v + size : v;                                   \
                    op[j] = *(const T *)(xp + (badf ? 0 : q) * ds1);                          \
                }                                                                             \
                if (badf) return 1;                                                           \
            }                                                                                 \
            return 0;                                                                         \
        }                                                                                     \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK                                                    \
                   *(T *)(b[0] + i * in0 + j * ds0) = *(const T *)(b[1] + i * in1 + p * ds1);) \
        return 0;                                                                             \
    }                                                                                         \
    static int nr__sg_scatter_##N(const nr_sg *g, char *const *b, int64_t ni, int incl) {     \
        NR__SG_TASK_VARS(T)                                                                   \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK                                                    \
                   *(T *)(b[0] + i * in0 + p * ds0) = *(const T *)(b[3] + i * in3 + j * ds3);) \
        return 0;                                                                             \
    }
NR__SG_DEF_COPY(1, uint8_t)
NR__SG_DEF_COPY(2, uint16_t)
NR__SG_DEF_COPY(4, uint32_t)
NR__SG_DEF_COPY(8, uint64_t)
NR__SG_DEF_COPY(16, nr__b16)

/* the reductions: pass 1 checks the indices and sets each touched element to the reduction's
 * start, pass 2 combines the values in index order, pass 3 finishes (mean's division, self's
 * amax/amin). As the composite (numr/ops/generic/indexing_scatter.py): integer sums and products
 * wrap (unsigned arithmetic; the 8/16-bit types in unsigned int, free of int promotion's
 * overflow), integer mean rounds down (x // 0 = 0 where a count wraps to 0 in the dtype), amax keeps the last NaN, amin yields the
 * canonical NaN where one is present, ties keep the last (amax) / first (amin) equal value. */
#define NR__SG_O  sg_t *o = (sg_t *)(b[0] + i * in0 + p * ds0);
#define NR__SG_S  const sg_t s = *(const sg_t *)(b[3] + i * in3 + j * ds3);
#define NR__SG_X  const sg_t xv = *(const sg_t *)(b[1] + i * in1 + p * ds1);
/* *o = c ? a : b without a branch (a random comparison would mispredict half the time: the
 * compiler makes a conditional store of `*o = c ? a : *o`; an indexed pick stays a load) */
#define NR__SG_SEL(c, a, b) { const sg_t pick_[2] = {(b), (a)}; *o = pick_[(c) != 0]; }
#define NR__SG_C  int64_t *c = (int64_t *)(b[4] + i * in4 + p * ds4);

#define NR__SG_DEF_REDUCE(S, T, U, ISNAN, LOW, HIGH, NANV, MEAN)                              \
    static int nr__sg_sum_##S(const nr_sg *g, char *const *b, int64_t ni, int incl) {         \
        NR__SG_TASK_VARS(T)                                                                   \
        if (incl) { /* one pass: the check inline (out is dropped on a bad index) */          \
            NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O NR__SG_S *o = (T)((U)*o + (U)s);)         \
            return 0;                                                                         \
        }                                                                                     \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O *o = (T)0;)                               \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_S *o = (T)((U)*o + (U)s);)                      \
        return 0;                                                                             \
    }                                                                                         \
    static int nr__sg_prod_##S(const nr_sg *g, char *const *b, int64_t ni, int incl) {        \
        NR__SG_TASK_VARS(T)                                                                   \
        if (incl) { /* one pass: the check inline (out is dropped on a bad index) */          \
            NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O NR__SG_S *o = (T)((U)*o * (U)s);)         \
            return 0;                                                                         \
        }                                                                                     \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O *o = (T)1;)                               \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_S *o = (T)((U)*o * (U)s);)                      \
        return 0;                                                                             \
    }                                                                                         \
    static int nr__sg_mean_##S(const nr_sg *g, char *const *b, int64_t ni, int incl) {        \
        NR__SG_TASK_VARS(T)                                                                   \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O NR__SG_C *c = 0; if (!incl) *o = (T)0;)   \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_S NR__SG_C *o = (T)((U)*o + (U)s); ++*c;)       \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_C                                               \
                   const int64_t cc = *c; const T d = (T)(cc + incl + (cc == 0));                 \
                   const sg_t ov = *o; NR__SG_SEL(cc, (T)MEAN(ov, d), ov) *c = 0;)         \
        return 0;                                                                             \
    }                                                                                         \
    static int nr__sg_amax_##S(const nr_sg *g, char *const *b, int64_t ni, int incl) {        \
        NR__SG_TASK_VARS(T)                                                                   \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O *o = LOW;)                                \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_S                                               \
                   const sg_t ov = *o; const int w = ISNAN(s) | (!ISNAN(ov) & (s >= ov)); NR__SG_SEL(w, s, ov))                          \
        if (incl) { NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_X                                   \
                               const sg_t ov = *o; const int kp = (ov >= xv) | ISNAN(ov); NR__SG_SEL(kp, ov, xv)) }                      \
        return 0;                                                                             \
    }                                                                                         \
    static int nr__sg_amin_##S(const nr_sg *g, char *const *b, int64_t ni, int incl) {        \
        NR__SG_TASK_VARS(T)                                                                   \
        NR__SG_FOR(NR__SG_POS NR__SG_CHECK NR__SG_O *o = HIGH;)                               \
        NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_S                                               \
                   const sg_t ov = *o; const int w = !ISNAN(ov) & (s < ov); const sg_t m = w ? s : ov; NR__SG_SEL(ISNAN(s), (sg_t)NANV, m))           \
        if (incl) { NR__SG_FOR(NR__SG_POS NR__SG_O NR__SG_X                                   \
                               const sg_t ov = *o; const int kp = (ov <= xv) | ISNAN(ov); NR__SG_SEL(kp, ov, xv)) }                      \
        return 0;                                                                             \
    }

#define NR__SG_ISNAN_F(v) ((v) != (v))
#define NR__SG_ISNAN_I(v) 0
#define NR__SG_FDIV(a, d) ((a) / (d))
/* floor division (numr's floor_divide on integers) */
#define NR__SG_IDIV(a, d) ((d) ? (a) / (d) - (((a) % (d) != 0) && (((a) < 0) != ((d) < 0))) : 0)  /* x // 0 = 0 */
#define NR__SG_UDIV(a, d) ((d) ? (a) / (d) : 0)
NR__SG_DEF_REDUCE(f64, double, double, NR__SG_ISNAN_F, -INFINITY, INFINITY, (double)NAN, NR__SG_FDIV)
NR__SG_DEF_REDUCE(f32, float, float, NR__SG_ISNAN_F, -INFINITY, INFINITY, NAN, NR__SG_FDIV)
NR__SG_DEF_REDUCE(i64, int64_t, uint64_t, NR__SG_ISNAN_I, INT64_MIN, INT64_MAX, 0, NR__SG_IDIV)
NR__SG_DEF_REDUCE(i32, int32_t, uint32_t, NR__SG_ISNAN_I, INT32_MIN, INT32_MAX, 0, NR__SG_IDIV)
NR__SG_DEF_REDUCE(u64, uint64_t, uint64_t, NR__SG_ISNAN_I, 0, UINT64_MAX, 0, NR__SG_UDIV)
NR__SG_DEF_REDUCE(u32, uint32_t, uint32_t, NR__SG_ISNAN_I, 0, UINT32_MAX, 0, NR__SG_UDIV)
NR__SG_DEF_REDUCE(i16, int16_t, unsigned, NR__SG_ISNAN_I, INT16_MIN, INT16_MAX, 0, NR__SG_IDIV)
NR__SG_DEF_REDUCE(i8, int8_t, unsigned, NR__SG_ISNAN_I, INT8_MIN, INT8_MAX, 0, NR__SG_IDIV)
NR__SG_DEF_REDUCE(u16, uint16_t, unsigned, NR__SG_ISNAN_I, 0, UINT16_MAX, 0, NR__SG_UDIV)
NR__SG_DEF_REDUCE(u8, uint8_t, unsigned, NR__SG_ISNAN_I, 0, UINT8_MAX, 0, NR__SG_UDIV)

/* Runs f over every task: threads split the remaining positions (whole outer rows, or chunks of
 * the innermost dim when there are few rows). Returns 1 if any index was out of range, 2 if
 * memory ran out (callers fall back to the composite). */
static int nr_sg_run(nr_sg *g, const int *isz, char *const *ptr, nr_sg_task f, int incl) {
    const int rnd = g->rnd;
    const int64_t n_in = rnd ? g->shape[rnd - 1] : 1;
    int64_t outer = 1;
    for (int d = 0; d + 1 < rnd; ++d) outer *= g->shape[d];
    for (int a = 0; a < NR_SG_OPS; ++a) {
        g->in[a] = rnd ? g->rs[a][rnd - 1] * isz[a] : 0;
        g->ds[a] *= isz[a];
    }
    g->jin = nr_abs64(g->ds[2]) <= nr_abs64(g->in[2]);
    if (outer == 0 || n_in == 0 || g->k == 0) return 0;
    const double work = (double)outer * n_in * g->k;
    int nth = work >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    int64_t nch = 1;
    if (nth > 1 && outer < 4 * nth) {
        nch = (4 * nth + outer - 1) / outer;
        if (nch > n_in) nch = n_in;
    }
    const int64_t ntask = outer * nch;
    const int rowcnt = g->jin && ptr[4];  /* mean, one row at a time: a count row per thread */
    if (rowcnt) g->ds[4] = (int64_t)sizeof(int64_t);
    int bad = 0;
    #pragma omp parallel num_threads(nth) if (nth > 1) reduction(| : bad)
    {
        int64_t *cnt = rowcnt ? (int64_t *)malloc((size_t)(g->size ? g->size : 1) * sizeof(int64_t)) : NULL;
        if (rowcnt && !cnt) bad |= 2;
        #pragma omp for schedule(static)
        for (int64_t t = 0; t < ntask; ++t) {
            if (bad) continue;
            const int64_t o = t / nch, c = t % nch;
            const int64_t i0 = n_in * c / nch, i1 = n_in * (c + 1) / nch;
            int64_t off[NR_SG_OPS] = {0, 0, 0, 0, 0};
            int64_t q = o;
            for (int d = rnd - 2; d >= 0; --d) {
                const int64_t id = q % g->shape[d];
                q /= g->shape[d];
                for (int a = 0; a < NR_SG_OPS; ++a) off[a] += id * g->rs[a][d];
            }
            char *b[NR_SG_OPS];
            for (int a = 0; a < NR_SG_OPS; ++a)
                b[a] = ptr[a] ? ptr[a] + off[a] * isz[a] + i0 * g->in[a] : NULL;
            if (!g->jin) {
                if (i1 > i0) bad |= f(g, b, i1 - i0, incl);
                continue;
            }
            for (int64_t i = i0; i < i1 && !bad; ++i) {  /* every pass over one row: it stays in cache */
                char *bi[NR_SG_OPS];
                for (int a = 0; a < NR_SG_OPS; ++a) bi[a] = b[a] ? b[a] + (i - i0) * g->in[a] : NULL;
                if (rowcnt) bi[4] = (char *)cnt;
                bad |= f(g, bi, 1, incl);
            }
        }
        free(cnt);
    }
    return bad;
}

static int nr_sg_gather(nr_sg *g, int isz, char *const *ptr) {
    const int sz[NR_SG_OPS] = {isz, isz, 8, isz, 8};
    nr_sg_task f = isz == 1 ? nr__sg_gather_1 : isz == 2 ? nr__sg_gather_2 : isz == 4 ? nr__sg_gather_4
                 : isz == 8 ? nr__sg_gather_8 : isz == 16 ? nr__sg_gather_16 : NULL;
    return f ? nr_sg_run(g, sz, ptr, f, 0) : -1;
}

static int nr_sg_scatter(nr_sg *g, int isz, char *const *ptr) {
    const int sz[NR_SG_OPS] = {isz, isz, 8, isz, 8};
    nr_sg_task f = isz == 1 ? nr__sg_scatter_1 : isz == 2 ? nr__sg_scatter_2 : isz == 4 ? nr__sg_scatter_4
                 : isz == 8 ? nr__sg_scatter_8 : isz == 16 ? nr__sg_scatter_16 : NULL;
    return f ? nr_sg_run(g, sz, ptr, f, 0) : -1;
}

#define NR__SG_PICK(S)                                                                        \
    f = op == NR_SG_SUM ? nr__sg_sum_##S : op == NR_SG_PROD ? nr__sg_prod_##S                 \
      : op == NR_SG_MEAN ? nr__sg_mean_##S : op == NR_SG_AMAX ? nr__sg_amax_##S : nr__sg_amin_##S;

/* Returns 0, 1 (an index out of range) or -1 (a dtype without a kernel: use the composite). */
static int nr_sg_reduce(nr_sg *g, int code, int op, int incl, char *const *ptr) {
    nr_sg_task f = NULL;
    int isz;
    switch (code) {
    case NR_F64: NR__SG_PICK(f64) isz = 8; break;
    case NR_F32: NR__SG_PICK(f32) isz = 4; break;
    case NR_I64: NR__SG_PICK(i64) isz = 8; break;
    case NR_I32: NR__SG_PICK(i32) isz = 4; break;
    case NR_U64: NR__SG_PICK(u64) isz = 8; break;
    case NR_U32: NR__SG_PICK(u32) isz = 4; break;
    case NR_I16: NR__SG_PICK(i16) isz = 2; break;
    case NR_I8: NR__SG_PICK(i8) isz = 1; break;
    case NR_U16: NR__SG_PICK(u16) isz = 2; break;
    case NR_U8: NR__SG_PICK(u8) isz = 1; break;
    default: return -1;
    }
    const int sz[NR_SG_OPS] = {isz, isz, 8, isz, 8};
    return nr_sg_run(g, sz, ptr, f, incl);
}

#endif
