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
from ...layout import Layout
from ...shapes import numel
from ..prepare import plain

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
        seen: dict[Any, int] = {}
        for lab, n in zip(full, shape, strict=True):
            if seen.setdefault(lab, n) != n:  # a diagonal needs equal sizes: no broadcasting here
                raise ShapeError(f"einsum: index '{lab}' is repeated in operand '{term}' of '{eq}' with sizes "
                                 f"{seen[lab]} and {n} (shape {shape})")
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


def _prep_plan(shape: tuple[int, ...], labs: list[Any], size: dict[Any, int]) -> tuple[Any, list, list[Any]]:
    """One operand's steps: drop size-1 dims whose index is larger elsewhere (broadcasting:
    the operand is constant there), then take a repeated index ("ii") as a diagonal view."""
    squeeze = None
    drop = [i for i, lab in enumerate(labs) if shape[i] == 1 and size[lab] != 1]
    if drop:
        keep = [i for i in range(len(labs)) if i not in drop]
        squeeze, labs = tuple(shape[i] for i in keep), [labs[i] for i in keep]
    diags = []
    while len(set(labs)) != len(labs):
        seen: dict[Any, int] = {}
        for j, lab in enumerate(labs):
            if lab in seen:
                i = seen[lab]
                diags.append((i, j))
                labs = [lb for k, lb in enumerate(labs) if k not in (i, j)] + [lab]
                break
            seen[lab] = j
    return squeeze, diags, labs


def _sum_plan(labs: list[Any], needed: set[Any]) -> tuple[tuple[int, ...], list[Any]]:
    """The dims whose index nothing else needs (summed), and the labels left."""
    dims = tuple(i for i, lab in enumerate(labs) if lab not in needed)
    return dims, [lab for lab in labs if lab in needed] if dims else labs


def _pair_plan(la: list[Any], lb: list[Any], keep: set[Any], size: dict[Any, int]) -> tuple[Any, list[Any]]:
    """One pair: batch dims (in both, still needed), contracted ones (in both, not needed) and
    each side's own dims, for (batch, m, k) @ (batch, k, n) in one matmul. Each side gets two
    permutations, k last or k first: the one whose reshape is a view is used."""
    sa, sb = set(la), set(lb)
    batch = [x for x in la if x in sb and x in keep]
    red = [x for x in la if x in sb and x not in keep]
    ra = [x for x in la if x not in sb]
    rb = [x for x in lb if x not in sa]
    nb, m, k, n = (numel([size[x] for x in g]) for g in (batch, ra, red, rb))
    pa = (tuple(la.index(x) for x in batch + ra + red), tuple(la.index(x) for x in batch + red + ra))
    pb = (tuple(lb.index(x) for x in batch + red + rb), tuple(lb.index(x) for x in batch + rb + red))
    labs = batch + ra + rb
    return (pa, pb, nb, m, k, n, tuple(size[x] for x in labs)), labs


def _pick_pair(labels: list[list[Any]], keep_of: Any, size: dict[Any, int]) -> tuple[int, int]:
    """The greedy choice: among pairs sharing an index, the one minimising size(result) minus
    the sizes of its inputs (then the multiply-adds); with no shared index anywhere, the two
    smallest operands."""
    best, best_cost = None, None
    for i in range(len(labels)):
        si = set(labels[i])
        for j in range(i + 1, len(labels)):
            sj = set(labels[j])
            if not si & sj:
                continue
            res = numel([size[x] for x in (si | sj) if x in keep_of(i, j)])
            cost = (res - numel([size[x] for x in si]) - numel([size[x] for x in sj]),
                    numel([size[x] for x in si | sj]))  # ties: the fewer multiply-adds
            if best_cost is None or cost < best_cost:
                best, best_cost = (i, j), cost
    if best is None:
        order = sorted(range(len(labels)), key=lambda t: numel([size[x] for x in labels[t]]))
        best = (min(order[:2]), max(order[:2]))
    return best


_PLANS: dict[tuple, tuple] = {}


def plan(eq: str, shapes: tuple[tuple[int, ...], ...]) -> tuple:
    """The steps for these shapes, computed on labels only (cached: an equation recurs)."""
    key = (eq, shapes)
    hit = _PLANS.get(key)
    if hit is not None:
        return hit
    labels, out, size = parse(eq, shapes)
    preps, terms = [], []
    for shape, labs in zip(shapes, labels, strict=True):
        squeeze, diags, labs = _prep_plan(shape, labs, size)
        preps.append([squeeze, diags, ()])
        terms.append(labs)
    out_set = set(out)

    def needed_except(*skip: int) -> set[Any]:
        s = set(out_set)
        for t, labs in enumerate(terms):
            if t not in skip:
                s.update(labs)
        return s

    for t in range(len(terms)):
        preps[t][2], terms[t] = _sum_plan(terms[t], needed_except(t))
    pairs = []
    while len(terms) > 1:
        i, j = _pick_pair(terms, needed_except, size)
        keep = needed_except(i, j)
        sum_a, la = _sum_plan(terms[i], keep | set(terms[j]))
        sum_b, lb = _sum_plan(terms[j], keep | set(la))
        step, labs = _pair_plan(la, lb, keep, size)
        pairs.append((i, j, sum_a, sum_b, step))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [labs]
    final_sum, labs = _sum_plan(terms[0], out_set)
    perm = tuple(labs.index(lab) for lab in out) if labs != out else None
    res = (preps, pairs, final_sum, perm)
    if len(_PLANS) > 1024:
        _PLANS.clear()
    _PLANS[key] = res
    return res


