/* The generalized Schur form (scipy.linalg.qz), one dtype: included by linalg_tmpl.h before the
 * eig headers (which share its cgivens_). A = Q AA Z^H, B = Q BB Z^H with BB upper triangular, Q and
 * Z unitary: Hessenberg-triangular reduction by Givens rotations, then QZ (Moler-Stewart): complex
 * dtypes single-shift (the trailing 2x2 pencil's eigenvalue nearer the last ratio, as zhgeqz), AA
 * triangular; real dtypes double-shift, AA quasi-triangular with each complex pair a 2x2 block whose
 * BB block is diagonal positive (as dgges). Zeros on BB's diagonal (infinite eigenvalues) are chased
 * to the bottom and deflated; BB's diagonal ends non-negative (real for complex dtypes). Also the
 * right eigenvectors of a triangular pencil (ggev's back-substitution). Row-major. */

#define QA(i, j) A[(i) * n + (j)]
#define QB(i, j) B[(i) * n + (j)]

/* (c, s) with [c s; -conj(s) c] (x, y)^T = (r, 0)^T, c real */
static inline void NR_CAT(cgivens_, SFX)(T x, T y, R *c, T *s) {
    R ax = ABSV(x), ay = ABSV(y);
    if (ay == 0) { *c = 1; *s = 0; return; }
    if (ax == 0) { *c = 0; *s = CONJ(y) / ay; return; }
    R nrm = NR_CAT(pyth_, SFX)(ax, ay);
    *c = ax / nrm;
    *s = (x / ax) * CONJ(y) / nrm;
}

/* rows r, r+1 of A (columns ja..) and B (jb..) <- G (rows); Q's columns r, r+1 <- Q G^H (kept as
 * Qt = Q^T: contiguous rows). G = [c s; -conj(s) c]. Columns left of ja/jb are zero in both rows. */
static void NR_CAT(qz_rows_, SFX)(T *A, T *B, T *Qt, int64_t n, int64_t r, R c, T s, int64_t ja, int64_t jb) {
    T cs = CONJ(s);
    for (int64_t j = ja; j < n; j++) {
        T a = QA(r, j), b = QA(r + 1, j);
        QA(r, j) = c * a + s * b; QA(r + 1, j) = c * b - cs * a;
    }
    for (int64_t j = jb; j < n; j++) {
        T a = QB(r, j), b = QB(r + 1, j);
        QB(r, j) = c * a + s * b; QB(r + 1, j) = c * b - cs * a;
    }
    T *q0 = Qt + r * n, *q1 = q0 + n;
    for (int64_t i = 0; i < n; i++) {
        T a = q0[i], b = q1[i];
        q0[i] = c * a + cs * b; q1[i] = c * b - s * a;
    }
}

/* columns k, k+1 of A (rows ..ia), B (rows ..ib) and Z (kept as Zt) <- (.) M, M = [c s; -conj(s) c]
 * (rows of M: old columns). Rows below ia/ib are zero in both columns. */
static void NR_CAT(qz_cols_, SFX)(T *A, T *B, T *Zt, int64_t n, int64_t k, R c, T s, int64_t ia, int64_t ib) {
    T cs = CONJ(s);
    for (int64_t i = 0; i <= ia; i++) {
        T a = QA(i, k), b = QA(i, k + 1);
        QA(i, k) = c * a - cs * b; QA(i, k + 1) = s * a + c * b;
    }
    for (int64_t i = 0; i <= ib; i++) {
        T a = QB(i, k), b = QB(i, k + 1);
        QB(i, k) = c * a - cs * b; QB(i, k + 1) = s * a + c * b;
    }
    T *z0 = Zt + k * n, *z1 = z0 + n;
    for (int64_t i = 0; i < n; i++) {
        T a = z0[i], b = z1[i];
        z0[i] = c * a - cs * b; z1[i] = s * a + c * b;
    }
}

