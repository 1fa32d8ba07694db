/* One precision of the FFT core, included twice by fft_ops.h: FT = double (FN(x) = x##_d) and
 * FT = float (FN(x) = x##_f). Complex values are interleaved (re, im) pairs of FT.
 *
 * A plan of length n is either
 * - Stockham autosort stages of radix 4, 2, 3 and any prime up to NRFFT_MAXP: stage i reads x,
 *   writes y (ping-pong, no bit reversal), y[q + s(p j + k)] = (sum_r x[q + s(j + r m)] w_p^(rk))
 *   * w_L^(jk), with L the current length, m = L / p, s the product of the radices done; every
 *   twiddle is an entry of one table w_n^t (t < n), computed in double and rounded to FT;
 * - or Bluestein's chirp-z for a length with a larger prime factor: X = c * (conv of x*c with
 *   conj(c)), c_k = exp(sign pi i k^2 / n) from the exact k^2 mod 2n, the circular convolution
 *   of power-of-two length m >= 2n - 1 through a Stockham plan (its kernel's FFT precomputed,
 *   the inverse as conj(FFT(conj(.)))).
 */

typedef struct FN(nrfft_plan) {
    int64_t n;
    int sign, nf, blue;
    int fac[64];
    FT *tw;                      /* 2n: w_n^t = exp(sign 2 pi i t / n) */
    int64_t m;                   /* Bluestein length */
    FT *chirp, *bk;              /* 2n, 2m */
    FT *rtw;                     /* real plans: 2n, exp(-2 pi i k / 2n), k < n */
    struct FN(nrfft_plan) *sub;  /* length m, sign -1 */
} FN(plan_t);

/* Extra complex elements of scratch a plan's run needs beyond the row itself. */
static int64_t FN(work_size)(const FN(plan_t) *P) { return P->blue ? 2 * P->m : P->n; }

static void FN(plan_free)(FN(plan_t) *P) {
    if (!P) return;
    free(P->tw); free(P->chirp); free(P->bk); free(P->rtw);
    FN(plan_free)(P->sub);
    free(P);
}

static FT *FN(run)(const FN(plan_t) *P, FT *x, FT *work, int nth);

static FN(plan_t) *FN(plan_make)(int64_t n, int sign);

/* The complex plan of length n behind a real transform of length 2n, with the pre/post-pass
 * twiddles exp(-2 pi i k / 2n), k < n. */
static FN(plan_t) *FN(plan_make_real)(int64_t n, int sign) {
    FN(plan_t) *P = FN(plan_make)(n, sign);
    if (!P) return NULL;
    P->rtw = (FT *)malloc(sizeof(FT) * 2 * n);
    if (!P->rtw) { FN(plan_free)(P); return NULL; }
    for (int64_t k = 0; k < n; ++k) {
        const double a = M_PI * (double)k / (double)n;
        P->rtw[2 * k] = (FT)cos(a);
        P->rtw[2 * k + 1] = (FT)-sin(a);
    }
    return P;
}

static FN(plan_t) *FN(plan_make)(int64_t n, int sign) {
    FN(plan_t) *P = (FN(plan_t) *)calloc(1, sizeof(FN(plan_t)));
    if (!P) return NULL;
    P->n = n; P->sign = sign;
    if (!nrfft_factor(n, P->fac, &P->nf)) {
        int64_t m = 1;
        while (m < 2 * n - 1) m <<= 1;
        P->blue = 1; P->m = m;
        P->sub = FN(plan_make)(m, -1);
        P->chirp = (FT *)malloc(sizeof(FT) * 2 * n);
        P->bk = (FT *)calloc(2 * m, sizeof(FT));
        FT *work = (FT *)malloc(sizeof(FT) * 2 * m);
        if (!P->sub || !P->chirp || !P->bk || !work) { free(work); FN(plan_free)(P); return NULL; }
        for (int64_t k = 0; k < n; ++k) {
            const double a = M_PI * (double)((k * k) % (2 * n)) / (double)n;
            P->chirp[2 * k] = (FT)cos(a);
            P->chirp[2 * k + 1] = (FT)(sign * sin(a));
        }
        /* b_j = conj(c_|j|) for |j| < n, wrapped; bk = FFT_m(b) / m */
        for (int64_t k = 0; k < n; ++k) {
            const FT re = P->chirp[2 * k], im = -P->chirp[2 * k + 1];
            P->bk[2 * k] = re; P->bk[2 * k + 1] = im;
            if (k) { P->bk[2 * (m - k)] = re; P->bk[2 * (m - k) + 1] = im; }
        }
        FT *r = FN(run)(P->sub, P->bk, work, 1);
        for (int64_t k = 0; k < 2 * m; ++k) P->bk[k] = r[k] / (FT)m;
        free(work);
        return P;
    }
    P->tw = (FT *)malloc(sizeof(FT) * 2 * n);
    if (!P->tw) { FN(plan_free)(P); return NULL; }
    for (int64_t t = 0; t < n; ++t) {
        const double a = 2.0 * M_PI * (double)t / (double)n;
        P->tw[2 * t] = (FT)cos(a);
        P->tw[2 * t + 1] = (FT)(sign * sin(a));
    }
    return P;
}

