/* Sparse LU on the CPU (sequential, nogil), return codes as sparse_solve.h.
 *
 * nr_csc_lu_factor: left-looking sparse LU with threshold partial pivoting (Gilbert-Peierls:
 *               a depth first search gives each column's pattern in topological order, as in
 *               Davis' CSparse cs_lu), columns in minimum degree order of A + A^T (or natural);
 *               L and U handed back as malloc'ed CSC (splu keeps them).
 * nr_csc_lu_solve: nr_csc_lu_factor, then the solve with m right-hand sides (spsolve's fused
 *               path, kept as SparseOps.csc_lu_solve).
 */
#ifndef NUMR_SPARSE_LU_H
#define NUMR_SPARSE_LU_H

#include "sparse_factor.h"
#include "sparse_order.h"
#include "sparse_solve.h"

/* ---- sparse LU (Gilbert-Peierls) and solve -------------------------------------------- */

/* Depth-first search from row j over the graph of L (column pinv[j] of L, rows Li): the
 * finished rows go onto xi[--top] (topological order). stack and pstack have n entries. */
static int64_t nr_lu_dfs(int64_t j, const int64_t *Lp, const int64_t *Li, const int64_t *pinv, int64_t top,
                         int64_t *xi, int64_t *stack, int64_t *pstack, int64_t *mark, int64_t stamp) {
    int64_t head = 0;
    stack[0] = j;
    while (head >= 0) {
        j = stack[head];
        int64_t jn = pinv[j];
        if (mark[j] != stamp) { mark[j] = stamp; pstack[head] = jn < 0 ? 0 : Lp[jn]; }
        int done = 1;
        int64_t p2 = jn < 0 ? 0 : Lp[jn + 1];
        for (int64_t p = pstack[head]; p < p2; p++) {
            int64_t i = Li[p];
            if (mark[i] == stamp) continue;
            pstack[head] = p;
            stack[++head] = i;
            done = 0;
            break;
        }
        if (done) { head--; xi[--top] = j; }
    }
    return top;
}

#define NR_LU_FACTOR(NAME, T, ABS)                                                                \
static int64_t NAME(const int64_t *Ap, const int64_t *Ai, const T *Ax, int64_t n, int64_t *iw,      \
                    const int64_t *q, double thresh, nr_sp_mat *L, nr_sp_mat *U) {                \
    int64_t *pinv = iw, *xi = iw + n, *stack = iw + 2 * n, *pstack = iw + 3 * n, *mark = iw + 4 * n; \
    int64_t nnz = Ap[n], lcap = 2 * nnz + n + 1, ucap = 2 * nnz + n + 1, r = NR_SS_OK;            \
    int64_t *Lp = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));                           \
    int64_t *Up = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));                           \
    int64_t *Li = (int64_t *)malloc(sizeof(int64_t) * (size_t)lcap);                              \
    int64_t *Ui = (int64_t *)malloc(sizeof(int64_t) * (size_t)ucap);                              \
    void *Lxv = malloc(sizeof(T) * (size_t)lcap), *Uxv = malloc(sizeof(T) * (size_t)ucap);        \
    T *w = (T *)calloc((size_t)(n > 0 ? n : 1), sizeof(T));                                       \
    nr_sp_mat F = {NULL, NULL, NULL};                                                             \
    if (!Lp || !Up || !Li || !Ui || !Lxv || !Uxv || !w) { r = NR_SS_NOMEM; goto done; }           \
    for (int64_t i = 0; i < n; i++) { pinv[i] = -1; mark[i] = -1; }                              \
    int64_t lnz = 0, unz = 0;                                                                     \
    for (int64_t k = 0; k < n; k++) {                                                             \
        Lp[k] = lnz; Up[k] = unz;                                                                 \
        if (!nr_lu_grow(&Li, &Lxv, &lcap, lnz + n, sizeof(T)) ||                                  \
            !nr_lu_grow(&Ui, &Uxv, &ucap, unz + n, sizeof(T))) { r = NR_SS_NOMEM; goto done; }    \
        T *Lx = (T *)Lxv, *Ux = (T *)Uxv;                                                         \
        int64_t top = n, col = q[k];                                                              \
        for (int64_t p = Ap[col]; p < Ap[col + 1]; p++)                                           \
            if (mark[Ai[p]] != k) top = nr_lu_dfs(Ai[p], Lp, Li, pinv, top, xi, stack, pstack, mark, k); \
        for (int64_t p = Ap[col]; p < Ap[col + 1]; p++) w[Ai[p]] += Ax[p]; /* duplicates add up */ \
        for (int64_t px = top; px < n; px++) {                                                    \
            int64_t j = xi[px], J = pinv[j];                                                      \
            if (J < 0) continue;                                                                  \
            const T xj = w[j];                                                                    \
            for (int64_t p = Lp[J]; p < Lp[J + 1]; p++) w[Li[p]] -= Lx[p] * xj;                   \
        }                                                                                         \
        int64_t ipiv = -1; double amax = -1, adiag = -1;                                          \
        for (int64_t px = top; px < n; px++) {                                                    \
            int64_t j = xi[px];                                                                   \
            if (pinv[j] >= 0) { Ui[unz] = pinv[j]; Ux[unz++] = w[j]; }                            \
            else {                                                                                \
                double a = ABS(w[j]);                                                             \
                if (a != a) a = INFINITY; /* a NaN pivots (and propagates), never "singular" */   \
                if (j == col) adiag = a;                                                          \
                if (a > amax) { amax = a; ipiv = j; }                                             \
            }                                                                                     \
        }                                                                                         \
        if (ipiv < 0 || !(amax > 0)) { r = col; goto done; } /* A's column */                    \
        if (adiag > 0 && adiag >= thresh * amax) ipiv = col; /* threshold pivoting */            \
        const T piv = w[ipiv];                                                                    \
        pinv[ipiv] = k;                                                                           \
        Ui[unz] = k; Ux[unz++] = piv;                                                             \
        for (int64_t px = top; px < n; px++) {                                                    \
            int64_t j = xi[px];                                                                   \
            if (pinv[j] < 0) { Li[lnz] = j; Lx[lnz++] = w[j] / piv; }                             \
            w[j] = 0;                                                                             \
        }                                                                                         \
    }                                                                                             \
    Lp[n] = lnz; Up[n] = unz;                                                                     \
    /* L with its unit diagonal, rows in pivot order; both factors' lines sorted */               \
    F.p = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));                                   \
    F.i = (int64_t *)malloc(sizeof(int64_t) * (size_t)(lnz + n + 1));                             \
    F.x = malloc(sizeof(T) * (size_t)(lnz + n + 1));                                              \
    if (!F.p || !F.i || !F.x) { r = NR_SS_NOMEM; goto done; }                                     \
    {                                                                                             \
        T *Lx = (T *)Lxv, *Fx = (T *)F.x;                                                         \
        int64_t f = 0;                                                                            \
        for (int64_t k = 0; k < n; k++) {                                                         \
            F.p[k] = f; F.i[f] = k; Fx[f++] = 1;                                                  \
            for (int64_t p = Lp[k]; p < Lp[k + 1]; p++) { F.i[f] = pinv[Li[p]]; Fx[f++] = Lx[p]; } \
        }                                                                                         \
        F.p[n] = f;                                                                               \
    }                                                                                             \
    U->p = Up; U->i = Ui; U->x = Uxv; Up = Ui = NULL; Uxv = NULL;                                 \
    if (!nr_sp_sort(&F, n, sizeof(T)) || !nr_sp_sort(U, n, sizeof(T))) { r = NR_SS_NOMEM; goto done; } \
    *L = F; F.p = F.i = NULL; F.x = NULL;                                                         \
