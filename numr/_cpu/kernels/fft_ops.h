/* FFT kernels: many 1-d transforms along one dim of a strided tensor.
 *
 * Plans (fft_impl.h, float64 and float32: complex64 computes in float with twiddles computed in
 * double) are cached per (length, direction, precision) for the life of the process (at most
 * NRFFT_CACHE; past that a call makes and frees its own). A call walks the rows (every index of
 * the other dims), gathers each into per-thread scratch (cropping or padding with zeros to the
 * transform length), transforms it and writes it strided into the output, times the norm's
 * scale; rows are split between OpenMP threads above a size threshold. A row is read whole
 * before it is written, so a transform may run in place (input and output the same view).
 * Kinds: c2c (complex rows of n), r2c (real rows, n // 2 + 1 bins out; an even n runs a complex
 * FFT of n/2 on the packed pairs (x[2t], x[2t+1]) and a post-pass), c2r (n // 2 + 1 bins in,
 * the Hermitian spectrum rebuilt, n real values out; an even n packs the spectrum into n/2
 * complex values, one complex FFT of n/2, and unpacks).
 */
#ifndef NUMR_FFT_OPS_H
#define NUMR_FFT_OPS_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <pthread.h>
#include "threads.h"
/* a transform's scratch (a row, its work, tiles) stays with its thread up to 32 MiB (a 1M-point
 * complex128 row): a fresh mmap per call page-faulted ~1 ms into every 1M-point transform */
#define NR_SCRATCH_KEEP ((size_t)32 << 20)
#include "scratch.h"

#define NRFFT_MAXP 64       /* largest radix done by a direct DFT stage */
#define NRFFT_CACHE 64
#define NRFFT_CACHE_BYTES (64 << 20)  /* plans kept past this are made and freed per call */
#define NRFFT_PAR_THRESHOLD 32768
#define NRFFT_LONG 32768       /* fewer rows than threads, this long: threads split each transform */
#define NRFFT_TILE 16          /* rows gathered together along a strided dim */
#define NRFFT_TILE_MAXN 16384  /* longest transform tiled (staging: 2 x 16 rows per thread) */

/* Radices 4, 2, 3, 5, 7, ... of n; 0 when n has a prime factor above 16 (and n > NRFFT_MAXP),
 * which Bluestein takes. */
static int nrfft_factor(int64_t n, int *fac, int *nf) {
    int k = 0;
    int64_t r = n;
    while (r % 4 == 0) { fac[k++] = 4; r /= 4; }
    if (r % 2 == 0) { fac[k++] = 2; r /= 2; }
    for (int64_t p = 3; r > 1 && p <= NRFFT_MAXP; p += 2) {
        while (r % p == 0) {
            if (p > 16 && n > NRFFT_MAXP) return 0;
            fac[k++] = (int)p; r /= p;
        }
    }
    *nf = k;
    return r == 1;
}

#define FT double
#define FN(x) x##_d
#include "fft_impl.h"
#undef FT
#undef FN
#define FT float
#define FN(x) x##_f
#include "fft_impl.h"
#undef FT
#undef FN

typedef struct { int64_t n; int sign, dbl, real; void *plan; } nrfft_entry;
static nrfft_entry nrfft_cache[NRFFT_CACHE];
static int nrfft_cached = 0;
static int64_t nrfft_cached_bytes = 0;

/* Bytes of a plan's tables (twiddles, Bluestein's chirp, kernel and sub-plan, real twiddles). */
static int64_t nrfft_plan_bytes(int64_t n, int dbl, int real) {
    int64_t c = n + (real ? n : 0);
    if (!nrfft_factor(n, (int[64]){0}, &(int){0})) {
        int64_t m = 1;
        while (m < 2 * n - 1) m <<= 1;
        c += n + 2 * m;
    }
    return c * 2 * (dbl ? 8 : 4);
}
static pthread_mutex_t nrfft_lock = PTHREAD_MUTEX_INITIALIZER;

/* The cached plan, or a fresh one to free after the call (*own = 1); NULL when out of memory. */
static void *nrfft_plan(int64_t n, int sign, int dbl, int real, int *own) {
    *own = 0;
    pthread_mutex_lock(&nrfft_lock);
    for (int i = 0; i < nrfft_cached; ++i) {
        if (nrfft_cache[i].n == n && nrfft_cache[i].sign == sign && nrfft_cache[i].dbl == dbl &&
            nrfft_cache[i].real == real) {
            void *p = nrfft_cache[i].plan;
            pthread_mutex_unlock(&nrfft_lock);
            return p;
        }
    }
    void *p = real ? (dbl ? (void *)plan_make_real_d(n, sign) : (void *)plan_make_real_f(n, sign))
                   : (dbl ? (void *)plan_make_d(n, sign) : (void *)plan_make_f(n, sign));
    const int64_t bytes = nrfft_plan_bytes(n, dbl, real);
    if (p && nrfft_cached < NRFFT_CACHE && nrfft_cached_bytes + bytes <= NRFFT_CACHE_BYTES) {
        nrfft_cache[nrfft_cached++] = (nrfft_entry){n, sign, dbl, real, p};
        nrfft_cached_bytes += bytes;
    } else if (p) {
        *own = 1;
    }
    pthread_mutex_unlock(&nrfft_lock);
    return p;
}

enum { NRFFT_C2C = 0, NRFFT_R2C = 1, NRFFT_C2R = 2 };

#define FT double
#define FN(x) x##_d
#include "fft_rows.h"
#undef FT
#undef FN
#define FT float
#define FN(x) x##_f
#include "fft_rows.h"
#undef FT
#undef FN

/* Transforms along one dim: n the transform length, in_len the input's length along the dim
 * (cropped or padded), in_step/out_step the dim's strides, nb batch dims (shape, in and out
 * strides; strides in elements of each side's own dtype). 0: done, -2: out of memory. */
static int nrfft_rows(int kind, int dbl, int sign, int64_t n, const void *in, int64_t in_len,
                      int64_t in_step, void *out, int64_t out_step, int nb, const int64_t *bshape,
                      const int64_t *bin, const int64_t *bout, double scale) {
    int own = 0;
    int64_t kn = n;
    int ksign = sign, real = 0;
    if ((kind == NRFFT_R2C || kind == NRFFT_C2R) && n % 2 == 0) { kn = n / 2; real = 1; }
    if (kind == NRFFT_R2C) ksign = -1;
    if (kind == NRFFT_C2R) ksign = 1;
    void *plan = nrfft_plan(kn, ksign, dbl, real, &own);
    if (!plan) return -2;
    int rc = dbl ? rows_d(kind, (plan_t_d *)plan, n, (const double *)in, in_len, in_step, (double *)out,
                          out_step, nb, bshape, bin, bout, scale)
                 : rows_f(kind, (plan_t_f *)plan, n, (const float *)in, in_len, in_step, (float *)out,
                          out_step, nb, bshape, bin, bout, scale);
    if (own) {
        if (dbl) plan_free_d((plan_t_d *)plan); else plan_free_f((plan_t_f *)plan);
    }
    return rc;
}

#endif