/* Both loop orders of a stage: j outer when the runs along q are long enough, else q outer.
 * j = 0 (every twiddle 1) is its own copy of the body (jz), so that the multiplies by 1 are
 * skipped without a branch in the inner loop (and inf inputs give NumPy's infs, not NaNs). */
#define NRFFT_LOOPS(...)                                                         \
    if (s >= 4) {                                                                \
        for (int64_t j = j0; j < j1; ++j) {                                      \
            if (j == 0) {                                                        \
                const int jz = 1;                                                \
                _Pragma("GCC ivdep") for (int64_t q = q0; q < q1; ++q) { __VA_ARGS__ } \
            } else {                                                             \
                const int jz = 0;                                                \
                _Pragma("GCC ivdep") for (int64_t q = q0; q < q1; ++q) { __VA_ARGS__ } \
            }                                                                    \
        }                                                                        \
    } else {                                                                     \
        for (int64_t q = q0; q < q1; ++q) {                                      \
            if (j0 == 0) { const int jz = 1; const int64_t j = 0; __VA_ARGS__ }  \
            const int jz = 0;                                                    \
            _Pragma("GCC ivdep") for (int64_t j = j0 ? j0 : 1; j < j1; ++j) { __VA_ARGS__ } \
        }                                                                        \
    }

#define NRFFT_LD(r) const FT *xr##r = x + 2 * (q + s * (j + (r) * m)); const FT ar##r = xr##r[0], ai##r = xr##r[1];
/* y[q + s(p j + k)] = (br, bi) * w_L^(jk) = tw[j k s] */
#define NRFFT_ST(k, br, bi) {                                                    \
        FT *yk = y + 2 * (q + s * (p * j + (k)));                                \
        if ((k) == 0 || jz) { yk[0] = (br); yk[1] = (bi); } else {               \
            const int64_t ti = 2 * (j * (k) * s);  /* j k < L, so < N */         \
            const FT wr = tw[ti], wi = tw[ti + 1];                               \
            yk[0] = (br) * wr - (bi) * wi; yk[1] = (br) * wi + (bi) * wr; } }

/* The part j in [j0, j1), q in [q0, q1) of one stage (threads take disjoint parts). */
static void FN(stage)(const FT *x, FT *y, int64_t N, int64_t L, int64_t s, int p, const FT *tw, int sign,
                      int64_t j0, int64_t j1, int64_t q0, int64_t q1) {
    const int64_t m = L / p;
    const FT sg = (FT)sign;
    if (p == 4) {
        NRFFT_LOOPS(
            NRFFT_LD(0) NRFFT_LD(1) NRFFT_LD(2) NRFFT_LD(3)
            const FT s02r = ar0 + ar2, s02i = ai0 + ai2, d02r = ar0 - ar2, d02i = ai0 - ai2;
            const FT s13r = ar1 + ar3, s13i = ai1 + ai3, d13r = ar1 - ar3, d13i = ai1 - ai3;
            /* w_4 (a1 - a3) = sign * i * d13 */
            const FT ur = -sg * d13i, ui = sg * d13r;
            NRFFT_ST(0, s02r + s13r, s02i + s13i)
            NRFFT_ST(1, d02r + ur, d02i + ui)
            NRFFT_ST(2, s02r - s13r, s02i - s13i)
            NRFFT_ST(3, d02r - ur, d02i - ui))
    } else if (p == 2) {
        NRFFT_LOOPS(
            NRFFT_LD(0) NRFFT_LD(1)
            NRFFT_ST(0, ar0 + ar1, ai0 + ai1)
            NRFFT_ST(1, ar0 - ar1, ai0 - ai1))
    } else if (p == 3) {
        const FT h = (FT)0.86602540378443864676 * sg;
        NRFFT_LOOPS(
            NRFFT_LD(0) NRFFT_LD(1) NRFFT_LD(2)
            const FT tr = ar1 + ar2, ti_ = ai1 + ai2;
            const FT mr = ar0 - (FT)0.5 * tr, mi = ai0 - (FT)0.5 * ti_;
            const FT vr = -h * (ai1 - ai2), vi = h * (ar1 - ar2);
            NRFFT_ST(0, ar0 + tr, ai0 + ti_)
            NRFFT_ST(1, mr + vr, mi + vi)
            NRFFT_ST(2, mr - vr, mi - vi))
    } else {
        FT om[2 * NRFFT_MAXP];
        const int64_t step = N / p;
        for (int r = 0; r < p; ++r) { om[2 * r] = tw[2 * r * step]; om[2 * r + 1] = tw[2 * r * step + 1]; }
        for (int64_t j = j0; j < j1; ++j) {
            const int jz = j == 0;
            for (int64_t q = q0; q < q1; ++q) {
                FT a[2 * NRFFT_MAXP];
                for (int r = 0; r < p; ++r) {
                    const FT *xr = x + 2 * (q + s * (j + r * m));
                    a[2 * r] = xr[0]; a[2 * r + 1] = xr[1];
                }
                for (int k = 0; k < p; ++k) {
                    FT br = 0, bi = 0;
                    int e = 0;
                    for (int r = 0; r < p; ++r) {
                        if (e == 0) { br += a[2 * r]; bi += a[2 * r + 1]; e += k; if (e >= p) e -= p; continue; }
                        br += a[2 * r] * om[2 * e] - a[2 * r + 1] * om[2 * e + 1];
                        bi += a[2 * r] * om[2 * e + 1] + a[2 * r + 1] * om[2 * e];
                        e += k; if (e >= p) e -= p;
                    }
                    NRFFT_ST(k, br, bi)
                }
            }
        }
    }
}