/* zero (row, k) of M (A or B) by a column rotation of k, k+1 against (row, k+1) */
static void NR_CAT(qz_zero_col_, SFX)(T *A, T *B, T *Zt, int64_t n, const T *M, int64_t row, int64_t k,
                                      int64_t ia, int64_t ib) {
    R c; T s;
    NR_CAT(cgivens_, SFX)(M[row * n + k + 1], M[row * n + k], &c, &s);
    NR_CAT(qz_cols_, SFX)(A, B, Zt, n, k, c, s, ia, ib);
}

/* zero (r+1, col) of M by a row rotation of r, r+1 against (r, col) */
static void NR_CAT(qz_zero_row_, SFX)(T *A, T *B, T *Qt, int64_t n, const T *M, int64_t r, int64_t col,
                                      int64_t ja, int64_t jb) {
    R c; T s;
    NR_CAT(cgivens_, SFX)(M[r * n + col], M[(r + 1) * n + col], &c, &s);
    NR_CAT(qz_rows_, SFX)(A, B, Qt, n, r, c, s, ja, jb);
}

#ifdef NR_LA_REAL
/* The 2x2 block (l, l+1) of a real pencil: real eigenvalues -> split directly (0: the right
 * rotation from A - lam B's null vector, the left one restoring B); a complex pair -> BB's block made diagonal positive (1): the right rotation that
 * diagonalises B^T B, a left one to triangularise, row signs. */
static int NR_CAT(qz_block2_, SFX)(T *A, T *B, T *Q, T *Z, int64_t n, int64_t l) {
    T b11 = QB(l, l), b12 = QB(l, l + 1), b22 = QB(l + 1, l + 1);
    T a11 = QA(l, l), a12 = QA(l, l + 1), a21 = QA(l + 1, l), a22 = QA(l + 1, l + 1);
    T i11 = 1 / b11, i22 = 1 / b22, i12 = -b12 * i11 * i22;  /* M = A B^-1 */
    T m11 = a11 * i11, m12 = a11 * i12 + a12 * i22, m21 = a21 * i11, m22 = a21 * i12 + a22 * i22;
    T p = (m11 - m22) / 2, disc = p * p + m12 * m21;
    if (disc >= 0) {  /* Z's first column the null vector of A - lam B, Q to match: A[l+1, l] = 0 */
        T lam = (m11 + m22) / 2 + (p >= 0 ? 1 : -1) * NR_CAT(nr_sqrt_, SFX)(disc);
        T r00 = a11 - lam * b11, r01 = a12 - lam * b12, r10 = a21, r11 = a22 - lam * b22;
        T x = -r01, y = r00;  /* orthogonal to the larger row */
        if (r10 * r10 + r11 * r11 > r00 * r00 + r01 * r01) { x = -r11; y = r10; }
        R nrm = NR_CAT(pyth_, SFX)(x, y);
        if (nrm > 0) NR_CAT(qz_cols_, SFX)(A, B, Z, n, l, x / nrm, -y / nrm, l + 1, l + 1);
        NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, B, l, l, l, l);
        QB(l + 1, l) = 0; QA(l + 1, l) = 0;
        return 0;
    }
    double th = 0.5 * atan2(2.0 * b11 * b12, (double)(b11 * b11 - b12 * b12 - b22 * b22));
    NR_CAT(qz_cols_, SFX)(A, B, Z, n, l, (R)cos(th), (T)-sin(th), l + 1, l + 1);
    NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, B, l, l, l, l);
    QB(l + 1, l) = 0; QB(l, l + 1) = 0;
    for (int64_t r = l; r <= l + 1; r++) {
        if (QB(r, r) >= 0) continue;
        for (int64_t j = l; j < n; j++) { QA(r, j) = -QA(r, j); QB(r, j) = -QB(r, j); }
        for (int64_t i = 0; i < n; i++) Q[r * n + i] = -Q[r * n + i];
    }
    return 1;
}

/* One double-shift QZ step on the active block l..hi (hi - l >= 2): the shifts are the trailing
 * 2x2 eigenvalues of A B^-1 (sum s, product t; an ad hoc pair every 10th step), the first column
 * of (A B^-1)^2 - s A B^-1 + t I from the top 3x2 corner, the bulge chased by row rotations and
 * BB restored by column rotations. */
