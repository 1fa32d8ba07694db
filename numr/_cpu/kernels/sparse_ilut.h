/* Incomplete LU factorisations with fill, row by row on a canonical CSR matrix (sorted
 * columns, no duplicates), both returning L (strictly lower, unit diagonal implied) and U (on
 * and above the diagonal) merged in one malloc'ed canonical CSR matrix, the layout of
 * nr_csr_ilu0 (so the same triangular solves apply). Return codes as sparse_solve.h.
 *
 * nr_csr_ilut: Saad's ILUT(p, tau) (Iterative Methods for Sparse Linear Systems, alg. 10.6):
 *   row i is eliminated with the rows of U above it in increasing column order (a binary heap,
 *   since fill adds columns), an L entry w_k / u_kk below tau_i = tau ||a_i||_2 is dropped
 *   before it is used, afterwards every entry below tau_i is dropped and only the p_i largest
 *   in magnitude of the L part and of the strict U part are kept (the diagonal always).
 * nr_csr_iluk: ILU(k) by levels of fill: a symbolic phase (level(a_ij) = 0 on A's pattern and
 *   the diagonal, level of a fill entry = min over k of level_ik + level_kj + 1, kept when
 *   <= k), then the numeric ILU of nr_csr_ilu0 on that pattern. */
#ifndef NUMR_SPARSE_ILUT_H
#define NUMR_SPARSE_ILUT_H

#include "sparse_lu.h"

/* A binary min-heap of column indices. */
static void nr_heap_push(int64_t *h, int64_t *len, int64_t v) {
    int64_t i = (*len)++;
    while (i > 0 && h[(i - 1) / 2] > v) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = v;
}

static int64_t nr_heap_pop(int64_t *h, int64_t *len) {
    int64_t top = h[0], v = h[--(*len)], i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= *len) break;
        if (c + 1 < *len && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c]; i = c;
    }
    if (*len > 0) h[i] = v;
    return top;
}

typedef struct { double mag; int64_t col; } nr_mag_col;

static int nr_mag_desc(const void *a, const void *b) {
    double x = ((const nr_mag_col *)a)->mag, y = ((const nr_mag_col *)b)->mag;
    return (x < y) - (x > y);
}

static int nr_i64_cmp(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* -1 when every line of (ip, ix) is strictly increasing (canonical), else NR_SS_BAD. */
static int64_t nr_ss_canonical(const int64_t *ip, const int64_t *ix, int64_t n) {
    if (nr_ss_check(ip, ix, n, n) != NR_SS_OK) return NR_SS_BAD;
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = ip[i] + 1; k < ip[i + 1]; k++)
            if (ix[k] <= ix[k - 1]) return NR_SS_BAD;
    return NR_SS_OK;
}

/* Append (c, v) to the growing CSR arrays of F (nnz entries so far, capacity *cap). */
#define NR_PUSH(F, nnz, cap, T, c, v)                                                             \
    do {                                                                                          \
        if (!nr_lu_grow(&(F).i, &(F).x, (cap), (nnz) + 1, sizeof(T))) goto nomem;                 \
        (F).i[nnz] = (c); ((T *)(F).x)[(nnz)++] = (v);                                            \
    } while (0)

