/* CSR @ dense: out (n_rows, m) = A @ x with A in CSR (int64 indptr/indices) and x a
 * (n_cols, m) matrix whose rows are ldx elements apart (unit stride inside a row).
 *
 * One thread owns a block of output rows (OpenMP, dynamic schedule: row lengths vary), so
 * no two threads write the same element and no atomics are needed. The structure is
 * checked as the kernel reads it: indptr must start at 0, never decrease and end at most
 * at nnz, and every column index must lie in [0, n_cols); a bad one is skipped and
 * reported (the caller raises), so the kernel never reads out of bounds.
 */
#ifndef NUMR_SPARSE_OPS_H
#define NUMR_SPARSE_OPS_H

#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "threads.h"

/* -1 when indptr is well formed, else the first bad row. */
static int64_t nr_csr_check_indptr(const int64_t *indptr, int64_t n_rows, int64_t nnz) {
    if (indptr[0] != 0) return 0;
    for (int64_t i = 0; i < n_rows; i++)
        if (indptr[i + 1] < indptr[i] || indptr[i + 1] > nnz) return i;
    return -1;
}

#define NR_CSR_MM(NAME, T)                                                                      \
static int64_t NAME(const int64_t *indptr, const int64_t *indices, const T *vals, const T *x,  \
                    int64_t ldx, int64_t n_cols, int64_t m, T *out, int64_t n_rows, int nth) { \
    int64_t bad = -1;                                                                           \
    _Pragma("omp parallel for schedule(dynamic, 32) num_threads(nth) if (nth > 1)")             \
    for (int64_t i = 0; i < n_rows; i++) {                                                      \
        T *o = out + i * m;                                                                     \
        int64_t lo = indptr[i], hi = indptr[i + 1];                                             \
        if (m == 1) {                                                                           \
            T acc = 0;                                                                          \
            for (int64_t k = lo; k < hi; k++) {                                                 \
                int64_t c = indices[k];                                                         \
                if ((uint64_t)c >= (uint64_t)n_cols) { _Pragma("omp atomic write") bad = k; continue; } \
                acc += vals[k] * x[c * ldx];                                                    \
            }                                                                                   \
            o[0] = acc;                                                                         \
            continue;                                                                           \
        }                                                                                       \
        for (int64_t j = 0; j < m; j++) o[j] = 0;                                               \
        for (int64_t k = lo; k < hi; k++) {                                                     \
            int64_t c = indices[k];                                                             \
            if ((uint64_t)c >= (uint64_t)n_cols) { _Pragma("omp atomic write") bad = k; continue; }     \
            const T v = vals[k];                                                                \
            const T *xr = x + c * ldx;                                                          \
            _Pragma("omp simd")                                                                 \
            for (int64_t j = 0; j < m; j++) o[j] += v * xr[j];                                  \
        }                                                                                       \
    }                                                                                           \
    return bad;                                                                                 \
}

NR_CSR_MM(nr_csr_mm_f32, float)
NR_CSR_MM(nr_csr_mm_f64, double)
NR_CSR_MM(nr_csr_mm_c64, float _Complex)
NR_CSR_MM(nr_csr_mm_c128, double _Complex)

/* kind: 0 float32, 1 float64, 2 complex64, 3 complex128. Returns -1, or a bad position:
 * -2 - row for a malformed indptr, k >= 0 for an out-of-range column index. */
static int64_t nr_csr_matmul(int kind, const int64_t *indptr, const int64_t *indices, const void *vals,
                             const void *x, int64_t ldx, int64_t n_cols, int64_t m, void *out,
                             int64_t n_rows, int64_t nnz) {
    int64_t r = nr_csr_check_indptr(indptr, n_rows, nnz);
    if (r >= 0) return -2 - r;
    /* Threads from 4M multiply-adds (a few ms): below that a matvec is memory bound and the
     * end-of-loop barrier costs more than a second thread gains on a busy machine (1M nnz:
     * 1.3 ms on one thread, 8.8 ms on two with the other core taken). */
    int nth = (nnz * (m > 0 ? m : 1) >= (1 << 22) && n_rows > 1) ? nr_max_threads() : 1;
    switch (kind) {
    case 0: return nr_csr_mm_f32(indptr, indices, (const float *)vals, (const float *)x, ldx, n_cols, m, (float *)out, n_rows, nth);
    case 1: return nr_csr_mm_f64(indptr, indices, (const double *)vals, (const double *)x, ldx, n_cols, m, (double *)out, n_rows, nth);
    case 2: return nr_csr_mm_c64(indptr, indices, (const float _Complex *)vals, (const float _Complex *)x, ldx, n_cols, m, (float _Complex *)out, n_rows, nth);
    default: return nr_csr_mm_c128(indptr, indices, (const double _Complex *)vals, (const double _Complex *)x, ldx, n_cols, m, (double _Complex *)out, n_rows, nth);
    }
}

#endif
