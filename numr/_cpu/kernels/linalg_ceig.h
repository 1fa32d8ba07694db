/* The eigendecomposition of a complex matrix, one complex dtype: included by linalg_tmpl.h when
 * NR_LA_REAL is not set. Balancing, Householder reduction to upper Hessenberg form, complex single-shift QR
 * (Wilkinson shifts, Givens bulge chase, as LAPACK's zlahqr) to the Schur form T = Z^H A Z,
 * eigenvectors of T by back-substitution, then V = Z X by GEMM. Row-major, one matrix a call. */

#define CH(i, j) H[(i) * n + (j)]

#include "linalg_balance.h"

/* The Schur form of the Hessenberg H (n x n) in place; with vec, Zt (Z^T, rows contiguous) rotated
 * along. 0, or 1 after 30 max(10, n) sweeps without convergence. */
static int NR_CAT(cschur_, SFX)(T *H, T *Zt, int64_t n, int vec) {
    int64_t hi = n - 1, total = 0, limit = 30 * (n > 10 ? n : 10);
    int iter = 0;
    while (hi > 0) {
        int64_t l = hi;
        for (; l > 0; l--) {  /* a negligible subdiagonal entry */
            R s = ABS1(CH(l - 1, l - 1)) + ABS1(CH(l, l));
            if (ABS1(CH(l, l - 1)) <= EPS * s || ABS1(CH(l, l - 1)) < NR_CAT(NR_TINY_, SFX)) {
                CH(l, l - 1) = 0;
                break;
            }
        }
        if (l == hi) { hi--; iter = 0; continue; }
        if (total++ >= limit) return 1;
        iter++;
        T mu;
        if (iter % 10 == 0) {  /* exceptional shift */
            mu = CH(hi, hi) + (R)0.75 * NR_CAT(nr_fabs_, SFX)(RE(CH(hi, hi - 1)));
        } else {  /* Wilkinson: the trailing 2x2 block's eigenvalue nearer to its last diagonal entry */
            T a = CH(hi - 1, hi - 1), b = CH(hi - 1, hi), c = CH(hi, hi - 1), d = CH(hi, hi);
            T p = (a - d) / 2, bc = b * c;
            T disc = p * p + bc;
            T sq = sizeof(R) == 4 ? (T)__builtin_csqrtf((nr_c64)disc) : (T)__builtin_csqrt((nr_c128)disc);
            T den = ABS1(p + sq) >= ABS1(p - sq) ? p + sq : p - sq;
            mu = den == 0 ? d : d - bc / den;
        }
        T x = CH(l, l) - mu, y = CH(l + 1, l);
        int64_t jend = vec ? n : hi + 1, ibeg = vec ? 0 : l;
        for (int64_t k = l; k < hi; k++) {
            R c; T s;
            if (k > l) { x = CH(k, k - 1); y = CH(k + 1, k - 1); }
            NR_CAT(cgivens_, SFX)(x, y, &c, &s);
            int64_t j0 = k > l ? k - 1 : l;
            T *h0 = H + k * n, *h1 = h0 + n, cs = CONJ(s);
            for (int64_t j = j0; j < jend; j++) {
                T a = h0[j], b = h1[j];
                h0[j] = c * a + s * b;
                h1[j] = c * b - cs * a;
            }
            if (k > l) CH(k + 1, k - 1) = 0;
            int64_t iend = k + 2 < hi ? k + 2 : hi;
            for (int64_t i = ibeg; i <= iend; i++) {
                T a = CH(i, k), b = CH(i, k + 1);
                CH(i, k) = c * a + cs * b;
                CH(i, k + 1) = c * b - s * a;
            }
            if (vec) {
                T *z0 = Zt + k * n, *z1 = z0 + n;
                for (int64_t i = 0; i < n; i++) {
                    T a = z0[i], b = z1[i];
                    z0[i] = c * a + cs * b;
                    z1[i] = c * b - s * a;
                }
            }
        }
    }
    return 0;
}

/* H (n x n) <- Z^H H Z upper Hessenberg by Householder reflections; with vec, Zt = Z^T. Scratch:
 * Z (n x n), u, f, heads (n each), taus (n). Shared by eig_ and schur_ (linalg_schur.h). */
static void NR_CAT(chess_, SFX)(T *H, T *Zt, int64_t n, int vec, T *Z, T *u, T *f, T *heads, R *taus) {
    for (int64_t k = 0; k + 2 < n; k++) {  /* reflector on rows/cols k+1.. zeroing H[k+2.., k] */
        R x2 = 0;
        for (int64_t i = k + 2; i < n; i++) x2 += ABS2(CH(i, k));
        T v0, beta;
        R tau = NR_CAT(house_, SFX)(CH(k + 1, k), x2, &v0, &beta);
        taus[k] = tau;
        if (tau == 0) continue;
        u[k + 1] = v0;
        for (int64_t i = k + 2; i < n; i++) u[i] = CH(i, k);
        for (int64_t j = k + 1; j < n; j++) f[j] = 0;  /* left: f = v^H H, H -= tau v f */
        for (int64_t i = k + 1; i < n; i++) {
            T ui = CONJ(u[i]);
            const T *hi = H + i * n;
            for (int64_t j = k + 1; j < n; j++) f[j] += ui * hi[j];
        }
        for (int64_t i = k + 1; i < n; i++) {
            T ui = tau * u[i];
            T *hi = H + i * n;
            for (int64_t j = k + 1; j < n; j++) hi[j] -= ui * f[j];
        }
        for (int64_t i = 0; i < n; i++) {  /* right: H -= tau (H v) v^H */
            T *hi = H + i * n, s = 0;
            for (int64_t j = k + 1; j < n; j++) s += hi[j] * u[j];
            s *= tau;
            for (int64_t j = k + 1; j < n; j++) hi[j] -= s * CONJ(u[j]);
        }
        CH(k + 1, k) = beta;
        heads[k] = v0;  /* the head; the tail stays in column k until Z is formed */
    }
    if (vec) {  /* Z = H_0 ... H_{n-3} (rows from the last reflector), kept as Zt = Z^T */
        for (int64_t i = 0; i < n * n; i++) Z[i] = 0;
        for (int64_t i = 0; i < n; i++) Z[i * n + i] = 1;
        for (int64_t k = n - 3; k >= 0; k--) {
            if (taus[k] == 0) continue;
            u[k + 1] = heads[k];
            for (int64_t i = k + 2; i < n; i++) u[i] = CH(i, k);
            for (int64_t j = k + 1; j < n; j++) f[j] = 0;
            for (int64_t i = k + 1; i < n; i++) {
                T ui = CONJ(u[i]);
                const T *zi = Z + i * n;
                for (int64_t j = k + 1; j < n; j++) f[j] += ui * zi[j];
            }
            for (int64_t i = k + 1; i < n; i++) {
                T ui = taus[k] * u[i];
                T *zi = Z + i * n;
                for (int64_t j = k + 1; j < n; j++) zi[j] -= ui * f[j];
            }
        }
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) Zt[j * n + i] = Z[i * n + j];
    }
    for (int64_t i = 2; i < n; i++)
        for (int64_t j = 0; j + 1 < i; j++) CH(i, j) = 0;
}

