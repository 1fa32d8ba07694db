/* Element streams of rand/randn/randint over Philox4x32-10 (philox.h), exactly as
 * docs/architecture.md "Random numbers" defines them; w0..w3 are block b's words.
 *
 *   rand, float32/float16/bfloat16/float8: element i = block i/4, word i%4:
 *       (float)(w >> 8) * 2**-24 (exact in float32), then rounded to the dtype (round to
 *       nearest even: float16 and narrower can round up to 1.0)
 *   rand, float64: element i = block i/2, k = i%2: ((w[2k] << 32 | w[2k+1]) >> 11) * 2**-53
 *   randn: element i = block i/2, k = i%2:
 *       float64: u1 = (double)((uint64)w[2k] + 1) * 2**-32, u2 = (double)w[2k+1] * 2**-32,
 *                z = sqrt(-2 * log(u1)) * cos(2*pi * u2)   (cos of the exact angle: the CPU
 *                reduces u2 in turns, nr__cos_2pi; cos(fl(2*pi) * u2) differs by ~1 ulp)
 *       others:  the same in float32: u1 = (float)((uint64)w[2k] + 1) * 2**-32f,
 *                u2 = (float)w[2k+1] * 2**-32f, z = sqrtf(-2.f * logf(u1)) * cosf(6.2831855f * u2),
 *                then rounded to the dtype. (log/cos here are vmath.h's vectorised float32
 *                versions (<= 2 ulp), vmath_f64.h's log and nr__cos_2pi for float64, so randn agrees across backends to
 *                a few ulp, not bit for bit; rand and randint agree bit for bit.)
 *
 * The CPU evaluates Philox on NR_PHILOX_LANES consecutive blocks at once (same numbers as
 * philox.h's nr_philox_block, laid out so GCC vectorises the rounds).
 *   randint(low, span = high - low): span <= 2**32: element i = block i/4, word i%4:
 *       low + w % span; larger spans: block i/2, low + (w[2k] << 32 | w[2k+1]) % span
 *       (span = 2**64 is passed as 0 and means no reduction), in wrapping 64-bit arithmetic.
 */
#ifndef NUMR_RANDOM_GEN_H
#define NUMR_RANDOM_GEN_H

#include <math.h>
#include <string.h>
#include <omp.h>
#include "dtypes.h"
#include "nditer.h"
#include "philox.h"
#include "vmath.h"
#include "vmath_trig.h"
#include "vmath_f64.h"

#define NR_PHILOX_LANES 16

/* w[j][l] = word j of block b0 + l, l < NR_PHILOX_LANES. The words live in the low halves
 * of 64-bit lanes (the high halves are don't-care), so each round is two widening 32x32
 * multiplies, two shifts and two three-way xors per vector, with no repacking: 1.7x
 * faster than 32-bit lanes, whose high-half products GCC assembled with permutes. */
static inline void nr_philox_lanes(uint64_t seed, uint64_t stream, uint64_t b0,
                                   uint32_t w[4][NR_PHILOX_LANES]) {
    uint64_t c0[NR_PHILOX_LANES], c1[NR_PHILOX_LANES], c2[NR_PHILOX_LANES], c3[NR_PHILOX_LANES];
    for (int l = 0; l < NR_PHILOX_LANES; ++l) {
        const uint64_t b = b0 + (uint64_t)l;
        c0[l] = (uint32_t)b;
        c1[l] = b >> 32;
        c2[l] = (uint32_t)stream;
        c3[l] = stream >> 32;
    }
    for (int r = 0; r < 10; ++r) {
        const uint64_t k0 = (uint32_t)((uint32_t)seed + (uint32_t)r * NR_PHILOX_W0);
        const uint64_t k1 = (uint32_t)((uint32_t)(seed >> 32) + (uint32_t)r * NR_PHILOX_W1);
        #pragma omp simd
        for (int l = 0; l < NR_PHILOX_LANES; ++l) {
            const uint64_t p0 = (uint64_t)(uint32_t)c0[l] * NR_PHILOX_M0;
            const uint64_t p1 = (uint64_t)(uint32_t)c2[l] * NR_PHILOX_M1;
            c0[l] = (p1 >> 32) ^ c1[l] ^ k0;
            c2[l] = (p0 >> 32) ^ c3[l] ^ k1;
            c1[l] = p1;
            c3[l] = p0;
        }
    }
    for (int l = 0; l < NR_PHILOX_LANES; ++l) {
        w[0][l] = (uint32_t)c0[l]; w[1][l] = (uint32_t)c1[l];
        w[2][l] = (uint32_t)c2[l]; w[3][l] = (uint32_t)c3[l];
    }
}

