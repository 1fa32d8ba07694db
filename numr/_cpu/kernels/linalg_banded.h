/* Banded LU solve (LAPACK gbtf2 + gbtrs, no transpose), one dtype: included by linalg_lax.h with
 * LX_T (element), LX_R (its real type), LX_SFX, LX_CJ(x), LX_ABS1(x) (|re| + |im|, LAPACK's i?amax).
 * The same row choice as numr/ops/generic/matfunc_banded.py (a pivot of column j among rows j..j+kl,
 * the first largest), so both compute one LU up to rounding. */

/* A[i][j] of the work band: column j at w + j * ld, LAPACK's AB(kv + 1 + i - j, j) */
#define LX_GB(w, ld, kv, i, j) (w)[(j) * (ld) + (kv) + (i) - (j)]

/* x with A x = b: ab (kl + ku + 1, n) row-major, ab[ku + i - j][j] = A[i][j]; b (n, nrhs) row-major,
 * overwritten by x. Returns 0, 1 + the first exactly zero pivot (b then unchanged) or -2 (no memory). */
static int LX_CAT(gbsv_, LX_SFX)(const LX_T *ab, int64_t n, int64_t kl, int64_t ku, LX_T *b, int64_t nrhs) {
    int64_t kv = kl + ku, ld = 2 * kl + ku + 1, ju = 0;
    LX_T *w = (LX_T *)calloc((size_t)(n * ld), sizeof(LX_T));
    int64_t *piv = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    if (!w || !piv) { free(w); free(piv); return -2; }
    for (int64_t t = 0; t <= kv; t++)  /* band row t = ku + i - j is work row kl + t */
        for (int64_t j = 0; j < n; j++) w[j * ld + kl + t] = ab[t * n + j];
    for (int64_t j = 0; j < n; j++) {  /* gbtf2: the pivot row's entries to ju fill U's extra bands */
        int64_t km = kl < n - 1 - j ? kl : n - 1 - j, jp = 0;
        LX_T *cj = w + j * ld + kv;  /* A[j + i][j] at cj[i] */
        LX_R best = LX_ABS1(cj[0]);
        for (int64_t i = 1; i <= km; i++) {
            LX_R v = LX_ABS1(cj[i]);
            if (v > best) { best = v; jp = i; }
        }
        piv[j] = j + jp;
        if (cj[jp] == 0) { free(w); free(piv); return (int)j + 1; }
        int64_t e = j + ku + jp < n - 1 ? j + ku + jp : n - 1;
        if (e > ju) ju = e;
        if (jp)
            for (int64_t c = j; c <= ju; c++) {
                LX_T t = LX_GB(w, ld, kv, j, c);
                LX_GB(w, ld, kv, j, c) = LX_GB(w, ld, kv, j + jp, c);
                LX_GB(w, ld, kv, j + jp, c) = t;
            }
        if (km > 0) {
            LX_T r = (LX_T)1 / cj[0];
            for (int64_t i = 1; i <= km; i++) cj[i] *= r;
            for (int64_t c = j + 1; c <= ju; c++) {
                LX_T u = LX_GB(w, ld, kv, j, c), *wc = &LX_GB(w, ld, kv, j + 1, c);
                for (int64_t i = 1; i <= km; i++) wc[i - 1] -= cj[i] * u;
            }
        }
    }
    for (int64_t j = 0; j + 1 < n && kl > 0; j++) {  /* gbtrs: P and L forward, row by row */
        int64_t lm = kl < n - 1 - j ? kl : n - 1 - j, p = piv[j];
        LX_T *bj = b + j * nrhs;
        if (p != j)
            for (int64_t c = 0; c < nrhs; c++) { LX_T t = bj[c]; bj[c] = b[p * nrhs + c]; b[p * nrhs + c] = t; }
        for (int64_t i = 1; i <= lm; i++) {
            LX_T l = LX_GB(w, ld, kv, j + i, j), *bi = b + (j + i) * nrhs;
            for (int64_t c = 0; c < nrhs; c++) bi[c] -= l * bj[c];
        }
    }
    for (int64_t j = n - 1; j >= 0; j--) {  /* U (kl + ku superdiagonals) backward */
        LX_T d = LX_GB(w, ld, kv, j, j), *bj = b + j * nrhs;
        for (int64_t c = 0; c < nrhs; c++) bj[c] /= d;
        for (int64_t i = j - kv > 0 ? j - kv : 0; i < j; i++) {
            LX_T u = LX_GB(w, ld, kv, i, j), *bi = b + i * nrhs;
            for (int64_t c = 0; c < nrhs; c++) bi[c] -= u * bj[c];
        }
    }
    free(w);
    free(piv);
    return 0;
}
