/* The SVD entry (on A for m >= n, on A^H for m < n, through gk_ in linalg_gk.h) and conj, one
 * dtype: included by linalg_tmpl.h (see there for T, R, SFX, CONJ). Row-major, in place. */

/* SVD of A (m x n): s (k = min(m, n), descending), U (m x ku), Vh (kv x n) with ku = kv = k, or
 * ku = m and kv = n (full); with vec 0 only s. A is destroyed. 0, or 1 when it did not converge.
 * NaN in: NaN out. */
static int NR_CAT(svd_, SFX)(T *A, int64_t m, int64_t n, R *s, T *U, T *Vh, int full, int vec) {
    int trans = m < n;
    int64_t k = trans ? m : n;
    for (int64_t i = 0; i < m * n; i++) {
        if (A[i] != A[i]) {
            int64_t ku_ = full ? m : k, kv_ = full ? n : k;
            for (int64_t j = 0; j < k; j++) s[j] = NAN;
            if (!vec) return 0;
            for (int64_t j = 0; j < m * ku_; j++) U[j] = NAN;
            for (int64_t j = 0; j < kv_ * n; j++) Vh[j] = NAN;
            return 0;
        }
    }
    int64_t M = trans ? n : m, N = k;               /* the factored matrix B is M x N, M >= N */
    int64_t ku = full ? M : N;                      /* B's left vectors kept */
    T *B = (T *)malloc(sizeof(T) * (M * N + 1));
    T *Ut = (T *)malloc(sizeof(T) * (ku * M + 1));  /* rows: B's left vectors */
    T *Vt = (T *)malloc(sizeof(T) * (N * N + 1));   /* rows: B's right vectors */
    if (!trans) { for (int64_t i = 0; i < m * n; i++) B[i] = A[i]; }
    else {
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) B[i * N + j] = CONJ(A[j * n + i]);
    }
    R sc = NR_CAT(scale_pow2_, SFX)(B, M * N);
    int info = NR_CAT(gk_, SFX)(B, M, N, ku, s, Ut, Vt, vec);
    for (int64_t j = 0; j < N; j++) s[j] /= sc;
    if (!vec) {
    } else if (!trans) {  /* A = B = U S V^H */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < ku; j++) U[i * ku + j] = Ut[j * M + i];
        for (int64_t j = 0; j < N * N; j++) Vh[j] = CONJ(Vt[j]);
    } else {       /* A = B^H = V S U_B^H: U = V (m x m), Vh = U_B^H (ku x n) */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < N; j++) U[i * N + j] = Vt[j * N + i];
        for (int64_t j = 0; j < ku * n; j++) Vh[j] = CONJ(Ut[j]);
    }
    free(B); free(Ut); free(Vt);
    return info;
}