/* Store float32 results v[0..n) at dst[i0..] for a float dtype other than float64. */
static inline void nr__rstore_f32(int code, char *dst, int64_t i0, const float *v, int64_t n) {
    switch (code) {
    case NR_F32: for (int64_t i = 0; i < n; ++i) ((float *)dst)[i0 + i] = v[i]; break;
    case NR_F16: for (int64_t i = 0; i < n; ++i) ((nr_f16 *)dst)[i0 + i] = nr_f32_to_f16(v[i]); break;
    case NR_BF16: for (int64_t i = 0; i < n; ++i) ((nr_bf16 *)dst)[i0 + i] = nr_f32_to_bf16(v[i]); break;
    case NR_F8E4M3: for (int64_t i = 0; i < n; ++i) ((nr_f8e4m3 *)dst)[i0 + i] = nr_f32_to_f8e4m3(v[i]); break;
    case NR_F8E5M2: for (int64_t i = 0; i < n; ++i) ((nr_f8e5m2 *)dst)[i0 + i] = nr_f32_to_f8e5m2(v[i]); break;
    default: break;
    }
}

static inline void nr__rstore_int(int code, char *dst, int64_t i0, const uint64_t *v, int64_t n) {
    switch (code) {
    case NR_I64: case NR_U64: for (int64_t i = 0; i < n; ++i) ((uint64_t *)dst)[i0 + i] = v[i]; break;
    case NR_I32: case NR_U32: for (int64_t i = 0; i < n; ++i) ((uint32_t *)dst)[i0 + i] = (uint32_t)v[i]; break;
    case NR_I16: case NR_U16: for (int64_t i = 0; i < n; ++i) ((uint16_t *)dst)[i0 + i] = (uint16_t)v[i]; break;
    case NR_I8: case NR_U8: for (int64_t i = 0; i < n; ++i) ((uint8_t *)dst)[i0 + i] = (uint8_t)v[i]; break;
    default: break;
    }
}

/* Loop over groups of NR_PHILOX_LANES blocks (OpenMP when large). Between BEGIN and END,
 * `w` holds the words of blocks g*LANES.. and the code produces elements [i0, i0 + cnt). */
#define NR__GROUPS_BEGIN(n, per)                                                       \
    {                                                                                  \
        const int64_t gsz = (int64_t)(per) * NR_PHILOX_LANES;                          \
        const int64_t ng = ((n) + gsz - 1) / gsz;                                      \
        const int nth = (n) >= NR_PARALLEL_THRESHOLD / 4 ? nr_max_threads() : 1;                   \
        _Pragma("omp parallel for num_threads(nth) if (nth > 1) schedule(static)")                 \
        for (int64_t g = 0; g < ng; ++g) {                                             \
            uint32_t w[4][NR_PHILOX_LANES];                                            \
            const int64_t i0 = g * gsz, cnt = (n) - i0 < gsz ? (n) - i0 : gsz;         \
            nr_philox_lanes(seed, stream, (uint64_t)g * NR_PHILOX_LANES, w);
#define NR__GROUPS_END \
        }              \
    }

static void nr_rand_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream) {
    if (code == NR_F64) {
        NR__GROUPS_BEGIN(n, 2)
            double v[2 * NR_PHILOX_LANES];
            for (int l = 0; l < NR_PHILOX_LANES; ++l)
                for (int k = 0; k < 2; ++k)
                    v[2 * l + k] = (double)((((uint64_t)w[2 * k][l] << 32) | w[2 * k + 1][l]) >> 11) * 0x1p-53;
            memcpy((double *)dst + i0, v, (size_t)cnt * sizeof(double));
        NR__GROUPS_END
        return;
    }
    NR__GROUPS_BEGIN(n, 4)
        float v[4 * NR_PHILOX_LANES];
        for (int l = 0; l < NR_PHILOX_LANES; ++l)
            for (int j = 0; j < 4; ++j) v[4 * l + j] = (float)(w[j][l] >> 8) * 0x1p-24f;
        nr__rstore_f32(code, dst, i0, v, cnt);
    NR__GROUPS_END
}

