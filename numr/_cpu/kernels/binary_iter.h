/* The element-wise driver shared by the unary, binary, compare and logical kernels.
 *
 * An op is a table of "inner loops" (one per dtype code): a function that runs
 * n elements of one row given a pointer and an element stride per operand
 * (inputs first, output last), like a NumPy ufunc loop. The driver walks the
 * outer dims with nditer.h and splits the flattened index range between
 * OpenMP threads above NR_PARALLEL_THRESHOLD. Dims are coalesced by the
 * caller, so contiguous tensors arrive as one row; stride-0 (broadcast)
 * operands are read in place.
 */
#ifndef NUMR_BINARY_ITER_H
#define NUMR_BINARY_ITER_H

#include <stdint.h>
#include <string.h>
#include <omp.h>
#include "nditer.h"
#include "dtypes.h"

typedef void (*nr_loop_fn)(char **p, const int64_t *s, int64_t n, const void *ctx);

#define NR_NCODES 42 /* dtype codes are < 42 (numr/dtypes.py) */

typedef struct {
    nr_loop_fn fn;
    const void *ctx;
    int nops;                     /* inputs + 1 output */
    int ndim;                     /* >= 1 */
    const int64_t *shape;
    const int64_t *strides[NR_MAXOPS]; /* ndim element strides per operand */
    char *base[NR_MAXOPS];        /* address of element 0 of each operand */
    int itemsize[NR_MAXOPS];
} nr_ew_call;

/* Run linear output indices [start, end) of the call on this thread. */
static void nr_ew_range(const nr_ew_call *c, int64_t start, int64_t end) {
    const int nd = c->ndim, nops = c->nops;
    const int64_t inner = c->shape[nd - 1];
    int64_t col = start % inner;
    nr_outer_iter it;
    nr_outer_init(&it, nops, nd - 1, c->shape, c->strides, start / inner);
    char *p[NR_MAXOPS];
    int64_t s[NR_MAXOPS];
    for (int op = 0; op < nops; ++op) s[op] = c->strides[op][nd - 1];
    while (start < end) {
        int64_t n = inner - col;
        if (n > end - start) n = end - start;
        for (int op = 0; op < nops; ++op)
            p[op] = c->base[op] + (it.off[op] + col * s[op]) * (int64_t)c->itemsize[op];
        c->fn(p, s, n, c->ctx);
        start += n;
        col = 0;
        if (start < end) nr_outer_next(&it);
    }
}

#define NR_TILE 64

/* A transposed-like input (its inner stride is large, its next stride small)
 * while the output is row-major: walking rows would touch a new cache line per
 * element of that input, so the last two dims are walked in NR_TILE squares. */
static int nr_ew_wants_tiles(const nr_ew_call *c) {
    const int nd = c->ndim;
    if (nd < 2 || c->shape[nd - 1] < NR_TILE || c->shape[nd - 2] < NR_TILE) return 0;
    if (c->strides[c->nops - 1][nd - 1] != 1) return 0;
    for (int op = 0; op < c->nops - 1; ++op) {
        int64_t s1 = c->strides[op][nd - 1], s0 = c->strides[op][nd - 2];
        s1 = s1 < 0 ? -s1 : s1;
        s0 = s0 < 0 ? -s0 : s0;
        if (s1 > 16 && s0 < s1) return 1;
    }
    return 0;
}

static void nr_ew_tile(const nr_ew_call *c, int64_t k, int64_t tr, int64_t tc) {
    const int nd = c->ndim, nops = c->nops;
    const int64_t rows = c->shape[nd - 2], cols = c->shape[nd - 1];
    const int64_t b = k / (tr * tc), rem = k % (tr * tc);
    const int64_t i0 = (rem / tc) * NR_TILE, j0 = (rem % tc) * NR_TILE;
    const int64_t ni = rows - i0 < NR_TILE ? rows - i0 : NR_TILE;
    const int64_t nj = cols - j0 < NR_TILE ? cols - j0 : NR_TILE;
    nr_outer_iter it;
    nr_outer_init(&it, nops, nd - 2, c->shape, c->strides, b); /* the batch (leading dims) */
    char *p[NR_MAXOPS];
    int64_t s[NR_MAXOPS];
    for (int op = 0; op < nops; ++op) s[op] = c->strides[op][nd - 1];
    for (int64_t i = i0; i < i0 + ni; ++i) {
        for (int op = 0; op < nops; ++op)
            p[op] = c->base[op] + (it.off[op] + i * c->strides[op][nd - 2] + j0 * s[op]) * (int64_t)c->itemsize[op];
        c->fn(p, s, nj, c->ctx);
    }
}

static void nr_ew_run_tiled(const nr_ew_call *c, int64_t total) {
    const int nd = c->ndim;
    const int64_t tr = (c->shape[nd - 2] + NR_TILE - 1) / NR_TILE, tc = (c->shape[nd - 1] + NR_TILE - 1) / NR_TILE;
    const int64_t ntiles = nr_prod(c->shape, nd - 2) * tr * tc;
    const int nt = total >= NR_PARALLEL_THRESHOLD ? nr_max_threads() : 1;
    if (nt <= 1) {
        for (int64_t k = 0; k < ntiles; ++k) nr_ew_tile(c, k, tr, tc);
        return;
    }
    #pragma omp parallel for num_threads(nt) schedule(dynamic, 8)
    for (int64_t k = 0; k < ntiles; ++k) nr_ew_tile(c, k, tr, tc);
}

