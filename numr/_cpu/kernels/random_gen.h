/* Element streams of rand/randn/randint over Philox4x32-10 (philox.h), exactly as
 * docs/architecture.md "Random numbers" defines them; w0..w3 are block b's words.
 *
 *   rand, float32/float16/bfloat16/float8: element i = block i/4, word i%4:
 *       (float)(w >> 8) * 2**-24 (exact in float32), then rounded to the dtype (round to
 *       nearest even: float16 and narrower can round up to 1.0)
 *   rand, float64: element i = block i/2, k = i%2: ((w[2k] << 32 | w[2k+1]) >> 11) * 2**-53
 *   randn: element i = block i/2, k = i%2:
 *       float64: u1 = (double)((uint64)w[2k] + 1) * 2**-32, u2 = (double)w[2k+1] * 2**-32,
 *                z = sqrt(-2 * log(u1)) * cos(2*pi * u2)   (2*pi = the double nearest)
 *       others:  the same in float32: u1 = (float)((uint64)w[2k] + 1) * 2**-32f,
 *                u2 = (float)w[2k+1] * 2**-32f, z = sqrtf(-2.f * logf(u1)) * cosf(6.2831855f * u2),
 *                then rounded to the dtype. (log/cos come from the platform's libm, so randn
 *                agrees across backends to a few ulp, not bit for bit; rand and randint do.)
 *   randint(low, span = high - low): span <= 2**32: element i = block i/4, word i%4:
 *       low + w % span; larger spans: block i/2, low + (w[2k] << 32 | w[2k+1]) % span
 *       (span = 2**64 is passed as 0 and means no reduction), in wrapping 64-bit arithmetic.
 */
#ifndef NUMR_RANDOM_GEN_H
#define NUMR_RANDOM_GEN_H

#include <math.h>
#include <omp.h>
#include "dtypes.h"
#include "nditer.h"
#include "philox.h"

/* Store a float32 result into a float dtype other than float64. */
static inline void nr__rstore_f32(int code, char *dst, int64_t i, float v) {
    switch (code) {
    case NR_F32: ((float *)dst)[i] = v; break;
    case NR_F16: ((nr_f16 *)dst)[i] = nr_f32_to_f16(v); break;
    case NR_BF16: ((nr_bf16 *)dst)[i] = nr_f32_to_bf16(v); break;
    case NR_F8E4M3: ((nr_f8e4m3 *)dst)[i] = nr_f32_to_f8e4m3(v); break;
    case NR_F8E5M2: ((nr_f8e5m2 *)dst)[i] = nr_f32_to_f8e5m2(v); break;
    default: break;
    }
}

static inline void nr__rstore_int(int code, char *dst, int64_t i, uint64_t v) {
    switch (code) {
    case NR_I64: case NR_U64: ((uint64_t *)dst)[i] = v; break;
    case NR_I32: case NR_U32: ((uint32_t *)dst)[i] = (uint32_t)v; break;
    case NR_I16: case NR_U16: ((uint16_t *)dst)[i] = (uint16_t)v; break;
    case NR_I8: case NR_U8: ((uint8_t *)dst)[i] = (uint8_t)v; break;
    default: break;
    }
}

#define NR__RAND_THREADS(n) ((n) >= NR_PARALLEL_THRESHOLD / 4 ? omp_get_max_threads() : 1)

static void nr_rand_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream) {
    int per = code == NR_F64 ? 2 : 4;
    int64_t nb = (n + per - 1) / per;
    int nth = NR__RAND_THREADS(n);
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        uint32_t w[4];
        nr_philox_block(seed, stream, (uint64_t)b, w);
        for (int j = 0; j < per; ++j) {
            int64_t i = b * per + j;
            if (i >= n) break;
            if (code == NR_F64) {
                uint64_t u = (((uint64_t)w[2 * j] << 32) | w[2 * j + 1]) >> 11;
                ((double *)dst)[i] = (double)u * 0x1p-53;
            } else {
                nr__rstore_f32(code, dst, i, (float)(w[j] >> 8) * 0x1p-24f);
            }
        }
    }
}

static void nr_randn_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream) {
    int64_t nb = (n + 1) / 2;
    int nth = NR__RAND_THREADS(n);
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        uint32_t w[4];
        nr_philox_block(seed, stream, (uint64_t)b, w);
        for (int k = 0; k < 2; ++k) {
            int64_t i = b * 2 + k;
            if (i >= n) break;
            if (code == NR_F64) {
                double u1 = (double)((uint64_t)w[2 * k] + 1) * 0x1p-32;
                double u2 = (double)w[2 * k + 1] * 0x1p-32;
                ((double *)dst)[i] = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
            } else {
                float u1 = (float)((uint64_t)w[2 * k] + 1) * 0x1p-32f;
                float u2 = (float)w[2 * k + 1] * 0x1p-32f;
                nr__rstore_f32(code, dst, i, sqrtf(-2.0f * logf(u1)) * cosf(6.2831855f * u2));
            }
        }
    }
}

static void nr_randint_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream,
                            uint64_t low, uint64_t span) {
    int small = span != 0 && span <= 0x100000000ull;
    int per = small ? 4 : 2;
    int64_t nb = (n + per - 1) / per;
    int nth = NR__RAND_THREADS(n);
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        uint32_t w[4];
        nr_philox_block(seed, stream, (uint64_t)b, w);
        for (int j = 0; j < per; ++j) {
            int64_t i = b * per + j;
            if (i >= n) break;
            uint64_t r;
            if (small) {
                r = (uint64_t)w[j] % span;
            } else {
                uint64_t u = ((uint64_t)w[2 * j] << 32) | w[2 * j + 1];
                r = span ? u % span : u;
            }
            nr__rstore_int(code, dst, i, low + r);
        }
    }
}

#endif
