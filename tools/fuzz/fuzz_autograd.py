"""Randomized autograd check: random compositions of differentiable ops vs finite differences.

Each case draws a program of 2-5 random steps (unary math with safe domains, binary ops with
broadcasting against extra inputs or constants, reductions over random dims with keepdim,
views and gathers, cat/stack, matmul, activations, softmax/log_softmax, gated forms, where,
clamp) on float64 inputs. On every backend it checks, against central finite differences
computed on the CPU:
  - reverse mode: grad of sum(out * W) for every input;
  - second order: reverse over reverse (backward_with_graph, then backward of <grad, V>)
    against the finite difference of the gradient along V;
  - forward mode: jvp(prog, xs, ts) against the finite difference of the output along ts;
and that the forward value matches the CPU's.

    PYTHONPATH=. python tools/fuzz/fuzz_autograd.py --seed 0 --cases 100 --devices cpu,wgpu
"""

# ruff: noqa: B023, B905  (closures run at once in their loop iteration; zips of equal lengths)

from __future__ import annotations

import sys

import numpy as np
from _common import Report, devices, nr, parse_args, to_numpy

from numr.autograd import Var, backward, backward_with_graph, backward_with_hooks, checkpoint, jvp  # noqa: E402


def _pos(v):
    return v * v + 0.5


UNARY = {
    "neg": lambda v: -v, "abs": nr.abs, "exp": nr.exp, "expm1": nr.expm1, "exp2": nr.exp2,
    "log": lambda v: nr.log(_pos(v)), "log2": lambda v: nr.log2(_pos(v)), "log10": lambda v: nr.log10(_pos(v)),
    "log1p": lambda v: nr.log1p(v * v), "sqrt": lambda v: nr.sqrt(v * v + 0.25),
    "rsqrt": lambda v: nr.rsqrt(v * v + 0.25), "square": nr.square, "cbrt": lambda v: nr.cbrt(v * v + 1.0),
    "reciprocal": lambda v: nr.reciprocal(_pos(v)), "sin": nr.sin, "cos": nr.cos,
    "tan": lambda v: nr.tan(nr.tanh(v)), "asin": lambda v: nr.asin(nr.tanh(v) * 0.9),
    "acos": lambda v: nr.acos(nr.tanh(v) * 0.9), "atan": nr.atan, "sinh": nr.sinh, "cosh": nr.cosh,
    "tanh": nr.tanh, "asinh": nr.asinh, "acosh": lambda v: nr.acosh(v * v + 1.5),
    "atanh": lambda v: nr.atanh(nr.tanh(v) * 0.9), "relu": nr.relu, "leaky_relu": lambda v: nr.leaky_relu(v, 0.1),
    "elu": lambda v: nr.elu(v, 1.3), "sigmoid": nr.sigmoid, "silu": nr.silu, "gelu": nr.gelu,
    "gelu_tanh": lambda v: nr.gelu(v, approximate="tanh"), "softplus": nr.softplus,
    "pow_scalar": lambda v: _pos(v) ** 1.7, "rpow": lambda v: 1.5 ** v, "arith": lambda v: 3.0 / _pos(v) - v * 2.5,
    "rsub": lambda v: 2.0 - v / 3.0, "clamp_s": lambda v: nr.clamp(v, -0.5, 0.7), "clamp_lo": lambda v: v.clip(min=0.2),
    "floor_plus": lambda v: v + nr.floor(v), "square_pow2": lambda v: v ** 2, "pow_int": lambda v: v ** 3,
}

BINARY = {
    "add": lambda v, o: v + o, "sub": lambda v, o: o - v, "mul": lambda v, o: v * o,
    "div": lambda v, o: v / _pos(o), "maximum": nr.maximum, "minimum": nr.minimum, "atan2": nr.atan2,
    "hypot": nr.hypot, "pow": lambda v, o: nr.pow(_pos(v), o), "fma": lambda v, o: nr.fma(v, o, v),
    "where": lambda v, o: nr.where(v > o, v, o * 2.0), "where_s": lambda v, o: nr.where(o > 0, v, 0.5),
    "clamp_t": lambda v, o: nr.clamp(v, o - 0.5, o + 0.5), "silu_mul": nr.silu_mul, "relu_mul": nr.relu_mul,
    "gelu_mul": nr.gelu_mul, "gelu_mul_tanh": lambda v, o: nr.gelu_mul(v, o, approximate="tanh"),
    "sigmoid_mul": nr.sigmoid_mul,
}


