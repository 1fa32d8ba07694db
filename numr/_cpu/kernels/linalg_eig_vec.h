/* The general eigendecomposition of a real matrix, second part (one real dtype, included by
 * linalg_tmpl.h after linalg_eig.h): the eigenvectors by back-substitution on the real Schur form
 * and back-transformation (EISPACK hqr2's second half, as in JAMA), and the entry eig_. */

#define EH(i, j) H[(i) * nn + (j)]
#define EV(i, j) V[(i) * nn + (j)]

/* (xr + i xi) / (yr + i yi) by Smith's rule */
static inline void NR_CAT(cdiv_, SFX)(R xr, R xi, R yr, R yi, R *cr, R *ci) {
    R r, d;
    if (NR_CAT(nr_fabs_, SFX)(yr) > NR_CAT(nr_fabs_, SFX)(yi)) {
        r = yi / yr; d = yr + r * yi;
        *cr = (xr + r * xi) / d; *ci = (xi - r * xr) / d;
    } else {
        r = yr / yi; d = yi + r * yr;
        *cr = (r * xr + xi) / d; *ci = (r * xi - xr) / d;
    }
}

/* Eigenvectors of the real Schur form H (nn x nn, eigenvalues d + i e) by back-substitution (in
 * H's upper triangle: real vectors, or a pair's real and imaginary parts in two columns), then
 * V <- V H by numr's GEMM, V given transposed (hqr2_'s Schur vectors) and returned plain. */
static void NR_CAT(schur_vectors_, SFX)(T *H, T *V, int64_t nn, const R *d, const R *e, R norm, T *tmp) {
    const R eps = EPS;
    R p, q, r = 0, s = 0, t, w, x, y, z = 0;
    int64_t n;
    /* back-substitution: the quasi-triangular form's eigenvectors, in H's upper triangle */
    for (n = nn - 1; n >= 0; n--) {
        p = d[n]; q = e[n];
        if (q == 0) {  /* a real vector */
            int64_t l = n;
            EH(n, n) = 1;
            for (int64_t i = n - 1; i >= 0; i--) {
                w = EH(i, i) - p;
                r = 0;
                for (int64_t j = l; j <= n; j++) r += EH(i, j) * EH(j, n);
                if (e[i] < 0) { z = w; s = r; }
                else {
                    l = i;
                    if (e[i] == 0) EH(i, n) = w != 0 ? -r / w : -r / (eps * norm);
                    else {  /* a 2x2 block */
                        x = EH(i, i + 1); y = EH(i + 1, i);
                        q = (d[i] - p) * (d[i] - p) + e[i] * e[i];
                        t = (x * s - z * r) / q;
                        EH(i, n) = t;
                        EH(i + 1, n) = NR_CAT(nr_fabs_, SFX)(x) > NR_CAT(nr_fabs_, SFX)(z) ? (-r - w * t) / x
                                                                                            : (-s - y * t) / z;
                    }
                    t = NR_CAT(nr_fabs_, SFX)(EH(i, n));  /* overflow control */
                    if ((eps * t) * t > 1)
                        for (int64_t j = i; j <= n; j++) EH(j, n) /= t;
                }
            }
        } else if (q < 0) {  /* a complex vector: columns n-1 (real part) and n (imaginary part) */
            int64_t l = n - 1;
            if (NR_CAT(nr_fabs_, SFX)(EH(n, n - 1)) > NR_CAT(nr_fabs_, SFX)(EH(n - 1, n))) {
                EH(n - 1, n - 1) = q / EH(n, n - 1);
                EH(n - 1, n) = -(EH(n, n) - p) / EH(n, n - 1);
            } else {
                R cr, ci;
                NR_CAT(cdiv_, SFX)(0, -EH(n - 1, n), EH(n - 1, n - 1) - p, q, &cr, &ci);
                EH(n - 1, n - 1) = cr; EH(n - 1, n) = ci;
            }
            EH(n, n - 1) = 0; EH(n, n) = 1;
            for (int64_t i = n - 2; i >= 0; i--) {
                R ra = 0, sa = 0, vr, vi, cr, ci;
                for (int64_t j = l; j <= n; j++) { ra += EH(i, j) * EH(j, n - 1); sa += EH(i, j) * EH(j, n); }
                w = EH(i, i) - p;
                if (e[i] < 0) { z = w; r = ra; s = sa; }
                else {
                    l = i;
                    if (e[i] == 0) {
                        NR_CAT(cdiv_, SFX)(-ra, -sa, w, q, &cr, &ci);
                        EH(i, n - 1) = cr; EH(i, n) = ci;
                    } else {  /* a 2x2 block */
                        x = EH(i, i + 1); y = EH(i + 1, i);
                        vr = (d[i] - p) * (d[i] - p) + e[i] * e[i] - q * q;
                        vi = (d[i] - p) * 2 * q;
                        if (vr == 0 && vi == 0)
                            vr = eps * norm * (NR_CAT(nr_fabs_, SFX)(w) + NR_CAT(nr_fabs_, SFX)(q) +
                                               NR_CAT(nr_fabs_, SFX)(x) + NR_CAT(nr_fabs_, SFX)(y) +
                                               NR_CAT(nr_fabs_, SFX)(z));
                        NR_CAT(cdiv_, SFX)(x * r - z * ra + q * sa, x * s - z * sa - q * ra, vr, vi, &cr, &ci);
                        EH(i, n - 1) = cr; EH(i, n) = ci;
                        if (NR_CAT(nr_fabs_, SFX)(x) > NR_CAT(nr_fabs_, SFX)(z) + NR_CAT(nr_fabs_, SFX)(q)) {
                            EH(i + 1, n - 1) = (-ra - w * EH(i, n - 1) + q * EH(i, n)) / x;
                            EH(i + 1, n) = (-sa - w * EH(i, n) - q * EH(i, n - 1)) / x;
                        } else {
                            NR_CAT(cdiv_, SFX)(-r - y * EH(i, n - 1), -s - y * EH(i, n), z, q, &cr, &ci);
                            EH(i + 1, n - 1) = cr; EH(i + 1, n) = ci;
                        }
                    }
                    R a0 = NR_CAT(nr_fabs_, SFX)(EH(i, n - 1)), a1 = NR_CAT(nr_fabs_, SFX)(EH(i, n));
                    t = a0 > a1 ? a0 : a1;  /* overflow control */
                    if ((eps * t) * t > 1)
                        for (int64_t j = i; j <= n; j++) { EH(j, n - 1) /= t; EH(j, n) /= t; }
                }
            }
        }
    }
    /* back-transformation V <- V triu(H) by numr's GEMM (V from the V^T kept so far) */
    for (int64_t i = 1; i < nn; i++)
        for (int64_t j = 0; j < i; j++) EH(i, j) = 0;
    for (int64_t i = 0; i < nn; i++)
        for (int64_t j = 0; j < nn; j++) tmp[j * nn + i] = EV(i, j);
    NR_CAT(gemm_, SFX)(tmp, nn, H, nn, V, nn, nn, nn);
}

