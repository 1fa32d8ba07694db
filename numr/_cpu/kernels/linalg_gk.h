/* SVD by Householder bidiagonalisation and implicit-shift QR on the bidiagonal (Golub-Reinsch),
 * one dtype: included by linalg_tmpl.h (see there for T, R, SFX, CONJ, RE, ABS2, EPS).
 * Complex: the bidiagonal's entries are made real by unitary diagonal scalings folded into U, V.
 */

/* Hermitian reflector of x = (alpha, rest with |rest|^2 = x2): (v0, tau, beta), H x = beta e1. */
static inline R NR_CAT(house_, SFX)(T alpha, R x2, T *v0, T *beta) {
    R aa = ABS2(alpha);
    if (x2 <= NR_CAT(NR_TINY_, SFX) / EPS) { *v0 = 0; *beta = alpha; return 0; }  /* see qr_ */
    R nrm = NR_CAT(nr_sqrt_, SFX)(aa + x2);
    T phase = alpha == 0 ? (T)1 : alpha / ABSV(alpha);  /* |alpha| exact even when aa is subnormal */
    *beta = -phase * nrm;
    *v0 = alpha - *beta;
    return 2 / (ABS2(*v0) + x2);
}

/* rows a, b of X (w wide): a <- c a + s b, b <- c b - s a (columns of U or V, stored as rows) */
static inline void NR_CAT(grot_, SFX)(T *xa, T *xb, int64_t w, R c, R s) {
    #pragma omp simd
    for (int64_t q = 0; q < w; q++) {
        T y = xa[q], z = xb[q];
        xa[q] = y * c + z * s;
        xb[q] = z * c - y * s;
    }
}

/* B (M x N, M >= N, destroyed) = U diag(w) V^H: Ut (ku x M) U's columns as rows (ku = N or M),
 * Vt (N x N) V's columns as rows, w descending (with vec 0: w alone, Ut/Vt untouched). 0, or 1
 * when the QR sweeps did not converge. */
