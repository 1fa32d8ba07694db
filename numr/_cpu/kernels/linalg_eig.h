/* The general (non-symmetric) eigendecomposition of a real matrix, one real dtype: included by
 * linalg_tmpl.h when NR_LA_REAL is set (T = R real, CT its complex type). Balancing, Householder
 * reduction to upper Hessenberg form (EISPACK orthes), Francis double-shift QR to the real Schur
 * form with 2x2 blocks for complex pairs (EISPACK hqr2, as in JAMA); the eigenvectors and the entry
 * eig_: linalg_eig_vec.h. Row-major contiguous, one matrix a call. */

#define EH(i, j) H[(i) * nn + (j)]
#define EV(i, j) V[(i) * nn + (j)]

#include "linalg_balance.h"

/* H (nn x nn) <- Q^T H Q upper Hessenberg by Householder reflections; V = Q^T when vec. The
 * reflector of step m is u = (ort[m], H[m+1.., m-1]) scaled (column m-1 keeps the input below the
 * subdiagonal until the end, as JAMA); f is scratch (nn). */
static void NR_CAT(orthes_, SFX)(T *H, T *V, int64_t nn, int vec, T *ort, T *f) {
    int64_t high = nn - 1;
    for (int64_t m = 1; m < high; m++) {
        R scale = 0;
        for (int64_t i = m; i <= high; i++) scale += NR_CAT(nr_fabs_, SFX)(EH(i, m - 1));
        ort[m] = 0;
        if (scale == 0) continue;
        R h = 0;
        for (int64_t i = high; i >= m; i--) { ort[i] = EH(i, m - 1) / scale; h += ort[i] * ort[i]; }
        R g = NR_CAT(nr_sqrt_, SFX)(h);
        if (ort[m] > 0) g = -g;
        h -= ort[m] * g;
        ort[m] -= g;
        /* H <- (I - u u^T / h) H on columns m..: f = u^T H */
        for (int64_t j = m; j < nn; j++) f[j] = 0;
        for (int64_t i = m; i <= high; i++) {
            R oi = ort[i];
            const T *hi = H + i * nn;
            #pragma omp simd
            for (int64_t j = m; j < nn; j++) f[j] += oi * hi[j];
        }
        for (int64_t i = m; i <= high; i++) {
            R oi = ort[i] / h;
            T *hi = H + i * nn;
            #pragma omp simd
            for (int64_t j = m; j < nn; j++) hi[j] -= oi * f[j];
        }
        /* H <- H (I - u u^T / h) */
        for (int64_t i = 0; i <= high; i++) {
            T *hi = H + i * nn;
            R s = 0;
            #pragma omp simd reduction(+:s)
            for (int64_t j = m; j <= high; j++) s += ort[j] * hi[j];
            s /= h;
            #pragma omp simd
            for (int64_t j = m; j <= high; j++) hi[j] -= s * ort[j];
        }
        ort[m] = scale * ort[m];
        EH(m, m - 1) = scale * g;
    }
    if (vec) {  /* V^T (rows: Q's columns) = H_1 ... H_{nn-2} applied from the last reflector */
        for (int64_t i = 0; i < nn * nn; i++) V[i] = 0;
        for (int64_t i = 0; i < nn; i++) EV(i, i) = 1;
        for (int64_t m = high - 1; m >= 1; m--) {
            R hm = EH(m, m - 1), om = ort[m];
            if (hm == 0 || om == 0) continue;
            /* u = (om, H[m+1.., m-1]); each row v of V^T: v[m..] += (v . u) u / (om hm) */
            f[m] = om;
            for (int64_t i = m + 1; i <= high; i++) f[i] = EH(i, m - 1);
            for (int64_t j = m; j <= high; j++) {
                T *vj = V + j * nn;
                R g = 0;
                #pragma omp simd reduction(+:g)
                for (int64_t i = m; i <= high; i++) g += vj[i] * f[i];
                g = (g / om) / hm;
                #pragma omp simd
                for (int64_t i = m; i <= high; i++) vj[i] += g * f[i];
            }
        }
    }
    for (int64_t i = 2; i < nn; i++)
        for (int64_t j = 0; j + 1 < i; j++) EH(i, j) = 0;
}

/* Francis double-shift QR of the Hessenberg H (nn x nn) to the real Schur form, eigenvalues
 * d + i e (a complex pair: positive imaginary part first); with vec, the Schur vectors are
 * accumulated into V (transposed: V^T's rows are contiguous). *normp: the Hessenberg matrix's
 * 1-norm sum (for the back-substitution's perturbations). 0, or 1 after 30 max(10, nn) iterations without convergence (LAPACK's limit). */