done:                                                                                             \
    if (r != NR_SS_OK) nr_sp_free(U);                                                             \
    nr_sp_free(&F);                                                                               \
    free(Lp); free(Up); free(Li); free(Ui); free(Lxv); free(Uxv); free(w);                        \
    return r;                                                                                     \
}

/* x (n, m) row-major <- A^-1 x with P_r A P_c = L U (L unit lower with its diagonal first in
 * each column, U upper with its diagonal last; both CSC, rows in pivot order); w: n scratch. */
#define NR_LU_SOLVE(NAME, T)                                                                      \
static void NAME(const nr_sp_mat *L, const nr_sp_mat *U, const int64_t *pinv, const int64_t *q,     \
                 T *x, T *w, int64_t n, int64_t m) {                                              \
    const int64_t *Lp = L->p, *Li = L->i, *Up = U->p, *Ui = U->i;                                 \
    const T *Lx = (const T *)L->x, *Ux = (const T *)U->x;                                         \
    for (int64_t c = 0; c < m; c++) {                                                             \
        for (int64_t i = 0; i < n; i++) w[pinv[i]] = x[i * m + c];                                \
        for (int64_t k = 0; k < n; k++) {                                                         \
            const T wk = w[k];                                                                    \
            for (int64_t p = Lp[k] + 1; p < Lp[k + 1]; p++) w[Li[p]] -= Lx[p] * wk;               \
        }                                                                                         \
        for (int64_t k = n - 1; k >= 0; k--) {                                                    \
            w[k] /= Ux[Up[k + 1] - 1];                                                            \
            const T wk = w[k];                                                                    \
            for (int64_t p = Up[k]; p < Up[k + 1] - 1; p++) w[Ui[p]] -= Ux[p] * wk;               \
        }                                                                                         \
        for (int64_t i = 0; i < n; i++) x[q[i] * m + c] = w[i];                                   \
    }                                                                                             \
}