/* Run the whole call: serial below the threshold, else ~8 chunks per thread
 * handed out dynamically (a thread that the OS deschedules on a busy machine
 * then delays the call by one small chunk, not by half the work). Chunks are
 * multiples of 64 elements so threads do not share cache lines. */
static void nr_ew_run(const nr_ew_call *c) {
    const int64_t total = nr_prod(c->shape, c->ndim);
    if (total <= 0) return;
    if (nr_ew_wants_tiles(c)) {
        nr_ew_run_tiled(c, total);
        return;
    }
    int nt = 1;
    if (total >= NR_PARALLEL_THRESHOLD) {
        nt = nr_max_threads();
        int64_t most = total / (NR_PARALLEL_THRESHOLD / 2);
        if (nt > most) nt = (int)most;
    }
    if (nt <= 1) {
        nr_ew_range(c, 0, total);
        return;
    }
    int64_t chunk = total / ((int64_t)nt * 8);
    if (chunk < NR_PARALLEL_THRESHOLD / 2) chunk = NR_PARALLEL_THRESHOLD / 2;
    chunk = (chunk + 63) & ~(int64_t)63;
    const int64_t nchunks = (total + chunk - 1) / chunk;
    #pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
    for (int64_t k = 0; k < nchunks; ++k) {
        const int64_t a = k * chunk;
        const int64_t b = a + chunk < total ? a + chunk : total;
        nr_ew_range(c, a, b);
    }
}

/* Fill a call from flat arrays: strides holds nops rows of ndim strides. */
static inline void nr_ew_setup(nr_ew_call *c, nr_loop_fn fn, const void *ctx, int nops, int ndim,
                               const int64_t *shape, const int64_t *strides, char *const *base,
                               const int *itemsize) {
    c->fn = fn;
    c->ctx = ctx;
    c->nops = nops;
    c->ndim = ndim;
    c->shape = shape;
    for (int op = 0; op < nops; ++op) {
        c->strides[op] = strides + (int64_t)op * ndim;
        c->base[op] = base[op];
        c->itemsize[op] = itemsize[op];
    }
}

/* ---- inner-loop generators ------------------------------------------------
 * EXPR sees `x` (unary) or `x`, `y` (binary) of type T and yields a TO.
 * Contiguous and scalar-broadcast rows get `omp simd` loops GCC vectorises. */
#define NR_UNARY_LOOP(name, T, TO, EXPR)                                              \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *in = (const T *)p[0];                                              \
        TO *out = (TO *)p[1];                                                       \
        const int64_t si = s[0], so = s[1];                                         \
        if (si == 1 && so == 1) {                                                   \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const T x = in[i];                                                  \
                out[i] = (TO)(EXPR);                                                \
            }                                                                       \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const T x = in[i * si];                                             \
                out[i * so] = (TO)(EXPR);                                           \
            }                                                                       \
        }                                                                           \
    }

#define NR_BINARY_LOOP(name, T, TO, EXPR)                                             \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *a = (const T *)p[0], *b = (const T *)p[1];                         \
        TO *out = (TO *)p[2];                                                       \
        const int64_t sa = s[0], sb = s[1], so = s[2];                              \
        if (so == 1 && sa == 1 && sb == 1) {                                        \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const T x = a[i], y = b[i];                                         \
                out[i] = (TO)(EXPR);                                                \
            }                                                                       \
        } else if (so == 1 && sa == 1 && sb == 0) {                                 \
            const T y = b[0];                                                       \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const T x = a[i];                                                   \
                out[i] = (TO)(EXPR);                                                \
            }                                                                       \
        } else if (so == 1 && sa == 0 && sb == 1) {                                 \
            const T x = a[0];                                                       \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const T y = b[i];                                                   \
                out[i] = (TO)(EXPR);                                                \
            }                                                                       \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const T x = a[i * sa], y = b[i * sb];                               \
                out[i * so] = (TO)(EXPR);                                           \
            }                                                                       \
        }                                                                           \
    }

/* Loops whose element function does not vectorise (integer division, libm calls). */
#define NR_BINARY_LOOP_SCALAR(name, T, TO, EXPR)                                      \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *a = (const T *)p[0], *b = (const T *)p[1];                         \
        TO *out = (TO *)p[2];                                                       \
        const int64_t sa = s[0], sb = s[1], so = s[2];                              \
        for (int64_t i = 0; i < n; ++i) {                                           \
            const T x = a[i * sa], y = b[i * sb];                                   \
            out[i * so] = (TO)(EXPR);                                               \
        }                                                                           \
    }

#define NR_TERNARY_LOOP(name, T, EXPR)                                                \
    static void name(char **p, const int64_t *s, int64_t n, const void *ctx) {      \
        (void)ctx;                                                                  \
        const T *a = (const T *)p[0], *b = (const T *)p[1], *c = (const T *)p[2];   \
        T *out = (T *)p[3];                                                         \
        const int64_t sa = s[0], sb = s[1], sc = s[2], so = s[3];                   \
        if (so == 1 && sa == 1 && sb == 1 && sc == 1) {                             \
            _Pragma("omp simd") for (int64_t i = 0; i < n; ++i) {                   \
                const T x = a[i], y = b[i], z = c[i];                               \
                out[i] = (T)(EXPR);                                                 \
            }                                                                       \
        } else {                                                                    \
            for (int64_t i = 0; i < n; ++i) {                                       \
                const T x = a[i * sa], y = b[i * sb], z = c[i * sc];                \
                out[i * so] = (T)(EXPR);                                            \
            }                                                                       \
        }                                                                           \
    }

#endif
