/* The Schur decomposition A = Z T Z^H (scipy.linalg.schur), one dtype: included by linalg_tmpl.h
 * after the eigendecomposition headers, whose Hessenberg reduction and QR iterations it reuses
 * (real: orthes_ + hqr2_ of linalg_eig.h, 2x2 blocks standardised as LAPACK's dlanv2; complex:
 * chess_ + cschur_ of linalg_ceig.h). No balancing (it is not a unitary similarity). For complex
 * dtypes also the upper-triangular square root (Higham's column recurrence, the Schur sqrtm) and
 * the Schur-Parlett recurrence of funm. Row-major contiguous, one matrix a call. */

#define SH(i, j) A[(i) * n + (j)]

/* NaN or inf in A: T and Z all NaN (1), else 0 */
static int NR_CAT(schur_nonfinite_, SFX)(T *A, T *Z, int64_t n) {
    for (int64_t i = 0; i < n * n; i++) {
        if (!(ABS1(A[i]) - ABS1(A[i]) == 0)) {
            for (int64_t j = 0; j < n * n; j++) { A[j] = NAN; Z[j] = NAN; }
            return 1;
        }
    }
    return 0;
}

#ifdef NR_LA_REAL

static inline R NR_CAT(sgn_, SFX)(R a, R b) { return b >= 0 ? NR_CAT(nr_fabs_, SFX)(a) : -NR_CAT(nr_fabs_, SFX)(a); }

/* LAPACK's dlanv2: the rotation (cs, sn) taking the 2x2 block [a b; c d] to the standard form
 * (c = 0 for real eigenvalues, else a = d and b c < 0); the new block in place. */
static void NR_CAT(lanv2_, SFX)(R *pa, R *pb, R *pc, R *pd, R *cs, R *sn) {
    R a = *pa, b = *pb, c = *pc, d = *pd, eps = EPS;
    *cs = 1; *sn = 0;
    if (c == 0) {
    } else if (b == 0) {
        *cs = 0; *sn = 1;
        R t = d; d = a; a = t; b = -c; c = 0;
    } else if (a - d == 0 && (b > 0) != (c > 0)) {
    } else {
        R temp = a - d, p = temp / 2;
        R ab = NR_CAT(nr_fabs_, SFX)(b), ac = NR_CAT(nr_fabs_, SFX)(c);
        R bcmax = ab > ac ? ab : ac, bcmis = (ab < ac ? ab : ac) * NR_CAT(sgn_, SFX)(1, b) * NR_CAT(sgn_, SFX)(1, c);
        R ap = NR_CAT(nr_fabs_, SFX)(p), scale = ap > bcmax ? ap : bcmax;
        R z = p / scale * p + bcmax / scale * bcmis;
        if (z >= 4 * eps) {  /* real eigenvalues: triangular */
            z = p + NR_CAT(sgn_, SFX)(NR_CAT(nr_sqrt_, SFX)(scale) * NR_CAT(nr_sqrt_, SFX)(z), p);
            a = d + z; d = d - bcmax / z * bcmis;
            R tau = NR_CAT(pyth_, SFX)(c, z);
            *cs = z / tau; *sn = c / tau; b = b - c; c = 0;
        } else {  /* complex (or nearly equal real) eigenvalues: equal diagonal */
            R sigma = b + c, tau = NR_CAT(pyth_, SFX)(sigma, temp);
            *cs = NR_CAT(nr_sqrt_, SFX)((1 + NR_CAT(nr_fabs_, SFX)(sigma) / tau) / 2);
            *sn = -(p / (tau * *cs)) * NR_CAT(sgn_, SFX)(1, sigma);
            R aa = a * *cs + b * *sn, bb = -a * *sn + b * *cs, cc = c * *cs + d * *sn, dd = -c * *sn + d * *cs;
            a = aa * *cs + cc * *sn; b = bb * *cs + dd * *sn; c = -aa * *sn + cc * *cs; d = -bb * *sn + dd * *cs;
            temp = (a + d) / 2; a = temp; d = temp;
            if (c != 0) {
                if (b != 0) {
                    if ((b > 0) == (c > 0)) {  /* real after all: triangular */
                        R sab = NR_CAT(nr_sqrt_, SFX)(NR_CAT(nr_fabs_, SFX)(b));
                        R sac = NR_CAT(nr_sqrt_, SFX)(NR_CAT(nr_fabs_, SFX)(c));
                        p = NR_CAT(sgn_, SFX)(sab * sac, c);
                        tau = 1 / NR_CAT(nr_sqrt_, SFX)(NR_CAT(nr_fabs_, SFX)(b + c));
                        a = temp + p; d = temp - p; b = b - c; c = 0;
                        R cs1 = sab * tau, sn1 = sac * tau, t = *cs * cs1 - *sn * sn1;
                        *sn = *cs * sn1 + *sn * cs1; *cs = t;
                    }
                } else {
                    b = -c; c = 0; R t = *cs; *cs = -*sn; *sn = t;
                }
            }
        }
    }
    *pa = a; *pb = b; *pc = c; *pd = d;
}