static void NR_CAT(qz_double_, SFX)(T *A, T *B, T *Q, T *Z, int64_t n, int64_t l, int64_t hi, int iter) {
    T s, t;
    if (iter % 10 == 0) {
        T nu = QA(hi, hi) / QB(hi, hi) + (R)0.75 * NR_CAT(nr_fabs_, SFX)(QA(hi, hi - 1)) / NR_CAT(nr_fabs_, SFX)(QB(hi - 1, hi - 1));
        s = 2 * nu; t = nu * nu;
    } else {  /* the trailing 3x3 of B inverted (upper triangular) */
        int64_t k = hi - 2;
        T i00 = 1 / QB(k, k), i11 = 1 / QB(k + 1, k + 1), i22 = 1 / QB(k + 2, k + 2);
        T i01 = -QB(k, k + 1) * i00 * i11, i12 = -QB(k + 1, k + 2) * i11 * i22;
        T i02 = -(QB(k, k + 1) * i12 + QB(k, k + 2) * i22) * i00;
        T a10 = QA(k + 1, k), a11 = QA(k + 1, k + 1), a12 = QA(k + 1, k + 2), a21 = QA(k + 2, k + 1), a22 = QA(k + 2, k + 2);
        T m11 = a10 * i01 + a11 * i11, m12 = a10 * i02 + a11 * i12 + a12 * i22;
        T m21 = a21 * i11, m22 = a21 * i12 + a22 * i22;
        s = m11 + m22; t = m11 * m22 - m12 * m21;
    }
    T bl = QB(l, l), w0 = QA(l, l) / bl, w1 = QA(l + 1, l) / bl;
    T u1 = w1 / QB(l + 1, l + 1), u0 = (w0 - QB(l, l + 1) * u1) / bl;
    T v0 = QA(l, l) * u0 + QA(l, l + 1) * u1 - s * w0 + t;
    T v1 = QA(l + 1, l) * u0 + QA(l + 1, l + 1) * u1 - s * w1, v2 = QA(l + 2, l + 1) * u1;
    for (int64_t k = l; k < hi; k++) {
        int three = k + 2 <= hi;
        if (k > l) { v0 = QA(k, k - 1); v1 = QA(k + 1, k - 1); v2 = three ? QA(k + 2, k - 1) : 0; }
        int64_t ja = k > l ? k - 1 : l, ia = k + 3 < hi ? k + 3 : hi;
        R c; T sn;
        if (three) {
            NR_CAT(cgivens_, SFX)(v1, v2, &c, &sn);
            NR_CAT(qz_rows_, SFX)(A, B, Q, n, k + 1, c, sn, ja, k);
            v1 = c * v1 + sn * v2;
            if (k > l) QA(k + 2, k - 1) = 0;
        }
        NR_CAT(cgivens_, SFX)(v0, v1, &c, &sn);
        NR_CAT(qz_rows_, SFX)(A, B, Q, n, k, c, sn, ja, k);
        if (k > l) QA(k + 1, k - 1) = 0;
        if (three) {
            NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, k + 2, k, ia, k + 2);
            QB(k + 2, k) = 0;
            NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, k + 2, k + 1, ia, k + 2);
            QB(k + 2, k + 1) = 0;
        }
        NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, k + 1, k, ia, k + 1);
        QB(k + 1, k) = 0;
    }
}
#endif

/* the generalized Schur form in place: A <- AA, B <- BB, Q, Z out. 0, or 1 after 30 max(10, n)
 * steps without convergence. NaN or inf in: all NaN out. */
