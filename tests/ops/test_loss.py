"""The loss family against NumPy float64 references written here (torch.nn.functional's documented
formulas): every loss and reduction, weights, ignore_index, label smoothing, probability targets,
N-d inputs, views, empty batches, extreme logits, dtypes, errors; gradients by central differences
(gradcheck) and forward mode (jvp); torch itself as a secondary check where installed."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_close

import numr as nr
from numr.autograd import Var, backward, gradcheck, jvp

REDUCTIONS = ("none", "mean", "sum")


def tkw(kw, device="cpu"):
    """The keyword arguments with NumPy arrays as numr tensors."""
    return {k: nr.tensor(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}


def red(loss, reduction):
    return {"none": loss, "mean": np.mean(loss) if loss.size else np.nan, "sum": np.sum(loss)}[reduction]


def logsig(x):
    return -np.logaddexp(0.0, -x)


def np_logp(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def np_cross_entropy(x, t, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """torch's cross_entropy for class indices t (N, d1, ...) of logits x (N, C, d1, ...) or (C,)."""
    axis = 1 if x.ndim > 1 else 0
    C = x.shape[axis]
    logp = np_logp(x, axis)
    w = np.ones(C) if weight is None else weight
    keep = t != ignore_index
    ts = np.where(keep, t, 0)
    picked = np.take_along_axis(logp, np.expand_dims(ts, axis), axis).squeeze(axis)
    wt = w[ts] * keep
    nll = -picked * wt
    wshape = (C,) + (1,) * (x.ndim - 2) if x.ndim > 1 else (C,)
    smooth = -np.sum(logp * w.reshape(wshape), axis) * keep

    def r(v):
        return v.sum() / wt.sum() if reduction == "mean" else red(v, reduction)
    return (1 - label_smoothing) * r(nll) + label_smoothing / C * r(smooth)


def np_cross_entropy_probs(x, p, weight=None, reduction="mean", label_smoothing=0.0):
    C = x.shape[1]
    p = p * (1 - label_smoothing) + label_smoothing / C
    w = np.ones(C) if weight is None else weight
    loss = -np.sum(np_logp(x, 1) * p * w.reshape((C,) + (1,) * (x.ndim - 2)), 1)
    return loss.sum() / (x.size // C) if reduction == "mean" else red(loss, reduction)


def _sets(rng):
    """name -> (inputs as float64 arrays, keyword arguments, the NumPy element losses)."""
    x, t = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    p, q = rng.uniform(0.05, 0.95, (3, 4)), rng.uniform(0, 1, (3, 4))
    y = np.where(rng.uniform(size=(3, 4)) < 0.5, -1.0, 1.0)
    pos = rng.uniform(0.5, 2, 4)
    v = rng.uniform(0.1, 2, (3, 4))
    a, b, c = rng.normal(size=(3, 5)), rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    y3 = np.array([1.0, -1.0, -1.0])
    d = x - t
    cos = (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12))

    def dist(u, w):
        return np.sqrt(((u - w + 1e-6) ** 2).sum(-1))
    stir = np.where(q * 5 > 1, q * 5 * np.log(q * 5) - q * 5 + 0.5 * np.log(2 * np.pi * q * 5), 0)
    return {
        "mse_loss": ((x, t), {}, d * d),
        "l1_loss": ((x, t), {}, np.abs(d)),
        "smooth_l1_loss": ((x, t), {"beta": 0.7},
                           np.where(np.abs(d) < 0.7, 0.5 * d * d / 0.7, np.abs(d) - 0.35)),
        "huber_loss": ((x, t), {"delta": 0.7}, np.where(np.abs(d) <= 0.7, 0.5 * d * d, 0.7 * (np.abs(d) - 0.35))),
        "binary_cross_entropy": ((p, q), {}, -(q * np.log(p) + (1 - q) * np.log(1 - p))),
        "binary_cross_entropy_with_logits": ((x, q), {"pos_weight": pos},
                                             -(pos * q * logsig(x) + (1 - q) * logsig(-x))),
        "kl_div": ((np.log(p), q), {}, q * (np.log(q) - np.log(p))),
        "poisson_nll_loss": ((x, q * 5), {"full": True}, np.exp(x) - q * 5 * x + stir),
        "gaussian_nll_loss": ((x, t, v), {}, 0.5 * (np.log(v) + d * d / v)),
        "margin_ranking_loss": ((x, t, y), {"margin": 0.3}, np.maximum(0, -y * d + 0.3)),
        "hinge_embedding_loss": ((x, y), {"margin": 0.5}, np.where(y == 1, x, np.maximum(0, 0.5 - x))),
        "soft_margin_loss": ((x, y), {}, np.log1p(np.exp(-y * x))),
        "multilabel_soft_margin_loss": ((x, q), {}, -(q * logsig(x) + (1 - q) * logsig(-x)).mean(-1)),
        "cosine_embedding_loss": ((a, b, y3), {"margin": 0.1},
                                  np.where(y3 == 1, 1 - cos, np.maximum(0, cos - 0.1))),
        "triplet_margin_loss": ((a, b, c), {"margin": 0.5}, np.maximum(0, 0.5 + dist(a, b) - dist(a, c))),
    }


