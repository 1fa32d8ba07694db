"""Random distributions written once with numr's public functions over the Philox draws of
``rand``/``randn``/``randint``, so every backend gives the same numbers for a seed.

A call takes ONE stream ``s`` of the generator (``seed=`` gives stream 0 of that seed, else the
next global stream, as ``nr.rand``); its j-th underlying draw is the client's rand/randn/randint
with stream ``s + j * 2**40`` (docs/architecture.md, "Random numbers"). Parameters are Python
numbers or tensors that broadcast with ``size`` (NumPy's Generator); a tensor parameter that is
an autograd Var flows through the arithmetic, so normal/lognormal/uniform/exponential/laplace/
cauchy/gumbel are reparameterised (differentiable in their parameters); the others use the
parameters' values (no gradient).
"""

from __future__ import annotations

import math
from typing import Any

from ... import dtypes as dt
from ...errors import DomainError, DTypeError
from ...random import MASK64, next_stream
from ...runtime import device as parse_device
from ...shapes import broadcast_shapes, normalize_shape
from ..prepare import plain  # noqa: F401  (the distributions modules import it from here)

SUB = 1 << 40  # stream offset between the draws of one call


def is_tensor(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and hasattr(x, "device")


class Draws:
    """The Philox draws of one distribution call: sub-streams s, s + 2**40, ... of one stream."""

    def __init__(self, seed: int | None, dev: Any):
        self.seed, self.stream = next_stream(seed)
        self.client, self.j = dev.client, 0

    def fork(self, k: int) -> Draws:
        """Independent draws for part k (1..255) of a compound distribution: stream s + k * 2**56."""
        out = Draws.__new__(Draws)
        out.seed, out.stream, out.client, out.j = self.seed, (self.stream + k * (1 << 56)) & MASK64, self.client, 0
        return out

    def skip(self) -> None:
        """Pass over one draw, so the draws after it keep their sub-streams."""
        self.j += 1

    def _next(self) -> int:
        st = (self.stream + self.j * SUB) & MASK64
        self.j += 1
        return st

    def rand(self, shape: tuple[int, ...], dtype: dt.DType) -> Any:
        return self.client.rand(tuple(shape), dtype, self.seed, self._next())

    def rand_open(self, shape: tuple[int, ...], dtype: dt.DType) -> Any:
        """Uniform on (0, 1): rand's 0 (probability 2**-24 or 2**-53) becomes half its step."""
        import numr as nr
        return nr.maximum(self.rand(shape, dtype), 2.0 ** (-54 if dtype == dt.float64 else -25))

    def randn(self, shape: tuple[int, ...], dtype: dt.DType) -> Any:
        return self.client.randn(tuple(shape), dtype, self.seed, self._next())

    def randint(self, low: int, high: int, shape: tuple[int, ...], dtype: dt.DType) -> Any:
        return self.client.randint(low, high, tuple(shape), dtype, self.seed, self._next())


MAX_ROUNDS = 1000  # a safety net for the rejection loops: each round accepts most elements


def flat_param(p: Any, shape: tuple[int, ...]) -> Any:
    """A tensor parameter broadcast to ``shape`` and flattened (contiguous); numbers stay numbers."""
    return p.broadcast_to(shape).reshape(-1).contiguous() if is_tensor(p) else p


def take(p: Any, idx: Any) -> Any:
    """p at the flat positions idx (all of p when idx is None; numbers stay numbers)."""
    import numr as nr
    return p if idx is None or not is_tensor(p) else nr.index_select(p, 0, idx)


def rejection(op: str, shape: tuple[int, ...], wd: dt.DType, dr: Draws, kinds: str, step: Any,
              start: Any = None) -> Any:
    """Vectorised rejection sampling with compaction. Round r draws, for EVERY position, one
    variate per letter of ``kinds`` ('u' open uniform, 'n' normal; each its own sub-stream), so
    an element's value depends only on its position; ``step(draws, idx)`` gets them at the flat
    positions ``idx`` still open (None: all) and returns (accepted bool, value). Accepted values
    are written, the rest go to the next round, until none is left (one scalar read a round).
    ``start`` (flat int64 positions) samples only those; the others stay 0."""
    import numr as nr
    n = 1
    for s in shape:
        n *= s
    out, idx = None, None
    if start is not None:
        out, idx = nr.zeros((n,), dtype=wd, device=dr.client.device), start
    for _ in range(MAX_ROUNDS):
        draws = [take((dr.rand_open if k == "u" else dr.randn)((n,), wd), idx) for k in kinds]
        if n == 0:
            return nr.zeros(shape, dtype=wd, device=dr.client.device)
        ok, val = step(draws, idx)
        if idx is None:
            out = nr.where(ok, val, 0.0)
            idx = nr.nonzero(~ok).reshape(-1)
        else:
            nr.index_put_(out, 0, idx[ok], val[ok])
            idx = idx[~ok]
        if idx.shape[0] == 0:
            return out.reshape(shape)
    raise RuntimeError(f"{op}: rejection sampling did not finish")  # pragma: no cover


def pick_device(op: str, params: tuple, device: Any) -> Any:
    """The device of the first tensor parameter, else ``device`` (all tensors on one device)."""
    devs = [p.device for p in params if is_tensor(p)]
    dev = parse_device(device) if device is not None else (devs[0] if devs else parse_device(None))
    from ...errors import DeviceError
    for d in devs:
        if d != dev:
            raise DeviceError(f"{op}: parameters on {d} but the output is on {dev}")
    return dev


def float_out(op: str, params: tuple, dtype: Any) -> dt.DType:
    """The output float dtype: ``dtype``, else the promoted float dtype of tensor parameters, else
    the default float."""
    if dtype is not None:
        d = dt.dtype(dtype)
    else:
        fl = [p.dtype for p in params if is_tensor(p) and p.dtype.kind == "f"]
        d = dt.promote_types(*fl) if len(fl) > 1 else (fl[0] if fl else dt.default_float)
    if d.kind != "f":
        raise DTypeError(f"{op}: needs a float dtype, got {d}")
    return d


def work_dtype(d: dt.DType) -> dt.DType:
    """float64 math for float64 output, float32 math (then rounded) for the narrower floats."""
    return dt.float64 if d == dt.float64 else dt.float32


def out_shape(op: str, params: tuple, size: Any) -> tuple[int, ...]:
    """``size`` (the parameters must broadcast to it), else the parameters' broadcast shape."""
    shapes = [tuple(p.shape) for p in params if is_tensor(p)]
    if size is None:
        return broadcast_shapes(*shapes, op=op) if shapes else ()
    shape = normalize_shape(size, op)
    if shapes and broadcast_shapes(shape, *shapes, op=op) != shape:
        from ...errors import ShapeError
        raise ShapeError(f"{op}: parameters of shapes {shapes} do not broadcast to size {shape}")
    return shape


def as_work(p: Any, wd: dt.DType) -> Any:
    """A tensor parameter in the work dtype (scalars stay Python numbers)."""
    import numr as nr
    if is_tensor(p):
        return p if p.dtype == wd else nr.cast(p, wd)
    return float(p)


def check(op: str, name: str, p: Any, lo: float = 0.0, lo_open: bool = False, hi: float | None = None,
          finite: bool = False) -> None:
    """DomainError unless lo <= p (lo < p when lo_open), p <= hi and (when asked) p finite,
    everywhere (NaN fails); a tensor costs one scalar read."""
    import numr as nr
    want = (f"{'>' if lo_open else '>='} {lo}" + ("" if hi is None else f" and <= {hi}")
            + (" and finite" if finite else ""))
    if is_tensor(p):
        t = plain(p)
        t = t if t.dtype.kind == "f" else nr.cast(t, dt.float64)
        if t.size == 0:
            return
        ok = (t > lo) if lo_open else (t >= lo)
        if hi is not None:
            ok = ok & (t <= hi)
        if finite:
            ok = ok & nr.isfinite(t)
        if not bool(nr.all(ok).item()):
            raise DomainError(f"{op}: {name} must be {want} everywhere (shape {tuple(p.shape)})")
        return
    v = float(p)
    if not ((v > lo if lo_open else v >= lo) and (hi is None or v <= hi) and (not finite or math.isfinite(v))):
        raise DomainError(f"{op}: {name} must be {want}, got {p}")


def finish(x: Any, d: dt.DType) -> Any:
    import numr as nr
    return x if x.dtype == d else nr.cast(x, d)


def _prep(op: str, params: tuple, size: Any, dtype: Any, device: Any, seed: int | None):
    d = float_out(op, params, dtype)
    dev = pick_device(op, params, device)
    shape = out_shape(op, params, size)
    return d, work_dtype(d), shape, Draws(seed, dev)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
            seed: int | None = None) -> Any:
    """Uniform on [low, high): low + (high - low) * rand."""
    d, wd, shape, dr = _prep("uniform", (low, high), size, dtype, device, seed)
    lo, hi = as_work(low, wd), as_work(high, wd)
    return finish(lo + (hi - lo) * dr.rand(shape, wd), d)