/* ILUT; ws: scratch (see nr_csr_ilut). U rows are built in Ur (diagonal first), L rows in Lr. */
#define NR_ILUT(NAME, T, ABS)                                                                     \
static int64_t NAME(const int64_t *ip, const int64_t *ix, const T *a, int64_t n, double tau, double fill, \
                    nr_sp_mat *Lr, nr_sp_mat *Ur, int64_t *jw, int64_t *heap, int64_t *lst,       \
                    nr_mag_col *cand, T *wv) {                                                    \
    int64_t lnz = 0, unz = 0, lcap = 0, ucap = 0;                                                 \
    for (int64_t j = 0; j < n; j++) { jw[j] = -1; wv[j] = 0; }                                    \
    for (int64_t i = 0; i < n; i++) {                                                             \
        int64_t hl = 0, nl = 0, lo = ip[i], hi = ip[i + 1];                                       \
        double nrm = 0;                                                                           \
        for (int64_t k = lo; k < hi; k++) {                                                       \
            int64_t c = ix[k];                                                                    \
            wv[c] = a[k]; jw[c] = 1; lst[nl++] = c;                                               \
            double m = ABS(a[k]); nrm += m * m;                                                   \
            if (c < i) nr_heap_push(heap, &hl, c);                                                \
        }                                                                                         \
        const double tol = tau * sqrt(nrm);                                                       \
        int64_t cap = (int64_t)ceil(fill * (double)(hi - lo) / 2);                                \
        if (!(fill * (double)(hi - lo) / 2 < (double)n)) cap = n;                                 \
        Lr->p[i] = lnz;                                                                           \
        int64_t nlk = 0; /* L candidates kept so far, in cand */                                  \
        while (hl > 0) {                                                                          \
            int64_t k = nr_heap_pop(heap, &hl);                                                   \
            const T f = wv[k] / ((T *)Ur->x)[Ur->p[k]];                                           \
            wv[k] = 0;                                                                            \
            if (ABS(f) < tol) continue;                                                           \
            for (int64_t p = Ur->p[k] + 1; p < Ur->p[k + 1]; p++) {                               \
                int64_t j = Ur->i[p];                                                             \
                if (jw[j] < 0) {                                                                  \
                    jw[j] = 1; lst[nl++] = j;                                                     \
                    if (j < i) nr_heap_push(heap, &hl, j);                                        \
                }                                                                                 \
                wv[j] -= f * ((T *)Ur->x)[p];                                                     \
            }                                                                                     \
            cand[nlk].mag = ABS(f); cand[nlk++].col = k;                                          \
            wv[k] = f;                                                                            \
        }                                                                                         \
        if (nlk > cap) qsort(cand, (size_t)nlk, sizeof(nr_mag_col), nr_mag_desc);                 \
        for (int64_t t = 0; t < nlk && t < cap; t++) NR_PUSH(*Lr, lnz, &lcap, T, cand[t].col, wv[cand[t].col]); \
        Lr->p[i + 1] = lnz;                                                                       \
        Ur->p[i] = unz;                                                                           \
        if (jw[i] < 0 || wv[i] == 0) return i;                                                    \
        NR_PUSH(*Ur, unz, &ucap, T, i, wv[i]);                                                    \
        int64_t nu = 0;                                                                           \
        for (int64_t t = 0; t < nl; t++) {                                                        \
            int64_t j = lst[t];                                                                   \
            if (j <= i) continue;                                                                 \
            double m = ABS(wv[j]);                                                                \
            if (!(m < tol)) { cand[nu].mag = m; cand[nu++].col = j; }                             \
        }                                                                                         \
        if (nu > cap) qsort(cand, (size_t)nu, sizeof(nr_mag_col), nr_mag_desc);                   \
        for (int64_t t = 0; t < nu && t < cap; t++) NR_PUSH(*Ur, unz, &ucap, T, cand[t].col, wv[cand[t].col]); \
        Ur->p[i + 1] = unz;                                                                       \
        for (int64_t t = 0; t < nl; t++) { jw[lst[t]] = -1; wv[lst[t]] = 0; }                     \
    }                                                                                             \
    return NR_SS_OK;                                                                              \
nomem:                                                                                            \
    return NR_SS_NOMEM;                                                                           \
}

NR_ILUT(nr_ilut_f32, float, NR_RABS)
NR_ILUT(nr_ilut_f64, double, NR_RABS)
NR_ILUT(nr_ilut_c64, float _Complex, NR_CABSF)
NR_ILUT(nr_ilut_c128, double _Complex, cabs)

