/* Sparse direct solves and incomplete factorisations on the CPU (sequential, nogil).
 *
 * All kernels take int64 compressed structures and check them as they read them (indptr
 * starts at 0, never decreases, ends at most at nnz; every index in [0, n)), so a malformed
 * matrix is reported instead of read out of bounds. Return codes (int64):
 *   -1 success, -2 malformed structure, -3 out of memory,
 *   k >= 0  the first row/column whose pivot is zero or missing (singular; for ic0: not
 *           positive definite).
 *
 * nr_csr_trsv:  forward / back substitution over CSR rows (op(A) x = b, op = A or A^T), the
 *               entries of the other triangle ignored (scipy's spsolve_triangular).
 * nr_csr_ilu0:  ILU(0) in place on a canonical CSR matrix (Saad's IKJ variant): L strictly
 *               below the diagonal (unit diagonal implied), U on and above it.
 * nr_csr_ic0:   IC(0) in place on the lower triangle (canonical CSR) of an SPD matrix.
 * The sparse LU (nr_csc_lu_factor, nr_csc_lu_solve) is in sparse_lu.h.
 */
#ifndef NUMR_SPARSE_SOLVE_H
#define NUMR_SPARSE_SOLVE_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NR_SS_OK (-1)
#define NR_SS_BAD (-2)
#define NR_SS_NOMEM (-3)

/* -1 when (indptr, indices) is a well formed structure with indices in [0, n_minor). */
static int64_t nr_ss_check(const int64_t *indptr, const int64_t *indices, int64_t n_major, int64_t n_minor) {
    if (indptr[0] != 0) return NR_SS_BAD;
    for (int64_t i = 0; i < n_major; i++)
        if (indptr[i + 1] < indptr[i]) return NR_SS_BAD;
    int64_t nnz = indptr[n_major];
    for (int64_t k = 0; k < nnz; k++)
        if ((uint64_t)indices[k] >= (uint64_t)n_minor) return NR_SS_BAD;
    return NR_SS_OK;
}

