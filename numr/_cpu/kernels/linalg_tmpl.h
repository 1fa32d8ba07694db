/* One dtype's dense decompositions, included by linalg_ops.h once per element type with
 *   T (element), R (its real type), SFX (name suffix), CONJ(x), RE(x), ABS2(x), ABS1(x), EPS.
 * Every matrix is row-major and contiguous; each routine works on one matrix in place.
 */

/* LU with partial pivoting (A = P L U, unit L): returns 0 or 1 + the first zero pivot. */
static int NR_CAT(lu_, SFX)(T *A, int64_t n, int64_t *piv) {
    int info = 0;
    for (int64_t k = 0; k < n; k++) {
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
        if (d == 0) { if (!info) info = (int)k + 1; continue; }
        const T *rk = A + k * n;
        for (int64_t i = k + 1; i < n; i++) {
            T *ri = A + i * n;
            T l = ri[k] / d;
            ri[k] = l;
            #pragma omp simd
            for (int64_t j = k + 1; j < n; j++) ri[j] -= l * rk[j];
        }
    }
    return info;
}

/* B (n x m) <- A^-1 B from lu_'s factors. */
static void NR_CAT(lu_solve_, SFX)(const T *A, const int64_t *piv, T *B, int64_t n, int64_t m) {
    for (int64_t k = 0; k < n; k++) {
        if (piv[k] != k) {
            T *a = B + k * m, *b = B + piv[k] * m;
            for (int64_t j = 0; j < m; j++) { T t = a[j]; a[j] = b[j]; b[j] = t; }
        }
    }
    for (int64_t i = 0; i < n; i++) {
        T *bi = B + i * m;
        for (int64_t k = 0; k < i; k++) {
            T l = A[i * n + k];
            const T *bk = B + k * m;
            #pragma omp simd
            for (int64_t j = 0; j < m; j++) bi[j] -= l * bk[j];
        }
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        T *bi = B + i * m;
        for (int64_t k = i + 1; k < n; k++) {
            T u = A[i * n + k];
            const T *bk = B + k * m;
            #pragma omp simd
            for (int64_t j = 0; j < m; j++) bi[j] -= u * bk[j];
        }
        T d = A[i * n + i];
        for (int64_t j = 0; j < m; j++) bi[j] /= d;
    }
}

