/* Sparse-sparse products and sums of CSR matrices (int64 indptr/indices), nogil, OpenMP
 * over output rows, in two passes: a symbolic one counts each output row (prefix-summed into
 * the output indptr, which sizes the output), a numeric one fills the rows. op:
 *   0  C = A @ B  (Gustavson: row i of C sums a[i,k] * row k of B in a dense accumulator
 *                  with a marker array per thread; the row's columns are then sorted)
 *   1  C = A + B, 2  C = A - B  (the union of the two structures)
 *   3  C = A .* B (the intersection)
 * Rows whose indices are strictly increasing in both A and B are merged; any other row
 * (unsorted or repeated indices, as scipy allows) goes through the marker path, which sums
 * duplicates. Either way the output is canonical (sorted, no duplicates) and structural:
 * every position the composite in numr/sparse/_ops.py produces is kept, cancellations and
 * stored zeros included (scipy drops zeros here; numr keeps one structure on every backend).
 */
#ifndef NUMR_SPARSE_SPGEMM_H
#define NUMR_SPARSE_SPGEMM_H

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>

#include "threads.h"

/* -1 when indptr starts at 0, never decreases, ends at nnz and every index is in
 * [0, n_minor); else the first bad row (indptr) or n_major + the bad position (index).
 * *sorted: every line's indices strictly increase (then no row is checked again). */
static int64_t nr_sp_check(const int64_t *p, const int64_t *ix, int64_t n_major, int64_t n_minor, int64_t nnz,
                           int *sorted) {
    if (p[0] != 0 || p[n_major] != nnz) return 0;
    for (int64_t i = 0; i < n_major; i++)
        if (p[i + 1] < p[i]) return i;
    int64_t bad = 0;
    for (int64_t k = 0; k < nnz; k++) bad |= (uint64_t)ix[k] >= (uint64_t)n_minor;
    if (bad)
        for (int64_t k = 0; k < nnz; k++)
            if ((uint64_t)ix[k] >= (uint64_t)n_minor) return n_major + k;
    int64_t down = 0;  /* steps that do not increase, minus those at a line start */
    for (int64_t k = 1; k < nnz; k++) down += ix[k] <= ix[k - 1];
    for (int64_t i = 1; i < n_major; i++)
        if (p[i] > 0 && p[i] < nnz) down -= ix[p[i]] <= ix[p[i] - 1];
    *sorted = down == 0;
    return -1;
}

/* Ascending sort of a row's distinct column indices: up to 64 by rank (n^2 branchless
 * compares that vectorise), longer rows by quicksort (median of three, the larger part
 * looped) down to insertion sort; inline, no comparator calls (libc's qsort took half of
 * SpGEMM's time on rows of ~25 products). */
static void nr_sp_sort_i64(int64_t *x, int64_t n, int narrow) {
    if (n <= 64 && narrow) {
        /* distinct values each go to their rank: n^2 branch-free compares, 8 to an AVX2 op on
         * int32 copies (narrow: every value is below INT32_MAX) */
        int32_t t[64];
        int64_t m = (n + 7) & ~(int64_t)7;
        for (int64_t i = 0; i < n; i++) t[i] = (int32_t)x[i];
        for (int64_t i = n; i < m; i++) t[i] = INT32_MAX;
        for (int64_t i = 0; i < n; i++) {
            int32_t v = t[i], r = 0;
            for (int64_t j = 0; j < m; j++) r += t[j] < v;
            x[r] = v;
        }
        return;
    }
    while (n > 24) {
        int64_t a = x[0], b = x[n / 2], c = x[n - 1];
        int64_t piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int64_t i = 0, j = n - 1;
        for (;;) {
            while (x[i] < piv) i++;
            while (x[j] > piv) j--;
            if (i >= j) break;
            int64_t t = x[i]; x[i] = x[j]; x[j] = t;
            i++; j--;
        }
        /* [0, j] <= piv <= [j + 1, n) */
        if (j + 1 < n - j - 1) { nr_sp_sort_i64(x, j + 1, narrow); x += j + 1; n -= j + 1; }
        else { nr_sp_sort_i64(x + j + 1, n - j - 1, narrow); n = j + 1; }
    }
    for (int64_t i = 1; i < n; i++) {
        int64_t v = x[i], j = i - 1;
        while (j >= 0 && x[j] > v) { x[j + 1] = x[j]; j--; }
        x[j + 1] = v;
    }
}

static int nr_sp_sorted(const int64_t *ix, int64_t lo, int64_t hi) {
    for (int64_t k = lo + 1; k < hi; k++)
        if (ix[k] <= ix[k - 1]) return 0;
    return 1;
}

/* Symbolic pass: cp[i + 1] = entries of row i of C, then cp prefix-summed. mark: n_cols
 * int64 per thread (allocated on first use). Returns 0, or -3 when out of memory. */