def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
           seed: int | None = None) -> Any:
    """Normal(mean, std) = mean + std * randn (torch.normal; tensor or scalar mean/std broadcast)."""
    check("normal", "std", std)
    d, wd, shape, dr = _prep("normal", (mean, std), size, dtype, device, seed)
    return finish(as_work(mean, wd) + as_work(std, wd) * dr.randn(shape, wd), d)


def lognormal(mean: Any = 0.0, sigma: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
              seed: int | None = None) -> Any:
    """exp(Normal(mean, sigma))."""
    import numr as nr
    check("lognormal", "sigma", sigma)
    d, wd, shape, dr = _prep("lognormal", (mean, sigma), size, dtype, device, seed)
    return finish(nr.exp(as_work(mean, wd) + as_work(sigma, wd) * dr.randn(shape, wd)), d)


def exponential(rate: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
                seed: int | None = None) -> Any:
    """Exponential with the given rate (torch's lambd): -log1p(-u) / rate."""
    import numr as nr
    check("exponential", "rate", rate, lo_open=True)
    d, wd, shape, dr = _prep("exponential", (rate,), size, dtype, device, seed)
    return finish(-nr.log1p(-dr.rand(shape, wd)) / as_work(rate, wd), d)


def laplace(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
            seed: int | None = None) -> Any:
    """Laplace(loc, scale) by inversion of one open uniform: loc - scale sign(v) log1p(-2|v|)."""
    import numr as nr
    check("laplace", "scale", scale, lo_open=True)
    d, wd, shape, dr = _prep("laplace", (loc, scale), size, dtype, device, seed)
    v = dr.rand_open(shape, wd) - 0.5
    return finish(as_work(loc, wd) - as_work(scale, wd) * nr.sign(v) * nr.log1p(-2.0 * nr.abs(v)), d)


