/* Dense decompositions for numr's CPU backend (numr/_cpu/kernels/linalg.pyx): LU with partial
 * pivoting, triangular solves and Cholesky (blocked, GEMM updates; linalg_lu.h), Householder QR and
 * the Hermitian eigendecomposition by tridiagonalisation + implicit QL (linalg_qr.h), the SVD by
 * bidiagonalisation + Golub-Reinsch QR (linalg_gk.h, linalg_svd.h), in float32/float64/complex64/
 * complex128 (linalg_tmpl.h, instantiated once per type), and the general eigendecomposition by
 * Hessenberg reduction + Francis double-shift QR (real: linalg_eig.h, linalg_eig_vec.h) or
 * single-shift QR (complex: linalg_ceig.h), each batched over contiguous matrices.
 */
#ifndef NUMR_LINALG_OPS_H
#define NUMR_LINALG_OPS_H

/* complex products and quotients as the textbook formulas (no C99 Annex G inf/NaN recovery
 * through __muldc3 calls, as BLAS/LAPACK): 3-5x faster complex kernels */
#pragma GCC optimize("cx-limited-range")
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "dtypes.h"
#include <string.h>
#include "threads.h"
#include "gemm_ops.h"

/* matrices from this order on take the blocked LU/Cholesky/triangular solves (GEMM updates) */
#define NR_LA_BLOCKED 96
#define NR_LA_NB 48

#define NR_CAT_(a, b) a##b
#define NR_CAT(a, b) NR_CAT_(a, b)

static inline double nr_sqrt_d(double x) { return sqrt(x); }
static inline float nr_sqrt_s(float x) { return sqrtf(x); }
static inline double nr_fabs_d(double x) { return fabs(x); }
static inline float nr_fabs_s(float x) { return fabsf(x); }
#define nr_sqrt_z nr_sqrt_d
#define nr_sqrt_c nr_sqrt_s
#define nr_fabs_z nr_fabs_d
#define nr_fabs_c nr_fabs_s
#define NR_TINY_d (DBL_MIN)
#define NR_TINY_s (FLT_MIN)
#define NR_TINY_z (DBL_MIN)
#define NR_TINY_c (FLT_MIN)

#define T double
#define R double
#define SFX d
#define CODE NR_F64
#define CONJ(x) (x)
#define RE(x) (x)
#define ABS2(x) ((x) * (x))
#define ABS1(x) fabs(x)
#define ABSV(x) fabs(x)
#define EPS DBL_EPSILON
#define NR_LA_REAL 1
#define CT nr_c128
#include "linalg_tmpl.h"
#undef CT
#undef T
#undef R
#undef SFX
#undef CODE
#undef ABS1
#undef ABSV
#undef EPS

#define T float
#define R float
#define SFX s
#define CODE NR_F32
#define ABS1(x) fabsf(x)
#define ABSV(x) fabsf(x)
#define EPS FLT_EPSILON
#define CT nr_c64
#include "linalg_tmpl.h"
#undef CT
#undef NR_LA_REAL
#undef T
#undef R
#undef SFX
#undef CODE
#undef CONJ
#undef RE
#undef ABS2
#undef ABS1
#undef ABSV
#undef EPS

#define CONJ(x) (~(x))
#define RE(x) (__real__(x))
#define ABS2(x) (__real__(x) * __real__(x) + __imag__(x) * __imag__(x))
#define T nr_c128
#define R double
#define SFX z
#define CODE NR_C128
#define ABS1(x) (fabs(__real__(x)) + fabs(__imag__(x)))
#define ABSV(x) __builtin_cabs(x)
#define EPS DBL_EPSILON
#include "linalg_tmpl.h"
#undef T
#undef R
#undef SFX
#undef CODE
#undef ABS1
#undef ABSV
#undef EPS

#define T nr_c64
#define R float
#define SFX c
#define CODE NR_C64
#define ABS1(x) (fabsf(__real__(x)) + fabsf(__imag__(x)))
#define ABSV(x) __builtin_cabsf(x)
#define EPS FLT_EPSILON
#include "linalg_tmpl.h"
#undef T
#undef R
#undef SFX
#undef CODE
#undef ABS1
#undef ABSV
#undef EPS

/* ops: 0 lu (info), 2 trsm, 3 cholesky (info), 4 qr, 5 eigh (info), 6 svd (info), 8 LU then solve (info),
 * 9 the pivots' row swaps applied to B, 10 eig (info; b: complex w, c: complex vectors or NULL;
 * linalg_eig.h/linalg_eig_vec.h for real input, linalg_ceig.h for complex), 11 schur (info; a: T, b: Z),
 * 12 the triangular square root of a (complex), 13 the Parlett recurrence (complex; a: T, b: F),
 * 14 qz (info; a, b: the pencil -> AA, BB, c: Q, d: Z; real dtypes: the real form), 15 the triangular pencil's right
 * eigenvectors (complex; a: AA, b: BB, c: X), 16 rsf2csf (complex copies; a: T, b: Z) */
typedef struct {
    int op, code;
    int64_t batch, m, n, k;   /* op-specific sizes (see linalg.pyx) */
    int flag1, flag2;
    char *a; char *b; char *c; char *d; int64_t *piv; int *info;
    int64_t sa, sb, sc, sd;   /* elements between consecutive matrices (0: shared) */
} nr_la_spec;

