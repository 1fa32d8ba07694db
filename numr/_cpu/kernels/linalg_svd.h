/* SVD by one-sided Jacobi, and conj, one dtype: included by linalg_tmpl.h (see there for T, R, SFX, CONJ, RE,
 * ABS2, ABS1, EPS, CODE). Row-major contiguous matrices, one matrix a call, in place. */

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