def cauchy(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
           seed: int | None = None) -> Any:
    """Cauchy(loc, scale) = loc + scale * tan(pi (u - 1/2)), u open."""
    import numr as nr
    check("cauchy", "scale", scale, lo_open=True)
    d, wd, shape, dr = _prep("cauchy", (loc, scale), size, dtype, device, seed)
    return finish(as_work(loc, wd) + as_work(scale, wd) * nr.tan(math.pi * (dr.rand_open(shape, wd) - 0.5)), d)


def gumbel(loc: Any = 0.0, scale: Any = 1.0, size: Any = None, *, dtype: Any = None, device: Any = None,
           seed: int | None = None) -> Any:
    """Gumbel(loc, scale) = loc - scale * log(-log u), u open (never infinite)."""
    import numr as nr
    check("gumbel", "scale", scale, lo_open=True)
    d, wd, shape, dr = _prep("gumbel", (loc, scale), size, dtype, device, seed)
    return finish(as_work(loc, wd) - as_work(scale, wd) * nr.log(-nr.log(dr.rand_open(shape, wd))), d)


def rand_like(x: Any, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """nr.rand of x's shape, dtype (a float one) and device unless given."""
    from ...creation import rand
    return rand(tuple(x.shape), dtype=dtype or x.dtype, device=device or x.device, seed=seed)


def randn_like(x: Any, *, dtype: Any = None, device: Any = None, seed: int | None = None) -> Any:
    """nr.randn of x's shape, dtype (a float one) and device unless given."""
    from ...creation import randn
    return randn(tuple(x.shape), dtype=dtype or x.dtype, device=device or x.device, seed=seed)


def randint_like(x: Any, low: int, high: int | None = None, *, dtype: Any = None, device: Any = None,
                 seed: int | None = None) -> Any:
    """nr.randint of x's shape; x's dtype when it is an integer one, else int64."""
    from ...creation import randint
    d = dtype or (x.dtype if x.dtype.is_integer else dt.int64)
    return randint(low, high, tuple(x.shape), dtype=d, device=device or x.device, seed=seed)


PUBLIC = ("uniform", "normal", "lognormal", "exponential", "laplace", "cauchy", "gumbel",
          "rand_like", "randn_like", "randint_like")