/* The rows of L (strict) and U of Lr, Ur merged into *F (canonical CSR). */
static int nr_ilu_merge(const nr_sp_mat *Lr, const nr_sp_mat *Ur, int64_t n, size_t isz, nr_sp_mat *F) {
    int64_t nnz = Lr->p[n] + Ur->p[n];
    F->p = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
    F->i = (int64_t *)malloc(sizeof(int64_t) * (size_t)(nnz + 1));
    F->x = malloc(isz * (size_t)(nnz + 1));
    if (!F->p || !F->i || !F->x) { nr_sp_free(F); return 0; }
    int64_t f = 0;
    for (int64_t i = 0; i < n; i++) {
        F->p[i] = f;
        for (int s = 0; s < 2; s++) {
            const nr_sp_mat *S = s ? Ur : Lr;
            for (int64_t p = S->p[i]; p < S->p[i + 1]; p++, f++) {
                F->i[f] = S->i[p];
                memcpy((char *)F->x + (size_t)f * isz, (const char *)S->x + (size_t)p * isz, isz);
            }
        }
    }
    F->p[n] = f;
    return nr_sp_sort(F, n, isz);
}

/* ILUT of the canonical CSR matrix (ip, ix, a) into *F; kind as nr_csr_trsv. fill: the cap
 * p_i = ceil(fill nnz(a_i) / 2) on each of the L part and the strict U part of row i. */
static int64_t nr_csr_ilut(int kind, const int64_t *ip, const int64_t *ix, const void *a, int64_t n,
                           double tau, double fill, nr_sp_mat *F) {
    F->p = F->i = NULL; F->x = NULL;
    if (nr_ss_canonical(ip, ix, n) != NR_SS_OK) return NR_SS_BAD;
    size_t isz = nr_ss_isz[kind & 3];
    nr_sp_mat Lr = {NULL, NULL, NULL}, Ur = {NULL, NULL, NULL};
    Lr.p = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
    Ur.p = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
    int64_t *iw = (int64_t *)malloc(sizeof(int64_t) * (size_t)(3 * n + 1));
    nr_mag_col *cand = (nr_mag_col *)malloc(sizeof(nr_mag_col) * (size_t)(n + 1));
    void *wv = malloc(isz * (size_t)(n + 1));
    int64_t r = NR_SS_NOMEM;
    if (Lr.p && Ur.p && iw && cand && wv) {
        Lr.p[0] = Ur.p[0] = 0;
        int64_t *jw = iw, *heap = iw + n, *lst = iw + 2 * n;
        switch (kind) {
        case 0: r = nr_ilut_f32(ip, ix, (const float *)a, n, tau, fill, &Lr, &Ur, jw, heap, lst, cand, (float *)wv); break;
        case 1: r = nr_ilut_f64(ip, ix, (const double *)a, n, tau, fill, &Lr, &Ur, jw, heap, lst, cand, (double *)wv); break;
        case 2: r = nr_ilut_c64(ip, ix, (const float _Complex *)a, n, tau, fill, &Lr, &Ur, jw, heap, lst, cand,
                                (float _Complex *)wv); break;
        default: r = nr_ilut_c128(ip, ix, (const double _Complex *)a, n, tau, fill, &Lr, &Ur, jw, heap, lst, cand,
                                  (double _Complex *)wv); break;
        }
        if (r == NR_SS_OK && !nr_ilu_merge(&Lr, &Ur, n, isz, F)) r = NR_SS_NOMEM;
    }
    nr_sp_free(&Lr); nr_sp_free(&Ur); free(iw); free(cand); free(wv);
    return r;
}