static int NR_CAT(hqr2_, SFX)(T *H, T *V, int64_t nn, R *d, R *e, int vec, R *normp) {
    const R eps = EPS;
    int64_t n = nn - 1, low = 0, high = nn - 1;
    R exshift = 0, p = 0, q = 0, r = 0, s = 0, z = 0, w, x, y;
    R norm = 0;
    for (int64_t i = 0; i < nn; i++)
        for (int64_t j = i > 0 ? i - 1 : 0; j < nn; j++) norm += NR_CAT(nr_fabs_, SFX)(EH(i, j));
    int iter = 0;
    int64_t total = 0, limit = 30 * (nn > 10 ? nn : 10);
    while (n >= low) {
        int64_t l = n;
        while (l > low) {  /* a single small subdiagonal element */
            s = NR_CAT(nr_fabs_, SFX)(EH(l - 1, l - 1)) + NR_CAT(nr_fabs_, SFX)(EH(l, l));
            if (s == 0) s = norm;
            if (NR_CAT(nr_fabs_, SFX)(EH(l, l - 1)) <= eps * s) break;  /* <=: a zero block deflates */
            l--;
        }
        if (l == n) {  /* one root */
            EH(n, n) += exshift;
            d[n] = EH(n, n); e[n] = 0;
            n--; iter = 0;
        } else if (l == n - 1) {  /* two roots */
            w = EH(n, n - 1) * EH(n - 1, n);
            p = (EH(n - 1, n - 1) - EH(n, n)) / 2;
            q = p * p + w;
            z = NR_CAT(nr_sqrt_, SFX)(NR_CAT(nr_fabs_, SFX)(q));
            EH(n, n) += exshift;
            EH(n - 1, n - 1) += exshift;
            x = EH(n, n);
            if (q >= 0) {  /* a real pair: the 2x2 block made triangular */
                z = p >= 0 ? p + z : p - z;
                d[n - 1] = x + z;
                d[n] = d[n - 1];
                if (z != 0) d[n] = x - w / z;
                e[n - 1] = 0; e[n] = 0;
                x = EH(n, n - 1);
                s = NR_CAT(nr_fabs_, SFX)(x) + NR_CAT(nr_fabs_, SFX)(z);
                p = x / s; q = z / s;
                r = NR_CAT(nr_sqrt_, SFX)(p * p + q * q);
                p /= r; q /= r;
                if (vec) {
                    for (int64_t j = n - 1; j < nn; j++) {
                        z = EH(n - 1, j);
                        EH(n - 1, j) = q * z + p * EH(n, j);
                        EH(n, j) = q * EH(n, j) - p * z;
                    }
                    for (int64_t i = 0; i <= n; i++) {
                        z = EH(i, n - 1);
                        EH(i, n - 1) = q * z + p * EH(i, n);
                        EH(i, n) = q * EH(i, n) - p * z;
                    }
                    T *v0 = V + (n - 1) * nn, *v1 = V + n * nn;  /* V^T's rows */
                    #pragma omp simd
                    for (int64_t i = low; i <= high; i++) {
                        R zz = v0[i];
                        v0[i] = q * zz + p * v1[i];
                        v1[i] = q * v1[i] - p * zz;
                    }
                }
            } else {  /* a complex pair */
                d[n - 1] = x + p; d[n] = x + p;
                e[n - 1] = z; e[n] = -z;
            }
            n -= 2; iter = 0;
        } else {  /* no convergence yet */
            if (total++ >= limit) return 1;
            x = EH(n, n); y = 0; w = 0;
            if (l < n) { y = EH(n - 1, n - 1); w = EH(n, n - 1) * EH(n - 1, n); }
            if (iter == 10) {  /* Wilkinson's exceptional shift */
                exshift += x;
                for (int64_t i = low; i <= n; i++) EH(i, i) -= x;
                s = NR_CAT(nr_fabs_, SFX)(EH(n, n - 1)) + NR_CAT(nr_fabs_, SFX)(EH(n - 1, n - 2));
                x = y = (R)0.75 * s;
                w = (R)-0.4375 * s * s;
            }
            if (iter == 30) {  /* MATLAB's exceptional shift */
                s = (y - x) / 2;
                s = s * s + w;
                if (s > 0) {
                    s = NR_CAT(nr_sqrt_, SFX)(s);
                    if (y < x) s = -s;
                    s = x - w / ((y - x) / 2 + s);
                    for (int64_t i = low; i <= n; i++) EH(i, i) -= s;
                    exshift += s;
                    x = y = w = (R)0.964;
                }
            }
            iter++;
            int64_t m = n - 2;
            while (m >= l) {  /* two consecutive small subdiagonal elements */
                z = EH(m, m);
                r = x - z; s = y - z;
                p = (r * s - w) / EH(m + 1, m) + EH(m, m + 1);
                q = EH(m + 1, m + 1) - z - r - s;
                r = EH(m + 2, m + 1);
                s = NR_CAT(nr_fabs_, SFX)(p) + NR_CAT(nr_fabs_, SFX)(q) + NR_CAT(nr_fabs_, SFX)(r);
                p /= s; q /= s; r /= s;
                if (m == l) break;
                if (NR_CAT(nr_fabs_, SFX)(EH(m, m - 1)) * (NR_CAT(nr_fabs_, SFX)(q) + NR_CAT(nr_fabs_, SFX)(r)) <
                    eps * (NR_CAT(nr_fabs_, SFX)(p) * (NR_CAT(nr_fabs_, SFX)(EH(m - 1, m - 1)) +
                           NR_CAT(nr_fabs_, SFX)(z) + NR_CAT(nr_fabs_, SFX)(EH(m + 1, m + 1)))))
                    break;
                m--;
            }
            for (int64_t i = m + 2; i <= n; i++) {
                EH(i, i - 2) = 0;
                if (i > m + 2) EH(i, i - 3) = 0;
            }
            /* the double QR step on rows l..n, columns m..n (the whole Schur form with vec) */
            int64_t jend = vec ? nn : n + 1, ibeg = vec ? 0 : l;
            for (int64_t k = m; k <= n - 1; k++) {
                int notlast = k != n - 1;
                if (k != m) {
                    p = EH(k, k - 1); q = EH(k + 1, k - 1);
                    r = notlast ? EH(k + 2, k - 1) : 0;
                    x = NR_CAT(nr_fabs_, SFX)(p) + NR_CAT(nr_fabs_, SFX)(q) + NR_CAT(nr_fabs_, SFX)(r);
                    if (x == 0) continue;
                    p /= x; q /= x; r /= x;
                }
                s = NR_CAT(nr_sqrt_, SFX)(p * p + q * q + r * r);
                if (p < 0) s = -s;
                if (s == 0) continue;
                if (k != m) EH(k, k - 1) = -s * x;
                else if (l != m) EH(k, k - 1) = -EH(k, k - 1);
                p += s;
                x = p / s; y = q / s; z = r / s; q /= p; r /= p;
                T *h0 = H + k * nn, *h1 = h0 + nn, *h2 = h1 + nn;
                if (notlast) {
                    for (int64_t j = k; j < jend; j++) {
                        R pp = h0[j] + q * h1[j] + r * h2[j];
                        h0[j] -= pp * x; h1[j] -= pp * y; h2[j] -= pp * z;
                    }
                } else {
                    for (int64_t j = k; j < jend; j++) {
                        R pp = h0[j] + q * h1[j];
                        h0[j] -= pp * x; h1[j] -= pp * y;
                    }
                }
                int64_t iend = n < k + 3 ? n : k + 3;
                for (int64_t i = ibeg; i <= iend; i++) {
                    T *hi = H + i * nn + k;
                    R pp = x * hi[0] + y * hi[1];
                    if (notlast) { pp += z * hi[2]; hi[2] -= pp * r; }
                    hi[0] -= pp; hi[1] -= pp * q;
                }
                if (vec) {  /* V^T's rows k, k+1, k+2 */
                    T *v0 = V + k * nn, *v1 = v0 + nn, *v2 = v1 + nn;
                    if (notlast) {
                        #pragma omp simd
                        for (int64_t i = low; i <= high; i++) {
                            R pp = x * v0[i] + y * v1[i] + z * v2[i];
                            v2[i] -= pp * r; v0[i] -= pp; v1[i] -= pp * q;
                        }
                    } else {
                        #pragma omp simd
                        for (int64_t i = low; i <= high; i++) {
                            R pp = x * v0[i] + y * v1[i];
                            v0[i] -= pp; v1[i] -= pp * q;
                        }
                    }
                }
            }
        }
    }
    *normp = norm;
    return 0;
}

#undef EH
#undef EV