/* The real Schur form: A (n x n) <- T quasi-upper-triangular (standardised 2x2 blocks for complex
 * pairs), Z (n x n) orthogonal with A = Z T Z^T. 0, 1 (no convergence: all NaN), 2 (memory). */
static int NR_CAT(schur_, SFX)(T *A, int64_t n, T *Z) {
    if (n == 0 || NR_CAT(schur_nonfinite_, SFX)(A, Z, n)) return 0;
    R sc = NR_CAT(scale_pow2_, SFX)(A, n * n);
    T *buf = (T *)malloc(sizeof(T) * (n * n + 4 * n + 1));
    if (!buf) return 2;
    T *V = buf, *ort = buf + n * n, *f = ort + n;
    R *d = f + n, *e = d + n, norm = 0;
    NR_CAT(orthes_, SFX)(A, V, n, 1, ort, f);
    int info = NR_CAT(hqr2_, SFX)(A, V, n, d, e, 1, &norm);
    for (int64_t i = 0; i < n; i++)  /* Z from V = Z^T */
        for (int64_t j = 0; j < n; j++) Z[i * n + j] = info ? NAN : V[j * n + i];
    if (info) {
        for (int64_t i = 0; i < n * n; i++) A[i] = NAN;
        free(buf);
        return info;
    }
    for (int64_t i = 1; i < n; i++) {  /* deflated subdiagonal entries and hqr2's stale bulge: zeros */
        if (!(e[i - 1] > 0 && e[i] < 0)) SH(i, i - 1) = 0;
        for (int64_t j = 0; j + 1 < i; j++) SH(i, j) = 0;
    }
    free(buf);
    for (int64_t k = 0; k + 1 < n; k++) {
        if (SH(k + 1, k) == 0) continue;
        R a = SH(k, k), b = SH(k, k + 1), c = SH(k + 1, k), dd = SH(k + 1, k + 1), cs, sn;
        NR_CAT(lanv2_, SFX)(&a, &b, &c, &dd, &cs, &sn);
        for (int64_t j = k + 2; j < n; j++) {  /* rows k, k+1 right of the block */
            R x = SH(k, j), y = SH(k + 1, j);
            SH(k, j) = cs * x + sn * y; SH(k + 1, j) = cs * y - sn * x;
        }
        for (int64_t i = 0; i < k; i++) {  /* columns k, k+1 above it */
            R x = SH(i, k), y = SH(i, k + 1);
            SH(i, k) = cs * x + sn * y; SH(i, k + 1) = cs * y - sn * x;
        }
        for (int64_t i = 0; i < n; i++) {
            R x = Z[i * n + k], y = Z[i * n + k + 1];
            Z[i * n + k] = cs * x + sn * y; Z[i * n + k + 1] = cs * y - sn * x;
        }
        SH(k, k) = a; SH(k, k + 1) = b; SH(k + 1, k) = c; SH(k + 1, k + 1) = dd;
        if (c != 0) k++;
    }
    for (int64_t i = 0; i < n * n; i++) A[i] /= sc;
    return 0;
}

#else

/* The complex Schur form: A (n x n) <- T upper triangular, Z unitary with A = Z T Z^H. 0, 1 (no
 * convergence: all NaN), 2 (memory). */
static int NR_CAT(schur_, SFX)(T *A, int64_t n, T *Z) {
    if (n == 0 || NR_CAT(schur_nonfinite_, SFX)(A, Z, n)) return 0;
    R sc = NR_CAT(scale_pow2_, SFX)(A, n * n);
    T *buf = (T *)malloc(sizeof(T) * (2 * n * n + 3 * n + 1));
    R *taus = (R *)malloc(sizeof(R) * (n + 1));
    if (!buf || !taus) { free(buf); free(taus); return 2; }
    T *Zt = buf, *W = buf + n * n, *u = W + n * n, *f = u + n, *heads = f + n;
    NR_CAT(chess_, SFX)(A, Zt, n, 1, W, u, f, heads, taus);
    int info = NR_CAT(cschur_, SFX)(A, Zt, n, 1);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) Z[i * n + j] = info ? (T)NAN : Zt[j * n + i];
    for (int64_t i = 0; i < n * n; i++) A[i] = info ? (T)NAN : A[i] / sc;
    for (int64_t i = 1; i < n; i++)
        for (int64_t j = 0; j < i; j++) SH(i, j) = 0;
    free(buf); free(taus);
    return info;
}