#define NR_RABS(v) fabs((double)(v))
#define NR_CABSF(v) (double)cabsf(v)
NR_LU_FACTOR(nr_luf_f32, float, NR_RABS)
NR_LU_FACTOR(nr_luf_f64, double, NR_RABS)
NR_LU_FACTOR(nr_luf_c64, float _Complex, NR_CABSF)
NR_LU_FACTOR(nr_luf_c128, double _Complex, cabs)
NR_LU_SOLVE(nr_lus_f32, float)
NR_LU_SOLVE(nr_lus_f64, double)
NR_LU_SOLVE(nr_lus_c64, float _Complex)
NR_LU_SOLVE(nr_lus_c128, double _Complex)

static const size_t nr_ss_isz[4] = {4, 8, 8, 16};

/* P_r A P_c = L U for A (n x n) given as CSC (column pointers Ap, row indices Ai) or, with
 * flags & 2, as CSR (transposed here first); duplicates add up. flags & 1: columns in minimum
 * degree order of A + A^T, else natural; rows by threshold partial pivoting: the diagonal
 * entry when its magnitude is >= thresh times the column's largest (thresh 1: partial pivoting
 * with the diagonal preferred on ties, 0: the diagonal whenever nonzero). Fills *L, *U (malloc'ed CSC, see NR_LU_SOLVE) and perm (4 n): perm_r (row i of A is
 * row perm_r[i] of L U), perm_c (column j of A is column perm_c[j] of L U: scipy's SuperLU
 * convention), then their inverses (the row and the column of A eliminated at step k). */
static int64_t nr_csc_lu_factor(int kind, const int64_t *Ap, const int64_t *Ai, const void *Ax, int64_t n,
                                int flags, double thresh, nr_sp_mat *L, nr_sp_mat *U, int64_t *perm) {
    L->p = L->i = U->p = U->i = NULL; L->x = U->x = NULL;
    if (nr_ss_check(Ap, Ai, n, n) != NR_SS_OK) return NR_SS_BAD;
    nr_sp_mat T = {NULL, NULL, NULL};
    if (flags & 2) {
        if (!nr_sp_transpose(Ap, Ai, Ax, n, nr_ss_isz[kind & 3], &T)) return NR_SS_NOMEM;
        Ap = T.p; Ai = T.i; Ax = T.x;
    }
    int64_t *iw = (int64_t *)malloc(sizeof(int64_t) * (size_t)(5 * n + 1));
    int64_t r = NR_SS_NOMEM, *q = perm + 3 * n;
    if (iw) {
        r = NR_SS_OK;
        if (flags & 1) r = nr_md_order(Ap, Ai, n, q);
        else for (int64_t i = 0; i < n; i++) q[i] = i;
    }
    if (r == NR_SS_OK) switch (kind) {
    case 0: r = nr_luf_f32(Ap, Ai, (const float *)Ax, n, iw, q, thresh, L, U); break;
    case 1: r = nr_luf_f64(Ap, Ai, (const double *)Ax, n, iw, q, thresh, L, U); break;
    case 2: r = nr_luf_c64(Ap, Ai, (const float _Complex *)Ax, n, iw, q, thresh, L, U); break;
    default: r = nr_luf_c128(Ap, Ai, (const double _Complex *)Ax, n, iw, q, thresh, L, U); break;
    }
    if (r == NR_SS_OK)
        for (int64_t i = 0; i < n; i++) {
            perm[i] = iw[i]; perm[2 * n + iw[i]] = i; perm[n + q[i]] = i;
        }
    free(iw); nr_sp_free(&T);
    return r;
}

/* A (n x n) x = b for the m columns of x (n, m) row-major, in place: nr_csc_lu_factor, then
 * the two triangular solves. */
static int64_t nr_csc_lu_solve(int kind, const int64_t *Ap, const int64_t *Ai, const void *Ax, void *x,
                               int64_t n, int64_t m, int flags) {
    nr_sp_mat L, U;
    int64_t *iw = (int64_t *)malloc(sizeof(int64_t) * (size_t)(4 * n + 1));
    void *w = malloc(nr_ss_isz[kind & 3] * (size_t)(n + 1));
    if (!iw || !w) { free(iw); free(w); return NR_SS_NOMEM; }
    int64_t *pinv = iw, *q = iw + 3 * n;
    int64_t r = nr_csc_lu_factor(kind, Ap, Ai, Ax, n, flags, 1.0, &L, &U, iw);
    if (r == NR_SS_OK) switch (kind) {
    case 0: nr_lus_f32(&L, &U, pinv, q, (float *)x, (float *)w, n, m); break;
    case 1: nr_lus_f64(&L, &U, pinv, q, (double *)x, (double *)w, n, m); break;
    case 2: nr_lus_c64(&L, &U, pinv, q, (float _Complex *)x, (float _Complex *)w, n, m); break;
    default: nr_lus_c128(&L, &U, pinv, q, (double _Complex *)x, (double _Complex *)w, n, m); break;
    }
    nr_sp_free(&L); nr_sp_free(&U); free(iw); free(w);
    return r;
}

#endif
