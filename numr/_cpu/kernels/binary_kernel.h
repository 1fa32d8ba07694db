/* The binary extension's C entry points: table set-up and one call per op
 * (arithmetic, fma, comparisons and logical ops share one table). */
#ifndef NUMR_BINARY_KERNEL_H
#define NUMR_BINARY_KERNEL_H

#include "binary_complex.h"
#include "binary_lowp.h"
#include "binary_mathx.h"

static nr_lowp_ctx nr_binary_lowp[NR_B_COUNT][4];

static void nr_binary_setup(void) {
    unsigned char bool_out[NR_B_COUNT] = {0}, nin[NR_B_COUNT];
    for (int op = 0; op < NR_B_COUNT; ++op) nin[op] = 2;
    nin[NR_B_fma] = 3;
    nin[NR_B_frexp] = 1;
    for (int op = NR_B_eq; op <= NR_B_logical_xor; ++op) bool_out[op] = 1;
    nr_binary_init_arith();
    nr_binary_init_compare();
    nr_binary_init_complex();
    nr_binary_init_mathx();
    nr_lowp_fill(nr_binary_table, nr_binary_lowp, NR_B_COUNT, 2, bool_out, nin);
    for (int code = NR_F16; code <= NR_F8E5M2; ++code) { /* inexact through float32: no adapter */
        nr_binary_lowp[NR_B_nextafter][code - NR_F16].f32 = NULL;
        nr_binary_lowp[NR_B_frexp][code - NR_F16].f32 = NULL;
    }
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

/* index_add_: x[norm[j], rest] += v[j, rest] for j = 0..k-1 in order (repeated indices
 * accumulate; the same sums on every run). The rest dims (nd of them, coalesced; strides xrs, vrs)
 * run the add loop of the dtype once per index; one rest element per index takes a typed loop
 * for the 32/64-bit types (the loop call would cost more than the add), and a wide rest run is
 * split in column ranges between threads, each adding every index into its own columns. Returns
 * -1 if the dtype has no add. */
#define NR__IA_FLAT(T)                                                                           \
    for (int64_t j = 0; j < k; ++j)                                                              \
        *(T *)(x + norm[j] * xs) += *(const T *)(v + j * vs);
static int nr_binary_index_add(int code, char *x, int64_t xs_dim, char *v, int64_t vs_dim, const int64_t *norm,
                               int64_t k, int nd, const int64_t *shape, const int64_t *xrs, const int64_t *vrs,
                               int isz) {
    const void *ctx;
    nr_loop_fn fn = nr_lowp_resolve(nr_binary_table, nr_binary_lowp, NR_B_add, code, &ctx);
    if (!fn) return -1;
    const int64_t xs = xs_dim * isz, vs = vs_dim * isz;
    const int64_t n = nd ? shape[0] : 1;
    if (nd <= 1 && n == 1) {
        switch (code) {
        case NR_F32: NR__IA_FLAT(float) return 0;
        case NR_F64: NR__IA_FLAT(double) return 0;
        case NR_I32: case NR_U32: NR__IA_FLAT(uint32_t) return 0;  /* wrapping adds */
        case NR_I64: case NR_U64: NR__IA_FLAT(uint64_t) return 0;
        default: break;
        }
    }
    if (nd <= 1) {
        const int64_t sx = nd ? xrs[0] : 0, sv = nd ? vrs[0] : 0;
        int nt = 1;
        if (n >= 256 && (double)n * k >= NR_PARALLEL_THRESHOLD) {
            nt = nr_max_threads();
            if (nt > n / 128) nt = (int)(n / 128);
        }
        #pragma omp parallel for num_threads(nt) schedule(static) if(nt > 1)
        for (int t = 0; t < nt; ++t) {
            const int64_t c0 = n * t / nt / 16 * 16, c1 = t == nt - 1 ? n : n * (t + 1) / nt / 16 * 16;
            const int64_t s[3] = {sx, sv, sx};
            for (int64_t j = 0; j < k && c1 > c0; ++j) {
                char *xr = x + norm[j] * xs + c0 * sx * isz;
                char *p[3] = {xr, v + j * vs + c0 * sv * isz, xr};
                fn(p, s, c1 - c0, ctx);
            }
        }
        return 0;
    }
    int64_t st[3 * NR_MAXDIMS];
    for (int d = 0; d < nd; ++d) { st[d] = xrs[d]; st[nd + d] = vrs[d]; st[2 * nd + d] = xrs[d]; }
    const int sizes[3] = {isz, isz, isz};
    for (int64_t j = 0; j < k; ++j) {
        char *base[3] = {x + norm[j] * xs, v + j * vs, x + norm[j] * xs};
        nr_ew_call c;
        nr_ew_setup(&c, fn, ctx, 3, nd, shape, st, base, sizes);
        nr_ew_run(&c);
    }
    return 0;
}

#endif