/* scipy.linalg.rsf2csf in place on the complex copies of a real Schur form (T in A, Z): each 2x2
 * block (|t21| > eps (|t11| + |t22|)) made triangular by the Givens rotation [conj(c) s; -s c] from
 * its eigenvalue of positive imaginary part, applied to T's rows and columns and Z's columns. */
static void NR_CAT(rsf2csf_, SFX)(T *A, T *Z, int64_t n) {
    for (int64_t m = n - 1; m > 0; m--) {
        T p = SH(m - 1, m - 1), q = SH(m - 1, m), r = SH(m, m - 1), d = SH(m, m);
        if (ABSV(r) > EPS * (ABSV(p) + ABSV(d))) {
            T h = (p - d) / 2, disc = h * h + q * r;
            T sq = sizeof(R) == 4 ? (T)__builtin_csqrtf((nr_c64)disc) : (T)__builtin_csqrt((nr_c128)disc);
            T mu = h + (__imag__(sq) < 0 ? -sq : sq);
            R nrm = NR_CAT(pyth_, SFX)(ABSV(mu), ABSV(r));
            T c = mu / nrm, sn = r / nrm, cc = CONJ(c), cs = CONJ(sn);
            for (int64_t j = m - 1; j < n; j++) {
                T x = SH(m - 1, j), y = SH(m, j);
                SH(m - 1, j) = cc * x + sn * y; SH(m, j) = c * y - sn * x;
            }
            for (int64_t i = 0; i <= m; i++) {
                T x = SH(i, m - 1), y = SH(i, m);
                SH(i, m - 1) = x * c + y * cs; SH(i, m) = y * cc - x * cs;
            }
            for (int64_t i = 0; i < n; i++) {
                T x = Z[i * n + m - 1], y = Z[i * n + m];
                Z[i * n + m - 1] = x * c + y * cs; Z[i * n + m] = y * cc - x * cs;
            }
        }
        SH(m, m - 1) = 0;
    }
}

/* The upper-triangular square root R (R R = A, principal branch on the diagonal) of the upper
 * triangular A in place, column by column (Higham, Functions of Matrices, Alg. 6.3). A 0/0 (a
 * repeated zero eigenvalue) gives 0, x/0 NaN (no square root). */
static void NR_CAT(sqrtm_tri_, SFX)(T *A, int64_t n) {
    for (int64_t j = 0; j < n; j++) {
        T t = SH(j, j);
        SH(j, j) = sizeof(R) == 4 ? (T)__builtin_csqrtf((nr_c64)t) : (T)__builtin_csqrt((nr_c128)t);
        for (int64_t i = j - 1; i >= 0; i--) {
            T s = SH(i, j);
            for (int64_t k = i + 1; k < j; k++) s -= SH(i, k) * SH(k, j);
            T den = SH(i, i) + SH(j, j);
            SH(i, j) = den != 0 ? s / den : s == 0 ? (T)0 : (T)NAN;
        }
        for (int64_t i = j + 1; i < n; i++) SH(i, j) = 0;
    }
}

/* The Parlett recurrence (scipy.linalg.funm): F (n x n, f on the diagonal given) <- f(A) for the
 * upper triangular A, one superdiagonal at a time; a zero divisor (a repeated eigenvalue) leaves
 * the numerator, as scipy. */
static void NR_CAT(parlett_, SFX)(const T *A, T *F, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) if (i != j) F[i * n + j] = 0;
    for (int64_t p = 1; p < n; p++) {
        for (int64_t i = 0; i + p < n; i++) {
            int64_t j = i + p;
            T s = SH(i, j) * (F[j * n + j] - F[i * n + i]);
            for (int64_t k = i + 1; k < j; k++) s += SH(i, k) * F[k * n + j] - F[i * n + k] * SH(k, j);
            T den = SH(j, j) - SH(i, i);
            F[i * n + j] = den != 0 ? s / den : s;
        }
    }
}

#endif

#undef SH
