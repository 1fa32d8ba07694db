/* Fused optimizer steps (numr/_cpu/ops/optim.py): one pass over contiguous parameter, gradient and
 * state that writes the parameter and its moment buffers in place, where the composite makes ~12
 * passes and as many temporaries. The arithmetic is the composite's (numr/ops/generic/optim.py), op
 * for op: float64 in double, float32 in float, float16/bfloat16 in float with every stored state
 * rounded to its dtype as the composite stores it (and scalars rounded to it first, as numr's
 * scalar operands are). OpenMP over elements above 64K. */
#pragma once
#include <math.h>
#include <stdint.h>
#include "dtypes.h"
#include "threads.h" /* nr_max_threads: set_num_threads() applies here too */

/* No contraction of a * b + c into fma: the composite rounds the product, and so must we. */
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

typedef struct {
    double b1, b2, eps_c, step_size, sign, wd_l2, p_scale;
} nro_adam_args;

typedef struct {
    double lr, momentum, dampening, sign, wd;
    int first, nesterov;
} nro_sgd_args;

typedef struct {
    double lr, alpha, eps, momentum, sign, wd;
} nro_rms_args;

#define NRO_ID(x) (x)
#define NRO_BF16_LD(x) nr_bf16_to_f32(x)
#define NRO_BF16_ST(x) nr_f32_to_bf16(x)

#define NRO_BLOCK 4096
#define NRO_INLINE static inline __attribute__((always_inline))

/* Blocks of NRO_BLOCK elements over OpenMP threads; BODY(lo, hi) is an always-inline loop whose
 * flags are compile-time constants at each call, so every variant vectorises branch-free. */
#define NRO_BLOCKS(n, BODY) do { const int64_t nb_ = ((n) + NRO_BLOCK - 1) / NRO_BLOCK; \
    _Pragma("omp parallel for num_threads(nr_max_threads()) if (n > 65536) schedule(static)") \
    for (int64_t b_ = 0; b_ < nb_; b_++) { \
        const int64_t lo = b_ * NRO_BLOCK, hi = lo + NRO_BLOCK < (n) ? lo + NRO_BLOCK : (n); BODY; } \
} while (0)

/* Adam/AdamW: g = sign grad (+ wd p, L2); p *= p_scale (decoupled); m += (g - m)(1 - b1);
 * v = fma(g, g (1 - b2), v b2); vmax = max(vmax, v) (amsgrad); p -= m / (sqrt(v) + eps c) step_size */