/* eig of the complex A (n x n, destroyed): w (n) and with vec the vectors as W's columns (unit
 * 2-norm, largest component real). NaN or inf in: all NaN out. 0, 1 (no convergence), 2 (memory). */
static int NR_CAT(eig_, SFX)(T *A, int64_t n, T *w, T *W, int vec) {
    for (int64_t i = 0; i < n * n; i++) {
        if (!(ABS1(A[i]) - ABS1(A[i]) == 0)) {
            for (int64_t j = 0; j < n; j++) w[j] = NAN;
            for (int64_t j = 0; vec && j < n * n; j++) W[j] = NAN;
            return 0;
        }
    }
    if (n == 0) return 0;
    R sc = NR_CAT(scale_pow2_, SFX)(A, n * n);
    T *buf = (T *)malloc(sizeof(T) * (3 * n * n + 3 * n + 1));
    if (!buf) return 2;
    T *H = A, *Zt = buf, *X = buf + n * n, *tmp = X + n * n, *u = tmp + n * n, *f = u + n;
    R *taus = (R *)malloc(sizeof(R) * (2 * n + 1)), *D = taus + n;
    NR_CAT(balance_, SFX)(A, n, D);
    NR_CAT(chess_, SFX)(H, Zt, n, vec, tmp, u, f, X + n * n - n, taus);
    int info = NR_CAT(cschur_, SFX)(H, Zt, n, vec);
    for (int64_t j = 0; j < n; j++) w[j] = info ? (T)NAN : CH(j, j) / sc;
    if (!vec || info) {
        for (int64_t j = 0; vec && j < n * n; j++) W[j] = NAN;
        free(buf); free(taus);
        return info;
    }
    R tnorm = 0;
    for (int64_t i = 0; i < n * n; i++) tnorm = ABS1(H[i]) > tnorm ? ABS1(H[i]) : tnorm;
    R small = EPS * (tnorm > 0 ? tnorm : 1);  /* the matrix is scaled to max |a| ~ 1 (or zero) */
    /* X's rows: T's eigenvectors x_k (x_k[k] = 1, zero below), by back-substitution */
    for (int64_t i = 0; i < n * n; i++) X[i] = 0;
    for (int64_t k = 0; k < n; k++) {
        T *xk = X + k * n, lam = CH(k, k);
        xk[k] = 1;
        for (int64_t i = k - 1; i >= 0; i--) {
            const T *ti = H + i * n;
            T s = 0;
            for (int64_t j = i + 1; j <= k; j++) s += ti[j] * xk[j];
            T den = ti[i] - lam;  /* a (near) repeated eigenvalue: perturbed to small (real division) */
            if (ABS1(den) < small) xk[i] = -s / small;
            else xk[i] = -s / den;
            if (ABS1(xk[i]) > 1 / (EPS * EPS)) {  /* overflow control */
                R g = EPS * EPS;
                for (int64_t j = i; j <= k; j++) xk[j] *= g;
            }
        }
    }
    /* V = Z X: (Z from Zt) times X^T, X^T formed in H (no longer needed) */
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) { tmp[i * n + j] = Zt[j * n + i]; H[i * n + j] = X[j * n + i]; }
    NR_CAT(gemm_, SFX)(tmp, n, H, n, W, n, n, n);
    for (int64_t i = 0; i < n; i++)  /* A's vectors: D times the balanced matrix's */
        for (int64_t j = 0; j < n; j++) W[i * n + j] *= D[i];
    free(taus);
    for (int64_t j = 0; j < n; j++) {  /* unit columns, the largest component real */
        R nrm = 0, big = -1;
        int64_t ib = 0;
        for (int64_t i = 0; i < n; i++) {
            R a2 = ABS2(W[i * n + j]);
            nrm += a2;
            if (a2 > big) { big = a2; ib = i; }
        }
        nrm = NR_CAT(nr_sqrt_, SFX)(nrm);
        T b = W[ib * n + j];
        R ab = ABSV(b);
        T ph = ab > 0 && nrm > 0 ? CONJ(b) / ab / nrm : (T)1;
        for (int64_t i = 0; i < n; i++) W[i * n + j] *= ph;
        W[ib * n + j] = RE(W[ib * n + j]);
    }
    free(buf);
    return 0;
}

#undef CH
