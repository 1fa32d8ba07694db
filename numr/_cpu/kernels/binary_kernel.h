/* The binary extension's C entry points: table set-up and one call per op
 * (arithmetic, fma, comparisons and logical ops share one table). */
#ifndef NUMR_BINARY_KERNEL_H
#define NUMR_BINARY_KERNEL_H

#include "binary_complex.h"
#include "binary_lowp.h"

static nr_lowp_ctx nr_binary_lowp[NR_B_COUNT][4];

static void nr_binary_setup(void) {
    unsigned char bool_out[NR_B_COUNT] = {0}, nin[NR_B_COUNT];
    for (int op = 0; op < NR_B_COUNT; ++op) nin[op] = 2;
    nin[NR_B_fma] = 3;
    for (int op = NR_B_eq; op <= NR_B_logical_xor; ++op) bool_out[op] = 1;
    nr_binary_init_arith();
    nr_binary_init_compare();
    nr_binary_init_complex();
    nr_lowp_fill(nr_binary_table, nr_binary_lowp, NR_B_COUNT, 2, bool_out, nin);
}

static inline int nr_binary_supported(int op, int code) {
    const void *ctx;
    return op >= 0 && op < NR_B_COUNT && nr_lowp_resolve(nr_binary_table, nr_binary_lowp, op, code, &ctx) != NULL;
}

/* Run op with nops operands (inputs then output); strides holds nops rows of
 * ndim element strides. Returns -1 if (op, code) has no kernel. */
static int nr_binary_exec(int op, int code, int nops, int ndim, const int64_t *shape,
                          const int64_t *strides, char **base, const int *itemsize) {
    const void *ctx;
    if (op < 0 || op >= NR_B_COUNT) return -1;
    nr_loop_fn fn = nr_lowp_resolve(nr_binary_table, nr_binary_lowp, op, code, &ctx);
    if (!fn) return -1;
    nr_ew_call c;
    nr_ew_setup(&c, fn, ctx, nops, ndim, shape, strides, base, itemsize);
    nr_ew_run(&c);
    return 0;
}

/* Contiguous fast path: n elements of a, b into out (same dtype layout rules). */
static int nr_binary_contig(int op, int code, char *a, char *b, char *out, int64_t n, int isz, int osz) {
    const int64_t shape[1] = {n}, strides[3] = {1, 1, 1};
    char *base[3] = {a, b, out};
    const int itemsize[3] = {isz, isz, osz};
    return nr_binary_exec(op, code, 3, 1, shape, strides, base, itemsize);
}

#endif