#define NRO_DEFINE_ADAM(NAME, T, A, SQRT, FMA, LD, ST) \
NRO_INLINE void NAME##_run(T *p, const T *g, T *m, T *v, T *vmax, int64_t lo, int64_t hi, \
                           const nro_adam_args *a, const int l2, const int ams) { \
    const A omb1 = LD(ST((A)(1 - a->b1))), omb2 = LD(ST((A)(1 - a->b2))), b2 = LD(ST((A)a->b2)); \
    const A wd = LD(ST((A)a->wd_l2)), ps = LD(ST((A)a->p_scale)), epsc = LD(ST((A)a->eps_c)); \
    const A ss = LD(ST((A)a->step_size)), sign = (A)a->sign; \
    _Pragma("omp simd") \
    for (int64_t i = lo; i < hi; i++) { \
        A pi = LD(p[i]), gi = LD(g[i]) * sign; \
        if (l2) gi = LD(ST(gi + LD(ST(pi * wd)))); \
        pi = LD(ST(pi * ps)); \
        A mi = LD(m[i]); \
        mi = LD(ST(mi + LD(ST(LD(ST(gi - mi)) * omb1)))); \
        A vi = LD(ST(FMA(gi, LD(ST(gi * omb2)), LD(ST(LD(v[i]) * b2))))); \
        m[i] = ST(mi); v[i] = ST(vi); \
        if (ams) { A x = LD(vmax[i]); vi = x != x || x > vi ? x : vi; vmax[i] = ST(vi); } \
        A d = LD(ST(LD(ST(SQRT(vi))) + epsc)); \
        p[i] = ST(pi - LD(ST(LD(ST(mi / d)) * ss))); \
    } \
} \
static void NAME(T *p, const T *g, T *m, T *v, T *vmax, int64_t n, const nro_adam_args *a) { \
    const int l2 = a->wd_l2 != 0, ams = vmax != 0; \
    NRO_BLOCKS(n, if (l2) { if (ams) NAME##_run(p, g, m, v, vmax, lo, hi, a, 1, 1); \
                            else NAME##_run(p, g, m, v, vmax, lo, hi, a, 1, 0); } \
                  else { if (ams) NAME##_run(p, g, m, v, vmax, lo, hi, a, 0, 1); \
                         else NAME##_run(p, g, m, v, vmax, lo, hi, a, 0, 0); }); \
}

/* SGD: g = sign grad (+ wd p); buf = g (first step) or buf mu + g (1 - dampening);
 * g = g + buf mu (nesterov) or buf; p -= g lr */
#define NRO_DEFINE_SGD(NAME, T, A, LD, ST) \
NRO_INLINE void NAME##_run(T *p, const T *g, T *buf, int64_t lo, int64_t hi, const nro_sgd_args *a, \
                           const int l2, const int mom, const int first, const int nest) { \
    const A lr = LD(ST((A)a->lr)), mu = LD(ST((A)a->momentum)), omd = LD(ST((A)(1 - a->dampening))); \
    const A wd = LD(ST((A)a->wd)), sign = (A)a->sign; \
    _Pragma("omp simd") \
    for (int64_t i = lo; i < hi; i++) { \
        A pi = LD(p[i]), gi = LD(g[i]) * sign; \
        if (l2) gi = LD(ST(gi + LD(ST(pi * wd)))); \
        if (mom) { \
            A b = first ? gi : LD(ST(LD(ST(LD(buf[i]) * mu)) + LD(ST(gi * omd)))); \
            buf[i] = ST(b); \
            gi = nest ? LD(ST(gi + LD(ST(b * mu)))) : b; \
        } \
        p[i] = ST(pi - LD(ST(gi * lr))); \
    } \
} \
static void NAME(T *p, const T *g, T *buf, int64_t n, const nro_sgd_args *a) { \
    const int l2 = a->wd != 0; \
    if (buf == 0) NRO_BLOCKS(n, if (l2) NAME##_run(p, g, buf, lo, hi, a, 1, 0, 0, 0); \
                                else NAME##_run(p, g, buf, lo, hi, a, 0, 0, 0, 0)); \
    else NRO_BLOCKS(n, NAME##_run(p, g, buf, lo, hi, a, l2, 1, a->first, a->nesterov)); \
}

/* RMSprop: g = sign grad (+ wd p); s = fma(g, g (1 - alpha), s alpha); centered: ga += (g - ga)
 * (1 - alpha), s' = s - ga ga; avg = sqrt(s') + eps; momentum: buf = buf mu + g / avg, p -= buf lr;
 * else p -= (g / avg) lr */
#define NRO_DEFINE_RMS(NAME, T, A, SQRT, FMA, LD, ST) \
NRO_INLINE void NAME##_run(T *p, const T *g, T *sq, T *ga, T *buf, int64_t lo, int64_t hi, \
                           const nro_rms_args *a, const int l2, const int cen, const int mom) { \
    const A oma = LD(ST((A)(1 - a->alpha))), al = LD(ST((A)a->alpha)), eps = LD(ST((A)a->eps)); \
    const A lr = LD(ST((A)a->lr)), mu = LD(ST((A)a->momentum)), wd = LD(ST((A)a->wd)), sign = (A)a->sign; \
    _Pragma("omp simd") \
    for (int64_t i = lo; i < hi; i++) { \
        A pi = LD(p[i]), gi = LD(g[i]) * sign; \
        if (l2) gi = LD(ST(gi + LD(ST(pi * wd)))); \
        A si = LD(ST(FMA(gi, LD(ST(gi * oma)), LD(ST(LD(sq[i]) * al))))); \
        sq[i] = ST(si); \
        if (cen) { \
            A gai = LD(ga[i]); \
            gai = LD(ST(gai + LD(ST(LD(ST(gi - gai)) * oma)))); \
            ga[i] = ST(gai); \
            si = LD(ST(si - LD(ST(gai * gai)))); \
        } \
        A avg = LD(ST(LD(ST(SQRT(si))) + eps)); \
        A q = LD(ST(gi / avg)); \
        if (mom) { A b = LD(ST(LD(ST(LD(buf[i]) * mu)) + q)); buf[i] = ST(b); q = b; } \
        p[i] = ST(pi - LD(ST(q * lr))); \
    } \
} \
static void NAME(T *p, const T *g, T *sq, T *ga, T *buf, int64_t n, const nro_rms_args *a) { \
    const int l2 = a->wd != 0, cen = ga != 0, mom = buf != 0; \
    NRO_BLOCKS(n, if (l2) { if (cen) { if (mom) NAME##_run(p, g, sq, ga, buf, lo, hi, a, 1, 1, 1); \
                                       else NAME##_run(p, g, sq, ga, buf, lo, hi, a, 1, 1, 0); } \
                            else { if (mom) NAME##_run(p, g, sq, ga, buf, lo, hi, a, 1, 0, 1); \
                                   else NAME##_run(p, g, sq, ga, buf, lo, hi, a, 1, 0, 0); } } \
                  else { if (cen) { if (mom) NAME##_run(p, g, sq, ga, buf, lo, hi, a, 0, 1, 1); \
                                    else NAME##_run(p, g, sq, ga, buf, lo, hi, a, 0, 1, 0); } \
                         else { if (mom) NAME##_run(p, g, sq, ga, buf, lo, hi, a, 0, 0, 1); \
                                else NAME##_run(p, g, sq, ga, buf, lo, hi, a, 0, 0, 0); } }); \
}

NRO_DEFINE_RMS(nro_rms_f64, double, double, sqrt, fma, NRO_ID, NRO_ID)
NRO_DEFINE_RMS(nro_rms_f32, float, float, sqrtf, fmaf, NRO_ID, NRO_ID)
NRO_DEFINE_RMS(nro_rms_bf16, nr_bf16, float, sqrtf, fmaf, NRO_BF16_LD, NRO_BF16_ST)

NRO_DEFINE_ADAM(nro_adam_f64, double, double, sqrt, fma, NRO_ID, NRO_ID)
NRO_DEFINE_ADAM(nro_adam_f32, float, float, sqrtf, fmaf, NRO_ID, NRO_ID)
NRO_DEFINE_ADAM(nro_adam_bf16, nr_bf16, float, sqrtf, fmaf, NRO_BF16_LD, NRO_BF16_ST)
NRO_DEFINE_SGD(nro_sgd_f64, double, double, NRO_ID, NRO_ID)
NRO_DEFINE_SGD(nro_sgd_f32, float, float, NRO_ID, NRO_ID)
NRO_DEFINE_SGD(nro_sgd_bf16, nr_bf16, float, NRO_BF16_LD, NRO_BF16_ST)


/* float16: the element-wise bit arithmetic of 14 roundings per element costs more than the
 * composite's passes, whose conversions are F16C's; so chunks of NRO_HC elements run in float32
 * scratch, op by op, each result rounded through float16 by nr_f32_to_f16_n/nr_f16_to_f32_n
 * (F16C, bit-identical to the scalar conversions): the same results as the loops above. */
#define NRO_HC 512
#define NRO_R(X) do { nr_f32_to_f16_n(X, h_, k); nr_f16_to_f32_n(h_, X, k); } while (0)
#define NRO_EACH(STMT) do { _Pragma("omp simd") for (int64_t i = 0; i < k; i++) { STMT; } } while (0)

static void nro_adam_f16_chunk(nr_f16 *p, const nr_f16 *g, nr_f16 *m, nr_f16 *v, nr_f16 *vmax, int64_t k,
                               const nro_adam_args *a) {
    float P[NRO_HC], G[NRO_HC], M[NRO_HC], V[NRO_HC], T1[NRO_HC], T2[NRO_HC];
    nr_f16 h_[NRO_HC];
#define NRO_SC(x) nr_f16_to_f32(nr_f32_to_f16((float)(x)))
    const float omb1 = NRO_SC(1 - a->b1), omb2 = NRO_SC(1 - a->b2), b2 = NRO_SC(a->b2), wd = NRO_SC(a->wd_l2);
    const float ps = NRO_SC(a->p_scale), epsc = NRO_SC(a->eps_c), ss = NRO_SC(a->step_size);
    const float sign = (float)a->sign;
    nr_f16_to_f32_n(p, P, k); nr_f16_to_f32_n(g, G, k); nr_f16_to_f32_n(m, M, k); nr_f16_to_f32_n(v, V, k);
    NRO_EACH(G[i] *= sign);
    if (a->wd_l2 != 0) { NRO_EACH(T1[i] = P[i] * wd); NRO_R(T1); NRO_EACH(G[i] += T1[i]); NRO_R(G); }
    NRO_EACH(P[i] *= ps); NRO_R(P);
    NRO_EACH(T1[i] = G[i] - M[i]); NRO_R(T1); NRO_EACH(T1[i] *= omb1); NRO_R(T1);
    NRO_EACH(M[i] += T1[i]); NRO_R(M);
    NRO_EACH(T1[i] = G[i] * omb2); NRO_R(T1); NRO_EACH(T2[i] = V[i] * b2); NRO_R(T2);
    NRO_EACH(V[i] = fmaf(G[i], T1[i], T2[i])); NRO_R(V);
    nr_f32_to_f16_n(M, m, k); nr_f32_to_f16_n(V, v, k);
    if (vmax) {
        nr_f16_to_f32_n(vmax, T1, k);
        NRO_EACH(V[i] = T1[i] != T1[i] || T1[i] > V[i] ? T1[i] : V[i]);
        nr_f32_to_f16_n(V, vmax, k);
    }
    NRO_EACH(T1[i] = sqrtf(V[i])); NRO_R(T1); NRO_EACH(T1[i] += epsc); NRO_R(T1);
    NRO_EACH(T2[i] = M[i] / T1[i]); NRO_R(T2); NRO_EACH(T2[i] *= ss); NRO_R(T2);
    NRO_EACH(P[i] -= T2[i]);
    nr_f32_to_f16_n(P, p, k);
}

static void nro_sgd_f16_chunk(nr_f16 *p, const nr_f16 *g, nr_f16 *buf, int64_t k, const nro_sgd_args *a) {
    float P[NRO_HC], G[NRO_HC], B[NRO_HC], T1[NRO_HC];
    nr_f16 h_[NRO_HC];
    const float lr = NRO_SC(a->lr), mu = NRO_SC(a->momentum), omd = NRO_SC(1 - a->dampening);
    const float wd = NRO_SC(a->wd), sign = (float)a->sign;
    nr_f16_to_f32_n(p, P, k); nr_f16_to_f32_n(g, G, k);
    NRO_EACH(G[i] *= sign);
    if (a->wd != 0) { NRO_EACH(T1[i] = P[i] * wd); NRO_R(T1); NRO_EACH(G[i] += T1[i]); NRO_R(G); }
    if (buf) {
        if (a->first) {
            NRO_EACH(B[i] = G[i]);
        } else {
            nr_f16_to_f32_n(buf, B, k);
            NRO_EACH(B[i] *= mu); NRO_R(B); NRO_EACH(T1[i] = G[i] * omd); NRO_R(T1);
            NRO_EACH(B[i] += T1[i]); NRO_R(B);
        }
        nr_f32_to_f16_n(B, buf, k);
        if (a->nesterov) { NRO_EACH(T1[i] = B[i] * mu); NRO_R(T1); NRO_EACH(G[i] += T1[i]); NRO_R(G); }
        else NRO_EACH(G[i] = B[i]);
    }
    NRO_EACH(T1[i] = G[i] * lr); NRO_R(T1);
    NRO_EACH(P[i] -= T1[i]);
    nr_f32_to_f16_n(P, p, k);
#undef NRO_SC
}

static void nro_adam_f16(nr_f16 *p, const nr_f16 *g, nr_f16 *m, nr_f16 *v, nr_f16 *vmax, int64_t n,
                         const nro_adam_args *a) {
    const int64_t nc = (n + NRO_HC - 1) / NRO_HC;
    _Pragma("omp parallel for num_threads(nr_max_threads()) if (n > 65536) schedule(static)")
    for (int64_t c = 0; c < nc; c++) {
        const int64_t lo = c * NRO_HC, k = lo + NRO_HC < n ? NRO_HC : n - lo;
        nro_adam_f16_chunk(p + lo, g + lo, m + lo, v + lo, vmax ? vmax + lo : 0, k, a);
    }
}

static void nro_sgd_f16(nr_f16 *p, const nr_f16 *g, nr_f16 *buf, int64_t n, const nro_sgd_args *a) {
    const int64_t nc = (n + NRO_HC - 1) / NRO_HC;
    _Pragma("omp parallel for num_threads(nr_max_threads()) if (n > 65536) schedule(static)")
    for (int64_t c = 0; c < nc; c++) {
        const int64_t lo = c * NRO_HC, k = lo + NRO_HC < n ? NRO_HC : n - lo;
        nro_sgd_f16_chunk(p + lo, g + lo, buf ? buf + lo : 0, k, a);
    }
}

/* kind 0 float64, 1 float32, 2 float16, 3 bfloat16; vmax NULL without amsgrad; -1 for another kind */
static int nro_adam(int kind, void *p, const void *g, void *m, void *v, void *vmax, int64_t n,
                    const nro_adam_args *a) {
    switch (kind) {
    case 0: nro_adam_f64(p, g, m, v, vmax, n, a); return 0;
    case 1: nro_adam_f32(p, g, m, v, vmax, n, a); return 0;
    case 2: nro_adam_f16(p, g, m, v, vmax, n, a); return 0;
    case 3: nro_adam_bf16(p, g, m, v, vmax, n, a); return 0;
    }
    return -1;
}

/* buf NULL without momentum */
static int nro_sgd(int kind, void *p, const void *g, void *buf, int64_t n, const nro_sgd_args *a) {
    switch (kind) {
    case 0: nro_sgd_f64(p, g, buf, n, a); return 0;
    case 1: nro_sgd_f32(p, g, buf, n, a); return 0;
    case 2: nro_sgd_f16(p, g, buf, n, a); return 0;
    case 3: nro_sgd_bf16(p, g, buf, n, a); return 0;
    }
    return -1;
}

/* kind 0 float64, 1 float32, 3 bfloat16 (float16 runs the composite); ga NULL unless centered,
 * buf NULL without momentum */
static int nro_rms(int kind, void *p, const void *g, void *sq, void *ga, void *buf, int64_t n,
                   const nro_rms_args *a) {
    switch (kind) {
    case 0: nro_rms_f64(p, g, sq, ga, buf, n, a); return 0;
    case 1: nro_rms_f32(p, g, sq, ga, buf, n, a); return 0;
    case 3: nro_rms_bf16(p, g, sq, ga, buf, n, a); return 0;
    }
    return -1;
}

#pragma GCC pop_options
