/* The row driver of one precision, included twice by fft_ops.h (FT, FN as in fft_impl.h). */

/* One row: src (strided, in_len values) -> dst (strided); buf holds 2(n + 2) FT, work the plan's. */
static void FN(row)(int kind, const FN(plan_t) *P, int64_t n, const FT *src, int64_t in_len,
                    int64_t in_step, FT *dst, int64_t out_step, double scale, FT *buf, FT *work, int nth) {
    const FT sc = (FT)scale;
    if (kind == NRFFT_C2C) {
        const int64_t c = in_len < n ? in_len : n;
        if (in_step == 1) memcpy(buf, src, sizeof(FT) * 2 * c);
        else for (int64_t i = 0; i < c; ++i) { buf[2 * i] = src[2 * i * in_step]; buf[2 * i + 1] = src[2 * i * in_step + 1]; }
        memset(buf + 2 * c, 0, sizeof(FT) * 2 * (n - c));
        const FT *r = FN(run)(P, buf, work, nth);
        for (int64_t i = 0; i < n; ++i) { dst[2 * i * out_step] = r[2 * i] * sc; dst[2 * i * out_step + 1] = r[2 * i + 1] * sc; }
        return;
    }
    if (kind == NRFFT_R2C) {
        const int64_t c = in_len < n ? in_len : n;
        if (n % 2) {  /* odd: the complex FFT of the real row */
            for (int64_t i = 0; i < c; ++i) { buf[2 * i] = src[i * in_step]; buf[2 * i + 1] = 0; }
            memset(buf + 2 * c, 0, sizeof(FT) * 2 * (n - c));
            const FT *r = FN(run)(P, buf, work, nth);
            for (int64_t k = 0; k <= n / 2; ++k) { dst[2 * k * out_step] = r[2 * k] * sc; dst[2 * k * out_step + 1] = r[2 * k + 1] * sc; }
            return;
        }
        const int64_t h = n / 2;  /* z_t = x[2t] + i x[2t+1], Z = FFT_h(z), X_k = E_k + w^k O_k */
        if (in_step == 1) memcpy(buf, src, sizeof(FT) * c);
        else for (int64_t i = 0; i < c; ++i) buf[i] = src[i * in_step];
        memset(buf + c, 0, sizeof(FT) * (n - c));
        const FT *Z = FN(run)(P, buf, work, nth);
        const FT *w = P->rtw;
        for (int64_t k = 0; k <= h; ++k) {
            const int64_t a = k == h ? 0 : k, b = k == 0 ? 0 : h - k;
            const FT zr = Z[2 * a], zi = Z[2 * a + 1], cr = Z[2 * b], ci = -Z[2 * b + 1];
            const FT er = (FT)0.5 * (zr + cr), ei = (FT)0.5 * (zi + ci);
            const FT or_ = (FT)0.5 * (zi - ci), oi = (FT)-0.5 * (zr - cr);  /* -i/2 (Zk - Zc) */
            const FT wr = k == h ? (FT)-1 : w[2 * k], wi = k == h ? (FT)0 : w[2 * k + 1];
            dst[2 * k * out_step] = (er + wr * or_ - wi * oi) * sc;
            dst[2 * k * out_step + 1] = (ei + wr * oi + wi * or_) * sc;
        }
        return;
    }
    /* c2r */
    const int64_t nb = n / 2 + 1, c = in_len < nb ? in_len : nb;
    for (int64_t i = 0; i < c; ++i) { buf[2 * i] = src[2 * i * in_step]; buf[2 * i + 1] = src[2 * i * in_step + 1]; }
    memset(buf + 2 * c, 0, sizeof(FT) * 2 * (nb - c));
    buf[1] = 0;
    if (n % 2) {  /* odd: the Hermitian spectrum, one complex inverse FFT, the real parts */
        for (int64_t k = nb; k < n; ++k) { buf[2 * k] = buf[2 * (n - k)]; buf[2 * k + 1] = -buf[2 * (n - k) + 1]; }
        const FT *r = FN(run)(P, buf, work, nth);
        for (int64_t i = 0; i < n; ++i) dst[i * out_step] = r[2 * i] * sc;
        return;
    }
    const int64_t h = n / 2;
    buf[2 * h + 1] = 0;
    const FT *w = P->rtw;
    /* Z_k = E_k + i O_k, E_k = (X_k + conj X_{h-k}) / 2, O_k = (X_k - conj X_{h-k}) conj(w^k) / 2,
     * computed for k and h - k together (in place); the factor 2 of the half length is in sc2 */
    for (int64_t k = 0; k <= h / 2; ++k) {
        const int64_t j = h - k;
        const FT xr = buf[2 * k], xi = buf[2 * k + 1], yr = buf[2 * j], yi = buf[2 * j + 1];
        /* for k: conj X_j = (yr, -yi); for j: conj X_k = (xr, -xi) */
        const FT wkr = w[2 * k], wki = -w[2 * k + 1];           /* conj(w^k) */
        FT er = (FT)0.5 * (xr + yr), ei = (FT)0.5 * (xi - yi);
        FT dr = (FT)0.5 * (xr - yr), di = (FT)0.5 * (xi + yi);
        FT orr = dr * wkr - di * wki, oi = dr * wki + di * wkr;
        const FT zkr = er - oi, zki = ei + orr;
        /* j = h - k: conj(w^j) = -w^k, since w^h = -1 */
        const FT wjr = -w[2 * k], wji = -w[2 * k + 1];
        er = (FT)0.5 * (yr + xr); ei = (FT)0.5 * (yi - xi);
        dr = (FT)0.5 * (yr - xr); di = (FT)0.5 * (yi + xi);
        orr = dr * wjr - di * wji; oi = dr * wji + di * wjr;
        buf[2 * j] = er - oi; buf[2 * j + 1] = ei + orr;
        buf[2 * k] = zkr; buf[2 * k + 1] = zki;
    }
    const FT *r = FN(run)(P, buf, work, nth);
    const FT sc2 = (FT)(2.0 * scale);
    for (int64_t t = 0; t < h; ++t) { dst[2 * t * out_step] = r[2 * t] * sc2; dst[(2 * t + 1) * out_step] = r[2 * t + 1] * sc2; }
}

