/* Balancing shared by the real and complex eigendecompositions (linalg_eig.h, linalg_ceig.h):
 * included once per dtype instantiation by linalg_tmpl.h (T, R, SFX, ABS1 defined there), so it has
 * no include guard. */

/* Balancing (EISPACK balanc, scaling only): A <- D^-1 A D with D a diagonal of powers of two that
 * brings each row's and column's off-diagonal 1-norms together (exact; the eigenvalues of a badly
 * scaled matrix come out as accurate as LAPACK's geev, which balances by default). D out. */
static void NR_CAT(balance_, SFX)(T *A, int64_t n, R *D) {
    for (int64_t i = 0; i < n; i++) D[i] = 1;
    for (int pass = 0, done = 0; !done && pass < 200; pass++) {
        done = 1;
        for (int64_t i = 0; i < n; i++) {
            R c = 0, r = 0;
            for (int64_t j = 0; j < n; j++) {
                if (j == i) continue;
                c += ABS1(A[j * n + i]);
                r += ABS1(A[i * n + j]);
            }
            if (c == 0 || r == 0) continue;
            R g = r / 2, f = 1, s = c + r;
            while (c < g && f < (R)1e30) { f *= 2; c *= 4; }
            g = r * 2;
            while (c >= g && f > (R)1e-30) { f /= 2; c /= 4; }
            if ((c + r) / f < (R)0.95 * s) {
                done = 0;
                D[i] *= f;
                R fi = 1 / f;
                for (int64_t j = 0; j < n; j++) A[i * n + j] *= fi;
                for (int64_t j = 0; j < n; j++) A[j * n + i] *= f;
            }
        }
    }
}
