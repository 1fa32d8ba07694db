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

/* The shared block loop: BUF_T buf[cnt] holds elements i0 .. i0+cnt-1 after FILL, and is then
 * converted from SRC into dst. Blocks run in parallel for large n. */
#define NR_SEQ_BLOCKS(SRC, BUF_T, FILL)                                                         \
    nr_cvt_fn f = nr_cvt_get(SRC, dcode);                                                        \
    int isz = nr_itemsize(dcode);                                                                \
    int64_t nb = (n + NR_SEQ_BLOCK - 1) / NR_SEQ_BLOCK;                                          \
    int nth = n >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;                                 \
    _Pragma("omp parallel for num_threads(nth) if (nth > 1) schedule(static)")                   \
    for (int64_t b = 0; b < nb; ++b) {                                                           \
        BUF_T buf[NR_SEQ_BLOCK];                                                                 \
        int64_t i0 = b * NR_SEQ_BLOCK, cnt = n - i0 < NR_SEQ_BLOCK ? n - i0 : NR_SEQ_BLOCK;      \
        FILL                                                                                     \
        f((const char *)buf, 1, dst + i0 * isz, 1, cnt);                                         \
    }

static void nr_seq_f64(int dcode, char *dst, int64_t n, double start, double step, int floor_it,
                       int set_last, double last) {
    NR_SEQ_BLOCKS(NR_F64, double, {
        for (int64_t j = 0; j < cnt; ++j) buf[j] = (double)(i0 + j) * step + start;
        if (set_last && i0 + cnt == n) buf[cnt - 1] = last;
        if (floor_it) for (int64_t j = 0; j < cnt; ++j) buf[j] = floor(buf[j]);
    })
}

static void nr_seq_c128(int dcode, char *dst, int64_t n, double start_re, double start_im,
                        double step_re, double step_im, int set_last, double last_re, double last_im) {
    NR_SEQ_BLOCKS(NR_C128, nr_c128, {
        for (int64_t j = 0; j < cnt; ++j)
            buf[j] = NR_C128((double)(i0 + j) * step_re + start_re, (double)(i0 + j) * step_im + start_im);
        if (set_last && i0 + cnt == n) buf[cnt - 1] = NR_C128(last_re, last_im);
    })
}

static void nr_seq_i64(int dcode, char *dst, int64_t n, int64_t start, int64_t step) {
    NR_SEQ_BLOCKS(NR_I64, int64_t, {  /* wrapping arithmetic through uint64 */
        for (int64_t j = 0; j < cnt; ++j) buf[j] = (int64_t)((uint64_t)start + (uint64_t)(i0 + j) * (uint64_t)step);
    })
}

#pragma GCC pop_options

#endif