/* Rows along a strided dim that are neighbours in memory (a batch dim of stride 1 on both sides,
 * as the columns of fft2): NRFFT_TILE rows are gathered together, so each read at the dim's
 * stride brings NRFFT_TILE useful values instead of one. c2c gathers straight into the rows'
 * buffers (bufs: cnt blocks of per FT, each a row and its work) and writes from the results;
 * r2c/c2r stage the rows contiguously (sin, sout) and run the row code on them. */
static void FN(tile)(int kind, const FN(plan_t) *P, int64_t n, const FT *src, int64_t in_len, int64_t in_step,
                     FT *dst, int64_t out_step, int cnt, double scale, FT *bufs, int64_t per, FT *sin, FT *sout) {
    const FT sc = (FT)scale;
    if (kind == NRFFT_C2C) {
        const int64_t c = in_len < n ? in_len : n;
        for (int64_t i = 0; i < c; ++i) {
            const FT *x = src + 2 * i * in_step;
            for (int b = 0; b < cnt; ++b) { bufs[b * per + 2 * i] = x[2 * b]; bufs[b * per + 2 * i + 1] = x[2 * b + 1]; }
        }
        const FT *res[NRFFT_TILE];
        for (int b = 0; b < cnt; ++b) {
            FT *buf = bufs + b * per;
            memset(buf + 2 * c, 0, sizeof(FT) * 2 * (n - c));
            res[b] = FN(run)(P, buf, buf + 2 * (n + 2), 1);
        }
        for (int64_t i = 0; i < n; ++i) {
            FT *y = dst + 2 * i * out_step;
            for (int b = 0; b < cnt; ++b) { y[2 * b] = res[b][2 * i] * sc; y[2 * b + 1] = res[b][2 * i + 1] * sc; }
        }
        return;
    }
    const int64_t lim = kind == NRFFT_C2R ? n / 2 + 1 : n, c = in_len < lim ? in_len : lim;
    const int64_t out_len = kind == NRFFT_R2C ? n / 2 + 1 : n;
    if (kind == NRFFT_R2C) {  /* real rows in, complex bins out */
        for (int64_t i = 0; i < c; ++i) {
            const FT *x = src + i * in_step;
            for (int b = 0; b < cnt; ++b) sin[b * c + i] = x[b];
        }
        for (int b = 0; b < cnt; ++b)
            FN(row)(kind, P, n, sin + b * c, c, 1, sout + 2 * b * out_len, 1, scale, bufs, bufs + 2 * (n + 2), 1);
        for (int64_t i = 0; i < out_len; ++i) {
            FT *y = dst + 2 * i * out_step;
            for (int b = 0; b < cnt; ++b) { y[2 * b] = sout[2 * (b * out_len + i)]; y[2 * b + 1] = sout[2 * (b * out_len + i) + 1]; }
        }
        return;
    }
    for (int64_t i = 0; i < c; ++i) {  /* c2r: complex bins in, real rows out */
        const FT *x = src + 2 * i * in_step;
        for (int b = 0; b < cnt; ++b) { sin[2 * (b * c + i)] = x[2 * b]; sin[2 * (b * c + i) + 1] = x[2 * b + 1]; }
    }
    for (int b = 0; b < cnt; ++b)
        FN(row)(kind, P, n, sin + 2 * b * c, c, 1, sout + b * out_len, 1, scale, bufs, bufs + 2 * (n + 2), 1);
    for (int64_t i = 0; i < out_len; ++i) {
        FT *y = dst + i * out_step;
        for (int b = 0; b < cnt; ++b) y[b] = sout[b * out_len + i];
    }
}

