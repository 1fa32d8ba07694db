"""Randomized check of view legality: after a random chain of views (slices with negative
steps, transposes, flips, expands, int indexing), ``view(shape)`` must succeed exactly when
NumPy can reshape without copying, give NumPy's values, and alias the base (a write
through it shows in the base); ``reshape`` must always give NumPy's values; ``flatten``,
``squeeze``/``unsqueeze``, ``T``/``mT``, ``expand_as``, ``contiguous`` and ``clone`` too.

    PYTHONPATH=. python tools/fuzz/fuzz_views.py --seed 0 --cases 500 --devices cpu,wgpu
"""

# ruff: noqa: B023  (closures run at once in their loop iteration)

from __future__ import annotations

import sys

import numpy as np
from _common import Report, apply_chain, devices, nr, parse_args, random_shape, random_view_chain, to_numpy


def reshape_targets(rng, shape):
    size = int(np.prod(shape))
    out = [(size,), (-1,), shape[::-1]]
    for i in range(len(shape) - 1):
        out.append(shape[:i] + (shape[i] * shape[i + 1],) + shape[i + 2:])
    for i, n in enumerate(shape):
        for f in (2, 3):
            if n and n % f == 0:
                out.append(shape[:i] + (f, n // f) + shape[i + 1:])
    out.append(tuple(s for s in shape if s != 1) or ())
    out.append((1,) + tuple(shape) + (1,))
    if size == 0:
        out.append((0, 7))
    return out[int(rng.integers(0, len(out)))]


def numpy_view(a, shape):
    v = a.view()
    try:
        v.shape = shape
    except AttributeError:
        return None
    return v


def main() -> int:
    args = parse_args(__doc__, 500)
    rng = np.random.default_rng(args.seed)
    devs = devices(args.devices)
    rep = Report("views " + ",".join(devs), args.verbose)
    for case in range(args.cases):
        shape = random_shape(rng, 4, 5, empty=0.05)
        base = np.asarray(np.arange(1, int(np.prod(shape)) + 1, dtype=np.int32).reshape(shape))
        descs, fns, a = random_view_chain(rng, base, int(rng.integers(0, 5)), writable=False)
        ns = reshape_targets(rng, a.shape)
        try:
            want_reshape = a.reshape(ns)
        except ValueError:
            continue
        want_view = numpy_view(a, want_reshape.shape)
        writable = bool(a.flags.writeable)  # no expand in the chain (NumPy's broadcasts are read-only)
        rep.count("view ok" if want_view is not None else "view refused")
        for dev in devs:
            text = f"case {case} [{dev}] base{shape} view{''.join(descs)} -> {a.shape}; reshape/view {ns}"

            def check(dev=dev):
                b = nr.tensor(base, device=dev)
                t = apply_chain(fns, b)
                if tuple(t.shape) != a.shape or not np.array_equal(to_numpy(t), a):
                    return "the chain differs from NumPy"
                r = t.reshape(ns)
                if tuple(r.shape) != want_reshape.shape or not np.array_equal(to_numpy(r), want_reshape):
                    return f"reshape gave {r.shape}"
                try:
                    v = t.view(ns)
                except nr.errors.ShapeError as e:
                    if want_view is not None:
                        return f"view refused ({e}) where NumPy makes a view"
                    v = None
                if v is not None:
                    if want_view is None:
                        return f"view accepted where NumPy needs a copy (strides {t.strides} -> {v.strides})"
                    if tuple(v.shape) != want_view.shape or not np.array_equal(to_numpy(v), want_view):
                        return "view values differ"
                f = t.flatten()
                if not np.array_equal(to_numpy(f), a.reshape(-1)):
                    return "flatten differs"
                if t.ndim >= 2 and not np.array_equal(to_numpy(t.mT), np.swapaxes(a, -1, -2)):
                    return "mT differs"
                if not np.array_equal(to_numpy(t.T), a.T):
                    return "T differs"
                c = t.contiguous()
                if not c.is_contiguous() or not np.array_equal(to_numpy(c), a):
                    return "contiguous differs"
                k = t.clone()
                if not np.array_equal(to_numpy(k), a) or (k.size and k._storage is t._storage):
                    return "clone differs or aliases"
                u = t.unsqueeze(0).expand((2,) + tuple(a.shape))
                if not np.array_equal(to_numpy(u), np.broadcast_to(a, (2,) + a.shape)):
                    return "expand differs"
                if 1 in a.shape and not np.array_equal(to_numpy(t.squeeze()), a.squeeze()):
                    return "squeeze differs"
                if v is not None and writable and v.size:
                    # aliasing: a write through the view shows in the base
                    mirror = base.copy()
                    mv = numpy_view(apply_chain(fns, mirror), want_view.shape)
                    k = tuple(int(rng.integers(0, n)) for n in mv.shape)
                    mv[k] = -7
                    v[k] = -7
                    if not np.array_equal(to_numpy(b), mirror):
                        return f"a write through view()[{k}] does not show in the base as in NumPy"
                return None
            rep.run(f"{dev}:views", text, check)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
