/* LDL^T / LDL^H with Bunch-Kaufman pivoting (LAPACK sytf2/hetf2, lower), one dtype: included by
 * linalg_lax.h (see there for LX_T, LX_R, LX_SFX, LX_CJ, LX_ABS1). Step by step the decisions of
 * numr/ops/generic/decomp_ldl.py (the same tests, NaN rules and formulas), in place on the lower
 * triangle as LAPACK: interchanges touch only the trailing matrix, so L's columns stay put; D's 1x1/2x2
 * blocks on and under the diagonal, zeros above. */

#define LX_ALPHA 0.6403882032022076  /* (1 + sqrt(17)) / 8, Bunch-Kaufman's growth bound */

/* One matrix a (n x n, row-major; its lower triangle read): LD in place, 1-based pivots (negative
 * twice for a 2x2 block), *info = 1 + the first exactly zero 1x1 pivot or 0; w: 2n scratch. */
static void LX_CAT(sytf2_one_, LX_SFX)(LX_T *a, int64_t n, int herm, int32_t *piv, int32_t *info, LX_T *w) {
    const LX_R alpha = (LX_R)LX_ALPHA;
    *info = 0;
    for (int64_t k = 0; k < n; k++) {  /* S[i][j] (i >= j) at a[i * n + j]; above it: its conjugate */
        LX_R absakk = LX_ABS1(a[k * n + k]), cm = -1, rowmax = 0;
        int64_t imax = 0;
        for (int64_t i = k + 1; i < n; i++) {  /* argmax: the first largest, NaN first of all */
            LX_R v = LX_ABS1(a[i * n + k]);
            if (v > cm || (isnan(v) && !isnan(cm))) { cm = v; imax = i; }
        }
        LX_R colmax = isnan(cm) ? cm : (cm > 0 ? cm : 0);
        for (int64_t r = k; r < n; r++) {  /* |S[imax, r]| off the diagonal (|re| + |im|: conj alike) */
            LX_R v = r == imax ? 0 : LX_ABS1(r < imax ? a[imax * n + r] : a[r * n + imax]);
            if (isnan(v) || v > rowmax) rowmax = isnan(rowmax) ? rowmax : v;
        }
        LX_R aimax = LX_ABS1(a[imax * n + imax]);
        int zero = (absakk == 0 && colmax == 0) || isnan(absakk);
        int nopiv = zero || absakk >= alpha * colmax || absakk * rowmax >= alpha * colmax * colmax;
        int two = !(nopiv || aimax >= alpha * rowmax);
        int64_t kp = nopiv ? k : imax, kk = k + two;
        if (kp != kk) {  /* P S P^T on the trailing lower triangle (LAPACK's interchange) */
            LX_T t;
            for (int64_t r = k; r < kk; r++) { t = a[kk * n + r]; a[kk * n + r] = a[kp * n + r]; a[kp * n + r] = t; }
            t = a[kk * n + kk]; a[kk * n + kk] = a[kp * n + kp]; a[kp * n + kp] = t;
            for (int64_t j = kk + 1; j < kp; j++) {
                t = a[j * n + kk];
                a[j * n + kk] = herm ? LX_CJ(a[kp * n + j]) : a[kp * n + j];
                a[kp * n + j] = herm ? LX_CJ(t) : t;
            }
            if (herm) a[kp * n + kk] = LX_CJ(a[kp * n + kk]);
            for (int64_t j = kp + 1; j < n; j++) { t = a[j * n + kk]; a[j * n + kk] = a[j * n + kp]; a[j * n + kp] = t; }
        }
        LX_T d = a[k * n + k];
        if (!two) {
            piv[k] = (int32_t)(kp + 1);
            if (zero) {
                if (!*info) *info = (int32_t)(k + 1);
                for (int64_t i = k + 1; i < n; i++) a[i * n + k] = 0;
                continue;
            }
            LX_T dd = d == 0 ? (LX_T)1 : d;
            for (int64_t j = k + 1; j < n; j++) w[j] = herm ? LX_CJ(a[j * n + k]) : a[j * n + k];
            for (int64_t i = k + 1; i < n; i++) {
                LX_T li = a[i * n + k] / dd, *ai = a + i * n;
                for (int64_t j = k + 1; j <= i; j++) ai[j] -= li * w[j];
                ai[k] = li;
            }
            continue;
        }
        LX_T d21 = a[(k + 1) * n + k], d22 = a[(k + 1) * n + k + 1], d12 = herm ? LX_CJ(d21) : d21;
        LX_T det = d * d22 - d12 * d21, *w1 = w + n;
        for (int64_t j = k + 2; j < n; j++) {
            w[j] = herm ? LX_CJ(a[j * n + k]) : a[j * n + k];
            w1[j] = herm ? LX_CJ(a[j * n + k + 1]) : a[j * n + k + 1];
        }
        for (int64_t i = k + 2; i < n; i++) {
            LX_T *ai = a + i * n, W0 = ai[k], W1 = ai[k + 1];
            LX_T L0 = (W0 * d22 - W1 * d21) / det, L1 = (W1 * d - W0 * d12) / det;
            for (int64_t j = k + 2; j <= i; j++) ai[j] -= L0 * w[j] + L1 * w1[j];
            ai[k] = L0;
            ai[k + 1] = L1;
        }
        piv[k] = piv[k + 1] = (int32_t)(-(kp + 1));
        k++;  /* the 2x2 block's second column is done */
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) a[i * n + j] = 0;
}