static int FN(rows)(int kind, const FN(plan_t) *P, int64_t n, const FT *in, int64_t in_len, int64_t in_step,
                    FT *out, int64_t out_step, int nb, const int64_t *bshape, const int64_t *bin,
                    const int64_t *bout, double scale) {
    int64_t rows = 1;
    for (int i = 0; i < nb; ++i) rows *= bshape[i];
    if (rows == 0) return 0;
    const int cin = kind != NRFFT_R2C, cout = kind != NRFFT_C2R;  /* complex sides: 2 FT per element */
    const int64_t per = 2 * (n + 2) + 2 * FN(work_size)(P);
    /* tiles: the last batch dim runs with stride 1 on both sides while the dim itself does not */
    const int tiled = nb > 0 && bin[nb - 1] == 1 && bout[nb - 1] == 1 && in_step != 1 && bshape[nb - 1] > 1 &&
                      n <= NRFFT_TILE_MAXN;
    const int64_t inner = tiled ? bshape[nb - 1] : 1, per_outer = tiled ? (inner + NRFFT_TILE - 1) / NRFFT_TILE : 1;
    const int64_t tasks = tiled ? rows / inner * per_outer : rows;
    const int nbo = tiled ? nb - 1 : nb;
    const int nth = nr_max_threads();
    if (nth > 1 && rows < nth && n >= NRFFT_LONG) {  /* few long rows: the threads split each transform */
        FT *buf = (FT *)nr_scratch(NR_SCR_APACK, sizeof(FT) * per);
        if (!buf) return -2;
        for (int64_t r = 0; r < rows; ++r) {
            int64_t rem = r, oi = 0, oo = 0;
            for (int i = nb - 1; i >= 0; --i) {
                const int64_t c = rem % bshape[i];
                rem /= bshape[i];
                oi += c * bin[i]; oo += c * bout[i];
            }
            FN(row)(kind, P, n, in + (cin ? 2 : 1) * oi, in_len, in_step, out + (cout ? 2 : 1) * oo, out_step,
                    scale, buf, buf + 2 * (n + 2), nth);
        }
        nr_scratch_done(NR_SCR_APACK);
        return 0;
    }
    const int par = tasks > 1 && rows * n >= NRFFT_PAR_THRESHOLD && nth > 1;
    int failed = 0;
    #pragma omp parallel num_threads(par ? nth : 1) if(par)
    {
        /* a row and its work (c2c tiles: NRFFT_TILE of them), r2c/c2r tiles: staging rows in and out */
        const int64_t stage = tiled && kind != NRFFT_C2C ? 2 * (n + 2) * NRFFT_TILE : 0;
        const int64_t rows_held = tiled && kind == NRFFT_C2C ? NRFFT_TILE : 1;
        FT *buf = (FT *)nr_scratch(NR_SCR_APACK, sizeof(FT) * (per * rows_held + 2 * stage));
        if (!buf) {
            #pragma omp atomic write
            failed = 1;
        }
        #pragma omp for schedule(static)
        for (int64_t r = 0; r < tasks; ++r) {
            if (!buf) continue;
            int64_t rem = tiled ? r / per_outer : r, oi = 0, oo = 0;
            for (int i = nbo - 1; i >= 0; --i) {
                const int64_t c = rem % bshape[i];
                rem /= bshape[i];
                oi += c * bin[i]; oo += c * bout[i];
            }
            if (tiled) {
                const int64_t b0 = (r % per_outer) * NRFFT_TILE;
                const int cnt = (int)(inner - b0 < NRFFT_TILE ? inner - b0 : NRFFT_TILE);
                FT *st = buf + per * (kind == NRFFT_C2C ? NRFFT_TILE : 1);
                FN(tile)(kind, P, n, in + (cin ? 2 : 1) * (oi + b0), in_len, in_step, out + (cout ? 2 : 1) * (oo + b0),
                         out_step, cnt, scale, buf, per, st, st + stage);
                continue;
            }
            FN(row)(kind, P, n, in + (cin ? 2 : 1) * oi, in_len, in_step, out + (cout ? 2 : 1) * oo, out_step,
                    scale, buf, buf + 2 * (n + 2), 1);
        }
        nr_scratch_done(NR_SCR_APACK);
    }
    return failed ? -2 : 0;
}