class Gen:
    """Draws a program; keeps the extra inputs (differentiable) and constants it needs."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs: list[np.ndarray] = []
        self.consts: list[np.ndarray] = []

    def new_input(self, shape):
        self.inputs.append(self.rng.uniform(-1.5, 1.5, size=shape))
        return len(self.inputs) - 1

    def new_const(self, a):
        self.consts.append(np.asarray(a))
        return len(self.consts) - 1

    def other(self, shape):
        """An operand broadcastable with ``shape``: (desc, fn(xs, cs))."""
        rng = self.rng
        k = int(rng.integers(0, len(shape) + 1))
        s = [1 if rng.random() < 0.3 else n for n in shape[k:]]
        if rng.random() < 0.15:
            s = [int(rng.integers(1, 3))] + list(shape)  # the operand is larger: v broadcasts
        s = tuple(s)
        if rng.random() < 0.6 and len(self.inputs) < 3:
            i = self.new_input(s)
            return f"x{i}{s}", (lambda xs, cs: xs[i])
        if rng.random() < 0.3:
            c = float(np.round(rng.uniform(-1, 1), 2))
            return f"{c}", (lambda xs, cs: c)
        j = self.new_const(rng.uniform(-1.5, 1.5, size=s))
        return f"c{j}{s}", (lambda xs, cs: cs[j])

    def step(self, shape):
        """One random step applicable to a value of ``shape``: (desc, fn(v, xs, cs))."""
        rng = self.rng
        nd = len(shape)
        kinds = ["unary"] * 4 + ["binary"] * 3 + ["view"] * 3 + ["reduce"] * 2
        if nd >= 1:
            kinds += ["softmax", "matmul", "cat", "index", "cum", "zeros", "dropout"]
        if DT["dtype"] != "float64":
            kinds += ["cast"]
        kind = str(rng.choice(kinds))
        if kind == "zeros":  # exact zeros for prod/cumprod's zero-aware gradients
            m = (rng.random(shape) < 0.7).astype(np.float64)
            j = self.new_const(m)
            return f"v * mask{m.astype(int).tolist()}", lambda v, xs, cs: v * cs[j]
        if kind == "cast":  # float32 -> float64 in the graph: the gradient comes back as float32
            return "astype(float64)", lambda v, xs, cs: v.astype(nr.float64)
        if kind == "dropout":  # the same mask forward and backward (a fixed seed)
            p, sd = float(rng.choice([0.2, 0.5])), int(rng.integers(0, 1000))
            return f"dropout(p={p}, seed={sd})", lambda v, xs, cs: nr.dropout(v, p=p, seed=sd)
        if kind == "unary":
            name = str(rng.choice(list(UNARY)))
            f = UNARY[name]
            return name, lambda v, xs, cs: f(v)
        if kind == "binary":
            name = str(rng.choice(list(BINARY)))
            od, of = self.other(shape)
            f = BINARY[name]
            if rng.random() < 0.3:
                return f"{name}({od}, v)", lambda v, xs, cs: f(of(xs, cs), v) if not isinstance(of(xs, cs), float) \
                    else f(v, of(xs, cs))
            return f"{name}(v, {od})", lambda v, xs, cs: f(v, of(xs, cs))
        if kind == "softmax":
            d = int(rng.integers(-nd, nd))
            f = nr.softmax if rng.random() < 0.5 else nr.log_softmax
            return f"{f.__name__}(dim={d})", lambda v, xs, cs: f(v, dim=d)
        if kind == "reduce":
            name = str(rng.choice(["sum", "mean", "prod", "max", "min", "amax", "amin", "var", "std"]))
            if nd == 0 or rng.random() < 0.2:
                dim = None
            elif rng.random() < 0.5:
                dim = int(rng.integers(-nd, nd))
            else:
                dim = tuple(int(d) for d in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False))
            kd = bool(rng.random() < 0.5)
            if name in ("var", "std"):
                c = int(rng.choice([0, 1]))
                return f"{name}(dim={dim}, correction={c}, keepdim={kd})", \
                    lambda v, xs, cs: getattr(nr, name)(v, dim=dim, correction=c, keepdim=kd)
            return f"{name}(dim={dim}, keepdim={kd})", lambda v, xs, cs: getattr(nr, name)(v, dim=dim, keepdim=kd)
        if kind == "cum":
            d = int(rng.integers(-nd, nd))
            name = str(rng.choice(["cumsum", "cumprod"]))
            return f"{name}(dim={d})", lambda v, xs, cs: getattr(nr, name)(v, dim=d)
        if kind == "matmul":
            k = int(rng.integers(1, 4))
            r = rng.random()
            if nd >= 2 and r < 0.15:  # batch dims broadcast on both sides: the gradient sums them back
                ws = (int(rng.integers(1, 3)),) * (1 + int(rng.integers(0, 2))) + (shape[-1], k)
                od = self._input_or_const(ws)
                return f"v @ {od[0]} (batched)", lambda v, xs, cs: v @ od[1](xs, cs)
            if r < 0.4:
                ws = (shape[-1], k) if rng.random() < 0.8 else (shape[-1],)
                od = self._input_or_const(ws)
                return f"v @ {od[0]}", lambda v, xs, cs: v @ od[1](xs, cs)
            if r < 0.7:
                ws = (k, shape[-2] if nd >= 2 else shape[0])
                od = self._input_or_const(ws)
                return f"{od[0]} @ v", lambda v, xs, cs: od[1](xs, cs) @ v
            ws = (shape[-1], k)
            od = self._input_or_const(ws)
            bd = self._input_or_const((k,))
            return f"matmul_bias(v, {od[0]}, {bd[0]})", \
                lambda v, xs, cs: nr.matmul_bias(v, od[1](xs, cs), bd[1](xs, cs))
        if kind == "cat":
            d = int(rng.integers(-nd, nd))
            r = rng.random()
            if r < 0.4:
                fd = int(rng.integers(0, nd))
                return f"cat([v, v.flip({fd})], {d})", lambda v, xs, cs: nr.cat([v, v.flip(fd)], dim=d)
            if r < 0.7:
                s = list(shape)
                s[d] = int(rng.integers(0, 3))
                od = self._input_or_const(tuple(s))
                return f"cat([{od[0]}, v], {d})", lambda v, xs, cs: nr.cat([od[1](xs, cs), v], dim=d)
            sd = int(rng.integers(-nd - 1, nd + 1))
            od = self._input_or_const(tuple(shape))
            return f"stack([v, {od[0]}, v], {sd})", lambda v, xs, cs: nr.stack([v, od[1](xs, cs), v], dim=sd)
        if kind == "index":
            d = int(rng.integers(0, nd))
            n = shape[d]
            if n == 0:
                return self.step(shape)
            idx = [int(i) for i in rng.integers(-n, n, size=int(rng.integers(1, 5)))]
            r = rng.random()
            if r < 0.35:
                ii = [i % n for i in idx]
                return f"index_select({d}, {ii})", \
                    lambda v, xs, cs: nr.index_select(v, d, nr.tensor(ii, dtype="int64", device=v.device))
            if r < 0.7:
                key = (slice(None),) * d + (idx,)
                return f"v[{':, ' * d}{idx}]", lambda v, xs, cs: v[key]
            m = rng.random(shape) < 0.6
            return f"v[mask{m.astype(int).tolist()}]", lambda v, xs, cs: v[nr.tensor(m, device=v.device)]
        # views
        r = rng.random()
        if nd >= 2 and r < 0.2:
            p = tuple(int(i) for i in rng.permutation(nd))
            return f"permute{p}", lambda v, xs, cs: v.permute(*p)
        if nd >= 2 and r < 0.3:
            return ".mT", lambda v, xs, cs: v.mT
        if nd >= 1 and r < 0.5:
            sl = []
            for n in shape:
                st = int(rng.choice([1, 2, -1, -2]))
                a = int(rng.integers(-n, n)) if n and rng.random() < 0.4 else None
                sl.append(slice(a, None, st))
            sl = tuple(sl)
            return f"v[{sl}]", lambda v, xs, cs: v[sl]
        if nd >= 1 and r < 0.6:
            d = int(rng.integers(0, nd))
            return f"flip({d})", lambda v, xs, cs: v.flip(d)
        if r < 0.7:
            ns = tuple(int(rng.integers(1, 3)) if n == 1 else n for n in shape)
            ns = ((2,) if rng.random() < 0.5 else ()) + ns
            return f"expand{ns}", lambda v, xs, cs: v.expand(*ns)
        if r < 0.8:
            d = int(rng.integers(-nd - 1, nd + 1))
            return f"unsqueeze({d})", lambda v, xs, cs: v.unsqueeze(d)
        if r < 0.85 and 1 in shape:
            return "squeeze()", lambda v, xs, cs: v.squeeze()
        size = int(np.prod(shape))
        cands = [(size,), (-1,)]
        for f in (2, 3):
            if size and size % f == 0:
                cands.append((f, size // f))
        ns = cands[int(rng.integers(0, len(cands)))]
        return f"reshape{ns}", lambda v, xs, cs: v.reshape(ns)

    def _input_or_const(self, shape):
        if self.rng.random() < 0.6 and len(self.inputs) < 3:
            i = self.new_input(shape)
            return f"x{i}{shape}", (lambda xs, cs: xs[i])
        j = self.new_const(self.rng.uniform(-1.5, 1.5, size=shape))
        return f"c{j}{shape}", (lambda xs, cs: cs[j])


def draw_program(rng, max_tries: int = 30):
    """(descs, steps, inputs, consts, out_shape); values kept finite and moderate."""
    g = Gen(rng)
    nd = int(rng.integers(0, 4))
    shape = tuple(0 if rng.random() < 0.04 else int(rng.integers(1, 4)) for _ in range(nd))
    g.new_input(shape)
    descs, steps = [], []
    depth = int(rng.integers(2, 6))
    tries = 0
    while len(steps) < depth and tries < max_tries:
        tries += 1
        n_in, n_c = len(g.inputs), len(g.consts)
        desc, f = g.step(shape)
        try:
            xs = [nr.tensor(a) for a in g.inputs]
            cs = [nr.tensor(a) for a in g.consts]
            v = xs[0]
            for s in steps + [f]:
                v = s(v, xs, cs)
            val = to_numpy(v)
            ok = v.size <= 60 and np.all(np.isfinite(val)) and (val.size == 0 or np.abs(val).max() < 1e3)
            if desc.startswith("std") and val.size and np.abs(val).min() < 1e-3:
                ok = False  # sqrt at 0: the gradient is NaN (as PyTorch's)
        except nr.errors.NumrError:
            ok = False
        if not ok:
            del g.inputs[n_in:]
            del g.consts[n_c:]
            continue
        descs.append(desc)
        steps.append(f)
        shape = tuple(v.shape)
    return descs, steps, g.inputs, g.consts, shape


def run(steps, xs, cs):
    v = xs[0]
    for s in steps:
        v = s(v, xs, cs)
    return v


def _np(t):
    return to_numpy(t.tensor if isinstance(t, Var) else t)


def fd_grad(steps, inputs, consts, w, eps=1e-6):
    """Central differences of sum(prog(x) * w) w.r.t. every input, on the CPU."""
    cs = [nr.tensor(c) for c in consts]
    out = []
    for i, a in enumerate(inputs):
        g = np.zeros_like(a)
        for j in range(a.size):
            vals = []
            for sgn in (1, -1):
                b = a.copy().reshape(-1)
                b[j] += sgn * eps
                xs = [nr.tensor(x) for x in inputs]
                xs[i] = nr.tensor(b.reshape(a.shape))
                vals.append(float(np.sum(to_numpy(run(steps, xs, cs)) * w)))
            g.reshape(-1)[j] = (vals[0] - vals[1]) / (2 * eps)
        out.append(g)
    return out


#: the dtype the checked runs use (--dtype); references are float64 on the CPU
DT = {"dtype": "float64", "tol": 1.0}


def T(a, dev, dtype=None):
    """``a`` on ``dev``, in a random memory layout (transposed, flipped, stepped, offset):
    values and gradients must not depend on it. The layouts repeat per check (LAYOUT.reset)."""
    a = np.asarray(a)
    d = dtype or DT["dtype"]
    r = LAYOUT["rng"].random() if LAYOUT["rng"] is not None else 1.0
    if a.ndim >= 2 and r < 0.2:
        return nr.tensor(np.ascontiguousarray(np.swapaxes(a, 0, -1)), dtype=d, device=dev).transpose(0, -1)
    if a.ndim >= 1 and r < 0.35:
        return nr.tensor(np.ascontiguousarray(np.flip(a, 0)), dtype=d, device=dev).flip(0)
    if a.ndim >= 1 and r < 0.5:
        return nr.tensor(np.repeat(a, 2, axis=-1), dtype=d, device=dev)[..., ::2]
    if r < 0.6:
        return nr.tensor(np.concatenate([np.zeros(3), a.reshape(-1)]), dtype=d, device=dev)[3:].reshape(a.shape)
    return nr.tensor(a, dtype=d, device=dev)


LAYOUT = {"rng": None}


def layout_reset(seed):
    LAYOUT["rng"] = None if seed is None else np.random.default_rng(seed)


def rev_grad(steps, inputs, consts, w, dev, dtype=None):
    xs = [Var(T(a, dev, dtype)) for a in inputs]
    cs = [T(c, dev, dtype) for c in consts]
    out = run(steps, xs, cs)
    loss = (out * T(w, dev, dtype)).sum()
    if not isinstance(loss, Var) or loss.grad_fn is None:
        return _np(out), [np.zeros_like(a, dtype=nr.dtype(DT["dtype"]).np) for a in inputs]
    gs = backward(loss)
    return _np(out), [(_np(gs[x]) if gs.get(x.id) is not None else np.zeros_like(a, dtype=x.dtype.np))
                      for x, a in zip(xs, inputs)]


def second_order(steps, inputs, consts, w, vs, dev):
    """Reverse over reverse: d/dx <grad(x), V>."""
    xs = [Var(T(a, dev)) for a in inputs]
    cs = [T(c, dev) for c in consts]
    out = run(steps, xs, cs)
    loss = (out * T(w, dev)).sum()
    if not isinstance(loss, Var) or loss.grad_fn is None:
        return [np.zeros_like(a) for a in inputs]
    gs = backward_with_graph(loss)
    s = None
    for x, v in zip(xs, vs):
        g = gs.get(x.id)
        if g is None:
            continue
        t = (g * T(v, dev)).sum()
        s = t if s is None else s + t
    if s is None or not isinstance(s, Var) or s.grad_fn is None:
        return [np.zeros_like(a) for a in inputs]
    hs = backward(s)
    return [(_np(hs[x]) if hs.get(x.id) is not None else np.zeros_like(a)) for x, a in zip(xs, inputs)]


def engine_check(steps, inputs, consts, w, vs, dev, split):
    """retain_intermediate=False, backward_with_hooks and checkpoint (steps[:split] re-run in
    the backward, first and second order) must give the plain backward's gradients."""
    def make():
        xs = [Var(T(a, dev)) for a in inputs]
        cs = [T(c, dev) for c in consts]
        return xs, cs

    def loss_of(out):
        return (out * T(w, dev)).sum()

    layout_reset(1)
    xs, cs = make()
    loss = loss_of(run(steps, xs, cs))
    if not isinstance(loss, Var) or loss.grad_fn is None:
        return None
    ref = [_np(backward(loss)[x]) if x.id in backward(loss) else None for x in xs]
    ref = [None if r is None else r for r in ref]
    layout_reset(1)
    xs, cs = make()
    g = backward(loss_of(run(steps, xs, cs)), retain_intermediate=False)
    for i, x in enumerate(xs):
        got = _np(g[x]) if x.id in g else None
        if (got is None) != (ref[i] is None) or (got is not None and not np.array_equal(got, ref[i])):
            return f"retain_intermediate=False: grad x{i} {got} vs {ref[i]}"

    class Hook:
        def __init__(self):
            self.calls = {}

        def on_leaf_grad_ready(self, id_, grad):
            self.calls.setdefault(id_, []).append(to_numpy(grad))
    layout_reset(1)
    xs, cs = make()
    h = Hook()
    g = backward_with_hooks(loss_of(run(steps, xs, cs)), h)
    for i, x in enumerate(xs):
        if ref[i] is None:
            continue
        calls = h.calls.get(x.id, [])
        if len(calls) != 1:
            return f"hook: leaf x{i} reported {len(calls)} times"
        if not close(calls[0], ref[i], 0.0) or not close(_np(g[x]), ref[i], 0.0):
            return f"hook: leaf x{i} grad {calls[0]} vs {ref[i]}"
    # checkpoint the first `split` steps
    layout_reset(1)
    xs, cs = make()

    def head(*ys):
        v = ys[0]
        for st in steps[:split]:
            v = st(v, list(ys), cs)
        return v
    v = checkpoint(head, *xs)
    for st in steps[split:]:
        v = st(v, xs, cs)
    lc = loss_of(v)
    g = backward(lc)
    for i, x in enumerate(xs):
        got = _np(g[x]) if x.id in g else None
        if ref[i] is not None and (got is None or not close(got, ref[i], float(np.abs(ref[i]).max(initial=0)))):
            return f"checkpoint({split}): grad x{i} {got} vs {ref[i]}"
    # second order through the checkpoint equals the plain one
    layout_reset(1)
    plain = second_order(steps, inputs, consts, w, vs, dev)
    layout_reset(1)
    xs, cs = make()
    v = checkpoint(head, *xs)
    for st in steps[split:]:
        v = st(v, xs, cs)
    gs = backward_with_graph(loss_of(v))
    s_ = None
    for x, vv in zip(xs, vs):
        gx = gs.get(x.id)
        if gx is not None:
            t = (gx * T(vv, dev)).sum()
            s_ = t if s_ is None else s_ + t
    if isinstance(s_, Var) and s_.grad_fn is not None:
        hs = backward(s_)
        for i, x in enumerate(xs):
            got = _np(hs[x]) if x.id in hs else np.zeros_like(plain[i])
            if not close(got, plain[i], float(np.abs(plain[i]).max(initial=0))):
                return f"checkpoint({split}) second order: x{i} {got} vs {plain[i]}"
    return None