/* ILU(k) of the canonical CSR matrix (ip, ix, a) into *F. */
static int64_t nr_csr_iluk(int kind, const int64_t *ip, const int64_t *ix, const void *a, int64_t n,
                           int64_t lev_max, nr_sp_mat *F) {
    F->p = F->i = NULL; F->x = NULL;
    if (nr_ss_canonical(ip, ix, n) != NR_SS_OK) return NR_SS_BAD;
    size_t isz = nr_ss_isz[kind & 3];
    int64_t cap = ip[n] + n + 1, nnz = 0, r = NR_SS_NOMEM;
    nr_sp_mat S = {NULL, NULL, NULL}; /* the pattern, with the levels as x */
    S.p = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
    S.i = (int64_t *)malloc(sizeof(int64_t) * (size_t)cap);
    S.x = malloc(sizeof(int64_t) * (size_t)cap);
    int64_t *iw = (int64_t *)malloc(sizeof(int64_t) * (size_t)(5 * n + 1));
    if (!S.p || !S.i || !S.x || !iw) goto out;
    int64_t *lev = iw, *heap = iw + n, *lst = iw + 2 * n, *dg = iw + 3 * n, *pos = iw + 4 * n;
    for (int64_t j = 0; j < n; j++) lev[j] = -1;
    S.p[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t hl = 0, nl = 0;
        for (int64_t k = ip[i]; k < ip[i + 1]; k++) { lev[ix[k]] = 0; lst[nl++] = ix[k]; if (ix[k] < i) nr_heap_push(heap, &hl, ix[k]); }
        if (lev[i] < 0) { lev[i] = 0; lst[nl++] = i; }
        while (hl > 0) {
            int64_t k = nr_heap_pop(heap, &hl), lk = lev[k];
            const int64_t *Sl = (const int64_t *)S.x;
            for (int64_t p = dg[k] + 1; p < S.p[k + 1]; p++) {
                int64_t j = S.i[p], l = lk + Sl[p] + 1;
                if (l > lev_max) continue;
                if (lev[j] < 0) { lev[j] = l; lst[nl++] = j; if (j < i) nr_heap_push(heap, &hl, j); }
                else if (l < lev[j]) lev[j] = l;
            }
        }
        qsort(lst, (size_t)nl, sizeof(int64_t), nr_i64_cmp);
        if (!nr_lu_grow(&S.i, &S.x, &cap, nnz + nl, sizeof(int64_t))) goto out;
        for (int64_t t = 0; t < nl; t++) {
            if (lst[t] == i) dg[i] = nnz;
            S.i[nnz] = lst[t]; ((int64_t *)S.x)[nnz++] = lev[lst[t]];
            lev[lst[t]] = -1;
        }
        S.p[i + 1] = nnz;
    }
    /* numeric phase: A's values scattered on the pattern, then ILU(0) there */
    F->p = S.p; F->i = S.i; S.p = S.i = NULL;
    F->x = calloc((size_t)(nnz + 1), isz);
    if (!F->x) goto out;
    for (int64_t j = 0; j < n; j++) pos[j] = -1;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t p = F->p[i]; p < F->p[i + 1]; p++) pos[F->i[p]] = p;
        for (int64_t k = ip[i]; k < ip[i + 1]; k++)
            memcpy((char *)F->x + (size_t)pos[ix[k]] * isz, (const char *)a + (size_t)k * isz, isz);
        for (int64_t p = F->p[i]; p < F->p[i + 1]; p++) pos[F->i[p]] = -1;
    }
    switch (kind) {
    case 0: r = nr_ilu0_f32(F->p, F->i, (float *)F->x, n, pos, dg); break;
    case 1: r = nr_ilu0_f64(F->p, F->i, (double *)F->x, n, pos, dg); break;
    case 2: r = nr_ilu0_c64(F->p, F->i, (float _Complex *)F->x, n, pos, dg); break;
    default: r = nr_ilu0_c128(F->p, F->i, (double _Complex *)F->x, n, pos, dg); break;
    }
out:
    if (r != NR_SS_OK) nr_sp_free(F);
    nr_sp_free(&S); free(iw);
    return r;
}

#endif
