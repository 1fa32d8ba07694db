"""einsum written once with numr's public functions, so every backend runs it and autograd
(Vars, DualTensors) differentiates through the ops it is made of.

The plan: parse the equation (NumPy/torch syntax: implicit or explicit output, "...",
repeated indices, spaces); take repeated indices of one operand as diagonal views; sum
every index that no other operand and not the output needs; then contract the operands
pairwise in a greedy order (the pair whose result is smallest relative to its inputs, as
opt_einsum's "greedy"), each pair as permute + reshape + one batched matmul."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import dtypes as dt
from ...errors import ShapeError
from ...shapes import numel

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _split_term(term: str, eq: str) -> tuple[list[str], bool]:
    """A term's letters and whether it holds '...' (at most once)."""
    n = term.count("...")
    rest = term.replace("...", "")
    if n > 1 or "." in rest:
        raise ShapeError(f"einsum: '{term}' in '{eq}' has an ellipsis that is not exactly '...' once")
    bad = [c for c in rest if c not in _LETTERS]
    if bad:
        raise ShapeError(f"einsum: invalid subscript {bad[0]!r} in '{eq}' (letters a-z, A-Z and '...' only)")
    if n:
        i = term.index("...")
        return list(term[:i]) + ["..."] + list(term[i + 3:]), True
    return list(rest), False


def parse(eq: str, shapes: Sequence[tuple[int, ...]]) -> tuple[list[list[Any]], list[Any], dict[Any, int]]:
    """(labels per operand, output labels, size per label); the ellipsis dims become labels
    0, 1, ... counted from the right, so they line up as in broadcasting."""
    s = eq.replace(" ", "")
    if s.count("->") > 1:
        raise ShapeError(f"einsum: '{eq}' has more than one '->'")
    lhs, arrow, rhs = s.partition("->")
    if "-" in lhs or ">" in lhs or "-" in rhs or ">" in rhs:
        raise ShapeError(f"einsum: misplaced '-' or '>' in '{eq}'")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ShapeError(f"einsum: '{eq}' names {len(terms)} operands but {len(shapes)} were given")
    labels: list[list[Any]] = []
    sizes: dict[Any, set[int]] = {}
    n_ell = 0
    for term, shape in zip(terms, shapes, strict=True):
        parts, has_ell = _split_term(term, eq)
        n_named = len(parts) - has_ell
        if len(shape) != n_named if not has_ell else len(shape) < n_named:
            raise ShapeError(f"einsum: operand '{term}' of '{eq}' needs {n_named}{'+' if has_ell else ''} dims, "
                             f"got shape {shape}")
        k = len(shape) - n_named
        n_ell = max(n_ell, k if has_ell else 0)
        full: list[Any] = []
        for p in parts:
            full.extend(range(k - 1, -1, -1) if p == "..." else [p])
        for lab, n in zip(full, shape, strict=True):
            sizes.setdefault(lab, set()).add(n)
        labels.append(full)
    size: dict[Any, int] = {}
    for lab, ns in sizes.items():
        big = ns - {1}
        if len(big) > 1:
            what = f"index '{lab}'" if isinstance(lab, str) else "the '...' dims"
            raise ShapeError(f"einsum: {what} of '{eq}' has sizes {sorted(ns)} that do not match "
                             f"(shapes {[tuple(x) for x in shapes]})")
        size[lab] = big.pop() if big else 1
    ell = list(range(n_ell - 1, -1, -1))
    if arrow:
        out_parts, has_ell = _split_term(rhs, eq)
        out: list[Any] = []
        for p in out_parts:
            out.extend(ell if p == "..." else [p])
        named = [p for p in out if isinstance(p, str)]
        if len(set(named)) != len(named):
            raise ShapeError(f"einsum: the output '{rhs}' of '{eq}' repeats an index")
        missing = [p for p in named if p not in size]
        if missing:
            raise ShapeError(f"einsum: output index '{missing[0]}' of '{eq}' is in no operand")
    else:
        counts: dict[str, int] = {}
        for lab in (x for ls in labels for x in ls if isinstance(x, str)):
            counts[lab] = counts.get(lab, 0) + 1
        out = ell + sorted(c for c, n in counts.items() if n == 1)  # ASCII order: A-Z before a-z
    return labels, out, size


def _squeeze_broadcast(x: Any, labs: list[Any], size: dict[Any, int]) -> tuple[Any, list[Any]]:
    """Drop size-1 dims whose index is larger elsewhere: broadcasting, the operand is constant there."""
    drop = [i for i, lab in enumerate(labs) if x.shape[i] == 1 and size[lab] != 1]
    if not drop:
        return x, labs
    keep = [i for i in range(len(labs)) if i not in drop]
    return x.reshape(tuple(x.shape[i] for i in keep)), [labs[i] for i in keep]