def _as_view(lay: Layout, perms: tuple, shape: tuple[int, int, int], swapped: tuple[int, int, int]) -> Any:
    """The (shape, strides, swapped) of the (batch, rows, cols) view of a tensor with layout ``lay``: its
    first permutation reshaped, else the second one reshaped and its last two dims swapped
    (matmul reads transposed operands); None when neither is a view."""
    for perm, sh, swap in ((perms[0], shape, False), (perms[1], swapped, True)):
        v = lay.permute(perm).reshape(sh)
        if v is not None:
            st = v.strides
            return shape, (st[0], st[2], st[1]) if swap else st, swap
    return None


_VIEWS: dict[tuple, Any] = {}  # (shape, strides, permutations, shape) -> _as_view's answer


def _operand(x: Any, perms: tuple, shape: tuple[int, int, int], swapped: tuple[int, int, int]) -> Any:
    """x as (batch, rows, cols) for matmul, a view when one of its two permutations allows it
    (a copy otherwise). Tensors take the cached layout directly; Vars and DualTensors go
    through their views (which autograd records)."""
    t = plain(x)
    lay = t._layout
    key = (lay.shape, lay.strides, perms, shape)
    hit = _VIEWS.get(key, False)
    if hit is False:
        hit = _VIEWS[key] = _as_view(Layout(lay.shape, lay.strides), perms, shape, swapped)
        if len(_VIEWS) > 4096:
            _VIEWS.clear()
    if hit is not None and x is t:
        return t._view(Layout(hit[0], hit[1], lay.offset))
    if hit is not None and hit[2]:
        return _permute_reshape(x, perms[1], swapped).transpose(1, 2)
    return _permute_reshape(x, perms[0], shape)


def _permute_reshape(x: Any, perm: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    """x.permute(perm).reshape(shape), skipping either step when it changes nothing."""
    if perm != tuple(range(len(perm))):
        x = x.permute(perm)
    return x if tuple(x.shape) == shape else x.reshape(shape)


def _contract(a: Any, b: Any, step: tuple) -> Any:
    """One pair of the plan, (batch, m, k) @ (batch, k, n), reshaped to the result's dims."""
    import numr as nr
    pa, pb, nb, m, k, n, out_shape = step
    if m == 1 and n == 1:  # dot products: one multiply and one sum, no matmul of 1x1 results
        x = _permute_reshape(a, pa[0], (nb, k))
        y = _permute_reshape(b, pb[0], (nb, k))
        return nr.sum(x * y, dim=1).reshape(out_shape)
    x = _operand(a, pa, (nb, m, k), (nb, k, m))
    y = _operand(b, pb, (nb, k, n), (nb, n, k))
    out = x * y if k == 1 else nr.matmul(x, y)  # nothing summed (outer products): a broadcast multiply
    return out if tuple(out.shape) == out_shape else out.reshape(out_shape)


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
    preps, pairs, final_sum, perm = plan(subscripts, tuple(tuple(o.shape) for o in operands))
    dtype = operands[0].dtype
    if any(o.dtype is not dtype for o in operands):
        dtype = dt.result_type(*operands)
    terms = []
    for x, (squeeze, diags, sums) in zip(operands, preps, strict=True):
        if x.dtype is not dtype:
            x = nr.cast(x, dtype)
        if squeeze is not None:
            x = x.reshape(squeeze)
        for i, j in diags:
            x = nr.diagonal(x, 0, i, j)
        terms.append(nr.sum(x, dim=sums) if sums else x)
    for i, j, sum_a, sum_b, step in pairs:
        a, b = terms[i], terms[j]
        res = _contract(nr.sum(a, dim=sum_a) if sum_a else a, nr.sum(b, dim=sum_b) if sum_b else b, step)
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [res]
    x = terms[0]
    if final_sum:
        x = nr.sum(x, dim=final_sum)
    if perm is not None:
        x = x.permute(perm)
    if x.dtype is not dtype:  # sum widens integers (torch's rule); einsum keeps the common dtype (NumPy)
        x = nr.cast(x, dtype)
    return x


def einsum(self: Any, subscripts: str, *operands: Any) -> Any:
    return einsum_any(subscripts, *operands)
