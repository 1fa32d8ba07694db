"""Randomized differential test of reductions and scans against NumPy.

sum, prod, mean, max/min/amax/amin, argmax/argmin, any/all, var/std (with correction),
cumsum/cumprod over random dims (None, int, tuples, negative), keepdim, on random view
chains (slices with negative steps, transposes, flips, expands, int indexing), every
dtype, NaN/inf placement and empty dims, on cpu/wgpu/cuda(emulated).

    PYTHONPATH=. python tools/fuzz/fuzz_reduce.py --seed 0 --cases 300 --devices cpu,wgpu
"""

# ruff: noqa: B023, B905  (closures run at once in their loop iteration; zips of equal lengths)

from __future__ import annotations

import sys
import warnings

import numpy as np
from _common import (
    ALL_DTYPES,
    Report,
    apply_chain,
    close,
    devices,
    nr,
    parse_args,
    random_array,
    random_shape,
    random_view_chain,
    to_numpy,
)

OPS = ["sum", "prod", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "var", "std",
       "cumsum", "cumprod"]


def _wide(d: str):
    k = nr.dtype(d).kind
    return {"b": np.int64, "i": np.int64, "u": np.uint64}.get(k, np.complex128 if k == "c" else np.float64)


def oracle(op: str, a: np.ndarray, dtype: str, dim, keepdim: bool, corr: float):
    """(expected array or the exception type name, scale for tolerance)."""
    kind = nr.dtype(dtype).kind
    ax = dim
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if op in ("sum", "prod"):
            w = a.astype(_wide(dtype))
            r = getattr(np, op)(w, axis=ax, keepdims=keepdim)
            scale = np.sum(np.abs(a.astype(np.complex128 if kind == "c" else np.float64)), axis=ax,
                           keepdims=keepdim) if op == "sum" and kind in "fc" else None
            if op == "prod" and kind in "fc":
                scale = np.abs(r)
            out_dt = {"b": np.int64, "i": np.int64, "u": np.uint64}.get(kind, a.dtype)
            return np.asarray(r), scale, out_dt
        if op == "mean":
            w = a.astype(np.complex128 if kind == "c" else np.float64)
            r = np.mean(w, axis=ax, keepdims=keepdim)
            scale = np.mean(np.abs(w), axis=ax, keepdims=keepdim)
            out_dt = np.float64 if kind in "biu" else a.dtype
            return np.asarray(r), scale, out_dt
        if op in ("max", "min", "amax", "amin"):
            f = np.max if op in ("max", "amax") else np.min
            if kind == "c":
                raise NotImplementedError
            r = f(a.astype(np.float64) if kind == "f" else a, axis=ax, keepdims=keepdim)
            return np.asarray(r), None, a.dtype
        if op in ("argmax", "argmin"):
            f = np.argmax if op == "argmax" else np.argmin
            if kind == "c":
                raise NotImplementedError
            r = f(a.astype(np.float64) if kind == "f" else a, axis=ax, keepdims=keepdim)
            return np.asarray(r), None, np.int64
        if op in ("any", "all"):
            r = getattr(np, op)(a.astype(np.complex128 if kind == "c" else np.float64) != 0 if kind in "fc" else a,
                                axis=ax, keepdims=keepdim)
            return np.asarray(r), None, np.bool_
        if op in ("var", "std"):
            w = a.astype(np.complex128 if kind == "c" else np.float64)
            r = getattr(np, op)(w, axis=ax, ddof=corr, keepdims=keepdim)
            scale = np.var(np.abs(w), axis=ax, keepdims=keepdim) if op == "var" else None
            out_dt = np.float64 if kind in "biu" else (np.float32 if dtype == "complex64" else
                                                       np.float64 if dtype == "complex128" else a.dtype)
            return np.asarray(r), scale, out_dt
        if op in ("cumsum", "cumprod"):
            w = a.astype(_wide(dtype))
            r = getattr(np, op)(w, axis=ax)
            scale = np.cumsum(np.abs(a.astype(np.complex128 if kind == "c" else np.float64)), axis=ax) \
                if op == "cumsum" and kind in "fc" else (np.abs(r) if kind in "fc" else None)
            out_dt = {"b": np.int64, "i": np.int64, "u": np.uint64}.get(kind, a.dtype)
            return np.asarray(r), scale, out_dt
    raise AssertionError(op)


def call(op, t, dim, keepdim, corr):
    if op in ("var", "std"):
        return getattr(nr, op)(t, dim=dim, correction=corr, keepdim=keepdim)
    if op in ("cumsum", "cumprod"):
        return getattr(nr, op)(t, dim=dim)
    return getattr(nr, op)(t, dim=dim, keepdim=keepdim)


