/* Native CPU kernels behind two linear-algebra composites (numr/_cpu/kernels/linalg.pyx, the
 * lapackx block): solve_banded's banded LU (linalg_banded.h) and ldl_factor's Bunch-Kaufman LDL^T
 * and ldl_solve's sytrs (linalg_ldl.h), instantiated for float64/float32/complex128/complex64 (LX_SFX d, s, z, c). */
#ifndef NUMR_LINALG_LAX_H
#define NUMR_LINALG_LAX_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "dtypes.h"
#include "threads.h"

#define LX_CAT_(a, b) a##b
#define LX_CAT(a, b) LX_CAT_(a, b)

#define LX_T double
#define LX_R double
#define LX_SFX d
#define LX_CJ(x) (x)
#define LX_ABS1(x) fabs(x)
#include "linalg_banded.h"
#include "linalg_ldl.h"
#undef LX_T
#undef LX_R
#undef LX_SFX
#undef LX_ABS1

#define LX_T float
#define LX_R float
#define LX_SFX s
#define LX_ABS1(x) fabsf(x)
#include "linalg_banded.h"
#include "linalg_ldl.h"
#undef LX_T
#undef LX_R
#undef LX_SFX
#undef LX_ABS1
#undef LX_CJ

#define LX_CJ(x) (~(x))
#define LX_T nr_c128
#define LX_R double
#define LX_SFX z
#define LX_ABS1(x) (fabs(__real__(x)) + fabs(__imag__(x)))
#include "linalg_banded.h"
#include "linalg_ldl.h"
#undef LX_T
#undef LX_R
#undef LX_SFX
#undef LX_ABS1

#define LX_T nr_c64
#define LX_R float
#define LX_SFX c
#define LX_ABS1(x) (fabsf(__real__(x)) + fabsf(__imag__(x)))
#include "linalg_banded.h"
#include "linalg_ldl.h"
#undef LX_T
#undef LX_R
#undef LX_SFX
#undef LX_ABS1
#undef LX_CJ

/* solve_banded of one system (linalg_banded.h): 0, 1 + the first zero pivot, -1 (dtype), -2 (memory) */
static int nr_gbsv(int code, int64_t n, int64_t kl, int64_t ku, int64_t nrhs, char *ab, char *b) {
    switch (code) {
    case NR_F64: return gbsv_d((double *)ab, n, kl, ku, (double *)b, nrhs);
    case NR_F32: return gbsv_s((float *)ab, n, kl, ku, (float *)b, nrhs);
    case NR_C128: return gbsv_z((nr_c128 *)ab, n, kl, ku, (nr_c128 *)b, nrhs);
    case NR_C64: return gbsv_c((nr_c64 *)ab, n, kl, ku, (nr_c64 *)b, nrhs);
    default: return -1;
    }
}

/* ldl_factor over a batch in place (linalg_ldl.h): 0, -1 (dtype), -2 (memory) */
static int nr_sytf2(int code, int64_t batch, int64_t n, int herm, char *a, int32_t *piv, int32_t *info) {
    switch (code) {
    case NR_F64: return sytf2_d((double *)a, batch, n, herm, piv, info);
    case NR_F32: return sytf2_s((float *)a, batch, n, herm, piv, info);
    case NR_C128: return sytf2_z((nr_c128 *)a, batch, n, herm, piv, info);
    case NR_C64: return sytf2_c((nr_c64 *)a, batch, n, herm, piv, info);
    default: return -1;
    }
}

/* ldl_solve over a batch in place of b (linalg_ldl.h): 0, -1 (dtype), -2 (memory) */
static int nr_sytrs(int code, int64_t batch, int64_t n, int64_t m, int herm, char *ld, int64_t *p, char *b) {
    switch (code) {
    case NR_F64: return sytrs_d((double *)ld, p, (double *)b, batch, n, m, herm);
    case NR_F32: return sytrs_s((float *)ld, p, (float *)b, batch, n, m, herm);
    case NR_C128: return sytrs_z((nr_c128 *)ld, p, (nr_c128 *)b, batch, n, m, herm);
    case NR_C64: return sytrs_c((nr_c64 *)ld, p, (nr_c64 *)b, batch, n, m, herm);
    default: return -1;
    }
}

#endif
