/* Fill-reducing ordering for the sparse LU of sparse_solve.h (nr_csc_lu_solve).
 * nr_md_order returns -1 on success, -3 (out of memory) otherwise. */
#ifndef NUMR_SPARSE_ORDER_H
#define NUMR_SPARSE_ORDER_H

#include <stdint.h>
#include <stdlib.h>

/* ---- minimum degree ordering of the pattern of A + A^T ---------------------------------
 * Explicit elimination graph (no quotient graph or supervariables: simple, and fast enough
 * for the sparse systems spsolve is for): repeatedly eliminate a node of least degree and
 * join its neighbours into a clique. Degree buckets are doubly linked lists. */
static int nr_md_add(int64_t **adj, int64_t *len, int64_t *cap, int64_t u, int64_t w) {
    if (len[u] == cap[u]) {
        int64_t nc = 2 * cap[u] + 4;
        int64_t *na = (int64_t *)realloc(adj[u], sizeof(int64_t) * (size_t)nc);
        if (!na) return 0;
        adj[u] = na; cap[u] = nc;
    }
    adj[u][len[u]++] = w;
    return 1;
}

static int64_t nr_md_order(const int64_t *Ap, const int64_t *Ai, int64_t n, int64_t *perm) {
    int64_t **adj = (int64_t **)calloc((size_t)n, sizeof(int64_t *));
    int64_t *iw = (int64_t *)malloc(sizeof(int64_t) * (size_t)(6 * n + 1));
    int64_t r = -1;
    if (!adj || !iw) { r = -3; goto out; }
    int64_t *len = iw, *cap = iw + n, *mark = iw + 2 * n, *head = iw + 3 * n, *next = iw + 4 * n,
            *prev = iw + 5 * n, stamp = 0;
    for (int64_t v = 0; v < n; v++) { len[v] = cap[v] = 0; mark[v] = -1; head[v] = -1; }
    head[n] = -1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t p = Ap[j]; p < Ap[j + 1]; p++) {
            int64_t i = Ai[p];
            if (i != j && (!nr_md_add(adj, len, cap, i, j) || !nr_md_add(adj, len, cap, j, i))) {
                r = -3; goto out;
            }
        }
    for (int64_t v = 0; v < n; v++) { /* drop repeated neighbours, then bucket by degree */
        int64_t k = 0;
        stamp++;
        for (int64_t p = 0; p < len[v]; p++)
            if (mark[adj[v][p]] != stamp) { mark[adj[v][p]] = stamp; adj[v][k++] = adj[v][p]; }
        len[v] = k;
        next[v] = head[k]; prev[v] = -1;
        if (head[k] >= 0) prev[head[k]] = v;
        head[k] = v;
    }
    int64_t mindeg = 0;
    for (int64_t k = 0; k < n; k++) {
        while (head[mindeg] < 0) mindeg++;
        int64_t v = head[mindeg];
        head[mindeg] = next[v];
        if (next[v] >= 0) prev[next[v]] = -1;
        perm[k] = v;
        for (int64_t a = 0; a < len[v]; a++) {
            int64_t u = adj[v][a], d = len[u];
            /* out of u's bucket */
            if (prev[u] >= 0) next[prev[u]] = next[u]; else head[d] = next[u];
            if (next[u] >= 0) prev[next[u]] = prev[u];
            /* adj[u] <- adj[u] \ {v} union adj[v] \ {u} */
            stamp++;
            int64_t kk = 0;
            for (int64_t p = 0; p < len[u]; p++) {
                int64_t w = adj[u][p];
                if (w == v) continue;
                mark[w] = stamp; adj[u][kk++] = w;
            }
            len[u] = kk;
            for (int64_t p = 0; p < len[v]; p++) {
                int64_t w = adj[v][p];
                if (w != u && mark[w] != stamp && !nr_md_add(adj, len, cap, u, w)) { r = -3; goto out; }
            }
            d = len[u];
            next[u] = head[d]; prev[u] = -1;
            if (head[d] >= 0) prev[head[d]] = u;
            head[d] = u;
            if (d < mindeg) mindeg = d;
        }
        free(adj[v]); adj[v] = NULL;
    }
out:
    if (adj) for (int64_t v = 0; v < n; v++) free(adj[v]);
    free(adj); free(iw);
    return r;
}

#endif