static int NR_CAT(qz_, SFX)(T *A, T *B, int64_t n, T *Q, T *Z) {
    for (int64_t i = 0; i < n * n; i++) {
        if (!(ABS1(A[i]) - ABS1(A[i]) == 0 && ABS1(B[i]) - ABS1(B[i]) == 0)) {
            for (int64_t j = 0; j < n * n; j++) A[j] = B[j] = Q[j] = Z[j] = NAN;
            return 0;
        }
    }
    for (int64_t i = 0; i < n * n; i++) Q[i] = Z[i] = 0;
    for (int64_t i = 0; i < n; i++) Q[i * n + i] = Z[i * n + i] = 1;
    for (int64_t j = 0; j + 1 < n; j++)  /* B upper triangular */
        for (int64_t i = n - 2; i >= j; i--) NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, B, i, j, 0, j);
    for (int64_t j = 0; j + 2 < n; j++)  /* A Hessenberg, B kept triangular */
        for (int64_t i = n - 2; i > j; i--) {
            NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, A, i, j, j, i);
            NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, i + 1, i, n - 1, i + 1);
        }
    R an = 0, bn = 0;
    for (int64_t i = 0; i < n * n; i++) { an = ABS1(A[i]) > an ? ABS1(A[i]) : an; bn = ABS1(B[i]) > bn ? ABS1(B[i]) : bn; }
    R atol = EPS * (an > 0 ? an : 1), btol = EPS * (bn > 0 ? bn : 1);
    int64_t hi = n - 1, total = 0, limit = 30 * (n > 10 ? n : 10);
    int iter = 0;
    while (hi > 0) {
        int64_t l = hi;
        for (; l > 0; l--) {  /* a negligible subdiagonal entry */
            if (ABS1(QA(l, l - 1)) <= atol || ABS1(QA(l, l - 1)) <= EPS * (ABS1(QA(l, l)) + ABS1(QA(l - 1, l - 1)))) {
                QA(l, l - 1) = 0;
                break;
            }
        }
        if (l == hi) { hi--; iter = 0; continue; }
        int64_t jz = -1;
        for (int64_t j = l; j <= hi; j++)
            if (ABS1(QB(j, j)) <= btol) { QB(j, j) = 0; jz = j; break; }
        if (jz >= 0) {  /* an infinite eigenvalue: the zero chased to hi, then A[hi, hi-1] zeroed */
            for (int64_t j = jz; j < hi; j++) {
                NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, B, j, j + 1, j > 0 ? j - 1 : 0, j);
                QB(j + 1, j + 1) = 0;
                if (j > l) {
                    NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, A, j + 1, j - 1, j + 1, j);
                    QA(j + 1, j - 1) = 0;
                }
            }
            NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, A, hi, hi - 1, hi, hi);
            QA(hi, hi - 1) = 0;
            QB(hi, hi - 1) = 0;
            hi--; iter = 0;
            continue;
        }
#ifdef NR_LA_REAL
        if (l == hi - 1) {  /* a 2x2 block: split, or a standardised complex pair */
            if (total++ >= limit) return 1;
            if (NR_CAT(qz_block2_, SFX)(A, B, Q, Z, n, l)) { hi -= 2; iter = 0; }
            continue;
        }
        if (total++ >= limit) return 1;
        iter++;
        NR_CAT(qz_double_, SFX)(A, B, Q, Z, n, l, hi, iter);