/* sytf2 over a batch of contiguous n x n matrices (threads over the batch from ~1M multiply-adds);
 * -2 when out of memory. */
static int LX_CAT(sytf2_, LX_SFX)(LX_T *a, int64_t batch, int64_t n, int herm, int32_t *piv, int32_t *info) {
    int nt = (batch > 1 && batch * n * n * n > (1 << 21)) ? nr_max_threads() : 1, bad = 0;
    if (nt > batch) nt = (int)batch;
    #pragma omp parallel num_threads(nt) reduction(|: bad)
    {
        LX_T *w = (LX_T *)malloc((size_t)(2 * n + 1) * sizeof(LX_T));
        #pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < batch; i++) {
            if (w) LX_CAT(sytf2_one_, LX_SFX)(a + i * n * n, n, herm, piv + i * n, info + i, w);
            else bad = 1;
        }
        free(w);
    }
    return bad ? -2 : 0;
}

/* ldl_solve of one system (LAPACK sytrs, lower; the composite's steps): B (n x nrhs, row-major) becomes
 * X with A X = B from ld (n x n) and valid 1-based pivots p; f: n flags of scratch. */
static void LX_CAT(sytrs_one_, LX_SFX)(const LX_T *ld, const int64_t *p, LX_T *b, int64_t n, int64_t m, int herm,
                                       char *f) {
    #define LX_SWAP_ROWS(r, q) if ((r) != (q)) for (int64_t c = 0; c < m; c++) { \
        LX_T t = b[(r) * m + c]; b[(r) * m + c] = b[(q) * m + c]; b[(q) * m + c] = t; }
    for (int64_t k = 0; k < n; k++) f[k] = 0;
    for (int64_t k = 0; k < n; k++) {  /* forward: P, L and D */
        LX_T *bk = b + k * m;
        if (p[k] > 0) {
            LX_SWAP_ROWS(k, p[k] - 1)
            for (int64_t i = k + 1; i < n; i++) {
                LX_T l = ld[i * n + k], *bi = b + i * m;
                for (int64_t c = 0; c < m; c++) bi[c] -= l * bk[c];
            }
            LX_T d = ld[k * n + k];
            for (int64_t c = 0; c < m; c++) bk[c] /= d;
        } else if (k + 1 < n) {
            f[k] = 1;
            LX_SWAP_ROWS(k + 1, -p[k] - 1)
            LX_T *bk1 = bk + m;
            for (int64_t i = k + 2; i < n; i++) {
                LX_T l0 = ld[i * n + k], l1 = ld[i * n + k + 1], *bi = b + i * m;
                for (int64_t c = 0; c < m; c++) bi[c] = bi[c] - l0 * bk[c] - l1 * bk1[c];
            }
            LX_T d11 = ld[k * n + k], d21 = ld[(k + 1) * n + k], d22 = ld[(k + 1) * n + k + 1];
            LX_T d12 = herm ? LX_CJ(d21) : d21, det = d11 * d22 - d12 * d21;
            for (int64_t c = 0; c < m; c++) {
                LX_T b0 = bk[c], b1 = bk1[c];
                bk[c] = (d22 * b0 - d12 * b1) / det;
                bk1[c] = (d11 * b1 - d21 * b0) / det;
            }
            k++;
        }
    }
    for (int64_t k = n - 1; k >= 0; k--) {  /* backward: L^T (L^H) and P */
        if (f[k]) continue;
        int sec = k > 0 && f[k - 1];
        LX_T *bk = b + k * m, *bm = sec ? b + (k - 1) * m : NULL;
        for (int64_t i = k + 1; i < n; i++) {
            LX_T l = herm ? LX_CJ(ld[i * n + k]) : ld[i * n + k], *bi = b + i * m;
            for (int64_t c = 0; c < m; c++) bk[c] -= l * bi[c];
            if (sec) {
                LX_T l1 = herm ? LX_CJ(ld[i * n + k - 1]) : ld[i * n + k - 1];
                for (int64_t c = 0; c < m; c++) bm[c] -= l1 * bi[c];
            }
        }
        LX_SWAP_ROWS(k, (p[k] > 0 ? p[k] : -p[k]) - 1)
    }
    #undef LX_SWAP_ROWS
}

/* sytrs over a batch: ld (batch, n, n), p (batch, n), b (batch, n, m), contiguous; -2: no memory */
static int LX_CAT(sytrs_, LX_SFX)(const LX_T *ld, const int64_t *p, LX_T *b, int64_t batch, int64_t n, int64_t m,
                                  int herm) {
    int nt = (batch > 1 && batch * n * n * (m + 1) > (1 << 21)) ? nr_max_threads() : 1, bad = 0;
    if (nt > batch) nt = (int)batch;
    #pragma omp parallel num_threads(nt) reduction(|: bad)
    {
        char *f = (char *)malloc((size_t)n + 1);
        #pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < batch; i++) {
            if (f) LX_CAT(sytrs_one_, LX_SFX)(ld + i * n * n, p + i * n, b + i * n * m, n, m, herm, f);
            else bad = 1;
        }
        free(f);
    }
    return bad ? -2 : 0;
}
