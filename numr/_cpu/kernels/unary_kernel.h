/* The unary extension's C entry points: table set-up and one call per op. */
#ifndef NUMR_UNARY_KERNEL_H
#define NUMR_UNARY_KERNEL_H

#include "unary_complex.h"
#include "binary_lowp.h"

static nr_lowp_ctx nr_unary_lowp[NR_U_COUNT][4];

static void nr_unary_setup(void) {
    unsigned char bool_out[NR_U_COUNT] = {0};
    bool_out[NR_U_isnan] = bool_out[NR_U_isinf] = bool_out[NR_U_isfinite] = 1;
    bool_out[NR_U_logical_not] = bool_out[NR_U_signbit] = 1;
    nr_unary_init_real();
    nr_unary_init_complex();
    nr_lowp_fill(nr_unary_table, nr_unary_lowp, NR_U_COUNT, 1, bool_out, NULL);
}

static inline int nr_unary_supported(int op, int code) {
    const void *ctx;
    return op >= 0 && op < NR_U_COUNT && nr_lowp_resolve(nr_unary_table, nr_unary_lowp, op, code, &ctx) != NULL;
}

/* Run op on an (ndim, shape) walk; strides holds 2 rows (input, output) of ndim
 * element strides; base[] the addresses of element 0. Returns -1 if unsupported. */
static int nr_unary_exec(int op, int code, int ndim, const int64_t *shape, const int64_t *strides,
                         char **base, const int *itemsize) {
    const void *ctx;
    if (op < 0 || op >= NR_U_COUNT) return -1;
    nr_loop_fn fn = nr_lowp_resolve(nr_unary_table, nr_unary_lowp, op, code, &ctx);
    if (!fn) return -1;
    nr_ew_call c;
    nr_ew_setup(&c, fn, ctx, 2, ndim, shape, strides, base, itemsize);
    nr_ew_run(&c);
    return 0;
}

#endif
