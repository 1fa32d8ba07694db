/* LU (unblocked and blocked), triangular solves, Cholesky, one dtype: included by linalg_tmpl.h (see there for T, R, SFX, CONJ, RE,
 * ABS2, ABS1, EPS, CODE). Row-major contiguous matrices, one matrix a call, in place. */

/* Columns k0..k1-1 of LU with partial pivoting (A = P L U, unit L): whole rows swapped, the
 * elimination applied to columns up to je (n for the unblocked LU, the panel's end for the blocked
 * one); *info keeps 1 + the first zero pivot. */
static inline void NR_CAT(lu_panel_, SFX)(T *A, int64_t n, int64_t k0, int64_t k1, int64_t je, int64_t *piv, int *info) {
    for (int64_t k = k0; k < k1; k++) {
        int64_t p = k;
        R best = ABS1(A[k * n + k]);
        for (int64_t i = k + 1; i < n; i++) {
            R v = ABS1(A[i * n + k]);
            if (v > best) { best = v; p = i; }
        }
        piv[k] = p;
        if (p != k) {
            T *a = A + k * n, *b = A + p * n;
            for (int64_t j = 0; j < n; j++) { T t = a[j]; a[j] = b[j]; b[j] = t; }
        }
        T d = A[k * n + k];
        if (d == 0) { if (!*info) *info = (int)k + 1; continue; }
        const T *rk = A + k * n;
        for (int64_t i = k + 1; i < n; i++) {
            T *ri = A + i * n;
            T l = ri[k] / d;
            ri[k] = l;
            for (int64_t j = k + 1; j < je; j++) ri[j] -= l * rk[j];
        }
    }
}

/* LU with partial pivoting (A = P L U, unit L): returns 0 or 1 + the first zero pivot. */
static int NR_CAT(lu_, SFX)(T *A, int64_t n, int64_t *piv) {
    int info = 0;
    NR_CAT(lu_panel_, SFX)(A, n, 0, n, n, piv, &info);
    return info;
}

/* Rows ib..ie-1 of B solved against the diagonal block [ib, ie) of A (the rest of A's rows
 * already applied to them): the whole solve when ib = 0 and ie = n. */
static inline void NR_CAT(trsm_block_, SFX)(const T *A, T *B, int64_t n, int64_t m, int upper, int unit,
                                            int64_t ib, int64_t ie) {
    for (int64_t t = 0; t < ie - ib; t++) {
        int64_t i = upper ? ie - 1 - t : ib + t;
        T *bi = B + i * m;
        int64_t k0 = upper ? i + 1 : ib, k1 = upper ? ie : i;
        for (int64_t k = k0; k < k1; k++) {
            T a = A[i * n + k];
            const T *bk = B + k * m;
            #pragma omp simd
            for (int64_t j = 0; j < m; j++) bi[j] -= a * bk[j];
        }
        if (!unit) {
            T d = A[i * n + i];
            for (int64_t j = 0; j < m; j++) bi[j] /= d;
        }
    }
}

/* B (n x m) <- A^-1 B for triangular A (only its triangle is read). */
static void NR_CAT(trsm_, SFX)(const T *A, T *B, int64_t n, int64_t m, int upper, int unit) {
    NR_CAT(trsm_block_, SFX)(A, B, n, m, upper, unit, 0, n);
}

/* Lower Cholesky A = L L^H in place (upper part zeroed); 1 + the failing column or 0. */
static int NR_CAT(chol_, SFX)(T *A, int64_t n) {
    for (int64_t j = 0; j < n; j++) {
        T *rj = A + j * n;
        R s = RE(rj[j]);
        for (int64_t k = 0; k < j; k++) s -= ABS2(rj[k]);
        if (!(s > 0)) return (int)j + 1;
        R d = NR_CAT(nr_sqrt_, SFX)(s);
        rj[j] = d;
        for (int64_t i = j + 1; i < n; i++) {
            T *ri = A + i * n;
            T acc = ri[j];
            for (int64_t k = 0; k < j; k++) acc -= ri[k] * CONJ(rj[k]);
            ri[j] = acc / d;
        }
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) A[i * n + j] = 0;
    return 0;
}

/* C (m x w, contiguous) = A (m x k, row stride lda) @ B (k x w, row stride ldb): numr's GEMM. */
static int NR_CAT(gemm_, SFX)(const T *A, int64_t lda, const T *B, int64_t ldb, T *C, int64_t m, int64_t w,
                              int64_t k) {
    nr_mm_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.m = m; sp.n = w; sp.k = k; sp.rsa = lda; sp.csa = 1; sp.rsb = ldb; sp.csb = 1;
    if (nr_matmul(CODE, (const char *)A, (const char *)B, (char *)C, &sp) == 0) return 0;
    for (int64_t i = 0; i < m; i++)  /* out of scratch memory: the plain loop */
        for (int64_t j = 0; j < w; j++) {
            T acc = 0;
            for (int64_t q = 0; q < k; q++) acc += A[i * lda + q] * B[q * ldb + j];
            C[i * w + j] = acc;
        }
    return 0;
}

/* X (r x w, row stride ldx) -= C (r x w, contiguous). */
static inline void NR_CAT(sub_, SFX)(T *X, int64_t ldx, const T *C, int64_t r, int64_t w) {
    for (int64_t i = 0; i < r; i++) {
        T *x = X + i * ldx;
        const T *c = C + i * w;
        #pragma omp simd
        for (int64_t j = 0; j < w; j++) x[j] -= c[j];
    }
}