NAMES = sorted(_sets(np.random.default_rng(0)))
#: how many leading inputs are differentiated (the rest, class labels and signs, stay fixed)
N_DIFF = {"mse_loss": 2, "l1_loss": 2, "smooth_l1_loss": 2, "huber_loss": 2, "gaussian_nll_loss": 3,
          "margin_ranking_loss": 2, "cosine_embedding_loss": 2, "triplet_margin_loss": 3}


@pytest.mark.parametrize("name", NAMES)
def test_losses_match_numpy(device, name):
    ins, kw, elem = _sets(np.random.default_rng(0))[name]
    for reduction in REDUCTIONS if device == "cpu" else ("none",):
        got = getattr(nr, name)(*[nr.tensor(a, device=device) for a in ins], reduction=reduction, **tkw(kw, device))
        assert_close(got, red(elem, reduction), dtype="float64", rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_loss_gradients(name):
    """Reverse mode by central differences, forward mode against the reverse-mode gradient."""
    ins, kw, _ = _sets(np.random.default_rng(1))[name]
    n_diff = N_DIFF.get(name, 1)
    fixed = [nr.tensor(a) for a in ins[n_diff:]]

    def f(*vs):
        return getattr(nr, name)(*vs, *fixed, **tkw(kw))
    xs = [nr.tensor(a) for a in ins[:n_diff]]
    assert gradcheck(f, xs, atol=1e-6, rtol=1e-5)
    vs = [Var(x) for x in xs]
    g = backward(f(*vs))
    tans = [nr.tensor(np.random.default_rng(2 + i).normal(size=x.shape)) for i, x in enumerate(xs)]
    _, tan = jvp(f, tuple(xs), tuple(tans))
    want = sum(float(nr.sum(g[v] * t)) for v, t in zip(vs, tans, strict=True))
    np.testing.assert_allclose(float(tan), want, rtol=1e-10, atol=1e-12)


def test_cross_entropy_gradients():
    """Class indices with weights, ignore_index and smoothing on an N-d input; nll_loss."""
    rng = np.random.default_rng(9)
    x, t, w = rng.normal(size=(3, 4, 2)), rng.integers(0, 4, (3, 2)), nr.tensor(rng.uniform(0.5, 2, 4))
    t[0, 1] = 7
    kw = dict(weight=w, ignore_index=7, label_smoothing=0.2)
    for f in (lambda a: nr.cross_entropy(a, nr.tensor(t), **kw),
              lambda a: nr.nll_loss(a, nr.tensor(t), weight=w, ignore_index=7, reduction="sum")):
        assert gradcheck(f, [nr.tensor(x)], atol=1e-7, rtol=1e-6)
        v = Var(nr.tensor(x))
        tan = rng.normal(size=x.shape)
        _, jt = jvp(f, (nr.tensor(x),), (nr.tensor(tan),))
        np.testing.assert_allclose(float(jt), np.sum(backward(f(v))[v].numpy() * tan), rtol=1e-12, atol=1e-14)


CE_CASES = [
    dict(),
    dict(weight=True),
    dict(ignore_index=2),
    dict(weight=True, ignore_index=1, label_smoothing=0.2),
    dict(label_smoothing=0.1),
]


@pytest.mark.parametrize("case", range(len(CE_CASES)))
@pytest.mark.parametrize("shape", [(5, 4), (2, 4, 3, 2), (4,)])
def test_cross_entropy_class_indices(case, shape):
    rng = np.random.default_rng(case)
    kw = dict(CE_CASES[case])
    C = shape[1] if len(shape) > 1 else shape[0]
    x = rng.normal(size=shape) * 3
    tshape = (shape[0],) + shape[2:] if len(shape) > 1 else ()
    t = rng.integers(0, C, tshape)
    if "ignore_index" in kw and t.ndim:
        t.flat[0] = kw["ignore_index"]
    if kw.get("weight"):
        kw["weight"] = rng.uniform(0.5, 2, C)
    for reduction in REDUCTIONS:
        want = np_cross_entropy(x, t, reduction=reduction, **kw)
        nkw = tkw(kw)
        got = nr.cross_entropy(nr.tensor(x), nr.tensor(t), reduction=reduction, **nkw)
        assert_close(got, want, dtype="float64", rtol=1e-12, atol=1e-12)
        if not kw.get("label_smoothing"):
            lp = np_logp(x, 1 if x.ndim > 1 else 0)
            assert_close(nr.nll_loss(nr.tensor(lp), nr.tensor(t), reduction=reduction, **nkw), want,
                         rtol=1e-12, atol=1e-12)


def test_cross_entropy_on_device(device):
    """Weights, ignore_index and smoothing on an N-d, non-contiguous (transposed), sliced input."""
    rng = np.random.default_rng(3)
    base = rng.normal(size=(3, 2, 4, 5))  # -> x = base.transpose(0, 2, 1, 3)[..., 1:]: (3, 4, 2, 4)
    x = base.transpose(0, 2, 1, 3)[..., 1:]
    t = rng.integers(0, 4, (3, 2, 4))
    t[0, 0, 0] = -1
    w = rng.uniform(0.5, 2, 4)
    xt = nr.tensor(base, device=device).permute(0, 2, 1, 3)[..., 1:]
    assert not xt.is_contiguous()
    got = nr.cross_entropy(xt, nr.tensor(t, device=device), weight=nr.tensor(w, device=device), ignore_index=-1,
                           label_smoothing=0.15)
    assert_close(got, np_cross_entropy(x, t, w, -1, "mean", 0.15), dtype="float64", rtol=1e-12, atol=1e-12)
    v = Var(nr.tensor(x, device=device))
    g = backward(nr.cross_entropy(v, nr.tensor(t, device=device), ignore_index=-1))[v]
    vc = Var(nr.tensor(x))
    assert_close(g, backward(nr.cross_entropy(vc, nr.tensor(t), ignore_index=-1))[vc].numpy(), rtol=1e-12,
                 atol=1e-12)


@pytest.mark.parametrize("kw", [dict(), dict(weight=True, label_smoothing=0.3)])
def test_cross_entropy_probabilities(kw):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(3, 4, 2))
    p = rng.uniform(size=(3, 4, 2))
    p /= p.sum(1, keepdims=True)
    kw = dict(kw)
    if kw.get("weight"):
        kw["weight"] = rng.uniform(0.5, 2, 4)
    nkw = tkw(kw)
    for reduction in REDUCTIONS:
        got = nr.cross_entropy(nr.tensor(x), nr.tensor(p), reduction=reduction, **nkw)
        assert_close(got, np_cross_entropy_probs(x, p, reduction=reduction, **kw), dtype="float64",
                     rtol=1e-12, atol=1e-12)
    assert gradcheck(lambda a: nr.cross_entropy(a, nr.tensor(p), **nkw), [nr.tensor(x)])


