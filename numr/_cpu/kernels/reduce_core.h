/* Reduction drivers shared by every reduce op and dtype.
 *
 * The Python side (numr/_cpu/ops/reduce.py) permutes and coalesces the
 * input so that the kernel sees two index spaces: kept dims ("rows", walked
 * with the output strides too) and reduced dims (innermost last). Nothing is
 * copied. Two drivers:
 *   horizontal: each row reduces its reduced space in segments of the
 *               innermost reduced dim (vectorised when that stride is 1);
 *               rows run in parallel, or one row's reduced space is split
 *               into per-thread chunks merged in order when rows are few.
 *   vertical:   the innermost kept dim is the lane dim (its stride is the
 *               smallest): a chunk of output columns accumulates one reduced
 *               index at a time, so a column sum of a C-contiguous matrix
 *               reads memory in order and vectorises.
 * An op supplies: LANE_T (per-lane accumulator), TOT_T (block total),
 * ID (identity), STEP(a, v) (fold one value into a lane), TSTEP(t, a)
 * (fold a lane into a total, in order), STORE(t) (total -> output value), and
 * TSTEP##_DONE(t): whether the total can no longer change (any: true, all: false,
 * max/min: NaN), which ends a row's horizontal fold at the next block.
 * Lanes are folded into the total every NR_RED_BLOCK elements, which is what
 * keeps float32 sums accurate (float lanes, double totals); the vertical
 * driver folds every NR_RED_VBLOCK reduced steps.
 */
#ifndef NUMR_REDUCE_CORE_H
#define NUMR_REDUCE_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "nditer.h"
#include "reduce_capture.h"

#define NR_RED_LANES 32
#define NR_RED_BLOCK 2048
#define NR_RED_COLS 256    /* vertical: columns per chunk on the stack */
#define NR_RED_WIDE 4096   /* vertical: widest chunk (heap accumulators) */
#define NR_RED_VBLOCK 64   /* vertical: reduced steps per lane before folding into totals */

typedef struct {
    int nk;                       /* kept dims (rows) */
    int64_t kshape[NR_MAXDIMS];
    int64_t kxs[NR_MAXDIMS];      /* input strides of kept dims */
    int64_t kys[NR_MAXDIMS];      /* output strides of kept dims */
    int nr;                       /* reduced dims, >= 1 (innermost last) */
    int64_t rshape[NR_MAXDIMS];
    int64_t rxs[NR_MAXDIMS];
    int vertical;                 /* 1: vertical driver (needs nk >= 1) */
} nr_red_spec;

static inline int64_t nr_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Parallel work is cut into several chunks per thread, handed out dynamically: a thread
 * that the OS preempts (a busy machine) delays the call by one chunk, not by half of it.
 * Chunk results are merged in chunk order, so results do not depend on the schedule. */
#define NR_RED_CHUNKS_PER_THREAD 16
#define NR_RED_MAXCHUNKS 256
static inline int64_t nr_red_nchunks(int64_t nred, int nth) {
    int64_t nc = nred / 65536;
    if (nc < nth) nc = nth;
    if (nc > NR_RED_MAXCHUNKS) nc = NR_RED_MAXCHUNKS;
    return nc < nred ? nc : (nred > 0 ? nred : 1);
}

/* one level of a tree fold: t[l] <- t[l] (op) t[l + n/2] for l < n/2 */
#define NR_RED_FOLD(t, n, TSTEP) for (int l_ = 0; l_ < (n) / 2; ++l_) TSTEP((t)[l_], (t)[l_ + (n) / 2])

/* Horizontal and vertical drivers for one (op, dtype). */
#define NR_RED_DEFINE(NAME, T, OUT_T, LANE_T, TOT_T, LD, ID, STEP, TSTEP, STORE)                   \
    NR_RED_DEFINE_L(NAME, NR_RED_LANES, T, OUT_T, LANE_T, TOT_T, LD, ID, STEP, TSTEP, STORE)
