"""Every public op called positionally, by keywords, and mixed, must give the same result
on every backend (the protocol's parameter names are part of the op contract), for plain
tensors and for autograd Vars (value and gradient).

    PYTHONPATH=. python tools/fuzz/fuzz_keywords.py --devices cpu,wgpu,cuda
"""

# ruff: noqa: B023  (closures run at once in their loop iteration)

from __future__ import annotations

import sys

import numpy as np
from _common import Report, devices, nr, parse_args, to_numpy

from numr.autograd import Var, backward  # noqa: E402

BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"}
LOGICAL = {"logical_and", "logical_or", "logical_xor", "logical_not"}


#: example values of scalar parameters; a parameter not here takes its default, and an op with
#: a required parameter missing here (or a *args parameter) is counted as not covered
SCALARS = {"dim": 1, "keepdim": True, "correction": 1, "dtype": nr.float32, "min": -0.5 + 1.0, "max": 1.2,
           "rtol": 1e-5, "atol": 1e-8, "equal_nan": True, "p": 0.3, "training": True, "seed": 5, "alpha": 0.7,
           "negative_slope": 0.2, "approximate": "tanh", "value": 3.0, "descending": True, "stable": True,
           "k": 2, "largest": False, "sorted": True, "right": True, "return_inverse": True,
           "return_counts": True, "normalized_shape": 3, "eps": 1e-5, "split_size_or_sections": 1,
           "chunks": 2, "shifts": 1, "dims": 1, "repeats": 2, "pad": (1, 1), "mode": "constant",
           "offset": 0, "dim1": 0, "dim2": 1, "axis0": 0, "axis1": 1,
           "reps": (2, 1), "kernel_size": 1, "output_size": 1, "q": 0.5,
           "diagonal": 0, "source": 0, "destination": 1, "dim0": 0}


class Uncovered(Exception):
    pass


def example_args(name: str, sig, dev: str, rng, dtype: str = "float64") -> list:
    f64 = lambda shape: nr.tensor(rng.uniform(0.2, 1.5, size=shape), dtype=dtype, device=dev)  # noqa: E731
    out = []
    for p, par in sig.parameters.items():
        if par.kind in (par.VAR_POSITIONAL, par.VAR_KEYWORD):
            raise Uncovered(f"*{p}")
        if p in ("source", "destination") and name not in ("movedim", "moveaxis"):
            out.append(f64((2, 3)))
            continue
        if p in ("weight", "residual", "sorted_sequence") and name not in SCALARS:
            out.append(f64((3,)) if p == "weight" else f64((2, 3)) if p == "residual"
                       else nr.tensor([0.1, 0.5, 0.9], dtype=dtype, device=dev))
            continue
        if p not in ("x", "a", "b", "c", "gate", "up", "grad", "out", "bias", "tensors", "index", "values",
                     "cond") and p not in SCALARS:
            if par.default is par.empty:
                raise Uncovered(p)
            out.append(par.default)
            continue
        if p in ("x", "a", "b", "c", "gate", "up", "grad", "out"):
            if name in BITWISE:
                v = nr.tensor(rng.integers(0, 9, size=(2, 3)), dtype="int32", device=dev)
            elif name in LOGICAL:
                v = nr.tensor(rng.random((2, 3)) < 0.5, device=dev)
            elif name == "matmul" or name == "matmul_bias":
                v = f64((2, 3) if p == "a" else (3, 2))
            else:
                v = f64((2, 3))
            out.append(v)
        else:
            out.append(SCALARS.get(p))
            if p == "bias":
                out[-1] = f64((2,))
            elif p == "tensors":
                out[-1] = [f64((2, 3)), f64((2, 3))]
            elif p == "index":
                out[-1] = nr.tensor([0, 2], dtype="int64", device=dev)
            elif p == "values":
                out[-1] = f64((2, 2))
            elif p == "cond":
                out[-1] = nr.tensor(rng.random((2, 3)) < 0.5, device=dev)
    return out


def _copy(a):
    if isinstance(a, nr.Tensor):
        return a.clone()
    if isinstance(a, list):
        return [_copy(b) for b in a]
    return a


def _np(r):
    if isinstance(r, tuple):
        return [_np(x) for x in r]
    if isinstance(r, Var):
        return to_numpy(r.tensor)
    return to_numpy(r) if isinstance(r, nr.Tensor) else r


def same(x, y) -> bool:
    if isinstance(x, list):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.shape == y.shape and x.dtype == y.dtype and \
            bool(np.all((x == y) | (np.isnan(x) & np.isnan(y)) if x.dtype.kind in "fc" else x == y))
    return x == y


def main() -> int:
    args = parse_args(__doc__, 1, dtype=True)
    devs = devices(args.devices)
    rep = Report("keywords " + ",".join(devs), args.verbose)
    from numr.ops import api
    for name, fn in sorted(api.OPS.items()):
        if args.only and name not in args.only.split(","):
            continue
        params = list(fn.__signature__.parameters)
        for dev in devs:
            rng = np.random.default_rng(0)
            try:
                base = example_args(name, fn.__signature__, dev, rng, args.dtype)
            except Uncovered as e:
                rep.count(f"not covered (no example for {e})")
                break
            for k in range(len(params) + 1):
                # the first k by position, the rest by keyword (k = len: all positional)
                def check(k=k):
                    a0 = _copy(base)
                    try:
                        ref = _np(fn(*a0))
                    except nr.NumrError as e:  # the example arguments do not suit this op
                        raise nr.UnsupportedOperation("fuzz", name, reason=f"example rejected: {e}") from e
                    a1 = _copy(base)
                    got = _np(fn(*a1[:k], **dict(zip(params[k:], a1[k:], strict=True))))
                    if not same(ref, got):
                        return f"result differs: positional {ref} vs keywords {got}"
                    if name in ("fill_", "index_put_") and not same(_np(a0[0]), _np(a1[0])):
                        return "in-place target differs"
                    return None
                rep.run(f"{dev}:{name}", f"[{dev}] nr.{name}: first {k} positional, {params[k:]} by keyword", check)
            # autograd: the float operands as Vars, passed by keyword
            if name in BITWISE | LOGICAL or name in ("fill_", "index_put_", "dropout", "cast"):
                continue

            def check_var():
                a = _copy(base)
                vs = [Var(x) if isinstance(x, nr.Tensor) and x.dtype.kind == "f" else x for x in a]
                try:
                    r_pos = fn(*vs)
                except nr.NumrError as e:  # the example arguments do not suit this op
                    raise nr.UnsupportedOperation("fuzz", name, reason=f"example rejected: {e}") from e
                if not isinstance(r_pos, Var) or r_pos.grad_fn is None or r_pos.tensor.dtype.kind != "f":
                    return None
                g_pos = backward(nr.sum(r_pos * 1.5))
                vk = [Var(x) if isinstance(x, nr.Tensor) and x.dtype.kind == "f" else x for x in a]
                r_kw = fn(**dict(zip(params, vk, strict=True)))
                if not isinstance(r_kw, Var):
                    return f"keywords gave a {type(r_kw).__name__}, not a Var"
                g_kw = backward(nr.sum(r_kw * 1.5))
                for p, x, y in zip(params, vs, vk, strict=True):
                    if isinstance(x, Var):
                        gx, gy = g_pos.get(x.id), g_kw.get(y.id)
                        if (gx is None) != (gy is None) or (gx is not None and not same(_np(gx), _np(gy))):
                            return f"gradient of {p} differs: {gx} vs {gy}"
                return None
            rep.run(f"{dev}:{name}:var", f"[{dev}] nr.{name}(**Vars)", check_var)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
