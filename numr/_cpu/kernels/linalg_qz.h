/* The complex generalized Schur form (scipy.linalg.qz, output="complex"), one complex dtype:
 * included by linalg_tmpl.h when NR_LA_REAL is not set (cgivens_ from linalg_ceig.h). A = Q AA Z^H,
 * B = Q BB Z^H with AA, BB upper triangular, Q and Z unitary: Hessenberg-triangular reduction by
 * Givens rotations, then single-shift QZ (Moler-Stewart; the shift is the trailing 2x2 pencil's
 * eigenvalue nearer the last ratio, as LAPACK's zhgeqz), zeros on BB's diagonal (infinite
 * eigenvalues) chased to the bottom and deflated; BB's diagonal made real non-negative (as zgges).
 * Also the right eigenvectors of the triangular pencil (ggev's back-substitution). Row-major. */

#define QA(i, j) A[(i) * n + (j)]
#define QB(i, j) B[(i) * n + (j)]

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
    }
    for (int64_t i = 1; i < n; i++)
        for (int64_t j = 0; j < i; j++) QA(i, j) = QB(i, j) = 0;  /* all negligible now */
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

#undef QA
#undef QB