/* B (n x m) <- A^-1 B for triangular A (only its triangle is read). */
static void NR_CAT(trsm_, SFX)(const T *A, T *B, int64_t n, int64_t m, int upper, int unit) {
    for (int64_t s = 0; s < n; s++) {
        int64_t i = upper ? n - 1 - s : s;
        T *bi = B + i * m;
        int64_t k0 = upper ? i + 1 : 0, k1 = upper ? n : i;
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
        for (int64_t k = kb; k < e; k++) {
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
            if (d == 0) { if (!info) info = (int)k + 1; continue; }
            const T *rk = A + k * n;
            for (int64_t i = k + 1; i < n; i++) {
                T *ri = A + i * n;
                T l = ri[k] / d;
                ri[k] = l;
                for (int64_t j = k + 1; j < e; j++) ri[j] -= l * rk[j];
            }
        }
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
        for (int64_t t = 0; t < r; t++) {
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

/* rows j.. of X (m x w) <- H X, H = I - tau v v^H, v = (v0, A[j+1.., col]) (A is m x n). */
static void NR_CAT(house_apply_, SFX)(const T *A, int64_t n, int64_t col, T v0, R tau, T *X, int64_t m,
                                      int64_t w, int64_t c0, T *work) {
    int64_t j = col;
    for (int64_t c = c0; c < w; c++) work[c] = CONJ(v0) * X[j * w + c];
    for (int64_t i = j + 1; i < m; i++) {
        T vi = CONJ(A[i * n + col]);
        const T *xi = X + i * w;
        #pragma omp simd
        for (int64_t c = c0; c < w; c++) work[c] += vi * xi[c];
    }
    for (int64_t c = c0; c < w; c++) X[j * w + c] -= tau * v0 * work[c];
    for (int64_t i = j + 1; i < m; i++) {
        T vi = tau * A[i * n + col];
        T *xi = X + i * w;
        #pragma omp simd
        for (int64_t c = c0; c < w; c++) xi[c] -= vi * work[c];
    }
}

/* Householder QR of A (m x n): R overwrites A's upper trapezoid (below it: zeros),
 * Q (m x kq, kq = min(m, n) or m) is formed when Q is not NULL. */
static void NR_CAT(qr_, SFX)(T *A, int64_t m, int64_t n, T *Q, int64_t kq) {
    int64_t k = m < n ? m : n;
    T *v0s = (T *)malloc(sizeof(T) * (k + 1));
    R *taus = (R *)malloc(sizeof(R) * (k + 1));
    int64_t wn = (n > kq ? n : kq) + 1;
    T *work = (T *)malloc(sizeof(T) * wn);
    for (int64_t j = 0; j < k; j++) {
        T alpha = A[j * n + j];
        R x2 = 0;
        for (int64_t i = j + 1; i < m; i++) x2 += ABS2(A[i * n + j]);
        R aa = ABS2(alpha);
        if (x2 == 0) { v0s[j] = 0; taus[j] = 0; continue; }
        R nrm = NR_CAT(nr_sqrt_, SFX)(aa + x2);
        T phase = aa == 0 ? (T)1 : alpha / NR_CAT(nr_sqrt_, SFX)(aa);
        T beta = -phase * nrm;
        T v0 = alpha - beta;
        R tau = 2 / (ABS2(v0) + x2);
        v0s[j] = v0; taus[j] = tau;
        A[j * n + j] = beta;
        NR_CAT(house_apply_, SFX)(A, n, j, v0, tau, A, m, n, j + 1, work);
    }
    if (Q) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t c = 0; c < kq; c++) Q[i * kq + c] = i == c ? (T)1 : (T)0;
        for (int64_t j = k - 1; j >= 0; j--)
            if (taus[j] != 0) NR_CAT(house_apply_, SFX)(A, n, j, v0s[j], taus[j], Q, m, kq, 0, work);
    }
    for (int64_t i = 1; i < m; i++)
        for (int64_t j = 0; j < i && j < n; j++) A[i * n + j] = 0;
    free(v0s); free(taus); free(work);
}

/* The unitary 2 x 2 rotation of columns p, q that zeroes the Hermitian pair (app, apq, aqq):
 * col p <- c col p - s conj(e) col q, col q <- s col p + c conj(e) col q (e = apq / |apq|). */
static inline void NR_CAT(jacobi_rot_, SFX)(R app, R aqq, T apq, R *c, R *s, T *e, R *t) {
    R g = NR_CAT(nr_sqrt_, SFX)(ABS2(apq));
    *e = apq / g;
    R zeta = (aqq - app) / (2 * g);
    R tt = (zeta >= 0 ? 1 : -1) / (NR_CAT(nr_fabs_, SFX)(zeta) + NR_CAT(nr_sqrt_, SFX)(1 + zeta * zeta));
    *c = 1 / NR_CAT(nr_sqrt_, SFX)(1 + tt * tt);
    *s = tt * *c;
    *t = tt;
}

/* rows p, q of X (w wide) <- the rotation's combination (X holds columns as rows). */
static inline void NR_CAT(rot_rows_, SFX)(T *xp, T *xq, int64_t w, R c, R s, T ce) {
    #pragma omp simd
    for (int64_t i = 0; i < w; i++) {
        T a = xp[i], b = xq[i];
        xp[i] = c * a - s * ce * b;
        xq[i] = s * a + c * ce * b;
    }
}

/* Hermitian eigendecomposition: Householder reduction to tridiagonal form (A <- H A H by
 * symmetric rank-2 updates), the complex off-diagonal made real by a diagonal unitary scaling,
 * then implicit QL with Wilkinson shifts (tqli) accumulating into the transposed vectors.
 * A (n x n, the UPLO triangle read) is destroyed; w ascending, V's columns the eigenvectors.
 * 0, or 1 when QL did not converge. */
static int NR_CAT(eigh_, SFX)(T *A, int64_t n, R *w, T *V, int upper) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            if (upper) A[j * n + i] = CONJ(A[i * n + j]); else A[i * n + j] = CONJ(A[j * n + i]);
        }
    for (int64_t i = 0; i < n; i++) A[i * n + i] = RE(A[i * n + i]);
    for (int64_t i = 0; i < n * n; i++) {
        if (A[i] != A[i]) {  /* NaN in: NaN out */
            for (int64_t j = 0; j < n; j++) w[j] = NAN;
            for (int64_t j = 0; j < n * n; j++) V[j] = NAN;
            return 0;
        }
    }
    if (n == 0) return 0;
    T *Z = (T *)malloc(sizeof(T) * (n * n + 1));   /* rows: the eigenvectors (Z^T) */
    T *v0s = (T *)malloc(sizeof(T) * (n + 1));
    R *taus = (R *)malloc(sizeof(R) * (n + 1));
    T *p = (T *)malloc(sizeof(T) * (n + 1));
    R *e = (R *)malloc(sizeof(R) * (n + 1));
    T *ph = (T *)malloc(sizeof(T) * (n + 1));
    for (int64_t k = 0; k + 2 < n; k++) {  /* reflector on rows/cols k+1.. zeroing A[k+2.., k] */
        int64_t j = k + 1;
        T alpha = A[j * n + k];
        R x2 = 0;
        for (int64_t i = j + 1; i < n; i++) x2 += ABS2(A[i * n + k]);
        taus[k] = 0; v0s[k] = 0;
        if (x2 == 0) continue;
        R aa = ABS2(alpha);
        R nrm = NR_CAT(nr_sqrt_, SFX)(aa + x2);
        T phase = aa == 0 ? (T)1 : alpha / NR_CAT(nr_sqrt_, SFX)(aa);
        T beta = -phase * nrm;
        T v0 = alpha - beta;
        R tau = 2 / (ABS2(v0) + x2);
        v0s[k] = v0; taus[k] = tau;
        /* v = (v0, A[j+1.., k]); p = tau A v; K = tau / 2 (v^H p); w = p - K v; A -= v w^H + w v^H */
        #define VI(i) ((i) == j ? v0 : A[(i) * n + k])
        for (int64_t i = j; i < n; i++) p[i] = 0;
        for (int64_t r = j; r < n; r++) {
            T vr = CONJ(VI(r));  /* (A v)_i = conj(sum_r A[r][i] conj(v_r)): rows, not columns */
            const T *ar = A + r * n;
            #pragma omp simd
            for (int64_t i = j; i < n; i++) p[i] += ar[i] * vr;
        }
        for (int64_t i = j; i < n; i++) p[i] = tau * CONJ(p[i]);
        T kk = 0;
        for (int64_t i = j; i < n; i++) kk += CONJ(VI(i)) * p[i];
        kk *= tau / 2;
        for (int64_t i = j; i < n; i++) p[i] -= kk * VI(i);
        for (int64_t r = j; r < n; r++) {
            T vr = VI(r), wr = p[r];
            T *ar = A + r * n;
            for (int64_t i = j; i < n; i++) ar[i] -= vr * CONJ(p[i]) + wr * CONJ(VI(i));
        }
        #undef VI
        A[j * n + k] = beta;
        A[k * n + j] = CONJ(beta);
    }
    /* Z = Q (rows: Q's rows), Q = H_0 H_1 ... applied to I from the last reflector */
    for (int64_t i = 0; i < n * n; i++) Z[i] = 0;
    for (int64_t i = 0; i < n; i++) Z[i * n + i] = 1;
    for (int64_t k = n - 3; k >= 0; k--) {
        if (taus[k] == 0) continue;
        int64_t j = k + 1;
        /* rows j.. of Z <- H Z, v = (v0s[k], A[j+1.., k]) */
        for (int64_t c = 0; c < n; c++) p[c] = CONJ(v0s[k]) * Z[j * n + c];
        for (int64_t i = j + 1; i < n; i++) {
            T vi = CONJ(A[i * n + k]);
            const T *zi = Z + i * n;
            #pragma omp simd
            for (int64_t c = 0; c < n; c++) p[c] += vi * zi[c];
        }
        for (int64_t c = 0; c < n; c++) Z[j * n + c] -= taus[k] * v0s[k] * p[c];
        for (int64_t i = j + 1; i < n; i++) {
            T vi = taus[k] * A[i * n + k];
            T *zi = Z + i * n;
            #pragma omp simd
            for (int64_t c = 0; c < n; c++) zi[c] -= vi * p[c];
        }
    }
    /* T = D T' D^H with real off-diagonal |e_k|: eigenvectors Q D; store (Q D)^T as rows */
    ph[0] = 1;
    for (int64_t k = 0; k + 1 < n; k++) {
        T ek = A[(k + 1) * n + k];
        R ae = NR_CAT(nr_sqrt_, SFX)(ABS2(ek));
        e[k] = ae;
        ph[k + 1] = ae == 0 ? ph[k] : ek * ph[k] / ae;
    }
    e[n - 1] = 0;
    for (int64_t i = 0; i < n; i++) w[i] = RE(A[i * n + i]);
    T *Zt = V;  /* V as scratch: Zt[c][i] = Z[i][c] d_c */
    for (int64_t c = 0; c < n; c++)
        for (int64_t i = 0; i < n; i++) Zt[c * n + i] = Z[i * n + c] * ph[c];
    int info = 0;
    for (int64_t l = 0; l < n && !info; l++) {
        int iter = 0;
        int64_t m;
        do {
            for (m = l; m < n - 1; m++) {
                R dd = NR_CAT(nr_fabs_, SFX)(w[m]) + NR_CAT(nr_fabs_, SFX)(w[m + 1]);
                if (NR_CAT(nr_fabs_, SFX)(e[m]) <= EPS * dd) break;
            }
            if (m != l) {
                if (iter++ == 60) { info = 1; break; }
                R g = (w[l + 1] - w[l]) / (2 * e[l]);
                R r = NR_CAT(nr_sqrt_, SFX)(g * g + 1);
                g = w[m] - w[l] + e[l] / (g + (g >= 0 ? r : -r));
                R sn = 1, c = 1, pp = 0;
                int64_t i;
                for (i = m - 1; i >= l; i--) {
                    R f = sn * e[i], b = c * e[i];
                    r = NR_CAT(nr_sqrt_, SFX)(f * f + g * g);
                    e[i + 1] = r;
                    if (r == 0) { w[i + 1] -= pp; e[m] = 0; break; }
                    sn = f / r; c = g / r;
                    g = w[i + 1] - pp;
                    r = (w[i] - g) * sn + 2 * c * b;
                    pp = sn * r;
                    w[i + 1] = g + pp;
                    g = c * r - b;
                    T *z0 = Zt + i * n, *z1 = Zt + (i + 1) * n;
                    #pragma omp simd
                    for (int64_t q = 0; q < n; q++) {
                        T fz = z1[q];
                        z1[q] = sn * z0[q] + c * fz;
                        z0[q] = c * z0[q] - sn * fz;
                    }
                }
                if (r == 0 && i >= l) continue;
                w[l] -= pp; e[l] = g; e[m] = 0;
            }
        } while (m != l);
    }
    for (int64_t i = 1; i < n; i++) {  /* insertion sort, ascending */
        int64_t j = i;
        while (j > 0 && w[j - 1] > w[j]) {
            R tw = w[j]; w[j] = w[j - 1]; w[j - 1] = tw;
            T *a = Zt + j * n, *b = Zt + (j - 1) * n;
            for (int64_t k = 0; k < n; k++) { T x = a[k]; a[k] = b[k]; b[k] = x; }
            j--;
        }
    }
    for (int64_t i = 0; i < n * n; i++) Z[i] = Zt[i];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) V[i * n + j] = Z[j * n + i];
    free(Z); free(v0s); free(taus); free(p); free(e); free(ph);
    return info;
}