/* One stage on nth threads (nth > 1: called outside any parallel region), split along j when
 * it has enough j's, else along q. */
static void FN(stage_par)(const FT *x, FT *y, int64_t N, int64_t L, int64_t s, int p, const FT *tw, int sign,
                          int nth) {
    const int64_t m = L / p;
    if (nth <= 1) { FN(stage)(x, y, N, L, s, p, tw, sign, 0, m, 0, s); return; }
    const int64_t parts = 4 * (int64_t)nth;
    const int by_j = m >= parts;
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t c = 0; c < parts; ++c) {
        if (by_j) FN(stage)(x, y, N, L, s, p, tw, sign, m * c / parts, m * (c + 1) / parts, 0, s);
        else FN(stage)(x, y, N, L, s, p, tw, sign, 0, m, s * c / parts, s * (c + 1) / parts);
    }
}

/* The unnormalised transform of x (n complex) on nth threads (1: the caller's thread); work holds
 * work_size(P) complex elements. Returns the buffer that holds the result (x or work). */
static FT *FN(run)(const FN(plan_t) *P, FT *x, FT *work, int nth) {
    const int64_t n = P->n;
    if (P->blue) {
        const int64_t m = P->m;
        FT *a = work, *b = work + 2 * m;
        for (int64_t k = 0; k < n; ++k) {
            const FT xr = x[2 * k], xi = x[2 * k + 1], cr = P->chirp[2 * k], ci = P->chirp[2 * k + 1];
            a[2 * k] = xr * cr - xi * ci; a[2 * k + 1] = xr * ci + xi * cr;
        }
        memset(a + 2 * n, 0, sizeof(FT) * 2 * (m - n));
        FT *r = FN(run)(P->sub, a, b, nth);
        FT *o = r == a ? b : a;
        for (int64_t k = 0; k < m; ++k) {  /* conj(R * bk) */
            const FT rr = r[2 * k], ri = r[2 * k + 1], br = P->bk[2 * k], bi = P->bk[2 * k + 1];
            r[2 * k] = rr * br - ri * bi; r[2 * k + 1] = -(rr * bi + ri * br);
        }
        r = FN(run)(P->sub, r, o, nth);
        for (int64_t k = 0; k < n; ++k) {  /* c * conj(r) */
            const FT rr = r[2 * k], ri = -r[2 * k + 1], cr = P->chirp[2 * k], ci = P->chirp[2 * k + 1];
            x[2 * k] = rr * cr - ri * ci; x[2 * k + 1] = rr * ci + ri * cr;
        }
        return x;
    }
    int64_t L = n, s = 1;
    FT *a = x, *b = work;
    for (int i = 0; i < P->nf; ++i) {
        const int p = P->fac[i];
        FN(stage_par)(a, b, n, L, s, p, P->tw, P->sign, nth);
        FT *t = a; a = b; b = t;
        L /= p; s *= p;
    }
    return a;
}