def _take_diagonals(x: Any, labs: list[Any]) -> tuple[Any, list[Any]]:
    """A repeated index of one operand ("ii") becomes one dim: the diagonal view."""
    import numr as nr
    while len(set(labs)) != len(labs):
        seen: dict[Any, int] = {}
        for j, lab in enumerate(labs):
            if lab in seen:
                i = seen[lab]
                x = nr.diagonal(x, 0, i, j)
                labs = [lb for k, lb in enumerate(labs) if k not in (i, j)] + [lab]
                break
            seen[lab] = j
    return x, labs


def _sum_out(x: Any, labs: list[Any], needed: set[Any]) -> tuple[Any, list[Any]]:
    """Sum the dims whose index nothing else needs."""
    import numr as nr
    dims = tuple(i for i, lab in enumerate(labs) if lab not in needed)
    if not dims:
        return x, labs
    return nr.sum(x, dim=dims), [lab for lab in labs if lab in needed]


def _contract(a: Any, la: list[Any], b: Any, lb: list[Any], keep: set[Any],
              size: dict[Any, int]) -> tuple[Any, list[Any]]:
    """One pair: batch dims (in both, still needed), contracted ones (in both, not needed), and
    each side's own dims; (batch, m, k) @ (batch, k, n) in one matmul."""
    import numr as nr
    sb = set(lb)
    batch = [x for x in la if x in sb and x in keep]
    red = [x for x in la if x in sb and x not in keep]
    ra = [x for x in la if x not in sb]
    sa = set(la)
    rb = [x for x in lb if x not in sa]
    nb, m, k, n = (numel([size[x] for x in g]) for g in (batch, ra, red, rb))
    pa = a.permute(tuple(la.index(x) for x in batch + ra + red)).reshape((nb, m, k))
    pb = b.permute(tuple(lb.index(x) for x in batch + red + rb)).reshape((nb, k, n))
    out = nr.matmul(pa, pb)
    labs = batch + ra + rb
    return out.reshape(tuple(size[x] for x in labs)), labs


def _pick_pair(terms: list[tuple[Any, list[Any]]], keep_of: Any, size: dict[Any, int]) -> tuple[int, int]:
    """The greedy choice: among pairs sharing an index, the one minimising size(result) minus
    the sizes of its inputs; with no shared index anywhere, the two smallest operands."""
    best, best_cost = None, None
    for i in range(len(terms)):
        si = set(terms[i][1])
        for j in range(i + 1, len(terms)):
            sj = set(terms[j][1])
            if not si & sj:
                continue
            keep = keep_of(i, j)
            res = numel([size[x] for x in (si | sj) if x in keep])
            cost = res - numel([size[x] for x in si]) - numel([size[x] for x in sj])
            if best_cost is None or cost < best_cost:
                best, best_cost = (i, j), cost
    if best is None:
        order = sorted(range(len(terms)), key=lambda t: numel([size[x] for x in terms[t][1]]))
        best = (min(order[:2]), max(order[:2]))
    return best


def einsum_any(subscripts: str, *operands: Any) -> Any:
    """Einstein summation over the operands (NumPy/torch semantics)."""
    import numr as nr
    if not isinstance(subscripts, str):
        raise ShapeError(f"einsum: the first argument must be the subscript string, got {type(subscripts).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ShapeError("einsum: needs at least one operand")
    for o in operands:
        if not hasattr(o, "shape") or not hasattr(o, "dtype"):
            raise ShapeError(f"einsum: operands must be tensors, got {type(o).__name__}")
    labels, out, size = parse(subscripts, [tuple(o.shape) for o in operands])
    dtype = dt.result_type(*operands)
    terms = []
    for x, labs in zip(operands, labels, strict=True):
        if x.dtype is not dtype:
            x = nr.cast(x, dtype)
        x, labs = _squeeze_broadcast(x, labs, size)
        terms.append(_take_diagonals(x, labs))
    out_set = set(out)

    def needed_except(*skip: int) -> set[Any]:
        s = set(out_set)
        for t, (_, labs) in enumerate(terms):
            if t not in skip:
                s.update(labs)
        return s

    terms = [_sum_out(x, labs, needed_except(t)) for t, (x, labs) in enumerate(terms)]
    while len(terms) > 1:
        i, j = _pick_pair(terms, lambda i, j: needed_except(i, j), size)
        keep = needed_except(i, j)
        (a, la), (b, lb) = terms[i], terms[j]
        a, la = _sum_out(a, la, keep | set(lb))
        b, lb = _sum_out(b, lb, keep | set(la))
        res = _contract(a, la, b, lb, keep, size)
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [res]
    x, labs = _sum_out(*terms[0], out_set)
    x = x.permute(tuple(labs.index(lab) for lab in out)) if labs != out else x
    if x.dtype is not dtype:  # sum widens integers (torch's rule); einsum keeps the common dtype (NumPy)
        x = nr.cast(x, dtype)
    return x


def einsum(self: Any, subscripts: str, *operands: Any) -> Any:
    return einsum_any(subscripts, *operands)
