/* Householder QR and the Hermitian eigendecomposition (tridiagonal + QL), one dtype: included by linalg_tmpl.h (see there for T, R, SFX, CONJ, RE,
 * ABS2, ABS1, EPS, CODE). Row-major contiguous matrices, one matrix a call, in place. */

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

/* sqrt(a^2 + b^2) without overflow or underflow (float32 through double; double by hypot). */
static inline R NR_CAT(pyth_, SFX)(R a, R b) {
    if (sizeof(R) == 4) return (R)sqrt((double)a * a + (double)b * b);
    return (R)hypot((double)a, (double)b);
}

/* x *= p for the power of two p that brings max |x| into [0.5, 1) (1 for zero or non-finite x):
 * exact, and sums of squares can neither overflow nor underflow. Returns p. */
static R NR_CAT(scale_pow2_, SFX)(T *x, int64_t nel) {
    R mx = 0;
    for (int64_t i = 0; i < nel; i++) {
        R a = ABS1(x[i]);
        if (a > mx) mx = a;
    }
    if (!(mx > 0) || mx - mx != 0) return 1;
    int e, lim = sizeof(R) == 4 ? 120 : 1000;
    frexp((double)mx, &e);
    e = e > lim ? lim : e < -lim ? -lim : e;
    R p = (R)ldexp(1.0, -e);
    if (p == 1) return 1;
    for (int64_t i = 0; i < nel; i++) x[i] *= p;
    return p;
}

/* Householder QR of A (m x n): R overwrites A's upper trapezoid (below it: zeros),
 * Q (m x kq, kq = min(m, n) or m) is formed when Q is not NULL. */