def test_empty_batch_and_all_ignored():
    x = nr.zeros((0, 3))
    t = nr.zeros((0,), dtype=nr.int64)
    assert np.isnan(float(nr.cross_entropy(x, t)))
    assert float(nr.cross_entropy(x, t, reduction="sum")) == 0.0
    none = nr.cross_entropy(x, t, reduction="none")
    assert none.shape == (0,) and none.dtype == nr.float64
    assert np.isnan(float(nr.mse_loss(x, x)))
    assert np.isnan(float(nr.cross_entropy(nr.ones((2, 3)), nr.tensor([-100, -100]))))  # 0 / 0, as torch
    assert np.isnan(float(nr.cross_entropy(x, nr.zeros((0, 3)))))  # probabilities
    nan = nr.tensor([1.0, np.nan, 2.0])
    assert_close(nr.mse_loss(nan, nr.zeros(3), reduction="none"), [1.0, np.nan, 4.0])
    assert np.isnan(float(nr.huber_loss(nan, nr.zeros(3))))
    assert np.isnan(float(nr.cross_entropy(nr.tensor([[0.0, np.nan]]), nr.tensor([0]))))


def test_extreme_logits_are_stable():
    x = np.array([[1e4, -1e4, 0.0], [-1e4, 1e4, -np.inf], [0.0, 0.0, 0.0]])
    t = np.array([0, 0, 2])
    got = nr.cross_entropy(nr.tensor(x), nr.tensor(t), reduction="none")
    assert_close(got, [0.0, 2e4, np.log(3.0)], rtol=1e-12, atol=1e-12)
    v = Var(nr.tensor(x))
    g = backward(nr.cross_entropy(v, nr.tensor(t)))[v].numpy()
    assert np.all(np.isfinite(g))
    z = np.array([1e4, -1e4, 50.0, -50.0])
    y = np.array([0.0, 1.0, 1.0, 0.0])
    bce = nr.binary_cross_entropy_with_logits(nr.tensor(z), nr.tensor(y), reduction="none")
    assert_close(bce, [1e4, 1e4, np.log1p(np.exp(-50.0)), np.log1p(np.exp(-50.0))], rtol=1e-12, atol=1e-300)
    assert_close(nr.soft_margin_loss(nr.tensor(z), nr.tensor(2 * y - 1), reduction="none"),
                 [1e4, 1e4, np.log1p(np.exp(-50.0)), np.log1p(np.exp(-50.0))], rtol=1e-12, atol=1e-300)
    # probabilities of exactly 0 and 1: each log clamped at -100, as torch
    assert_close(nr.binary_cross_entropy(nr.tensor([0.0, 1.0, 0.0]), nr.tensor([1.0, 0.0, 0.0]), reduction="none"),
                 [100.0, 100.0, 0.0], rtol=1e-12, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_low_precision_dtypes(dtype):
    rng = np.random.default_rng(5)
    x, t = rng.normal(size=(4, 6)), rng.integers(0, 6, 4)
    xl = nr.tensor(x, dtype=dtype)
    xr = xl.numpy().astype(np.float64)  # the rounded input is the oracle's
    got = nr.cross_entropy(xl, nr.tensor(t))
    assert_close(got, np_cross_entropy(xr, t), dtype=dtype)
    y = rng.normal(size=(4, 6))
    yr = nr.tensor(y, dtype=dtype)
    assert_close(nr.mse_loss(xl, yr), np.mean((xr - yr.numpy().astype(np.float64)) ** 2), dtype=dtype)
    # integer inputs compute in the default float
    assert_close(nr.l1_loss(nr.tensor([1, 2, 3]), nr.tensor([3, 2, 0])), 5 / 3, dtype="float64")


def test_kl_div_log_target_and_batchmean():
    rng = np.random.default_rng(6)
    lp, lq = np_logp(rng.normal(size=(3, 5)), 1), np_logp(rng.normal(size=(3, 5)), 1)
    got = nr.kl_div(nr.tensor(lp), nr.tensor(lq), reduction="batchmean", log_target=True)
    assert_close(got, np.sum(np.exp(lq) * (lq - lp)) / 3, rtol=1e-12, atol=1e-12)
    q = np.exp(lq)
    q[0, 0] = 0.0  # 0 log 0 = 0
    assert_close(nr.kl_div(nr.tensor(lp), nr.tensor(q), reduction="sum"),
                 np.sum(np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - lp), 0)), rtol=1e-12, atol=1e-12)


