"""The setup phase of smoothed aggregation AMG (numr/sparse/amg.py): strength of connection,
standard aggregation, the tentative and the Jacobi-smoothed prolongator, written after pyamg.

Strength, prolongators and Galerkin products R A P are public numr ops (SpGEMM of numr.sparse)
on A's device. Standard aggregation is a sequential greedy pass over the strength graph: it
walks the graph's index lists in Python on the CPU backend (the structure only); a matrix on a
GPU backend is refused before that (numr/sparse/amg.py), never copied to the host silently."""

from __future__ import annotations

from typing import Any

from . import _structure as st
from .compressed import CSRMatrix


def strength(A: CSRMatrix, theta: float) -> CSRMatrix:
    """pyamg's symmetric strength of connection: the off-diagonal entries with
    |a_ij| >= theta * sqrt(|a_ii a_jj|) (theta = 0: every stored off-diagonal entry)."""
    nr = st.nr_mod()
    row, col, val = A.coo_parts()
    d = nr.abs(A.diagonal())
    mag = nr.abs(val)
    keep = (row != col) & (mag != 0)
    if theta > 0:
        keep = keep & (mag >= theta * nr.sqrt(nr.index_select(d, 0, row) * nr.index_select(d, 0, col)))
    pos = nr.nonzero(keep).reshape(-1)
    r, c = nr.index_select(row, 0, pos), nr.index_select(col, 0, pos)
    return CSRMatrix(st.compress(r, A.shape[0]), c, nr.index_select(mag, 0, pos), A.shape, check=False)


def standard_aggregation(S: CSRMatrix) -> tuple[list[int], int]:
    """(aggregate id of every node, -1 for an isolated node; number of aggregates) by pyamg's
    three passes: 1. a node whose strong neighbours are all free seeds an aggregate with them;
    2. a free node joins the aggregate of a neighbour aggregated in pass 1; 3. a node still free
    seeds an aggregate with its free neighbours. Nodes without strong neighbours stay out."""
    ptr, idx = S.indptr.tolist(), S.indices.tolist()
    n = S.shape[0]
    agg = [-1] * n
    seeded = [False] * n  # aggregated in pass 1
    count = 0
    for i in range(n):
        nb = idx[ptr[i]:ptr[i + 1]]
        if not nb or agg[i] >= 0 or any(agg[j] >= 0 for j in nb):
            continue
        agg[i] = count
        seeded[i] = True
        for j in nb:
            agg[j] = count
            seeded[j] = True
        count += 1
    for i in range(n):
        if agg[i] >= 0:
            continue
        for j in idx[ptr[i]:ptr[i + 1]]:
            if seeded[j]:
                agg[i] = agg[j]
                break
    for i in range(n):
        nb = idx[ptr[i]:ptr[i + 1]]
        if agg[i] >= 0 or not nb:
            continue
        agg[i] = count
        for j in nb:
            if agg[j] < 0:
                agg[j] = count
        count += 1
    return agg, count


def tentative(agg: list[int], count: int, n: int, dtype: Any, device: Any) -> CSRMatrix:
    """The tentative prolongator T (n, count) for the constant candidate: T[i, agg[i]] =
    1 / sqrt(|aggregate|), so T^T T = I; rows of isolated nodes are empty."""
    nr = st.nr_mod()
    a = nr.tensor(agg, dtype=nr.int64, device=device)
    rows = nr.nonzero(a >= 0).reshape(-1)
    cols = nr.index_select(a, 0, rows)
    size = nr.cast(nr.bincount(cols, minlength=count), dtype)
    vals = nr.rsqrt(nr.index_select(size, 0, cols))
    return CSRMatrix(st.compress(rows, n), cols, vals, (n, count), check=False, canonical=True)


def inv_diagonal(A: Any) -> Any:
    """1 / diag(A), zero diagonal entries left at 1 (as numr.sparse.linalg.jacobi)."""
    nr = st.nr_mod()
    d = A.diagonal()
    return nr.where(d == 0, 1, 1 / nr.where(d == 0, 1, d))


def spectral_radius(A: Any, dinv: Any, steps: int = 20) -> float:
    """rho(D^-1 A) estimated by power iteration from a fixed start (one scalar read), used to
    weight Jacobi: a slight underestimate is safe, a 5 % margin is added."""
    nr = st.nr_mod()
    n = A.shape[0]
    x = 1 + nr.cast(nr.arange(n, device=A.device), A.dtype) / max(n, 1) * 0.5
    lam = nr.zeros((), dtype=A.dtype, device=A.device)
    for _ in range(steps):
        y = dinv * (A @ x)
        lam = nr.sqrt(nr.sum(y * y) / nr.maximum(nr.sum(x * x), 1e-300 if A.dtype == nr.float64 else 1e-30))
        x = y / nr.maximum(nr.max(nr.abs(y)), 1e-30)
    return 1.05 * float(lam.item())


def smoothed_prolongator(A: CSRMatrix, T: CSRMatrix, dinv: Any, rho: float, omega: float) -> CSRMatrix:
    """P = (I - omega / rho D^-1 A) T (Jacobi-smoothed), by one SpGEMM and one sparse sum."""
    nr = st.nr_mod()
    row, _, val = A.coo_parts()
    DA = A.with_values(val * nr.index_select(dinv, 0, row))  # D^-1 A: row i scaled by dinv[i]
    return (T - (DA @ T) * (omega / rho)).tocsr()


def galerkin(R: CSRMatrix, A: CSRMatrix, P: CSRMatrix) -> CSRMatrix:
    """The coarse operator R A P (two SpGEMMs), duplicates summed."""
    return (R @ (A @ P)).tocsr().coalesce()