static int64_t nr_sp_count(int op, const int64_t *ap, const int64_t *ai, const int64_t *bp, const int64_t *bi,
                           int64_t n_rows, int64_t n_cols, int sorted, int64_t *cp, int nth) {
    int oom = 0;
    _Pragma("omp parallel num_threads(nth) if (nth > 1)")
    {
        int64_t *mark = NULL;
        _Pragma("omp for schedule(dynamic, 64)")
        for (int64_t i = 0; i < n_rows; i++) {
            int64_t a0 = ap[i], a1 = ap[i + 1], b0 = op ? bp[i] : 0, b1 = op ? bp[i + 1] : 0, cnt = 0;
            if (op && (sorted || (nr_sp_sorted(ai, a0, a1) && nr_sp_sorted(bi, b0, b1)))) {
                int64_t x = a0, y = b0, common = 0;
                while (x < a1 && y < b1) {  /* branch-free steps */
                    int64_t ja = ai[x], jb = bi[y];
                    common += ja == jb; x += ja <= jb; y += ja >= jb;
                }
                cp[i + 1] = op == 3 ? common : (a1 - a0) + (b1 - b0) - common;
                continue;
            }
            if (!mark) {
                mark = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n_cols ? n_cols : 1));
                if (!mark) { _Pragma("omp atomic write") oom = 1; cp[i + 1] = 0; continue; }
                for (int64_t j = 0; j < n_cols; j++) mark[j] = -1;
            }
            int64_t s = 2 * i;
            if (op == 0) {
                for (int64_t k = a0; k < a1; k++)
                    for (int64_t q = bp[ai[k]], qe = bp[ai[k] + 1]; q < qe; q++)
                        if (mark[bi[q]] != s) { mark[bi[q]] = s; cnt++; }
            } else {
                for (int64_t k = a0; k < a1; k++)
                    if (mark[ai[k]] != s) { mark[ai[k]] = s; cnt += op != 3; }
                for (int64_t q = b0; q < b1; q++) {
                    int64_t j = bi[q];
                    if (op == 3) { if (mark[j] == s) { mark[j] = s + 1; cnt++; } }
                    else if (mark[j] != s) { mark[j] = s; cnt++; }
                }
            }
            cp[i + 1] = cnt;
        }
        free(mark);
    }
    if (oom) return -3;
    cp[0] = 0;
    for (int64_t i = 0; i < n_rows; i++) cp[i + 1] += cp[i];
    return 0;
}

/* Numeric pass for one value type: rows of C at cp (from nr_sp_count) filled in ci, cv. */
#define NR_SP_NUMERIC(NAME, T)                                                                   \
static int64_t NAME(int op, const int64_t *ap, const int64_t *ai, const T *av, const int64_t *bp,   \
                    const int64_t *bi, const T *bv, int64_t n_rows, int64_t n_cols, int sorted,        \
                    const int64_t *cp, int64_t *ci, T *cv, int nth) {                              \
    int oom = 0;                                                                                   \
    _Pragma("omp parallel num_threads(nth) if (nth > 1)")                                          \
    {                                                                                              \
        int64_t *mark = NULL;                                                                      \
        T *acc = NULL, *acc2 = NULL;                                                               \
        _Pragma("omp for schedule(dynamic, 64)")                                                   \
        for (int64_t i = 0; i < n_rows; i++) {                                                     \
            int64_t a0 = ap[i], a1 = ap[i + 1], b0 = op ? bp[i] : 0, b1 = op ? bp[i + 1] : 0;      \
            int64_t pos = cp[i];                                                                   \
            if (op && (sorted || (nr_sp_sorted(ai, a0, a1) && nr_sp_sorted(bi, b0, b1)))) {       \
                int64_t x = a0, y = b0;                                                            \
                if (op == 3) {                                                                     \
                    while (x < a1 && y < b1) {                                                     \
                        int64_t c = ai[x] - bi[y];                                                 \
                        if (c == 0) { ci[pos] = ai[x]; cv[pos++] = av[x] * bv[y]; }                \
                        x += c <= 0; y += c >= 0;                                                  \
                    }                                                                              \
                }                                                                                  \
                /* union: selects instead of branches (the order of random columns mispredicts) */ \
                else while (x < a1 && y < b1) {                                                    \
                    int64_t ja = ai[x], jb = bi[y];                                                \
                    T sel[3];                                                                      \
                    sel[0] = av[x]; sel[2] = op == 2 ? -bv[y] : bv[y]; sel[1] = sel[0] + sel[2];   \
                    ci[pos] = ja < jb ? ja : jb;                                                   \
                    cv[pos++] = sel[(ja >= jb) + (ja > jb)];                                       \
                    x += ja <= jb; y += ja >= jb;                                                  \
                }                                                                                  \
                if (op != 3) {                                                                     \
                    for (; x < a1; x++) { ci[pos] = ai[x]; cv[pos++] = av[x]; }                    \
                    for (; y < b1; y++) { ci[pos] = bi[y]; cv[pos++] = op == 2 ? -bv[y] : bv[y]; } \
                }                                                                                  \
                continue;                                                                          \
            }                                                                                      \
            if (!mark) {                                                                           \
                size_t nc = (size_t)(n_cols ? n_cols : 1);                                         \
                mark = (int64_t *)malloc(sizeof(int64_t) * nc);                                    \
                acc = (T *)malloc(sizeof(T) * nc);                                                 \
                acc2 = op == 3 ? (T *)malloc(sizeof(T) * nc) : acc;                                \
                if (!mark || !acc || !acc2) {                                                      \
                    _Pragma("omp atomic write") oom = 1;                                           \
                    free(mark); free(acc); if (op == 3) free(acc2);                                \
                    mark = NULL; acc = acc2 = NULL;                                                \
                    continue;                                                                      \
                }                                                                                  \
                for (int64_t j = 0; j < n_cols; j++) mark[j] = -1;                                 \
            }                                                                                      \
            int64_t s = 2 * i;                                                                     \
            if (op == 0) {                                                                         \
                for (int64_t k = a0; k < a1; k++) {                                                \
                    const T v = av[k];                                                             \
                    for (int64_t q = bp[ai[k]], qe = bp[ai[k] + 1]; q < qe; q++) {                 \
                        int64_t j = bi[q];                                                         \
                        if (mark[j] != s) { mark[j] = s; acc[j] = v * bv[q]; ci[pos++] = j; }      \
                        else acc[j] += v * bv[q];                                                  \
                    }                                                                              \
                }                                                                                  \
            } else {                                                                               \
                for (int64_t k = a0; k < a1; k++) {                                                \
                    int64_t j = ai[k];                                                             \
                    if (mark[j] != s) { mark[j] = s; acc[j] = av[k]; if (op != 3) ci[pos++] = j; } \
                    else acc[j] += av[k];                                                          \
                }                                                                                  \
                for (int64_t q = b0; q < b1; q++) {                                                \
                    int64_t j = bi[q];                                                             \
                    const T v = op == 2 ? -bv[q] : bv[q];                                          \
                    if (op == 3) {                                                                 \
                        if (mark[j] == s) { mark[j] = s + 1; acc2[j] = v; ci[pos++] = j; }         \
                        else if (mark[j] == s + 1) acc2[j] += v;                                   \
                    } else if (mark[j] != s) { mark[j] = s; acc[j] = v; ci[pos++] = j; }           \
                    else acc[j] += v;                                                              \
                }                                                                                  \
            }                                                                                      \
            nr_sp_sort_i64(ci + cp[i], pos - cp[i], n_cols < INT32_MAX);                                               \
            for (int64_t q = cp[i]; q < pos; q++)                                                  \
                cv[q] = op == 3 ? acc[ci[q]] * acc2[ci[q]] : acc[ci[q]];                           \
        }                                                                                          \
        free(mark); free(acc); if (op == 3) free(acc2);                                            \
    }                                                                                              \
    return oom ? -3 : 0;                                                                           \
}