static void NR_CAT(qr_, SFX)(T *A, int64_t m, int64_t n, T *Q, int64_t kq) {
    int64_t k = m < n ? m : n;
    R sc = NR_CAT(scale_pow2_, SFX)(A, m * n);  /* R scales back at the end; Q does not change */
    T *v0s = (T *)malloc(sizeof(T) * (k + 1));
    R *taus = (R *)malloc(sizeof(R) * (k + 1));
    int64_t wn = (n > kq ? n : kq) + 1;
    T *work = (T *)malloc(sizeof(T) * wn);
    for (int64_t j = 0; j < k; j++) {
        T alpha = A[j * n + j];
        R x2 = 0;
        for (int64_t i = j + 1; i < m; i++) x2 += ABS2(A[i * n + j]);
        R aa = ABS2(alpha);
        /* squares below the normal range (the matrix is scaled to max ~1, so such entries are far below
         * eps): no reflection; they are dropped, a backward-stable change (1/tau would overflow) */
        if (x2 <= NR_CAT(NR_TINY_, SFX) / EPS) { v0s[j] = 0; taus[j] = 0; continue; }
        R nrm = NR_CAT(nr_sqrt_, SFX)(aa + x2);
        T phase = alpha == 0 ? (T)1 : alpha / ABSV(alpha);  /* |alpha| exact even when aa is subnormal */
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
    if (sc != 1)
        for (int64_t i = 0; i < m * n; i++) A[i] /= sc;
    free(v0s); free(taus); free(work);
}

/* Hermitian eigendecomposition: Householder reduction to tridiagonal form (A <- H A H by
 * symmetric rank-2 updates), the complex off-diagonal made real by a diagonal unitary scaling,
 * then implicit QL with Wilkinson shifts (tqli) accumulating into the transposed vectors.
 * A (n x n, the UPLO triangle read) is destroyed; w ascending, V's columns the eigenvectors.
 * 0, or 1 when QL did not converge. */
static int NR_CAT(eigh_, SFX)(T *A, int64_t n, R *w, T *V, int upper, int vec) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            if (upper) A[j * n + i] = CONJ(A[i * n + j]); else A[i * n + j] = CONJ(A[j * n + i]);
        }
    for (int64_t i = 0; i < n; i++) A[i * n + i] = RE(A[i * n + i]);
    for (int64_t i = 0; i < n * n; i++) {
        if (A[i] != A[i]) {  /* NaN in: NaN out */
            for (int64_t j = 0; j < n; j++) w[j] = NAN;
            for (int64_t j = 0; vec && j < n * n; j++) V[j] = NAN;
            return 0;
        }
    }
    if (n == 0) return 0;
    R sc = NR_CAT(scale_pow2_, SFX)(A, n * n);  /* the eigenvalues scale back at the end */
    T *Z = (T *)malloc(sizeof(T) * (n * n + 1));   /* rows: the eigenvectors (Z^T) */
    T *v0s = (T *)malloc(sizeof(T) * (n + 1));
    R *taus = (R *)malloc(sizeof(R) * (n + 1));
    T *p = (T *)malloc(sizeof(T) * (4 * n + 1)), *vv = p + n, *vc = p + 2 * n, *pc = p + 3 * n;
    R *e = (R *)malloc(sizeof(R) * (n + 1));
    T *ph = (T *)malloc(sizeof(T) * (n + 1));
    for (int64_t k = 0; k + 2 < n; k++) {  /* reflector on rows/cols k+1.. zeroing A[k+2.., k] */
        int64_t j = k + 1;
        T alpha = A[j * n + k];
        R x2 = 0;
        for (int64_t i = j + 1; i < n; i++) x2 += ABS2(A[i * n + k]);
        taus[k] = 0; v0s[k] = 0;
        if (x2 <= NR_CAT(NR_TINY_, SFX) / EPS) continue;  /* as in qr_ */
        R aa = ABS2(alpha);
        R nrm = NR_CAT(nr_sqrt_, SFX)(aa + x2);
        T phase = alpha == 0 ? (T)1 : alpha / ABSV(alpha);  /* |alpha| exact even when aa is subnormal */
        T beta = -phase * nrm;
        T v0 = alpha - beta;
        R tau = 2 / (ABS2(v0) + x2);
        v0s[k] = v0; taus[k] = tau;
        /* v = (v0, A[j+1.., k]); p = tau A v; K = tau / 2 (v^H p); w = p - K v; A -= v w^H + w v^H */
        vv[j] = v0;
        for (int64_t i = j + 1; i < n; i++) vv[i] = A[i * n + k];
        for (int64_t i = j; i < n; i++) p[i] = 0;
        for (int64_t r = j; r < n; r++) {
            T vr = CONJ(vv[r]);  /* (A v)_i = conj(sum_r A[r][i] conj(v_r)): rows, not columns */
            const T *ar = A + r * n;
            #pragma omp simd
            for (int64_t i = j; i < n; i++) p[i] += ar[i] * vr;
        }
        for (int64_t i = j; i < n; i++) p[i] = tau * CONJ(p[i]);
        T kk = 0;
        for (int64_t i = j; i < n; i++) kk += CONJ(vv[i]) * p[i];
        kk *= tau / 2;
        for (int64_t i = j; i < n; i++) { p[i] -= kk * vv[i]; pc[i] = CONJ(p[i]); vc[i] = CONJ(vv[i]); }
        for (int64_t r = j; r < n; r++) {
            T vr = vv[r], wr = p[r];
            T *ar = A + r * n;
            #pragma omp simd
            for (int64_t i = j; i < n; i++) ar[i] -= vr * pc[i] + wr * vc[i];
        }
        A[j * n + k] = beta;
        A[k * n + j] = CONJ(beta);
    }
    /* Z = Q (rows: Q's rows), Q = H_0 H_1 ... applied to I from the last reflector */
    int64_t nv = vec ? n : 0;  /* the vectors' width: 0 for the eigenvalues alone */
    for (int64_t i = 0; i < nv * n; i++) Z[i] = 0;
    for (int64_t i = 0; i < nv; i++) Z[i * n + i] = 1;
    for (int64_t k = n - 3; k >= 0 && vec; k--) {
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
        R ae = ABSV(ek);
        e[k] = ae;
        ph[k + 1] = ae == 0 ? ph[k] : ek * ph[k] / ae;
    }
    e[n - 1] = 0;
    R tnorm = 0;  /* max |d| + |e|: a split also below eps ||T|| (normwise backward stable; the relative
                     test alone stalls on a cluster of rounding-level eigenvalues beside large ones) */
    for (int64_t i = 0; i < n; i++) {
        R t = NR_CAT(nr_fabs_, SFX)(RE(A[i * n + i])) + e[i];
        if (t > tnorm) tnorm = t;
    }
    for (int64_t i = 0; i < n; i++) w[i] = RE(A[i * n + i]);
    T *Zt = V;  /* V as scratch: Zt[c][i] = Z[i][c] d_c */
    for (int64_t c = 0; c < nv; c++)
        for (int64_t i = 0; i < n; i++) Zt[c * n + i] = Z[i * n + c] * ph[c];
    int info = 0;
    for (int64_t l = 0; l < n && !info; l++) {
        int iter = 0;
        int64_t m;
        do {
            for (m = l; m < n - 1; m++) {
                R dd = NR_CAT(nr_fabs_, SFX)(w[m]) + NR_CAT(nr_fabs_, SFX)(w[m + 1]);
                if (NR_CAT(nr_fabs_, SFX)(e[m]) <= EPS * dd || NR_CAT(nr_fabs_, SFX)(e[m]) <= EPS * tnorm) break;
            }
            if (m != l) {
                if (iter++ == 60) { info = 1; break; }
                R g = (w[l + 1] - w[l]) / (2 * e[l]);
                R r = NR_CAT(pyth_, SFX)(g, 1);
                g = w[m] - w[l] + e[l] / (g + (g >= 0 ? r : -r));
                R sn = 1, c = 1, pp = 0;
                int64_t i;
                for (i = m - 1; i >= l; i--) {
                    R f = sn * e[i], b = c * e[i];
                    r = NR_CAT(pyth_, SFX)(f, g);
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
                    for (int64_t q = 0; q < nv; q++) {
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
    for (int64_t i = 0; i < n; i++) w[i] /= sc;
    for (int64_t i = 1; i < n; i++) {  /* insertion sort, ascending */
        int64_t j = i;
        while (j > 0 && w[j - 1] > w[j]) {
            R tw = w[j]; w[j] = w[j - 1]; w[j - 1] = tw;
            for (int64_t k = 0; k < nv; k++) { T x = Zt[j * n + k]; Zt[j * n + k] = Zt[(j - 1) * n + k]; Zt[(j - 1) * n + k] = x; }
            j--;
        }
    }
    for (int64_t i = 0; i < nv * n; i++) Z[i] = Zt[i];
    for (int64_t i = 0; i < nv; i++)
        for (int64_t j = 0; j < n; j++) V[i * n + j] = Z[j * n + i];
    free(Z); free(v0s); free(taus); free(p); free(e); free(ph);
    return info;
}