def random_dim(rng, op, nd):
    if op in ("argmax", "argmin", "cumsum", "cumprod"):
        if nd == 0 or rng.random() < 0.25:
            return None
        return int(rng.integers(-nd, nd))
    r = rng.random()
    if nd == 0 or r < 0.2:
        return None
    if r < 0.55:
        return int(rng.integers(-nd, nd))
    k = int(rng.integers(1, nd + 1))
    dims = [int(d) for d in rng.choice(nd, k, replace=False)]
    return tuple(d - nd if rng.random() < 0.3 else d for d in dims)


def main() -> int:
    args = parse_args(__doc__, 300, big=True)
    rng = np.random.default_rng(args.seed)
    devs = devices(args.devices)
    ops = [o for o in OPS if not args.only or o in args.only.split(",")]
    rep = Report("reduce " + ",".join(devs), args.verbose)
    for case in range(args.cases):
        op = str(rng.choice(ops))
        dtype = str(rng.choice(ALL_DTYPES))
        shape = random_shape(rng, 4, 5)
        small = op in ("prod", "cumprod")
        special = float(rng.choice([0, 0, 0.1, 0.3]))
        if args.big:  # long rows and columns: multi-pass, chunked and threaded paths
            shapes = [(int(rng.integers(2000, 20000)),), (int(rng.integers(1, 8)), int(rng.integers(500, 6000))),
                      (int(rng.integers(500, 6000)), int(rng.integers(1, 8))),
                      (int(rng.integers(1, 40)), int(rng.integers(1, 70)), int(rng.integers(1, 70)))]
            shape = shapes[int(rng.integers(0, len(shapes)))]
            special = float(rng.choice([0, 0, 1e-4, 1e-3])) if not small else 0.0  # 0 * inf after underflow
        if op in ("cumprod", "prod") and dtype.startswith("complex"):
            special = 0  # complex inf products: NaN vs inf depends on the order (no Annex G)
        base = random_array(rng, shape, dtype, special=special,
                            lo=-1.6 if small else -4, hi=1.6 if small else 4, small_ints=small)
        descs, fns, a = random_view_chain(rng, base, int(rng.integers(0, 4)), writable=False)
        dim = random_dim(rng, op, a.ndim)
        keepdim = bool(rng.random() < 0.4)
        corr = float(rng.choice([0, 1, 2, 0.5, 3, 7])) if op in ("var", "std") else 0
        try:
            want, scale, want_dt = oracle(op, a, dtype, dim, keepdim, corr)
            np_err = None
        except NotImplementedError:
            continue
        except Exception as e:
            want, scale, want_dt, np_err = None, None, None, type(e).__name__
        rep.count(op)
        rep.count(dtype)
        for dev in devs:
            text = (f"case {case} [{dev}] {op} dtype={dtype} base{shape} view{''.join(descs)} -> {a.shape} "
                    f"dim={dim} keepdim={keepdim}" + (f" correction={corr}" if op in ('var', 'std') else ""))

            def check(dev=dev):
                t = apply_chain(fns, nr.tensor(base, device=dev))
                if tuple(t.shape) != a.shape:
                    return f"view shape {t.shape} != numpy {a.shape}"
                if np_err is not None:
                    try:
                        r = call(op, t, dim, keepdim, corr)
                    except nr.errors.NumrError:
                        return None
                    return f"numpy raised {np_err}, numr returned {to_numpy(r)!r}"
                r = call(op, t, dim, keepdim, corr)
                got = to_numpy(r)
                if got.shape != want.shape:
                    return f"shape {got.shape} != {want.shape}"
                if r.dtype.np != np.dtype(want_dt):
                    return f"dtype {r.dtype} != {np.dtype(want_dt)}"
                with np.errstate(all="ignore"):
                    want_c = want.astype(got.dtype)  # the result dtype's range (overflow -> inf)
                if op in ("prod", "cumprod") and got.dtype.kind == "c":
                    # an overflowing complex product: inf vs NaN parts depend on the order
                    both = ~np.isfinite(want_c) & ~np.isfinite(got)
                    got, want_c = np.where(both, 0, got), np.where(both, 0, want_c)
                if not close(got, want_c if got.dtype.kind in "biuc" else want, r.dtype.name, scale):
                    bad = ~np.isclose(got.astype(np.complex128), want.astype(np.complex128), equal_nan=True,
                                      rtol=1e-3, atol=1e-6) if got.size else np.zeros(0, bool)
                    return (f"values differ\n    input={a.tolist() if a.size <= 40 else a.shape}\n"
                            f"    got ={got.tolist() if got.size <= 40 else got[bad][:10]}\n"
                            f"    want={want.tolist() if want.size <= 40 else want[bad][:10]}")
                return None
            rep.run(f"{dev}:{op}:{dtype}", text, check)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