static int NR_CAT(gk_, SFX)(T *B, int64_t M, int64_t N, int64_t ku, R *w, T *Ut, T *Vt, int vec) {
    T *lv0 = (T *)malloc(sizeof(T) * (N + 1)), *rv0 = (T *)malloc(sizeof(T) * (N + 1));
    R *ltau = (R *)malloc(sizeof(R) * (N + 1)), *rtau = (R *)malloc(sizeof(R) * (N + 1));
    T *d = (T *)malloc(sizeof(T) * (N + 1)), *e = (T *)malloc(sizeof(T) * (N + 1));
    T *U = (T *)malloc(sizeof(T) * (M * ku + 1)), *V = (T *)malloc(sizeof(T) * (N * N + 1));
    int64_t wn = M > N ? M : N;
    T *work = (T *)malloc(sizeof(T) * (wn + 1));
    R *rv1 = (R *)malloc(sizeof(R) * (N + 1));
    for (int64_t k = 0; k < N; k++) {
        R x2 = 0;  /* left: zero B[k+1.., k] */
        for (int64_t i = k + 1; i < M; i++) x2 += ABS2(B[i * N + k]);
        ltau[k] = NR_CAT(house_, SFX)(B[k * N + k], x2, &lv0[k], &d[k]);
        if (ltau[k] != 0) NR_CAT(house_apply_, SFX)(B, N, k, lv0[k], ltau[k], B, M, N, k + 1, work);
        B[k * N + k] = d[k];
        rtau[k] = 0; e[k] = 0;
        if (k + 1 < N) {  /* right: zero B[k, k+2..] through the reflector of conj(row) */
            T *rk = B + k * N;
            x2 = 0;
            for (int64_t c = k + 2; c < N; c++) { rk[c] = CONJ(rk[c]); x2 += ABS2(rk[c]); }
            T beta;
            rtau[k] = NR_CAT(house_, SFX)(CONJ(rk[k + 1]), x2, &rv0[k], &beta);
            e[k] = CONJ(beta);
            if (rtau[k] != 0) {
                for (int64_t r = k + 1; r < M; r++) {  /* X_r <- X_r (I - tau u u^H) */
                    T *xr = B + r * N;
                    T dot = xr[k + 1] * rv0[k];
                    for (int64_t c = k + 2; c < N; c++) dot += xr[c] * rk[c];
                    dot *= rtau[k];
                    xr[k + 1] -= dot * CONJ(rv0[k]);
                    for (int64_t c = k + 2; c < N; c++) xr[c] -= dot * CONJ(rk[c]);
                }
            }
        }
    }
    /* U = H_0 ... H_{N-1} I (M x ku), V = G_0 ... G_{N-3} I */
    int64_t mu = vec ? M : 0, mv = vec ? N : 0;  /* the vectors' widths: 0 for the values alone */
    for (int64_t i = 0; i < mu; i++)
        for (int64_t c = 0; c < ku; c++) U[i * ku + c] = i == c ? (T)1 : (T)0;
    for (int64_t k = N - 1; k >= 0 && vec; k--)
        if (ltau[k] != 0) NR_CAT(house_apply_, SFX)(B, N, k, lv0[k], ltau[k], U, M, ku, 0, work);
    for (int64_t i = 0; i < mv * N; i++) V[i] = 0;
    for (int64_t i = 0; i < mv; i++) V[i * N + i] = 1;
    for (int64_t k = N - 2; k >= 0 && vec; k--) {
        if (rtau[k] == 0) continue;
        const T *u = B + k * N;  /* u = (rv0, B[k, k+2..]) on rows k+1.. of V */
        for (int64_t c = 0; c < N; c++) work[c] = CONJ(rv0[k]) * V[(k + 1) * N + c];
        for (int64_t i = k + 2; i < N; i++) {
            T ui = CONJ(u[i]);
            for (int64_t c = 0; c < N; c++) work[c] += ui * V[i * N + c];
        }
        for (int64_t c = 0; c < N; c++) V[(k + 1) * N + c] -= rtau[k] * rv0[k] * work[c];
        for (int64_t i = k + 2; i < N; i++) {
            T ui = rtau[k] * u[i];
            for (int64_t c = 0; c < N; c++) V[i * N + c] -= ui * work[c];
        }
    }
    /* real bidiagonal: B' = P^H Bd Q; U <- U P, V <- V Q (as rows of Ut, Vt) */
    T q = 1;
    for (int64_t k = 0; k < N; k++) {
        R ad = ABSV(d[k]);
        T p = ad == 0 ? q : d[k] * q / ad;
        w[k] = ad;
        for (int64_t i = 0; i < mu; i++) Ut[k * M + i] = U[i * ku + k] * p;
        for (int64_t i = 0; i < mv; i++) Vt[k * N + i] = V[i * N + k] * q;

        if (k + 1 < N) {
            R ae = ABSV(e[k]);
            rv1[k + 1] = ae;
            q = ae == 0 ? p : p * CONJ(e[k]) / ae;
        }
    }
    rv1[0] = 0;
    for (int64_t k = N; k < ku; k++)
        for (int64_t i = 0; i < mu; i++) Ut[k * M + i] = U[i * ku + k];
    R anorm = 0;
    for (int64_t i = 0; i < N; i++) {
        R a = w[i] + rv1[i];
        if (a > anorm) anorm = a;
    }
    R tol = EPS * anorm;
    int info = 0;
    for (int64_t k = N - 1; k >= 0 && !info; k--) {
        for (int its = 0; its < 75; its++) {
            int flag = 1;
            int64_t l, nm = 0;
            for (l = k; l >= 0; l--) {
                nm = l - 1;
                if (l == 0 || NR_CAT(nr_fabs_, SFX)(rv1[l]) <= tol) { flag = 0; break; }
                if (NR_CAT(nr_fabs_, SFX)(w[nm]) <= tol) break;
            }
            if (flag) {  /* w[nm] ~ 0: chase rv1[l] out by rotations of rows nm, i */
                R c = 0, s = 1;
                for (int64_t i = l; i <= k; i++) {
                    R f = s * rv1[i];
                    rv1[i] = c * rv1[i];
                    if (NR_CAT(nr_fabs_, SFX)(f) <= tol) break;
                    R g = w[i], h = NR_CAT(pyth_, SFX)(f, g);
                    w[i] = h;
                    c = g / h; s = -f / h;
                    NR_CAT(grot_, SFX)(Ut + nm * M, Ut + i * M, mu, c, s);
                }
            }
            R z = w[k];
            if (l == k) {
                if (z < 0) {
                    w[k] = -z;
                    for (int64_t j = 0; j < mv; j++) Vt[k * N + j] = -Vt[k * N + j];
                }
                break;
            }
            if (its == 74) { info = 1; break; }
            R x = w[l], y = w[k - 1], g = rv1[k - 1], h = rv1[k];
            R f = ((y - z) * (y + z) + (g - h) * (g + h)) / (2 * h * y);
            g = NR_CAT(pyth_, SFX)(f, 1);
            f = ((x - z) * (x + z) + h * ((y / (f + (f >= 0 ? g : -g))) - h)) / x;
            R c = 1, s = 1;
            for (int64_t j = l; j < k; j++) {
                int64_t i = j + 1;
                g = rv1[i]; y = w[i]; h = s * g; g = c * g;
                z = NR_CAT(pyth_, SFX)(f, h);
                rv1[j] = z;
                c = f / z; s = h / z;
                f = x * c + g * s; g = g * c - x * s; h = y * s; y *= c;
                NR_CAT(grot_, SFX)(Vt + j * N, Vt + i * N, mv, c, s);
                z = NR_CAT(pyth_, SFX)(f, h);
                w[j] = z;
                if (z != 0) { c = f / z; s = h / z; }
                f = c * g + s * y; x = c * y - s * g;
                NR_CAT(grot_, SFX)(Ut + j * M, Ut + i * M, mu, c, s);
            }
            rv1[l] = 0; rv1[k] = f; w[k] = x;
        }
    }
    for (int64_t i = 1; i < N; i++) {  /* descending, vectors along */
        for (int64_t j = i; j > 0 && w[j - 1] < w[j]; j--) {
            R t = w[j]; w[j] = w[j - 1]; w[j - 1] = t;
            T *a = Ut + j * M, *b = Ut + (j - 1) * M;
            for (int64_t q2 = 0; q2 < mu; q2++) { T x2 = a[q2]; a[q2] = b[q2]; b[q2] = x2; }
            a = Vt + j * N; b = Vt + (j - 1) * N;
            for (int64_t q2 = 0; q2 < mv; q2++) { T x2 = a[q2]; a[q2] = b[q2]; b[q2] = x2; }
        }
    }
    free(lv0); free(rv0); free(ltau); free(rtau); free(d); free(e); free(U); free(V); free(work); free(rv1);
    return info;
}