/* Blocked LU (NR_LA_NB columns a panel, the trailing update by GEMM); as lu_. */
static int NR_CAT(lub_, SFX)(T *A, int64_t n, int64_t *piv) {
    if (n < NR_LA_BLOCKED) return NR_CAT(lu_, SFX)(A, n, piv);
    int info = 0;
    T *tmp = (T *)malloc(sizeof(T) * (n * n + 1));
    if (!tmp) return NR_CAT(lu_, SFX)(A, n, piv);
    for (int64_t kb = 0; kb < n; kb += NR_LA_NB) {
        int64_t e = kb + NR_LA_NB < n ? kb + NR_LA_NB : n;
        NR_CAT(lu_panel_, SFX)(A, n, kb, e, e, piv, &info);
        if (e < n) {
            for (int64_t i = kb + 1; i < e; i++) {  /* U12 = L11^-1 A12 */
                T *ri = A + i * n;
                for (int64_t k = kb; k < i; k++) {
                    T l = ri[k];
                    const T *rk = A + k * n;
                    #pragma omp simd
                    for (int64_t j = e; j < n; j++) ri[j] -= l * rk[j];
                }
            }
            NR_CAT(gemm_, SFX)(A + e * n + kb, n, A + kb * n + e, n, tmp, n - e, n - e, e - kb);
            NR_CAT(sub_, SFX)(A + e * n + e, n, tmp, n - e, n - e);
        }
    }
    free(tmp);
    return info;
}

/* B (n x m) <- A^-1 B for triangular A, blocks of rows updated by GEMM (trsm_ below the size). */
static void NR_CAT(trsmb_, SFX)(const T *A, T *B, int64_t n, int64_t m, int upper, int unit) {
    T *tmp = n >= NR_LA_BLOCKED && m >= 8 ? (T *)malloc(sizeof(T) * (NR_LA_NB * m + 1)) : NULL;
    if (!tmp) { NR_CAT(trsm_, SFX)(A, B, n, m, upper, unit); return; }
    for (int64_t s = 0; s < n; s += NR_LA_NB) {
        int64_t ib, ie;
        if (upper) { ie = n - s; ib = ie - NR_LA_NB > 0 ? ie - NR_LA_NB : 0; }
        else { ib = s; ie = s + NR_LA_NB < n ? s + NR_LA_NB : n; }
        int64_t r = ie - ib;
        if (upper && ie < n) {
            NR_CAT(gemm_, SFX)(A + ib * n + ie, n, B + ie * m, m, tmp, r, m, n - ie);
            NR_CAT(sub_, SFX)(B + ib * m, m, tmp, r, m);
        } else if (!upper && ib > 0) {
            NR_CAT(gemm_, SFX)(A + ib * n, n, B, m, tmp, r, m, ib);
            NR_CAT(sub_, SFX)(B + ib * m, m, tmp, r, m);
        }
        NR_CAT(trsm_block_, SFX)(A, B, n, m, upper, unit, ib, ie);
    }
    free(tmp);
}

/* B <- A^-1 B from lub_'s factors (the row swaps, then two blocked triangular solves). */
static void NR_CAT(lub_solve_, SFX)(const T *A, const int64_t *piv, T *B, int64_t n, int64_t m) {
    for (int64_t k = 0; k < n; k++) {
        if (piv[k] != k) {
            T *a = B + k * m, *b = B + piv[k] * m;
            for (int64_t j = 0; j < m; j++) { T t = a[j]; a[j] = b[j]; b[j] = t; }
        }
    }
    NR_CAT(trsmb_, SFX)(A, B, n, m, 0, 1);
    NR_CAT(trsmb_, SFX)(A, B, n, m, 1, 0);
}

/* Blocked lower Cholesky: columns kb..e by the unblocked rule from column kb on (diagonal block
 * and the panel below it), then A22 -= L21 L21^H by GEMM. As chol_. */
static int NR_CAT(cholb_, SFX)(T *A, int64_t n) {
    if (n < NR_LA_BLOCKED) return NR_CAT(chol_, SFX)(A, n);
    T *tmp = (T *)malloc(sizeof(T) * (n * n + 1));
    T *Lt = (T *)malloc(sizeof(T) * (NR_LA_NB * n + 1));
    if (!tmp || !Lt) { free(tmp); free(Lt); return NR_CAT(chol_, SFX)(A, n); }
    int info = 0;
    for (int64_t kb = 0; kb < n && !info; kb += NR_LA_NB) {
        int64_t e = kb + NR_LA_NB < n ? kb + NR_LA_NB : n;
        for (int64_t j = kb; j < e; j++) {
            T *rj = A + j * n;
            R s = RE(rj[j]);
            for (int64_t k = kb; k < j; k++) s -= ABS2(rj[k]);
            if (!(s > 0)) { info = (int)j + 1; break; }
            R d = NR_CAT(nr_sqrt_, SFX)(s);
            rj[j] = d;
            for (int64_t i = j + 1; i < n; i++) {
                T *ri = A + i * n;
                T acc = ri[j];
                for (int64_t k = kb; k < j; k++) acc -= ri[k] * CONJ(rj[k]);
                ri[j] = acc / d;
            }
        }
        if (!info && e < n) {
            int64_t r = n - e, w = e - kb;
            for (int64_t k = 0; k < w; k++)      /* Lt = L21^H (w x r) */
                for (int64_t i = 0; i < r; i++) Lt[k * r + i] = CONJ(A[(e + i) * n + kb + k]);
            NR_CAT(gemm_, SFX)(A + e * n + kb, n, Lt, r, tmp, r, r, w);
            NR_CAT(sub_, SFX)(A + e * n + e, n, tmp, r, r);
        }
    }
    free(tmp); free(Lt);
    if (info) return info;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) A[i * n + j] = 0;
    return 0;
}