/* Complete rows r.. of X (k x m, rows orthonormal up to r) to an orthonormal set. */
static void NR_CAT(complete_, SFX)(T *X, int64_t r, int64_t k, int64_t m) {
    int64_t cand = 0;
    for (int64_t row = r; row < k; row++) {
        T *x = X + row * m;
        for (; cand < m; cand++) {
            for (int64_t i = 0; i < m; i++) x[i] = i == cand ? (T)1 : (T)0;
            for (int pass = 0; pass < 2; pass++)
                for (int64_t o = 0; o < row; o++) {
                    const T *y = X + o * m;
                    T d = 0;
                    for (int64_t i = 0; i < m; i++) d += CONJ(y[i]) * x[i];
                    for (int64_t i = 0; i < m; i++) x[i] -= d * y[i];
                }
            R nn = 0;
            for (int64_t i = 0; i < m; i++) nn += ABS2(x[i]);
            if (nn > (R)0.25) {
                R inv = 1 / NR_CAT(nr_sqrt_, SFX)(nn);
                for (int64_t i = 0; i < m; i++) x[i] *= inv;
                cand++;
                break;
            }
        }
    }
}

/* SVD of A (m x n) by one-sided Jacobi on A (m >= n) or on A^H (m < n): s (k = min(m, n),
 * descending), U (m x ku), Vh (kv x n) with ku = kv = k, or ku = m and kv = n (full).
 * A is destroyed. 0, or 1 when it did not converge. */
