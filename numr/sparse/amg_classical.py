"""The setup of classical (Ruge-Stuben) AMG (numr/sparse/amg.py), after pyamg: classical
strength, the first pass of the Ruge-Stuben C/F splitting and direct interpolation.

Strength and interpolation are public numr ops on A's device; the splitting is a sequential
greedy pass (a heap of the points' influence counts) over the strength graph's index lists in
Python, so it runs for matrices on the CPU backend only (amg.py refuses GPU matrices)."""

from __future__ import annotations

import heapq
from typing import Any

from . import _structure as st
from .compressed import CSRMatrix


def classical_strength(A: CSRMatrix, theta: float) -> tuple[CSRMatrix, Any]:
    """(S, mask): S the off-diagonal entries with |a_ij| >= theta * max_k!=i |a_ik| (pyamg's
    classical strength, norm 'abs'), holding A's values; mask marks them among A's entries."""
    nr = st.nr_mod()
    row, col, val = A.coo_parts()
    mag = nr.where(row != col, nr.abs(val), 0)
    zero = nr.zeros(A.shape[0], dtype=mag.dtype, device=mag.device)
    rmax = nr.scatter_reduce(zero, 0, row, mag, "amax")
    mask = (mag > 0) & (mag >= theta * nr.index_select(rmax, 0, row))
    pos = nr.nonzero(mask).reshape(-1)
    r, c = nr.index_select(row, 0, pos), nr.index_select(col, 0, pos)
    S = CSRMatrix(st.compress(r, A.shape[0]), c, nr.index_select(val, 0, pos), A.shape, check=False)
    return S, mask


def rs_splitting(S: CSRMatrix) -> list[int]:
    """1 for a C-point, 0 for an F-point (pyamg's rs_cf_splitting, first pass): repeatedly the
    free point that most points depend on strongly (ties: the lowest index) becomes C, the free
    points depending on it become F, and the free points those depend on gain weight."""
    n = S.shape[0]
    ptr, idx = S.indptr.tolist(), S.indices.tolist()
    dependents: list[list[int]] = [[] for _ in range(n)]  # S^T: who depends on i
    for i in range(n):
        for j in idx[ptr[i]:ptr[i + 1]]:
            dependents[j].append(i)
    lam = [len(d) for d in dependents]
    state = [-1] * n  # -1 free, 0 F, 1 C
    for i in range(n):
        if lam[i] == 0 and ptr[i] == ptr[i + 1]:
            state[i] = 0  # isolated: no coarse representative needed (pyamg makes them F)
    heap = [(-lam[i], i) for i in range(n) if state[i] < 0]
    heapq.heapify(heap)
    while heap:
        neg, i = heapq.heappop(heap)
        if state[i] >= 0 or -neg != lam[i]:
            continue  # a stale entry
        state[i] = 1
        for j in dependents[i]:
            if state[j] < 0:
                state[j] = 0
                for k in idx[ptr[j]:ptr[j + 1]]:
                    if state[k] < 0:
                        lam[k] += 1
                        heapq.heappush(heap, (-lam[k], k))
        for j in idx[ptr[i]:ptr[i + 1]]:
            if state[j] < 0:
                lam[j] -= 1
                heapq.heappush(heap, (-lam[j], j))
    return state


def direct_interpolation(A: CSRMatrix, mask: Any, splitting: list[int]) -> CSRMatrix:
    """pyamg's direct interpolation: C-points inject; an F-point i takes its strong C neighbours
    j with weight -alpha a_ij / a_ii (negative a_ij) or -beta a_ij / a_ii (positive), alpha and
    beta scaling the strong C sums to the sums over all of row i's off-diagonal entries."""
    nr = st.nr_mod()
    n = A.shape[0]
    dev, d = A.device, A.dtype
    is_c = nr.tensor(splitting, dtype=nr.int64, device=dev) == 1
    cidx = nr.cumsum(nr.cast(is_c, nr.int64), 0) - 1  # coarse number of each C-point
    nc = int(nr.sum(nr.cast(is_c, nr.int64)).item()) if n else 0
    row, col, val = A.coo_parts()
    off = row != col
    neg, pos = off & (val < 0), off & (val > 0)
    strong_c = mask & nr.index_select(is_c, 0, col) & off

    def rowsum(sel: Any) -> Any:
        return st.add_at(n, row, nr.where(sel, val, nr.zeros((), dtype=d, device=dev)))

    diag = rowsum(~off)
    s_neg, s_pos = rowsum(strong_c & neg), rowsum(strong_c & pos)
    a_neg, a_pos = rowsum(neg), rowsum(pos)
    no_pos = s_pos == 0
    diag = nr.where(no_pos, diag + a_pos, diag)  # positive couplings without a strong C target: lumped
    alpha = a_neg / nr.where(s_neg == 0, 1, s_neg)
    beta = nr.where(no_pos, 0, a_pos / nr.where(no_pos, 1, s_pos))
    dd = nr.where(diag == 0, 1, diag)
    take = strong_c & ~nr.index_select(is_c, 0, row)
    k = nr.nonzero(take).reshape(-1)
    r, c, v = (nr.index_select(t, 0, k) for t in (row, col, val))
    coef = nr.where(v < 0, nr.index_select(alpha, 0, r), nr.index_select(beta, 0, r))
    w = -coef * v / nr.index_select(dd, 0, r)
    ci = nr.nonzero(is_c).reshape(-1)
    rows = nr.cat([ci, r])
    cols = nr.cat([nr.index_select(cidx, 0, ci), nr.index_select(cidx, 0, c)])
    vals = nr.cat([nr.ones(ci.shape[0], dtype=d, device=dev), w])
    from .coo import COOMatrix
    return COOMatrix((rows, cols), vals, (n, nc), check=False).tocsr()
