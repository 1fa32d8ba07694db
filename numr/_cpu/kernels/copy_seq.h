/* Sequences for arange/linspace: value i = i * step + start computed in double, complex
 * double or int64 (wrapping), then converted to the destination dtype in blocks.
 * floor_it rounds toward -inf first (linspace into integers, as NumPy); set_last makes
 * element n-1 exactly `last` (linspace's endpoint). */
#ifndef NUMR_COPY_SEQ_H
#define NUMR_COPY_SEQ_H

#include <math.h>
#include "copy_cast.h"

#define NR_SEQ_BLOCK 1024

/* i * step + start rounds twice (multiply, then add) as NumPy does: no FMA contraction */
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

static void nr_seq_f64(int dcode, char *dst, int64_t n, double start, double step, int floor_it,
                       int set_last, double last) {
    nr_cvt_fn f = nr_cvt_get(NR_F64, dcode);
    int isz = nr_itemsize(dcode);
    int64_t nb = (n + NR_SEQ_BLOCK - 1) / NR_SEQ_BLOCK;
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        double buf[NR_SEQ_BLOCK];
        int64_t i0 = b * NR_SEQ_BLOCK, cnt = n - i0 < NR_SEQ_BLOCK ? n - i0 : NR_SEQ_BLOCK;
        for (int64_t j = 0; j < cnt; ++j) buf[j] = (double)(i0 + j) * step + start;
        if (set_last && i0 + cnt == n) buf[cnt - 1] = last;
        if (floor_it) for (int64_t j = 0; j < cnt; ++j) buf[j] = floor(buf[j]);
        f((const char *)buf, 1, dst + i0 * isz, 1, cnt);
    }
}

static void nr_seq_c128(int dcode, char *dst, int64_t n, double start_re, double start_im,
                        double step_re, double step_im, int set_last, double last_re, double last_im) {
    nr_cvt_fn f = nr_cvt_get(NR_C128, dcode);
    int isz = nr_itemsize(dcode);
    int64_t nb = (n + NR_SEQ_BLOCK - 1) / NR_SEQ_BLOCK;
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        nr_c128 buf[NR_SEQ_BLOCK];
        int64_t i0 = b * NR_SEQ_BLOCK, cnt = n - i0 < NR_SEQ_BLOCK ? n - i0 : NR_SEQ_BLOCK;
        for (int64_t j = 0; j < cnt; ++j)
            buf[j] = NR_C128((double)(i0 + j) * step_re + start_re, (double)(i0 + j) * step_im + start_im);
        if (set_last && i0 + cnt == n) buf[cnt - 1] = NR_C128(last_re, last_im);
        f((const char *)buf, 1, dst + i0 * isz, 1, cnt);
    }
}

static void nr_seq_i64(int dcode, char *dst, int64_t n, int64_t start, int64_t step) {
    nr_cvt_fn f = nr_cvt_get(NR_I64, dcode);
    int isz = nr_itemsize(dcode);
    int64_t nb = (n + NR_SEQ_BLOCK - 1) / NR_SEQ_BLOCK;
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    #pragma omp parallel for num_threads(nth) if (nth > 1) schedule(static)
    for (int64_t b = 0; b < nb; ++b) {
        int64_t buf[NR_SEQ_BLOCK];
        int64_t i0 = b * NR_SEQ_BLOCK, cnt = n - i0 < NR_SEQ_BLOCK ? n - i0 : NR_SEQ_BLOCK;
        for (int64_t j = 0; j < cnt; ++j)  /* wrapping arithmetic through uint64 */
            buf[j] = (int64_t)((uint64_t)start + (uint64_t)(i0 + j) * (uint64_t)step);
        f((const char *)buf, 1, dst + i0 * isz, 1, cnt);
    }
}

#pragma GCC pop_options

#endif