/* eig of A (n x n, destroyed): w (n, complex), and with vec the eigenvectors as W's columns
 * (n x n complex, unit 2-norm, the largest component real, as LAPACK's geev). NaN or inf in: all
 * NaN out. 0, or 1 when the QR iteration did not converge. */
static int NR_CAT(eig_, SFX)(T *A, int64_t n, CT *w, CT *W, int vec) {
    for (int64_t i = 0; i < n * n; i++) {
        if (A[i] - A[i] != 0) {
            for (int64_t j = 0; j < n; j++) w[j] = NAN;
            for (int64_t j = 0; vec && j < n * n; j++) W[j] = NAN;
            return 0;
        }
    }
    if (n == 0) return 0;
    R sc = NR_CAT(scale_pow2_, SFX)(A, n * n);  /* the eigenvalues scale back at the end */
    T *buf = (T *)malloc(sizeof(T) * (2 * n * n + 4 * n + 1));
    if (!buf) return 2;
    T *V = buf, *tmp = buf + n * n, *ort = tmp + n * n, *f = ort + n;
    R *d = f + n, *e = d + n;
    R *D = (R *)malloc(sizeof(R) * (n + 1));
    NR_CAT(balance_, SFX)(A, n, D);
    NR_CAT(orthes_, SFX)(A, V, n, vec, ort, f);
    R norm = 0;
    int info = NR_CAT(hqr2_, SFX)(A, V, n, d, e, vec, &norm);
    if (vec && !info && norm != 0) NR_CAT(schur_vectors_, SFX)(A, V, n, d, e, norm, tmp);
    for (int64_t j = 0; j < n; j++) w[j] = info ? NAN : (d[j] / sc) + (e[j] / sc) * (CT)_Complex_I;
    for (int64_t i = 0; vec && !info && i < n; i++)  /* A's vectors: D times the balanced matrix's */
        for (int64_t j = 0; j < n; j++) V[i * n + j] *= D[i];
    free(D);
    for (int64_t j = 0; vec && j < n; j++) {
        if (info) { for (int64_t i = 0; i < n; i++) W[i * n + j] = NAN; continue; }
        int pair = e[j] != 0 && j + 1 < n;
        R nrm = 0, big = -1;
        int64_t ib = 0;
        CT ph = 1;
        for (int64_t i = 0; i < n; i++) {
            R re = V[i * n + j], im = pair ? V[i * n + j + 1] : 0;
            R a2 = re * re + im * im;
            nrm += a2;
            if (a2 > big) { big = a2; ib = i; ph = re - im * (CT)_Complex_I; }
        }
        nrm = NR_CAT(nr_sqrt_, SFX)(nrm);
        R ab = NR_CAT(nr_sqrt_, SFX)(big);
        ph = pair && ab > 0 ? ph / ab : (CT)1;
        R inv = nrm > 0 ? 1 / nrm : 1;
        for (int64_t i = 0; i < n; i++) {
            R re = V[i * n + j], im = pair ? V[i * n + j + 1] : 0;
            CT v = (re + im * (CT)_Complex_I) * ph * inv;
            if (pair && i == ib) v = __real__ v;  /* exactly real, as LAPACK */
            W[i * n + j] = v;
            if (pair) W[i * n + j + 1] = ~v;
        }
        if (pair) j++;
    }
    free(buf);
    return info;
}

#undef EH
#undef EV