#define NR_LA_ONE(SF, TT, RR)                                                                         \
    {                                                                                                 \
        TT *a = (TT *)s->a + i * s->sa;                                                               \
        switch (s->op) {                                                                              \
        case 0: s->info[i] = lub_##SF(a, s->n, s->piv + i * s->n); break;                              \
        case 2: trsmb_##SF(a, (TT *)s->b + i * s->sb, s->n, s->k, s->flag1, s->flag2); break;           \
        case 3: s->info[i] = cholb_##SF(a, s->n); break;                                               \
        case 4: qr_##SF(a, s->m, s->n, s->b ? (TT *)s->b + i * s->sb : NULL, s->k); break;             \
        case 5: s->info[i] = eigh_##SF(a, s->n, (RR *)s->b + i * s->sb, (TT *)s->c + i * s->sc, s->flag1, !s->flag2); break; \
        case 6: s->info[i] = svd_##SF(a, s->m, s->n, (RR *)s->b + i * s->sb, (TT *)s->c + i * s->sc,       \
                                      (TT *)s->d + i * s->sd, s->flag1, !s->flag2); break;               \
        case 11: s->info[i] = schur_##SF(a, s->n, (TT *)s->b + i * s->sb); break;                     \
        case 14: s->info[i] = qz_##SF(a, (TT *)s->b + i * s->sb, s->n, (TT *)s->c + i * s->sc,          \
                                      (TT *)s->d + i * s->sd); break;                                 \
        case 8: s->info[i] = lub_##SF(a, s->n, s->piv + i * s->n);                                    \
                if (!s->info[i]) lub_solve_##SF(a, s->piv + i * s->n, (TT *)s->b + i * s->sb, s->n, s->k); \
                break;                                                                                \
        case 9: for (int64_t q = 0; q < s->n; q++) {  /* B's rows swapped as lub_ swapped A's */      \
                    int64_t p = s->piv[i * s->n + q];                                                 \
                    TT *x = (TT *)s->b + i * s->sb, t;                                                \
                    for (int64_t j = 0; j < s->k && p != q; j++) {                                    \
                        t = x[q * s->k + j]; x[q * s->k + j] = x[p * s->k + j]; x[p * s->k + j] = t;  \
                    }                                                                                 \
                }                                                                                     \
                break;                                                                                \
        }                                                                                             \
    }

#define NR_LA_CPLX(SF, TT)                                                                            \
    switch (s->op) {                                                                                  \
    case 12: sqrtm_tri_##SF((TT *)a, s->n); break;                                                    \
    case 13: parlett_##SF((TT *)a, (TT *)b, s->n); break;                                            \
    case 15: qz_vectors_##SF((TT *)a, (TT *)b, s->n, (TT *)c); break;                                \
    default: rsf2csf_##SF((TT *)a, (TT *)b, s->n); break;                                 \
    }

static void nr_la_one(const nr_la_spec *s, int64_t i) {
    if (s->op == 10) {  /* eig: complex results (of the real or complex type's width) */
        int64_t es = s->code == NR_F64 || s->code == NR_C64 ? 8 : s->code == NR_F32 ? 4 : 16;
        int64_t cs = s->code == NR_F32 || s->code == NR_C64 ? 8 : 16;
        char *a = s->a + i * s->sa * es;
        char *w = s->b + i * s->sb * cs, *v = s->c ? s->c + i * s->sc * cs : NULL;
        if (s->code == NR_F64) s->info[i] = eig_d((double *)a, s->n, (nr_c128 *)w, (nr_c128 *)v, v != NULL);
        else if (s->code == NR_F32) s->info[i] = eig_s((float *)a, s->n, (nr_c64 *)w, (nr_c64 *)v, v != NULL);
        else if (s->code == NR_C128) s->info[i] = eig_z((nr_c128 *)a, s->n, (nr_c128 *)w, (nr_c128 *)v, v != NULL);
        else s->info[i] = eig_c((nr_c64 *)a, s->n, (nr_c64 *)w, (nr_c64 *)v, v != NULL);
        return;
    }
    if (s->op >= 12 && s->op <= 16 && s->op != 14) {  /* complex only (the caller's contract) */
        int64_t es = s->code == NR_C128 ? 16 : 8;
        char *a = s->a + i * s->sa * es;
        char *b = s->b ? s->b + i * s->sb * es : NULL, *c = s->c ? s->c + i * s->sc * es : NULL;
        if (s->code == NR_C128) NR_LA_CPLX(z, nr_c128)
        else if (s->code == NR_C64) NR_LA_CPLX(c, nr_c64)
        return;
    }
    switch (s->code) {
    case NR_F64: NR_LA_ONE(d, double, double) break;
    case NR_F32: NR_LA_ONE(s, float, float) break;
    case NR_C128: NR_LA_ONE(z, nr_c128, double) break;
    default: NR_LA_ONE(c, nr_c64, float) break;
    }
}

/* Runs s->op over the batch; -1 for a dtype without a kernel. */
static int nr_linalg(const nr_la_spec *s) {
    if (s->code != NR_F64 && s->code != NR_F32 && s->code != NR_C128 && s->code != NR_C64) return -1;
    int64_t work = s->m * s->n * (s->n + s->k + 1);
    /* threads from about a million multiply-adds in all (1000 8x8 solves, ~60 us on one thread, stay
     * on one: waking a team on a busy 2-core machine cost milliseconds) */
    int nt = (s->batch > 1 && s->batch * work > (1 << 20)) ? nr_max_threads() : 1;
    if (nt > s->batch) nt = (int)s->batch;
    if (nt > 1) {
        #pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
        for (int64_t i = 0; i < s->batch; i++) nr_la_one(s, i);
    } else {  /* no team: the GEMM inside a large matrix's update may start its own */
        for (int64_t i = 0; i < s->batch; i++) nr_la_one(s, i);
    }
    return 0;
}

#endif