#else
        if (total++ >= limit) return 1;
        iter++;
        T sigma;
        if (iter % 10 == 0) {  /* exceptional shift */
            sigma = QA(hi, hi) / QB(hi, hi) + (R)0.75 * ABS1(QA(hi, hi - 1)) / ABS1(QB(hi - 1, hi - 1));
        } else {  /* the eigenvalue of B22^-1 A22 nearer A[hi,hi]/B[hi,hi] */
            T b11 = QB(hi - 1, hi - 1), b12 = QB(hi - 1, hi), b22 = QB(hi, hi);
            T a11 = QA(hi - 1, hi - 1), a12 = QA(hi - 1, hi), a21 = QA(hi, hi - 1), a22 = QA(hi, hi);
            T m21 = a21 / b22, m22 = a22 / b22;
            T m11 = (a11 - b12 * m21) / b11, m12 = (a12 - b12 * m22) / b11;
            T p = (m11 - m22) / 2, bc = m12 * m21, disc = p * p + bc;
            T sq = sizeof(R) == 4 ? (T)__builtin_csqrtf((nr_c64)disc) : (T)__builtin_csqrt((nr_c128)disc);
            T den = ABS1(p + sq) >= ABS1(p - sq) ? p + sq : p - sq;
            sigma = den == 0 ? m22 : m22 - bc / den;
        }
        T x = QA(l, l) - sigma * QB(l, l), y = QA(l + 1, l);
        R c; T s;
        NR_CAT(cgivens_, SFX)(x, y, &c, &s);
        NR_CAT(qz_rows_, SFX)(A, B, Q, n, l, c, s, l, l);
        NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, l + 1, l, l + 2 < hi ? l + 2 : hi, l + 1);
        QB(l + 1, l) = 0;
        for (int64_t k = l + 1; k < hi; k++) {  /* the bulge chased down */
            NR_CAT(qz_zero_row_, SFX)(A, B, Q, n, A, k, k - 1, k - 1, k);
            QA(k + 1, k - 1) = 0;
            NR_CAT(qz_zero_col_, SFX)(A, B, Z, n, B, k + 1, k, k + 2 < hi ? k + 2 : hi, k + 1);
            QB(k + 1, k) = 0;
        }
#endif
    }
    for (int64_t j = 0; j < n; j++)  /* an infinite eigenvalue deflated as a small subdiagonal */
        if (ABS1(QB(j, j)) <= btol && (j + 1 == n || QA(j + 1, j) == 0) && (j == 0 || QA(j, j - 1) == 0)) QB(j, j) = 0;
    for (int64_t i = 1; i < n; i++)  /* all negligible now (but the real form's 2x2 blocks) */
        for (int64_t j = 0; j < i; j++) {
            QB(i, j) = 0;
#ifdef NR_LA_REAL
            if (j + 1 == i) continue;
#endif
            QA(i, j) = 0;
        }
    for (int64_t j = 0; j < n; j++) {  /* BB's diagonal real and non-negative */
        R ab = ABSV(QB(j, j));
        if (ab == 0) continue;
        T ph = CONJ(QB(j, j)) / ab;
        for (int64_t i = 0; i <= j; i++) { QA(i, j) *= ph; QB(i, j) *= ph; }
        for (int64_t i = 0; i < n; i++) Z[j * n + i] *= ph;
        QB(j, j) = ab;
    }
    for (int64_t i = 0; i < n; i++)  /* Q and Z from their transposes */
        for (int64_t j = i + 1; j < n; j++) {
            T t = Q[i * n + j]; Q[i * n + j] = Q[j * n + i]; Q[j * n + i] = t;
            t = Z[i * n + j]; Z[i * n + j] = Z[j * n + i]; Z[j * n + i] = t;
        }
    return 0;
}

#ifndef NR_LA_REAL
/* X's columns: the right eigenvectors of the triangular pencil (A, B): (b_k A - a_k B) x_k = 0,
 * x_k[k] = 1, zero below, by back-substitution (a near-zero divisor perturbed, as eig_). */
static void NR_CAT(qz_vectors_, SFX)(const T *A, const T *B, int64_t n, T *X) {
    R mx = 0;
    for (int64_t i = 0; i < n * n; i++) { mx = ABS1(A[i]) > mx ? ABS1(A[i]) : mx; mx = ABS1(B[i]) > mx ? ABS1(B[i]) : mx; }
    R small = EPS * (mx > 0 ? mx * mx : 1);  /* b_k A - a_k B scales as max^2 */
    for (int64_t i = 0; i < n * n; i++) X[i] = 0;
    for (int64_t k = 0; k < n; k++) {
        T al = QA(k, k), be = QB(k, k);
        X[k * n + k] = 1;
        for (int64_t i = k - 1; i >= 0; i--) {
            T s = 0;
            for (int64_t j = i + 1; j <= k; j++) s += (be * QA(i, j) - al * QB(i, j)) * X[j * n + k];
            T den = be * QA(i, i) - al * QB(i, i);
            X[i * n + k] = ABS1(den) < small ? -s / small : -s / den;
        }
    }
}

#endif

#undef QA
#undef QB