static int NR_CAT(svd_, SFX)(T *A, int64_t m, int64_t n, R *s, T *U, T *Vh, int full) {
    int trans = m < n;
    for (int64_t i = 0; i < m * n; i++) {
        if (A[i] != A[i]) {  /* NaN in: NaN out */
            int64_t kk = m < n ? m : n, ku_ = full ? m : kk, kv_ = full ? n : kk;
            for (int64_t j = 0; j < kk; j++) s[j] = NAN;
            for (int64_t j = 0; j < m * ku_; j++) U[j] = NAN;
            for (int64_t j = 0; j < kv_ * n; j++) Vh[j] = NAN;
            return 0;
        }
    }
    int64_t M = trans ? n : m, N = trans ? m : n;   /* the factored matrix B is M x N, M >= N */
    int64_t ku = full ? M : N;                      /* B's left vectors kept */
    T *G = (T *)malloc(sizeof(T) * (N * M + 1));   /* rows: B's columns */
    T *Vt = (T *)malloc(sizeof(T) * (N * N + 1));  /* rows: B's right vectors */
    T *Ut = (T *)malloc(sizeof(T) * (ku * M + 1)); /* rows: B's left vectors */
    R *nrm = (R *)malloc(sizeof(R) * (N + 1));
    int64_t *ord = (int64_t *)malloc(sizeof(int64_t) * (N + 1));
    if (trans) { for (int64_t i = 0; i < N * M; i++) G[i] = CONJ(A[i]); }
    else {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) G[j * m + i] = A[i * n + j];
    }
    for (int64_t i = 0; i < N * N; i++) Vt[i] = 0;
    for (int64_t i = 0; i < N; i++) Vt[i * N + i] = 1;
    int info = 1;
    for (int sweep = 0; sweep < 60; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < N - 1; p++)
            for (int64_t q = p + 1; q < N; q++) {
                T *gp = G + p * M, *gq = G + q * M;
                R al = 0, be = 0; T ga = 0;
                for (int64_t i = 0; i < M; i++) { al += ABS2(gp[i]); be += ABS2(gq[i]); ga += CONJ(gp[i]) * gq[i]; }
                R g2 = ABS2(ga);
                if (!(g2 > EPS * EPS * al * be) || g2 < NR_CAT(NR_TINY_, SFX)) continue;
                rotated = 1;
                R c, sn, t; T e;
                NR_CAT(jacobi_rot_, SFX)(al, be, ga, &c, &sn, &e, &t);
                NR_CAT(rot_rows_, SFX)(gp, gq, M, c, sn, CONJ(e));
                NR_CAT(rot_rows_, SFX)(Vt + p * N, Vt + q * N, N, c, sn, CONJ(e));
            }
        if (!rotated) { info = 0; break; }
    }
    for (int64_t j = 0; j < N; j++) {
        R a = 0;
        for (int64_t i = 0; i < M; i++) a += ABS2(G[j * M + i]);
        nrm[j] = NR_CAT(nr_sqrt_, SFX)(a);
        ord[j] = j;
    }
    for (int64_t i = 1; i < N; i++) {  /* descending */
        int64_t j = i;
        while (j > 0 && nrm[ord[j - 1]] < nrm[ord[j]]) { int64_t x = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = x; j--; }
    }
    int64_t r = 0;
    for (int64_t j = 0; j < N; j++) {
        R sj = nrm[ord[j]];
        s[j] = sj;
        const T *g = G + ord[j] * M;
        if (sj > 0 && r == j) {
            for (int64_t i = 0; i < M; i++) Ut[j * M + i] = g[i] / sj;
            r++;
        }
    }
    NR_CAT(complete_, SFX)(Ut, r, ku, M);
    if (!trans) {  /* A = B: U = Ut^T, Vh = conj(V sorted) */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < ku; j++) U[i * ku + j] = Ut[j * M + i];
        for (int64_t j = 0; j < N; j++)
            for (int64_t k = 0; k < N; k++) Vh[j * N + k] = CONJ(Vt[ord[j] * N + k]);
    } else {       /* A = B^H = V S U_B^H: U = V sorted (m x m), Vh = U_B^H (ku x n) */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < N; j++) U[i * N + j] = Vt[ord[j] * N + i];
        for (int64_t j = 0; j < ku; j++)
            for (int64_t k = 0; k < n; k++) Vh[j * n + k] = CONJ(Ut[j * M + k]);
    }
    free(G); free(Vt); free(Ut); free(nrm); free(ord);
    return info;
}

/* x <- conj(x) over nel elements. */
static void NR_CAT(conj_, SFX)(T *x, int64_t nel) {
    for (int64_t i = 0; i < nel; i++) x[i] = CONJ(x[i]);
}
