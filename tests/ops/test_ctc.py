"""ctc_loss against a NumPy float64 reference of the CTC forward algorithm (one sample at a time,
scalar loops, written here), torch.nn.functional.ctc_loss where installed; padded and concatenated
targets, repeated labels, empty targets, impossible alignments (inf; 0 with zero_infinity), the
reductions, unbatched input, gradients by central differences and forward mode, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp


def np_ctc(lp, target, blank=0):
    """-log p(target | lp) for lp (T, C) float64 log-probabilities: the alpha recursion."""
    ext = [blank]
    for c in target:
        ext += [c, blank]
    T, L = lp.shape[0], len(ext)
    if T == 0:
        return 0.0 if not target else math.inf
    a = np.full(L, -np.inf)
    a[0] = lp[0, ext[0]]
    if L > 1:
        a[1] = lp[0, ext[1]]
    for t in range(1, T):
        b = np.full(L, -np.inf)
        for s in range(L):
            terms = [a[s]] + ([a[s - 1]] if s >= 1 else [])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(a[s - 2])
            m = max(terms)
            b[s] = -np.inf if m == -np.inf else m + math.log(sum(math.exp(x - m) for x in terms)) + lp[t, ext[s]]
        a = b
    ends = [a[L - 1]] + ([a[L - 2]] if L > 1 else [])
    m = max(ends)
    return math.inf if m == -np.inf else -(m + math.log(sum(math.exp(x - m) for x in ends)))


def _case(seed=0, T=7, C=5):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, 4, C))
    lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
    targets = [[1, 2, 2], [3], [], [4, 4, 4, 4]]  # repeats, a single label, empty, impossible in T=7
    il = [7, 5, 3, 6]
    return lp, targets, il


def _ref(lp, targets, il, reduction="mean", zero_infinity=False, blank=0):
    losses = np.array([np_ctc(lp[:n, i], t, blank) for i, (t, n) in enumerate(zip(targets, il, strict=True))])
    if zero_infinity:
        losses = np.where(np.isinf(losses), 0.0, losses)
    if reduction == "mean":
        return np.mean(losses / np.maximum([len(t) for t in targets], 1))
    return losses.sum() if reduction == "sum" else losses


def _padded(targets, fill=0):
    s = max(len(t) for t in targets)
    return np.array([t + [fill] * (s - len(t)) for t in targets])


def test_ctc_matches_reference(device):
    lp, targets, il = _case()
    tl = [len(t) for t in targets]
    for reduction, zi in ([("none", False), ("mean", True), ("sum", True)] if device == "cpu" else [("none", False)]):
        got = nr.ctc_loss(nr.tensor(lp, device=device), nr.tensor(_padded(targets, fill=3), device=device), il, tl,
                          reduction=reduction, zero_infinity=zi)
        want = _ref(lp, targets, il, reduction, zi)
        assert got.dtype == nr.float64 and tuple(got.shape) == np.shape(want)
        assert_close(got, want, rtol=1e-10, atol=1e-12)
    assert np.isinf(want := _ref(lp, targets, il, "none"))[3] and not np.isinf(want[:3]).any()


def test_ctc_concatenated_dtypes_and_torch():
    lp, targets, il = _case(1)
    tl = nr.tensor([len(t) for t in targets])
    flat = nr.tensor(sum(targets, []), dtype="int32")
    want = _ref(lp, targets, il, "none")
    got = nr.ctc_loss(nr.tensor(lp), flat, nr.tensor(il), tl, reduction="none")
    assert_close(got, want, rtol=1e-10, atol=1e-12)
    for dtype, tol in (("float32", 1e-5), ("float16", 2e-2), ("bfloat16", 5e-2)):
        got = nr.ctc_loss(nr.tensor(lp, dtype=dtype), flat, il, tl, reduction="none", zero_infinity=True)
        assert got.dtype == nr.dtype(dtype)
        assert_close(got, np.where(np.isinf(want), 0, want), rtol=tol, atol=tol)
    # a blank other than 0 and an unbatched (T, C) input
    t1 = [0, 2, 0]
    got = nr.ctc_loss(nr.tensor(lp[:, 0]), nr.tensor(t1), [7], [3], blank=4, reduction="none")
    assert tuple(got.shape) == () and got.dtype == nr.float64
    assert_close(got, np_ctc(lp[:, 0], t1, blank=4), rtol=1e-10, atol=1e-12)
    torch = pytest.importorskip("torch")
    tt = torch.nn.functional.ctc_loss(torch.tensor(lp), torch.tensor(sum(targets, [])), torch.tensor(il),
                                      torch.tensor([len(t) for t in targets]), zero_infinity=True)
    assert_close(nr.ctc_loss(nr.tensor(lp), flat, il, tl, zero_infinity=True), float(tt), rtol=1e-10, atol=1e-12)


def test_ctc_edges():
    """No frames (empty target: loss 0, else inf), a length-1 input, a sliced non-contiguous input."""
    lp, _, _ = _case(2)
    got = nr.ctc_loss(nr.tensor(lp[:, :2]), nr.tensor([[1], [0]]), [0, 0], [1, 0], reduction="none")
    assert_close(got, [math.inf, 0.0])
    got = nr.ctc_loss(nr.tensor(lp[:, :2]), nr.tensor([[1], [0]]), [1, 1], [1, 0], reduction="none")
    assert_close(got, [-lp[0, 0, 1], -lp[0, 1, 0]], rtol=1e-12)
    view = nr.tensor(lp)[::-1, 1:3]  # flipped in time, sliced batch
    got = nr.ctc_loss(view, nr.tensor([[2, 1], [3, 3]]), [7, 7], [2, 2], reduction="none")
    want = [np_ctc(lp[::-1, 1 + i], t) for i, t in enumerate([[2, 1], [3, 3]])]
    assert_close(got, want, rtol=1e-10, atol=1e-12)


def test_ctc_gradients():
    lp, targets, il = _case(3, T=5, C=4)
    lp, targets, il = lp[:, :3], [[1, 2], [3, 3], []], [5, 5, 4]
    tgt, tl = nr.tensor(_padded(targets)), [len(t) for t in targets]

    def f(x):
        return nr.ctc_loss(nr.log_softmax(x, 2), tgt, il, tl)
    assert gradcheck(f, [nr.tensor(lp)], atol=1e-6, rtol=1e-5)
    v = Var(nr.tensor(lp))
    g = backward(f(v))[v]
    tan = np.random.default_rng(4).normal(size=lp.shape)
    _, jt = jvp(f, (nr.tensor(lp),), (nr.tensor(tan),))
    np.testing.assert_allclose(float(jt), float(np.sum(g.numpy() * tan)), rtol=1e-10, atol=1e-12)
    # an impossible sample with zero_infinity: finite gradients, zero for that sample
    v = Var(nr.tensor(lp[:3, :2]))
    loss = nr.ctc_loss(v, nr.tensor([[1, 1], [2, 0]]), [2, 3], [2, 1], reduction="sum", zero_infinity=True)
    g = backward(loss)[v].numpy()
    assert np.isfinite(g).all() and not g[:, 0].any() and g[:, 1].any()


def test_ctc_errors():
    lp = nr.tensor(np.zeros((3, 2, 4)))
    t = nr.tensor([[1, 2], [1, 0]])
    with pytest.raises(nr.ShapeError, match="ctc_loss"):
        nr.ctc_loss(nr.zeros((3,)), t, [3, 3], [2, 1])
    with pytest.raises(nr.ShapeError, match="input_lengths"):
        nr.ctc_loss(lp, t, [3], [2, 1])
    with pytest.raises(nr.DomainError, match="input_lengths"):
        nr.ctc_loss(lp, t, [4, 3], [2, 1])
    with pytest.raises(nr.IndexOutOfRange, match="blank"):
        nr.ctc_loss(lp, t, [3, 3], [2, 1], blank=4)
    with pytest.raises(nr.IndexOutOfRange, match="target"):
        nr.ctc_loss(lp, nr.tensor([[1, 9], [1, 0]]), [3, 3], [2, 1])
    with pytest.raises(nr.ShapeError, match="concatenated"):
        nr.ctc_loss(lp, nr.tensor([1, 2]), [3, 3], [2, 1])
    with pytest.raises(nr.DTypeError, match="targets"):
        nr.ctc_loss(lp, nr.tensor([[1.0, 2.0], [1.0, 0.0]]), [3, 3], [2, 1])
    with pytest.raises(nr.DomainError, match="reduction"):
        nr.ctc_loss(lp, t, [3, 3], [2, 1], reduction="avg")