def close(a, b, scale):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return False
    f = DT["tol"]
    return bool(np.all(np.abs(a - b) <= 1e-5 * f * np.abs(b) + 2e-6 * f * (1 + scale)))


def main() -> int:
    args = parse_args(__doc__, 100, dtype=True)
    DT["dtype"] = args.dtype
    # float16/bfloat16: a smoke test (dtypes, shapes, no crash; values within a few percent)
    DT["tol"] = {"float64": 1.0, "float32": 300.0, "float16": 5000.0, "bfloat16": 20000.0}[args.dtype]
    rng = np.random.default_rng(args.seed)
    devs = devices(args.devices)
    rep = Report("autograd " + ",".join(devs), args.verbose)
    modes = args.only.split(",") if args.only else ["rev", "hess", "fwd", "engine"]
    for case in range(args.cases):
        descs, steps, inputs, consts, oshape = draw_program(rng)
        if not steps:
            continue
        w = rng.uniform(-1, 1, size=oshape)
        vs = [rng.uniform(-1, 1, size=a.shape) for a in inputs]
        head = (f"case {case}: inputs {[a.shape for a in inputs]} consts {[c.shape for c in consts]}\n    prog: "
                + " -> ".join(descs))
        for d in descs:
            rep.count(d.split("(")[0].split("[")[0].split(" ")[0])
        try:
            ref_out = to_numpy(run(steps, [nr.tensor(a) for a in inputs], [nr.tensor(c) for c in consts]))
            fd = fd_grad(steps, inputs, consts, w)
            fd_scale = max([float(np.abs(g).max()) if g.size else 0.0 for g in fd] + [0.0])
            if "hess" in modes:
                eps = 1e-5
                gp = rev_grad(steps, [a + eps * v for a, v in zip(inputs, vs)], consts, w, "cpu", "float64")[1]
                gm = rev_grad(steps, [a - eps * v for a, v in zip(inputs, vs)], consts, w, "cpu", "float64")[1]
                fd_h = [(p - m) / (2 * eps) for p, m in zip(gp, gm)]
                h_scale = max([float(np.abs(g).max()) if g.size else 0.0 for g in fd_h] + [0.0])
            if "fwd" in modes:
                eps = 1e-6
                cs0 = [nr.tensor(c) for c in consts]
                op_ = to_numpy(run(steps, [nr.tensor(a + eps * v) for a, v in zip(inputs, vs)], cs0))
                om = to_numpy(run(steps, [nr.tensor(a - eps * v) for a, v in zip(inputs, vs)], cs0))
                fd_t = (op_ - om) / (2 * eps)
                t_scale = float(np.abs(fd_t).max()) if fd_t.size else 0.0
        except Exception as e:
            import traceback
            rep.fail("cpu:reference", f"{head}\n    reference raised {type(e).__name__}: {e}\n"
                     + traceback.format_exc(limit=-3))
            continue
        for dev in devs:
            text = f"[{dev}] {head}"
            if "rev" in modes:
                def chk_rev(dev=dev):
                    layout_reset(case)
                    out, gs = rev_grad(steps, inputs, consts, w, dev)
                    if not close(out, ref_out, float(np.abs(ref_out).max()) if ref_out.size else 0):
                        return f"forward value differs from cpu: {out.tolist()} vs {ref_out.tolist()}"
                    for i, (g, f) in enumerate(zip(gs, fd)):
                        if g.dtype != nr.dtype(DT["dtype"]).np or g.shape != f.shape:
                            return f"grad x{i}: dtype/shape {g.dtype} {g.shape}, want {DT['dtype']} {f.shape}"
                        if not close(g, f, fd_scale):
                            return f"grad x{i}: got {g.tolist()}\n    fd  {f.tolist()}"
                    return None
                rep.run(f"{dev}:rev", text, chk_rev)
            if "hess" in modes:
                def chk_hess(dev=dev):
                    layout_reset(case)
                    hs = second_order(steps, inputs, consts, w, vs, dev)
                    for i, (h, f) in enumerate(zip(hs, fd_h)):
                        k = DT["tol"]
                        if not np.all(np.abs(h - f) <= 1e-4 * k * np.abs(f) + 1e-4 * k * (1 + h_scale)):
                            return f"H.V x{i}: got {h.tolist()}\n    fd  {f.tolist()}"
                    return None
                rep.run(f"{dev}:hess", text, chk_hess)
            if "engine" in modes:
                split = int(rng.integers(1, len(steps) + 1))
                rep.run(f"{dev}:engine", text + f"\n    checkpoint split {split}",
                        lambda dev=dev, split=split: engine_check(steps, inputs, consts, w, vs, dev, split))
            if "fwd" in modes:
                def chk_fwd(dev=dev):
                    layout_reset(case)
                    out, tan = jvp(lambda *xs: run(steps, list(xs), [T(c, dev) for c in consts]),
                                   tuple(T(a, dev) for a in inputs), tuple(T(v, dev) for v in vs))
                    t = to_numpy(tan)
                    if not close(t, fd_t, t_scale):
                        return f"jvp: got {t.tolist()}\n    fd  {fd_t.tolist()}"
                    if not close(to_numpy(out), ref_out, float(np.abs(ref_out).max()) if ref_out.size else 0):
                        return "jvp primal differs"
                    return None
                rep.run(f"{dev}:fwd", text, chk_fwd)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
