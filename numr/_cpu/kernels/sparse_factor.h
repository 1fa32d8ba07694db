/* Shared pieces of the sparse factorisations (sparse_solve.h, sparse_ilut.h): a malloc'ed
 * compressed matrix handed back to the caller, growth of its arrays, and sorting its lines. */
#ifndef NUMR_SPARSE_FACTOR_H
#define NUMR_SPARSE_FACTOR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A compressed (CSR or CSC) matrix with n major lines: p (n + 1), i and x (nnz = p[n]). */
typedef struct { int64_t *p, *i; void *x; } nr_sp_mat;

static void nr_sp_free(nr_sp_mat *a) {
    free(a->p); free(a->i); free(a->x);
    a->p = a->i = NULL; a->x = NULL;
}

/* Grow (idx, val) to hold at least need entries. */
static int nr_lu_grow(int64_t **idx, void **val, int64_t *cap, int64_t need, size_t isz) {
    if (need <= *cap) return 1;
    int64_t nc = *cap * 2 > need ? *cap * 2 : need;
    int64_t *ni = (int64_t *)realloc(*idx, sizeof(int64_t) * (size_t)nc);
    if (!ni) return 0;
    *idx = ni;
    void *nv = realloc(*val, isz * (size_t)nc);
    if (!nv) return 0;
    *val = nv;
    *cap = nc;
    return 1;
}

/* The transpose of the compressed matrix (Ap, Ai, Ax) with n major and n minor lines into
 * *T (malloc'ed; a counting transpose, so each line of T comes out sorted, duplicates kept).
 * Returns 0 when out of memory (T then holds nothing). */
static int nr_sp_transpose(const int64_t *Ap, const int64_t *Ai, const void *Ax, int64_t n, size_t isz,
                           nr_sp_mat *T) {
    int64_t nnz = Ap[n];
    T->p = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
    T->i = (int64_t *)malloc(sizeof(int64_t) * (size_t)(nnz > 0 ? nnz : 1));
    T->x = malloc(isz * (size_t)(nnz > 0 ? nnz : 1));
    int64_t *next = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!T->p || !T->i || !T->x || !next) { free(next); nr_sp_free(T); return 0; }
    for (int64_t k = 0; k < nnz; k++) T->p[Ai[k] + 1]++;
    for (int64_t j = 0; j < n; j++) { T->p[j + 1] += T->p[j]; next[j] = T->p[j]; }
    for (int64_t r = 0; r < n; r++)
        for (int64_t k = Ap[r]; k < Ap[r + 1]; k++) {
            int64_t q = next[Ai[k]]++;
            T->i[q] = r;
            memcpy((char *)T->x + (size_t)q * isz, (const char *)Ax + (size_t)k * isz, isz);
        }
    free(next);
    return 1;
}

/* Sort the lines of *A in place (two counting transposes). Returns 0 when out of memory. */
static int nr_sp_sort(nr_sp_mat *A, int64_t n, size_t isz) {
    nr_sp_mat T, S;
    if (!nr_sp_transpose(A->p, A->i, A->x, n, isz, &T)) return 0;
    int ok = nr_sp_transpose(T.p, T.i, T.x, n, isz, &S);
    nr_sp_free(&T);
    if (!ok) return 0;
    nr_sp_free(A);
    *A = S;
    return 1;
}

#endif