NR_SP_NUMERIC(nr_sp_numeric_f32, float)
NR_SP_NUMERIC(nr_sp_numeric_f64, double)
NR_SP_NUMERIC(nr_sp_numeric_c64, float _Complex)
NR_SP_NUMERIC(nr_sp_numeric_c128, double _Complex)

/* Threads from ~2M entries touched (products for op 0; A's and B's entries otherwise), tens
 * of ms on one thread: with the other core busy each of the two parallel regions can wait a
 * scheduler tick for its second thread (20k x 20k A + B, 200k entries: 2.4 ms on one
 * thread, 9.4 ms on two with the other core taken). ai must have passed nr_sp_check.
 * The threshold is settable (tests run the threaded path on small matrices). */
static int64_t nr_sp_thread_work = 1 << 21;

static int nr_sp_threads(int op, const int64_t *ai, const int64_t *bp, int64_t nnz_a, int64_t nnz_b,
                         int64_t n_rows) {
    int64_t work = nnz_a + nnz_b;
    if (op == 0)
        for (int64_t k = 0; k < nnz_a && work < nr_sp_thread_work; k++) work += bp[ai[k] + 1] - bp[ai[k]];
    return (work >= nr_sp_thread_work && n_rows > 1) ? nr_max_threads() : 1;
}

static int64_t nr_sp_numeric(int kind, int op, const int64_t *ap, const int64_t *ai, const void *av,
                             const int64_t *bp, const int64_t *bi, const void *bv, int64_t n_rows,
                             int64_t n_cols, int sorted, const int64_t *cp, int64_t *ci, void *cv, int nth) {
    switch (kind) {
    case 0: return nr_sp_numeric_f32(op, ap, ai, (const float *)av, bp, bi, (const float *)bv, n_rows, n_cols, sorted, cp, ci, (float *)cv, nth);
    case 1: return nr_sp_numeric_f64(op, ap, ai, (const double *)av, bp, bi, (const double *)bv, n_rows, n_cols, sorted, cp, ci, (double *)cv, nth);
    case 2: return nr_sp_numeric_c64(op, ap, ai, (const float _Complex *)av, bp, bi, (const float _Complex *)bv, n_rows, n_cols, sorted, cp, ci, (float _Complex *)cv, nth);
    default: return nr_sp_numeric_c128(op, ap, ai, (const double _Complex *)av, bp, bi, (const double _Complex *)bv, n_rows, n_cols, sorted, cp, ci, (double _Complex *)cv, nth);
    }
}

#endif
