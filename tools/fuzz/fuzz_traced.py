"""Every differentiable public op must compute the same forward value on Vars and
DualTensors as on plain tensors (the autograd composites such as var/std/mean and the
fused paths included), with NaN, +-inf, -0.0, huge and subnormal values, empty and 0-d
shapes, on every backend.

    PYTHONPATH=. python tools/fuzz/fuzz_traced.py --seed 0 --cases 30 --devices cpu,wgpu
"""

# ruff: noqa: B023  (closures run at once in their loop iteration)

from __future__ import annotations

import sys

import numpy as np
from _common import Report, devices, nr, parse_args, to_numpy
from fuzz_keywords import Uncovered, example_args

from numr.autograd import DualTensor, Var  # noqa: E402
from numr.autograd.ops._common import VAR_OPS  # noqa: E402

SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, -1e-310, 5.0]
NO_SPECIALS = {"matmul", "matmul_bias", "index_put_", "index_select", "cat", "stack", "dropout"}


def _val(r):
    if isinstance(r, Exception):
        return type(r).__name__
    if isinstance(r, tuple):
        return [_val(x) for x in r]
    r = getattr(r, "tensor", getattr(r, "primal", r))
    return to_numpy(r) if isinstance(r, nr.Tensor) else r


def _same(a, b) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        if not isinstance(b, np.ndarray) or a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= 1e-12 * np.abs(a))))
        return bool(np.array_equal(a, b))
    return a == b


def main() -> int:
    args = parse_args(__doc__, 30)
    devs = devices(args.devices)
    rep = Report("traced " + ",".join(devs), args.verbose)
    from numr.ops import api
    for case in range(args.cases):
        shape = [(2, 3), (0, 3), (), (1, 3)][case % 4]
        for name, fn in sorted(api.OPS.items()):
            if name not in VAR_OPS or name == "dropout" or (args.only and name not in args.only.split(",")):
                continue
            vals = {}
            for dev in devs:
                try:
                    a = example_args(name, fn.__signature__, dev, np.random.default_rng((args.seed, case)))
                except Uncovered as e:
                    rep.count(f"not covered (no example for {e})")
                    break
                for i, x in enumerate(a):
                    if isinstance(x, nr.Tensor) and x.dtype.kind == "f" and name not in NO_SPECIALS:
                        r = np.random.default_rng((args.seed, case, i))
                        v = r.uniform(-2, 2, size=shape)
                        v = np.where(r.random(shape) < 0.4, r.choice(SPECIALS, size=shape), v) if v.size else v
                        a[i] = nr.tensor(v, device=dev)
                vals[dev] = a
            if len(vals) < len(devs):
                continue
            for dev in devs:
                a = vals[dev]
                text = f"[{dev}] nr.{name}({[to_numpy(x).tolist() if isinstance(x, nr.Tensor) else x for x in a]})"

                def check(a=a):
                    try:
                        want = fn(*a)
                    except Exception as e:  # the traced call must fail the same way
                        want = e
                    w = _val(want)
                    for tag, wrap in (("Var", lambda t: Var(t)), ("Dual", lambda t: DualTensor(t, nr.ones_like(t)))):
                        ta = [wrap(x) if isinstance(x, nr.Tensor) and x.dtype.kind == "f" else x for x in a]
                        try:
                            got = fn(*ta)
                        except Exception as e:
                            got = e
                        if not _same(w, _val(got)):
                            return f"{tag}: {str(_val(got))[:200]}\n    plain: {str(w)[:200]}"
                    return None
                rep.run(f"{dev}:{name}", text, check)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