/* LANES: independent accumulators of a contiguous segment (sums want more than max/min) */
#define NR_RED_DEFINE_L(NAME, LANES, T, OUT_T, LANE_T, TOT_T, LD, ID, STEP, TSTEP, STORE)       \
/* fold q[i, m) into lanes ln[0..8): eight at a time (strided: eight independent loads), then */ \
/* the rest into lane 0 */                                                                         \
static inline void NAME##_eight(const T *q, int64_t i, int64_t m, int64_t st, LANE_T *ln) {       \
    if (st == 1) {                                                                                 \
        for (; i + 8 <= m; i += 8)                                                                 \
            for (int l = 0; l < 8; ++l) { LANE_T v_ = LD(q[i + l]); STEP(ln[l], v_); }             \
    } else {                                                                                       \
        for (; i + 8 <= m; i += 8)                                                                 \
            for (int l = 0; l < 8; ++l) { LANE_T v_ = LD(q[(i + l) * st]); STEP(ln[l], v_); }     \
    }                                                                                              \
    for (; i < m; ++i) { LANE_T v_ = LD(q[i * st]); STEP(ln[0], v_); }                             \
}                                                                                                  \
NR_RED_CAPTURE_RUN(NAME##_cap8, 8, T, LANE_T, TOT_T, LD, ID, STEP, TSTEP)                       \
NR_RED_CAPTURE_RUN(NAME##_capl, LANES, T, LANE_T, TOT_T, LD, ID, STEP, TSTEP)                     \
/* whether contiguous runs take NR_RED_CAPTURE_RUN (lanes of a converted type, float16 max in */  \
/* float lanes, vectorise better with the plain step) */                                          \
static inline int NAME##_captures(int64_t st) {                                                   \
    return st == 1 && STEP##_CAPTURES && __builtin_types_compatible_p(T, LANE_T);                  \
}                                                                                                  \
/* a row no longer than LANES: eight lanes and a fixed fold the compiler unrolls */               \
static inline void NAME##_short(const T *q, int64_t m, int64_t st, TOT_T *tot) {                  \
    if (m >= 8 && NAME##_captures(st)) { NAME##_cap8(q, m, tot); return; }                         \
    LANE_T a_[8];                                                                                  \
    for (int l = 0; l < 8; ++l) a_[l] = (ID);                                                      \
    NAME##_eight(q, 0, m, st, a_);                                                                 \
    TOT_T t_[8];                                                                                   \
    for (int l = 0; l < 8; ++l) t_[l] = (TOT_T)a_[l];                                              \
    NR_RED_FOLD(t_, 8, TSTEP); NR_RED_FOLD(t_, 4, TSTEP); NR_RED_FOLD(t_, 2, TSTEP);               \
    TSTEP((*tot), t_[0]);                                                                          \
}                                                                                                  \
static inline void NAME##_seg(const T *p, int64_t n, int64_t st, TOT_T *tot) {                    \
    if (n <= LANES) { NAME##_short(p, n, st, tot); return; }                                       \
    for (int64_t b0 = 0; b0 < n && !TSTEP##_DONE(*tot); b0 += NR_RED_BLOCK) {                     \
        int64_t m = nr_min64(NR_RED_BLOCK, n - b0);                                                \
        const T *q = p + b0 * st;                                                                  \
        if (m >= LANES && NAME##_captures(st)) { NAME##_capl(q, m, tot); continue; }               \
        LANE_T ln[LANES];                                                                   \
        for (int l = 0; l < LANES; ++l) ln[l] = (ID);                                       \
        int64_t i = 0;                                                                             \
        int nl_ = m >= 8 ? 8 : 1; /* lanes used, a power of two; the rest hold the identity */    \
        if (st == 1 && m >= LANES) {                                                               \
            nl_ = LANES;                                                                           \
            for (; i + LANES <= m; i += LANES)                                                     \
                for (int l = 0; l < LANES; ++l) { LANE_T v_ = LD(q[i + l]); STEP(ln[l], v_); }     \
            if (i < m) { /* the tail: the last whole block, its lanes already seen as the identity */ \
                const int64_t dup_ = LANES - (m - i);                                              \
                const T *qe_ = q + m - LANES;                                                      \
                for (int l = 0; l < LANES; ++l) {                                                  \
                    LANE_T v_ = LD(qe_[l]);                                                        \
                    v_ = l < dup_ ? (LANE_T)(ID) : v_;                                             \
                    STEP(ln[l], v_);                                                               \
                }                                                                                  \
                i = m;                                                                             \
            }                                                                                      \
        }                                                                                          \
        NAME##_eight(q, i, m, st, ln); /* the tail (strided rows: all of it) */                   \
        /* the lanes to totals, then a tree of independent steps. Sums (64 lanes): constant */    \
        /* bounds, unrolled and vectorised (measured 1.5x faster on rows of 65-200); the */       \
        /* compare-and-select steps of max/min are faster as a loop. */                           \
        TOT_T tl_[LANES];                                                                          \
        if (LANES >= 64) {                                                                         \
            for (int l = 0; l < LANES; ++l) tl_[l] = (TOT_T)ln[l];                                 \
            if (nl_ == LANES) {                                                                    \
                NR_RED_FOLD(tl_, 64, TSTEP); NR_RED_FOLD(tl_, 32, TSTEP); NR_RED_FOLD(tl_, 16, TSTEP); \
            }                                                                                      \
            NR_RED_FOLD(tl_, 8, TSTEP); NR_RED_FOLD(tl_, 4, TSTEP); NR_RED_FOLD(tl_, 2, TSTEP);    \
        } else {                                                                                   \
            for (int l = 0; l < nl_; ++l) tl_[l] = (TOT_T)ln[l];                                   \
            for (int w = nl_ / 2; w >= 1; w /= 2)                                                  \
                for (int l = 0; l < w; ++l) TSTEP(tl_[l], tl_[l + w]);                             \
        }                                                                                          \
        TSTEP((*tot), tl_[0]);                                                                     \
    }                                                                                              \
}                                                                                                  \
/* fold reduced linear indices [a, b) of the row at x into tot */                                  \
static void NAME##_range(const T *x, const nr_red_spec *s, int64_t a, int64_t b, TOT_T *tot) {    \
    int64_t n0 = s->rshape[s->nr - 1], st0 = s->rxs[s->nr - 1];                                    \
    if (a >= b || n0 == 0) return;                                                                 \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[1] = {s->rxs};                                                          \
    nr_outer_init(&it, 1, s->nr - 1, s->rshape, strides, a / n0);                                  \
    int64_t i = a % n0, pos = a;                                                                   \
    while (pos < b && !TSTEP##_DONE(*tot)) {                                                       \
        int64_t len = nr_min64(n0 - i, b - pos);                                                   \
        NAME##_seg(x + it.off[0] + i * st0, len, st0, tot);                                        \
        pos += len; i = 0;                                                                         \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}                                                                                                  \
static void NAME##_rows(const T *x, OUT_T *y, const nr_red_spec *s, int64_t r0, int64_t r1,       \
                        int64_t nred) {                                                            \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[2] = {s->kxs, s->kys};                                                  \
    nr_outer_init(&it, 2, s->nk, s->kshape, strides, r0);                                          \
    const int64_t n0 = s->rshape[0], st0 = s->rxs[0];                                               \
    for (int64_t r = r0; r < r1; ++r) {                                                            \
        TOT_T t = (TOT_T)(ID);                                                                     \
        if (s->nr == 1) NAME##_seg(x + it.off[0], n0, st0, &t); /* one reduced dim: no iterator */ \
        else NAME##_range(x + it.off[0], s, 0, nred, &t);                                          \
        y[it.off[1]] = STORE(t);                                                                   \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}                                                                                                  \
/* tot[0..cw) = the fold of reduced rows [ra, rb) of the cw columns at xb (column stride xs) */    \
static inline void NAME##_vfold(const T *xb, int64_t xs, const nr_red_spec *s, int64_t ra,         \
                                int64_t rb, int64_t cw, LANE_T *ln, TOT_T *tot) {                  \
    const int64_t *rs[1] = {s->rxs};                                                               \
    nr_outer_iter ri;                                                                              \
    nr_outer_init(&ri, 1, s->nr, s->rshape, rs, ra);                                               \
    for (int64_t j = 0; j < cw; ++j) tot[j] = (TOT_T)(ID);                                         \
    for (int64_t r0 = ra; r0 < rb; r0 += NR_RED_VBLOCK) {                                          \
        int64_t rn = nr_min64(NR_RED_VBLOCK, rb - r0);                                             \
        for (int64_t j = 0; j < cw; ++j) ln[j] = (ID);                                             \
        for (int64_t r = 0; r < rn; ++r) {                                                         \
            const T *p = xb + ri.off[0];                                                           \
            if (xs == 1) {                                                                         \
                for (int64_t j = 0; j < cw; ++j) { LANE_T v_ = LD(p[j]); STEP(ln[j], v_); }        \
            } else {                                                                               \
                for (int64_t j = 0; j < cw; ++j) { LANE_T v_ = LD(p[j * xs]); STEP(ln[j], v_); }   \
            }                                                                                      \
            nr_outer_next(&ri);                                                                    \
        }                                                                                          \
        for (int64_t j = 0; j < cw; ++j) TSTEP(tot[j], ln[j]);                                     \
    }                                                                                              \
}                                                                                                  \
static void NAME##_vertical(const T *x, OUT_T *y, const nr_red_spec *s, int64_t task0,            \
                            int64_t task1, int64_t nred, int64_t width) {                          \
    int nko = s->nk - 1;                                                                           \
    int64_t m = s->kshape[nko], xs = s->kxs[nko], ys = s->kys[nko];                                \
    int64_t nch = (m + width - 1) / width;                                                         \
    LANE_T ln_s[NR_RED_COLS];                                                                      \
    TOT_T tot_s[NR_RED_COLS];                                                                      \
    LANE_T *ln = ln_s;                                                                             \
    TOT_T *tot = tot_s;                                                                            \
    int64_t cap = NR_RED_COLS;                                                                     \
    if (width > NR_RED_COLS) {                                                                     \
        LANE_T *l2 = (LANE_T *)malloc(sizeof(LANE_T) * width);                                     \
        TOT_T *t2 = (TOT_T *)malloc(sizeof(TOT_T) * width);                                        \
        if (l2 && t2) { ln = l2; tot = t2; cap = width; } else { free(l2); free(t2); }             \
    }                                                                                              \
    const int64_t *ks[2] = {s->kxs, s->kys};                                                       \
    for (int64_t task = task0; task < task1; ++task) {                                             \
        int64_t o = task / nch, jt = (task % nch) * width, jend = nr_min64(jt + width, m);         \
        nr_outer_iter ko;                                                                          \
        nr_outer_init(&ko, 2, nko, s->kshape, ks, o);                                              \
        for (int64_t j0 = jt; j0 < jend; j0 += cap) {                                              \
            int64_t cw = nr_min64(cap, jend - j0);                                                 \
            const T *xb = x + ko.off[0] + j0 * xs;                                                 \
            NAME##_vfold(xb, xs, s, 0, nred, cw, ln, tot);                                         \
            OUT_T *yb = y + ko.off[1] + j0 * ys;                                                   \
            for (int64_t j = 0; j < cw; ++j) yb[j * ys] = STORE(tot[j]);                           \
        }                                                                                          \
    }                                                                                              \
    if (ln != ln_s) { free(ln); free(tot); }                                                       \
}                                                                                                  \
/* vertical, reduced rows [ra, rb) of outer slice o into out[0..m) (totals, not stored) */     \
static void NAME##_vpart(const T *x, const nr_red_spec *s, int64_t o, int64_t ra, int64_t rb,     \
                         TOT_T *out) {                                                             \
    int nko = s->nk - 1;                                                                           \
    int64_t m = s->kshape[nko], xs = s->kxs[nko], cap = NR_RED_COLS;                               \
    LANE_T ln_s[NR_RED_COLS];                                                                      \
    LANE_T *ln = ln_s;                                                                             \
    if (m > NR_RED_COLS) {                                                                         \
        LANE_T *l2 = (LANE_T *)malloc(sizeof(LANE_T) * nr_min64(m, NR_RED_WIDE));                  \
        if (l2) { ln = l2; cap = nr_min64(m, NR_RED_WIDE); }                                       \
    }                                                                                              \
    const int64_t *ks[2] = {s->kxs, s->kys};                                                       \
    nr_outer_iter ko;                                                                              \
    nr_outer_init(&ko, 2, nko, s->kshape, ks, o);                                                  \
    for (int64_t j0 = 0; j0 < m; j0 += cap) {                                                      \
        int64_t cw = nr_min64(cap, m - j0);                                                        \
        const T *xb = x + ko.off[0] + j0 * xs;                                                     \
        TOT_T *tot = out + j0;                                                                     \
        NAME##_vfold(xb, xs, s, ra, rb, cw, ln, tot);                                              \
    }                                                                                              \
    if (ln != ln_s) free(ln);                                                                      \
}                                                                                                  \
/* vertical with few outer slices: threads split the reduced rows (each streams whole     */    \
/* rows), partial totals merged in chunk order. Returns 0 when it did not run (memory).   */    \
static int NAME##_vsplit(const T *x, OUT_T *y, const nr_red_spec *s, int64_t nout, int64_t nred,  \
                         int nth) {                                                                \
    int nko = s->nk - 1;                                                                           \
    int64_t m = s->kshape[nko], ys = s->kys[nko];                                                  \
    int64_t nc = nr_min64(NR_RED_CHUNKS_PER_THREAD * nth, nred / NR_RED_VBLOCK);                   \
    if (nc > NR_RED_MAXCHUNKS) nc = NR_RED_MAXCHUNKS;                                              \
    if (nc < 2 || (double)nc * m * sizeof(TOT_T) > 32.0e6) return 0;                               \
    TOT_T *part = (TOT_T *)malloc(sizeof(TOT_T) * nc * m);                                         \
    if (!part) return 0;                                                                           \
    const int64_t *ks[2] = {s->kxs, s->kys};                                                       \
    for (int64_t o = 0; o < nout; ++o) {                                                           \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c)                                                           \
            NAME##_vpart(x, s, o, nred * c / nc, nred * (c + 1) / nc, part + c * m);               \
        nr_outer_iter ko;                                                                          \
        nr_outer_init(&ko, 2, nko, s->kshape, ks, o);                                              \
        OUT_T *yb = y + ko.off[1];                                                                 \
        for (int64_t c = 1; c < nc; ++c) {                                                         \
            const TOT_T *pc = part + c * m;                                                        \
            for (int64_t j = 0; j < m; ++j) TSTEP(part[j], pc[j]);                                 \
        }                                                                                          \
        for (int64_t j = 0; j < m; ++j) yb[j * ys] = STORE(part[j]);                               \
    }                                                                                              \
    free(part);                                                                                    \
    return 1;                                                                                      \
}                                                                                                  \
static void NAME(const char *xc, char *yc, const nr_red_spec *s) {                                 \
    const T *x = (const T *)xc;                                                                    \
    OUT_T *y = (OUT_T *)yc;                                                                        \
    int64_t nrow = nr_prod(s->kshape, s->nk), nred = nr_prod(s->rshape, s->nr);                    \
    int nth = nr_max_threads();                                                                    \
    int big = nrow * nred >= NR_PARALLEL_THRESHOLD && nth > 1;                                     \
    if (s->vertical) {                                                                             \
        /* wide column chunks stream whole rows; split them between threads when outer is small */ \
        int64_t m = s->kshape[s->nk - 1], nout = nrow / m;                                         \
        if (big && nout < 2 * nth && NAME##_vsplit(x, y, s, nout, nred, nth)) return;               \
        int64_t width = nr_min64(m, NR_RED_WIDE);                                                  \
        if (big && nout < 4 * nth) {                                                               \
            int64_t want = (m + 4 * nth - 1) / (4 * nth);                                          \
            width = nr_min64(width, want < NR_RED_COLS ? NR_RED_COLS : (want + 63) / 64 * 64);     \
        }                                                                                          \
        int64_t ntask = nout * ((m + width - 1) / width);                                          \
        if (!big || ntask < 2) { NAME##_vertical(x, y, s, 0, ntask, nred, width); return; }        \
        int64_t nc = nr_min64(ntask, NR_RED_CHUNKS_PER_THREAD * nth);                               \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c)                                                           \
            NAME##_vertical(x, y, s, ntask * c / nc, ntask * (c + 1) / nc, nred, width);           \
        return;                                                                                    \
    }                                                                                              \
    if (!big) { NAME##_rows(x, y, s, 0, nrow, nred); return; }                                     \
    if (nrow >= 4 * nth || nred < NR_PARALLEL_THRESHOLD) {                                         \
        int64_t nc = nr_min64(nrow, NR_RED_CHUNKS_PER_THREAD * nth);                                \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c)                                                           \
            NAME##_rows(x, y, s, nrow * c / nc, nrow * (c + 1) / nc, nred);                        \
        return;                                                                                    \
    }                                                                                              \
    /* few long rows: split each row's reduced space into chunks, merge their totals in order */  \
    TOT_T part[NR_RED_MAXCHUNKS];                                                                  \
    int64_t nc = nr_red_nchunks(nred, nth);                                                        \
    nr_outer_iter it;                                                                              \
    const int64_t *strides[2] = {s->kxs, s->kys};                                                  \
    nr_outer_init(&it, 2, s->nk, s->kshape, strides, 0);                                           \
    for (int64_t r = 0; r < nrow; ++r) {                                                           \
        const T *xr = x + it.off[0];                                                               \
        _Pragma("omp parallel for schedule(dynamic, 1) num_threads(nth)")                          \
        for (int64_t c = 0; c < nc; ++c) {                                                         \
            TOT_T pt = (TOT_T)(ID);                                                                \
            NAME##_range(xr, s, nred * c / nc, nred * (c + 1) / nc, &pt);                          \
            part[c] = pt;                                                                          \
        }                                                                                          \
        TOT_T tt = (TOT_T)(ID);                                                                    \
        for (int64_t c = 0; c < nc; ++c) TSTEP(tt, part[c]);                                       \
        y[it.off[1]] = STORE(tt);                                                                  \
        nr_outer_next(&it);                                                                        \
    }                                                                                              \
}

#endif
