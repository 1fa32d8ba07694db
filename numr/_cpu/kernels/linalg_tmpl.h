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

/* Hermitian eigendecomposition by cyclic Jacobi: A (n x n, lower triangle read) is destroyed,
 * w ascending, V (n x n) eigenvectors as columns. 0, or 1 when it did not converge. */
static int NR_CAT(eigh_, SFX)(T *A, int64_t n, R *w, T *V, int upper) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            if (upper) A[j * n + i] = CONJ(A[i * n + j]); else A[i * n + j] = CONJ(A[j * n + i]);
        }
    for (int64_t i = 0; i < n; i++) A[i * n + i] = RE(A[i * n + i]);
    for (int64_t i = 0; i < n * n; i++) {
        if (A[i] != A[i]) {  /* NaN in: NaN out (the rotations would skip it) */
            for (int64_t j = 0; j < n; j++) w[j] = NAN;
            for (int64_t j = 0; j < n * n; j++) V[j] = NAN;
            return 0;
        }
    }
    T *W = (T *)malloc(sizeof(T) * (n * n + 1));   /* rows: the eigenvectors */
    for (int64_t i = 0; i < n * n; i++) W[i] = 0;
    for (int64_t i = 0; i < n; i++) W[i * n + i] = 1;
    int info = 1;
    for (int sweep = 0; sweep < 60; sweep++) {
        int rotated = 0;
        for (int64_t p = 0; p < n - 1; p++)
            for (int64_t q = p + 1; q < n; q++) {
                T apq = A[p * n + q];
                R app = RE(A[p * n + p]), aqq = RE(A[q * n + q]);
                R a2 = ABS2(apq);
                if (!(a2 > EPS * EPS * NR_CAT(nr_fabs_, SFX)(app * aqq)) || a2 < NR_CAT(NR_TINY_, SFX)) continue;
                rotated = 1;
                R c, s, t; T e;
                NR_CAT(jacobi_rot_, SFX)(app, aqq, apq, &c, &s, &e, &t);
                R g = NR_CAT(nr_sqrt_, SFX)(a2);
                /* rows p, q by J^H: row p <- c row p - s e row q, row q <- s row p + c e row q */
                T *rp = A + p * n, *rq = A + q * n;
                #pragma omp simd
                for (int64_t k = 0; k < n; k++) {
                    T a = rp[k], b = rq[k];
                    rp[k] = c * a - s * e * b;
                    rq[k] = s * a + c * e * b;
                }
                for (int64_t k = 0; k < n; k++) { A[k * n + p] = CONJ(rp[k]); A[k * n + q] = CONJ(rq[k]); }
                A[p * n + p] = app - t * g;
                A[q * n + q] = aqq + t * g;
                A[p * n + q] = 0; A[q * n + p] = 0;
                NR_CAT(rot_rows_, SFX)(W + p * n, W + q * n, n, c, s, CONJ(e));
            }
        if (!rotated) { info = 0; break; }
    }
    if (info) {  /* out of sweeps: accept rounding-level off-diagonal residue */
        R off = 0, all = 0;
        for (int64_t i = 0; i < n * n; i++) all += ABS2(A[i]);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) if (i != j) off += ABS2(A[i * n + j]);
        if (off <= (R)(n * n) * EPS * EPS * all) info = 0;
    }
    for (int64_t i = 0; i < n; i++) w[i] = RE(A[i * n + i]);
    for (int64_t i = 1; i < n; i++) {  /* insertion sort, ascending (NaN last) */
        int64_t j = i;
        while (j > 0 && (w[j - 1] > w[j] || (w[j - 1] != w[j - 1] && w[j] == w[j]))) {
            R tw = w[j]; w[j] = w[j - 1]; w[j - 1] = tw;
            T *a = W + j * n, *b = W + (j - 1) * n;
            for (int64_t k = 0; k < n; k++) { T x = a[k]; a[k] = b[k]; b[k] = x; }
            j--;
        }
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) V[i * n + j] = W[j * n + i];
    free(W);
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