/* ---- triangular solve: x (n, m) row-major, overwritten with op(A)^-1 x ---------------- */
#define NR_TRSV(NAME, T)                                                                          \
static int64_t NAME(const int64_t *ip, const int64_t *ix, const T *v, T *x, int64_t n, int64_t m, \
                    int lower, int unit, int trans) {                                             \
    for (int64_t s = 0; s < n; s++) {                                                             \
        /* row order: lower without trans and upper with trans sweep forwards */                  \
        int64_t i = (lower != trans) ? s : n - 1 - s;                                             \
        int64_t lo = ip[i], hi = ip[i + 1];                                                       \
        T d = 0; int has = 0;                                                                     \
        T *xi = x + i * m;                                                                        \
        if (!trans) {                                                                             \
            for (int64_t k = lo; k < hi; k++) {                                                   \
                int64_t c = ix[k];                                                                \
                if (c == i) { d += v[k]; has = 1; continue; }                                     \
                if ((c < i) != lower) continue;                                                   \
                const T a = v[k]; const T *xc = x + c * m;                                        \
                for (int64_t j = 0; j < m; j++) xi[j] -= a * xc[j];                               \
            }                                                                                     \
        } else {                                                                                  \
            for (int64_t k = lo; k < hi; k++) if (ix[k] == i) { d += v[k]; has = 1; }             \
        }                                                                                         \
        if (!unit) {                                                                              \
            if (!has || d == 0) return i;                                                         \
            for (int64_t j = 0; j < m; j++) xi[j] /= d;                                           \
        }                                                                                         \
        if (trans) { /* column i of op(A): push x_i into the later unknowns */                    \
            for (int64_t k = lo; k < hi; k++) {                                                   \
                int64_t c = ix[k];                                                                \
                if (c == i || (c < i) != lower) continue;                                         \
                const T a = v[k]; T *xc = x + c * m;                                              \
                for (int64_t j = 0; j < m; j++) xc[j] -= a * xi[j];                               \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    return NR_SS_OK;                                                                              \
}

NR_TRSV(nr_trsv_f32, float)
NR_TRSV(nr_trsv_f64, double)
NR_TRSV(nr_trsv_c64, float _Complex)
NR_TRSV(nr_trsv_c128, double _Complex)

/* kind: 0 float32, 1 float64, 2 complex64, 3 complex128. */
static int64_t nr_csr_trsv(int kind, const int64_t *ip, const int64_t *ix, const void *v, void *x,
                           int64_t n, int64_t m, int lower, int unit, int trans) {
    if (nr_ss_check(ip, ix, n, n) != NR_SS_OK) return NR_SS_BAD;
    switch (kind) {
    case 0: return nr_trsv_f32(ip, ix, (const float *)v, (float *)x, n, m, lower, unit, trans);
    case 1: return nr_trsv_f64(ip, ix, (const double *)v, (double *)x, n, m, lower, unit, trans);
    case 2: return nr_trsv_c64(ip, ix, (const float _Complex *)v, (float _Complex *)x, n, m, lower, unit, trans);
    default: return nr_trsv_c128(ip, ix, (const double _Complex *)v, (double _Complex *)x, n, m, lower, unit, trans);
    }
}

/* ---- ILU(0): lu holds A's values on entry (canonical CSR: sorted, no duplicates) ------- */
#define NR_ILU0(NAME, T)                                                                          \
static int64_t NAME(const int64_t *ip, const int64_t *ix, T *lu, int64_t n, int64_t *w, int64_t *dg) { \
    for (int64_t i = 0; i < n; i++) w[i] = -1;                                                    \
    for (int64_t i = 0; i < n; i++) {                                                             \
        int64_t lo = ip[i], hi = ip[i + 1], d = -1;                                               \
        for (int64_t k = lo; k < hi; k++) w[ix[k]] = k;                                           \
        for (int64_t k = lo; k < hi; k++) {                                                       \
            int64_t c = ix[k];                                                                    \
            if (c == i) { d = k; break; }                                                         \
            if (c > i) break;                                                                     \
            lu[k] /= lu[dg[c]];                                                                   \
            const T l = lu[k];                                                                    \
            for (int64_t kk = dg[c] + 1; kk < ip[c + 1]; kk++) {                                  \
                int64_t p = w[ix[kk]];                                                            \
                if (p >= 0) lu[p] -= l * lu[kk];                                                  \
            }                                                                                     \
        }                                                                                         \
        for (int64_t k = lo; k < hi; k++) w[ix[k]] = -1;                                          \
        if (d < 0 || lu[d] == 0) return i;                                                        \
        dg[i] = d;                                                                                \
    }                                                                                             \
    return NR_SS_OK;                                                                              \
}

NR_ILU0(nr_ilu0_f32, float)
NR_ILU0(nr_ilu0_f64, double)
NR_ILU0(nr_ilu0_c64, float _Complex)
NR_ILU0(nr_ilu0_c128, double _Complex)

static int64_t nr_csr_ilu0(int kind, const int64_t *ip, const int64_t *ix, void *lu, int64_t n) {
    if (nr_ss_check(ip, ix, n, n) != NR_SS_OK) return NR_SS_BAD;
    for (int64_t i = 0; i < n; i++)  /* canonical: strictly increasing within a row */
        for (int64_t k = ip[i] + 1; k < ip[i + 1]; k++)
            if (ix[k] <= ix[k - 1]) return NR_SS_BAD;
    int64_t *w = (int64_t *)malloc(sizeof(int64_t) * (size_t)(2 * n + 1));
    if (!w) return NR_SS_NOMEM;
    int64_t r;
    switch (kind) {
    case 0: r = nr_ilu0_f32(ip, ix, (float *)lu, n, w, w + n); break;
    case 1: r = nr_ilu0_f64(ip, ix, (double *)lu, n, w, w + n); break;
    case 2: r = nr_ilu0_c64(ip, ix, (float _Complex *)lu, n, w, w + n); break;
    default: r = nr_ilu0_c128(ip, ix, (double _Complex *)lu, n, w, w + n); break;
    }
    free(w);
    return r;
}

/* ---- IC(0): l holds the lower triangle of an SPD matrix (canonical CSR, diagonal last) -- */
#define NR_IC0(NAME, T, SQRT)                                                                     \
static int64_t NAME(const int64_t *ip, const int64_t *ix, T *l, int64_t n) {                      \
    for (int64_t i = 0; i < n; i++) {                                                             \
        int64_t lo = ip[i], hi = ip[i + 1];                                                       \
        if (hi == lo || ix[hi - 1] != i) return i;                                                \
        for (int64_t k = lo; k < hi; k++) {                                                       \
            int64_t c = ix[k];                                                                    \
            /* s = a_ic - sum_{j < c} l_ij l_cj: merge row i (before k) with row c */             \
            T s = l[k];                                                                           \
            int64_t p = lo, q = ip[c], qe = ip[c + 1] - 1;                                        \
            while (p < k && q < qe) {                                                             \
                if (ix[p] == ix[q]) s -= l[p++] * l[q++];                                         \
                else if (ix[p] < ix[q]) p++;                                                      \
                else q++;                                                                         \
            }                                                                                     \
            if (c < i) { l[k] = s / l[qe]; continue; }                                            \
            if (!(s > 0)) return i;                                                               \
            l[k] = SQRT(s);                                                                       \
        }                                                                                         \
    }                                                                                             \
    return NR_SS_OK;                                                                              \
}

NR_IC0(nr_ic0_f32, float, sqrtf)
NR_IC0(nr_ic0_f64, double, sqrt)

/* kind 0 float32, 1 float64. The caller passes tril(A): any index above the diagonal or
 * unsorted is a malformed structure. */
static int64_t nr_csr_ic0(int kind, const int64_t *ip, const int64_t *ix, void *l, int64_t n) {
    if (nr_ss_check(ip, ix, n, n) != NR_SS_OK) return NR_SS_BAD;
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = ip[i]; k < ip[i + 1]; k++)
            if (ix[k] > i || (k > ip[i] && ix[k] <= ix[k - 1])) return NR_SS_BAD;
    return kind == 0 ? nr_ic0_f32(ip, ix, (float *)l, n) : nr_ic0_f64(ip, ix, (double *)l, n);
}

#endif