def test_special_rel_entr_and_kl_div(device):
    x = np.array([0.0, 0.0, 1.0, 2.0, -1.0, 1.0, np.nan, 0.5])
    y = np.array([0.0, 1.0, 2.0, 0.0, 1.0, -1.0, 1.0, 3.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.where((x > 0) & (y > 0), x * np.log(x / y), np.where((x == 0) & (y >= 0), 0.0, np.inf))
    want[6] = np.nan
    got = nr.special.rel_entr(nr.tensor(x, device=device), nr.tensor(y, device=device))
    assert_close(got, want, dtype="float64", rtol=1e-12, atol=0)
    assert_close(nr.special.kl_div(nr.tensor(x, device=device), nr.tensor(y, device=device)), want - x + y,
                 rtol=1e-12, atol=1e-15)


def test_gaussian_nll_var_shapes_and_clamp():
    rng = np.random.default_rng(7)
    x, t = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    v = rng.uniform(0.5, 1, 3)
    want = 0.5 * (np.log(v[:, None]) + (x - t) ** 2 / v[:, None]) + 0.5 * np.log(2 * np.pi)
    for vt in (nr.tensor(v), nr.tensor(v[:, None])):  # one dim fewer, and a last dim of 1
        assert_close(nr.gaussian_nll_loss(nr.tensor(x), nr.tensor(t), vt, full=True, reduction="none"), want,
                     rtol=1e-12, atol=1e-12)
    small = nr.gaussian_nll_loss(nr.tensor(x), nr.tensor(t), nr.zeros((3, 4)), eps=1e-3, reduction="sum")
    assert_close(small, np.sum(0.5 * (np.log(1e-3) + (x - t) ** 2 / 1e-3)), rtol=1e-12, atol=1e-9)
    vv = Var(nr.zeros((3, 4)))  # the clamp passes the gradient through, as torch's
    g = backward(nr.gaussian_nll_loss(nr.tensor(x), nr.tensor(t), vv, eps=1e-3, reduction="sum"))[vv]
    assert_close(g, 0.5 * (1 / 1e-3 - (x - t) ** 2 / 1e-6), rtol=1e-10, atol=1e-6)


def test_errors():
    x = nr.randn((3, 4), seed=0)
    with pytest.raises(nr.IndexOutOfRange, match=r"cross_entropy.*\[0, 4\)"):
        nr.cross_entropy(x, nr.tensor([0, 4, 1]))
    with pytest.raises(nr.IndexOutOfRange, match="nll_loss"):
        nr.nll_loss(x, nr.tensor([0, -2, 1]))
    with pytest.raises(nr.ShapeError, match=r"cross_entropy.*\(3,\)"):
        nr.cross_entropy(x, nr.tensor([0, 1]))
    with pytest.raises(nr.ShapeError, match="probability target"):
        nr.cross_entropy(x, nr.zeros((3, 5)))
    with pytest.raises(nr.ShapeError, match="weight"):
        nr.cross_entropy(x, nr.tensor([0, 1, 2]), weight=nr.ones((3,)))
    with pytest.raises(nr.DTypeError, match="nll_loss.*integer"):
        nr.nll_loss(x, nr.zeros((3,)))
    with pytest.raises(nr.DomainError, match="reduction"):
        nr.mse_loss(x, x, reduction="avg")
    with pytest.raises(nr.DomainError, match="label_smoothing"):
        nr.cross_entropy(x, nr.tensor([0, 1, 2]), label_smoothing=1.5)
    with pytest.raises(nr.ShapeError, match="mse_loss.*do not broadcast"):
        nr.mse_loss(x, nr.zeros((2, 4)))
    with pytest.raises(nr.ShapeError, match="binary_cross_entropy"):
        nr.binary_cross_entropy(nr.full((3,), 0.5), nr.zeros((3, 1)))
    with pytest.raises(nr.DomainError, match=r"binary_cross_entropy.*\[0, 1\]"):
        nr.binary_cross_entropy(nr.tensor([0.5, 1.5]), nr.zeros((2,)))
    with pytest.raises(nr.DomainError, match="negative"):
        nr.gaussian_nll_loss(x, x, -nr.ones((3, 4)))
    with pytest.raises(nr.ShapeError, match="var"):
        nr.gaussian_nll_loss(x, x, nr.ones((3, 2)))
    with pytest.raises(nr.ShapeError, match="cosine_embedding_loss"):
        nr.cosine_embedding_loss(x, x, nr.ones((4,)))
    with pytest.raises(nr.DTypeError, match="complex"):
        nr.mse_loss(nr.tensor([1 + 1j]), nr.tensor([1.0]))


def test_against_torch():
    """A secondary check against torch itself (the NumPy references above carry the tests)."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(8)
    x, t = rng.normal(size=(4, 5, 3)), rng.integers(0, 5, (4, 3))
    t[1, 1] = -100
    w = rng.uniform(0.5, 2, 5)
    for kw in (dict(), dict(label_smoothing=0.2)):
        for reduction in REDUCTIONS:
            want = F.cross_entropy(torch.tensor(x), torch.tensor(t), weight=torch.tensor(w), reduction=reduction, **kw)
            got = nr.cross_entropy(nr.tensor(x), nr.tensor(t), weight=nr.tensor(w), reduction=reduction, **kw)
            assert_close(got, want.numpy(), rtol=1e-12, atol=1e-12)
    for name, (ins, kw, _) in _sets(rng).items():
        kw = dict(kw, reduction="sum")  # (torch warns about kl_div's 'mean')
        want = getattr(F, name)(*[torch.tensor(a) for a in ins], **{k: torch.tensor(v) if isinstance(v, np.ndarray)
                                                                     else v for k, v in kw.items()})
        got = getattr(nr, name)(*[nr.tensor(a) for a in ins], **tkw(kw))
        assert_close(got, want.numpy(), rtol=1e-10, atol=1e-12)