/* cos(2*pi*u) for u in [0, 1) in float64, branch-free: exact reduction in turns
 * (t = |u - rint(u)| in [0, 1/2], quadrant q = rint(4t), r = t - q/4 in [-1/8, 1/8]),
 * x = 2*pi*r with 2*pi split in two doubles (|x| <= pi/4), then fdlibm's __kernel_cos and
 * __kernel_sin polynomials; q = 1 gives -sin(x), q = 2 gives -cos(x). Within ~1 ulp. */
static inline double nr__cos_2pi(double u) {
    const double t = fabs(u - rint(u));
    const double q = rint(4.0 * t);
    const double r = t - 0.25 * q;
    const double x = r * 6.28318530717958623200e+00 + r * 2.44929359829470635445e-16;
    const double z = x * x, w = z * z;
    const double rc = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 +
                      z * 2.48015872894767294178e-05)) +
                      w * w * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 +
                      z * -1.13596475577881948265e-11));
    const double hz = 0.5 * z, wc = 1.0 - hz;
    const double c = wc + (((1.0 - wc) - hz) + z * rc);
    const double rs = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04 +
                      z * 2.75573137070700676789e-06) +
                      z * w * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
    const double sn = x + (z * x) * (-1.66666666666666324348e-01 + z * rs);
    return nr_sel_f64(q == 2.0, -c, nr_sel_f64(q == 1.0, -sn, c));
}

static void nr_randn_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream) {
    if (code == NR_F64) {
        NR__GROUPS_BEGIN(n, 2)
            double v[2 * NR_PHILOX_LANES], z[2][NR_PHILOX_LANES];
            for (int k = 0; k < 2; ++k) {
                #pragma omp simd
                for (int l = 0; l < NR_PHILOX_LANES; ++l) {
                    double u1 = (double)((uint64_t)w[2 * k][l] + 1) * 0x1p-32;
                    double u2 = (double)w[2 * k + 1][l] * 0x1p-32;
                    z[k][l] = sqrt(-2.0 * nr_log(u1)) * nr__cos_2pi(u2);
                }
            }
            for (int l = 0; l < NR_PHILOX_LANES; ++l) {
                v[2 * l] = z[0][l];
                v[2 * l + 1] = z[1][l];
            }
            memcpy((double *)dst + i0, v, (size_t)cnt * sizeof(double));
        NR__GROUPS_END
        return;
    }
    NR__GROUPS_BEGIN(n, 2)
        float v[2 * NR_PHILOX_LANES], z[2][NR_PHILOX_LANES];
        for (int k = 0; k < 2; ++k) {
            #pragma omp simd
            for (int l = 0; l < NR_PHILOX_LANES; ++l) {
                float u1 = (float)((uint64_t)w[2 * k][l] + 1) * 0x1p-32f;
                float u2 = (float)w[2 * k + 1][l] * 0x1p-32f;
                z[k][l] = sqrtf(-2.0f * nr_logf(u1)) * nr_cosf(6.2831855f * u2);
            }
        }
        for (int l = 0; l < NR_PHILOX_LANES; ++l) {
            v[2 * l] = z[0][l];
            v[2 * l + 1] = z[1][l];
        }
        nr__rstore_f32(code, dst, i0, v, cnt);
    NR__GROUPS_END
}

static void nr_randint_fill(int code, char *dst, int64_t n, uint64_t seed, uint64_t stream,
                            uint64_t low, uint64_t span) {
    if (span != 0 && span <= 0x100000000ull) {
        NR__GROUPS_BEGIN(n, 4)
            /* w % span in double: exact (w, span <= 2**32), and it vectorises */
            uint64_t v[4 * NR_PHILOX_LANES];
            const double dspan = (double)span;
            #pragma omp simd
            for (int64_t e = 0; e < 4 * NR_PHILOX_LANES; ++e) {
                const double x = (double)w[e & 3][e >> 2];
                v[e] = low + (uint64_t)(x - dspan * floor(x / dspan));
            }
            nr__rstore_int(code, dst, i0, v, cnt);
        NR__GROUPS_END
        return;
    }
    NR__GROUPS_BEGIN(n, 2)
        uint64_t v[2 * NR_PHILOX_LANES];
        for (int64_t e = 0; e < cnt; ++e) {
            int l = (int)(e >> 1), k = (int)(e & 1);
            uint64_t u = ((uint64_t)w[2 * k][l] << 32) | w[2 * k + 1][l];
            v[e] = low + (span ? u % span : u);
        }
        nr__rstore_int(code, dst, i0, v, cnt);
    NR__GROUPS_END
}

#endif
