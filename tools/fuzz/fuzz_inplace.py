"""Randomized differential test of views followed by in-place writes, against a NumPy mirror.

A random base tensor goes through a random chain of writable views (slices with negative
steps, transpose/permute, flip, narrow, int indexing, squeeze/unsqueeze, view); then one or
more in-place ops write through the view: += -= *= /= //= %= &= |= ^= (scalars, tensors,
broadcast tensors, other views of the same base that overlap the destination), fill_,
zero_, copy_ and __setitem__ (ints, slices, None, Ellipsis, bool masks, integer arrays with
repeats and negatives, values as scalars/tensors/overlapping views). NumPy does the same on
a mirror; the whole base and the view are compared afterwards.

    PYTHONPATH=. python tools/fuzz/fuzz_inplace.py --seed 0 --cases 300 --devices cpu,wgpu
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

IOPS = {"+=": "__iadd__", "-=": "__isub__", "*=": "__imul__", "/=": "__itruediv__", "//=": "__ifloordiv__",
        "%=": "__imod__", "&=": "__iand__", "|=": "__ior__", "^=": "__ixor__"}


UFUNC = {"+=": np.add, "-=": np.subtract, "*=": np.multiply, "/=": np.true_divide, "//=": np.floor_divide,
         "%=": np.remainder, "&=": np.bitwise_and, "|=": np.bitwise_or, "^=": np.bitwise_xor}


def numr_cast(val, dtype):
    """NumPy value cast to ``dtype`` with numr's rules (docs/architecture.md "Dtype rules"):
    float/complex -> integer drops the imaginary part, NaN -> 0, out of range saturates."""
    a = np.asarray(val)
    d = np.dtype(dtype)
    if d.kind in "iu" and a.dtype.kind in "fcV" or (d.kind in "iu" and a.dtype.name == "bfloat16"):
        r = np.real(a).astype(np.float64)
        info = np.iinfo(d)
        r = np.where(np.isnan(r), 0, np.clip(np.trunc(r), float(info.min), float(info.max)))
        out = np.array([int(min(max(int(x), info.min), info.max)) for x in r.reshape(-1)], dtype=object)
        return out.astype(d).reshape(a.shape)
    if d.kind == "b" and a.dtype.kind == "c":
        return a != 0
    with np.errstate(all="ignore"):
        return a.astype(d)


def np_iop(op, v, val):
    """``v op= val`` in NumPy, with numr's in-place rule: int and uint count as one kind
    (NumPy's same_kind refuses int64 -> uint32; numr, like PyTorch, wraps)."""
    try:
        getattr(v, IOPS[op])(val)
    except TypeError as e:
        vk = np.asarray(val).dtype.kind if not isinstance(val, (bool, int, float, complex)) else "x"
        if "same_kind" not in str(e) or v.dtype.kind not in "iu" or vk not in "iub":
            raise
        UFUNC[op](v, val, out=v, casting="unsafe")


def _ok_iop(op: str, kind: str) -> bool:
    if kind == "b":
        return op in ("&=", "|=", "^=")
    if op in ("&=", "|=", "^="):
        return kind in "iu"
    if op in ("//=", "%="):
        return kind in "iuf"
    if op == "/=":
        return kind in "fc"
    return True


def random_scalar(rng, kind, odd: bool = False):
    """A Python scalar for a tensor of ``kind``; ``odd``: sometimes one of another kind
    (a float for an int tensor, a negative int for an unsigned one)."""
    if odd and rng.random() < 0.15:
        return [1.5, -2, True, 2, 0.0][int(rng.integers(0, 5))]
    if kind == "b":
        return bool(rng.random() < 0.5)
    if kind in "iu":
        return int(rng.integers(0 if kind == "u" else -5, 6))
    if kind == "c":
        return complex(round(rng.uniform(-3, 3), 2), round(rng.uniform(-3, 3), 2))
    return float(rng.choice([0.5, -1.25, 2.0, 3.0, 0.0, -0.0, np.inf, np.nan])) if rng.random() < 0.3 \
        else round(float(rng.uniform(-3, 3)), 3)


def broadcast_shape_for(rng, shape):
    """A shape that broadcasts to ``shape`` (drop leading dims, set some to 1)."""
    k = int(rng.integers(0, len(shape) + 1))
    s = list(shape[k:])
    for i in range(len(s)):
        if rng.random() < 0.3:
            s[i] = 1
    return tuple(s)


class Operand:
    """A value given to a write: Python scalar, fresh array (both sides) or a view of the base."""

    def __init__(self, desc, np_value, numr_value):
        self.desc, self.np_value, self.numr_value = desc, np_value, numr_value


def random_operand(rng, target_shape, dtype, base_np, fns_from_base, allow_overlap=True):
    """Returns (desc, np_fn(base_np) -> value, nr_fn(base_nr, dev) -> value)."""
    kind = nr.dtype(dtype).kind
    r = rng.random()
    if r < 0.3:
        s = random_scalar(rng, kind, odd=True)
        return f"scalar {s!r}", (lambda b: s), (lambda b, dev: s)
    if r < 0.55 or not allow_overlap:
        shp = broadcast_shape_for(rng, target_shape) if rng.random() < 0.5 else tuple(target_shape)
        odt = dtype
        if rng.random() < 0.3 and dtype != "bfloat16":  # another dtype: promotion, then the cast back
            odt = str(rng.choice([d for d in ALL_DTYPES if d != "bfloat16"]))
            if {nr.dtype(odt).kind, kind} == {"i", "u"} and "uint64" in (odt, dtype):
                odt = dtype  # int + uint64 -> float64 in numr (documented): cannot go back in place
        arr = random_array(rng, shp, odt, special=0.05, small_ints=True)
        if kind in "iu" and rng.random() < 0.5:
            arr = np.where(arr == 0, 1, arr).astype(arr.dtype)
        return (f"array{shp}:{odt}={arr.tolist() if arr.size <= 12 else '...'}", (lambda b: arr.copy()),
                (lambda b, dev: nr.tensor(arr, device=dev)))
    # another view of the same base with the target's shape (overlap with the destination)
    for _ in range(20):
        descs, fns, v = random_view_chain(rng, base_np, int(rng.integers(0, 5)), writable=True)
        if v.shape == tuple(target_shape):
            break
        try:  # a view that broadcasts to the target (base[0] into base[1:])
            if v.size and len(v.shape) <= len(target_shape) and \
                    np.broadcast_shapes(v.shape, tuple(target_shape)) == tuple(target_shape):
                break
        except ValueError:
            pass
        flat = base_np.reshape(-1)
        n = int(np.prod(target_shape))
        if flat.size >= n and rng.random() < 0.3:
            st = int(rng.integers(0, flat.size - n + 1))
            rev = bool(rng.random() < 0.5)

            def f(x, st=st, n=n, rev=rev, ts=tuple(target_shape)):
                y = x.reshape(-1) if isinstance(x, np.ndarray) else x.reshape(-1)
                y = y[st:st + n]
                y = y[::-1] if rev and isinstance(x, np.ndarray) else (y.flip(0) if rev else y)
                return y.reshape(ts)
            descs, fns = [f"flat[{st}:{st + n}]{'[::-1]' if rev else ''}.reshape{tuple(target_shape)}"], [f]
            break
    else:
        return random_operand(rng, target_shape, dtype, base_np, fns_from_base, allow_overlap=False)
    return (f"base{''.join(descs)}", (lambda b: apply_chain(fns, b)), (lambda b, dev: apply_chain(fns, b)))


def random_index(rng, shape):
    """A NumPy index for __setitem__ over ``shape`` (basic and advanced mixes)."""
    idx, desc, d = [], [], 0
    nd = len(shape)
    if nd and rng.random() < 0.2:
        m = rng.random(shape) < 0.5
        return m, f"mask{shape}={m.astype(int).tolist() if m.size <= 12 else '...'}", True
    n_items = int(rng.integers(0, nd + 1))
    adv = False
    while d < nd and len(idx) < n_items:
        n = shape[d]
        r = rng.random()
        if r < 0.3 and n:
            i = int(rng.integers(-n, n))
            idx.append(i)
            desc.append(str(i))
            d += 1
        elif r < 0.55 and n and not adv:
            k = int(rng.integers(1, 5))
            a = [int(v) for v in rng.integers(-n, n, size=k)]
            idx.append(a)
            desc.append(str(a))
            adv = True
            d += 1
        elif r < 0.65:
            idx.append(None)
            desc.append("None")
        elif r < 0.72 and n and not adv:
            m = rng.random(n) < 0.5
            idx.append(m)
            desc.append(f"mask{m.astype(int).tolist()}")
            adv = True
            d += 1
        else:
            step = int(rng.choice([1, 2, -1, -2]))
            a = int(rng.integers(-n, n + 1)) if n and rng.random() < 0.5 else None
            idx.append(slice(a, None, step))
            desc.append(f"{'' if a is None else a}::{step}")
            d += 1
    if rng.random() < 0.2:
        idx.append(Ellipsis)
        desc.append("...")
    return tuple(idx), "[" + ", ".join(desc) + "]", adv


def _nr_index(idx, dev):
    if isinstance(idx, np.ndarray):
        return nr.tensor(idx, device=dev)
    if isinstance(idx, tuple):
        return tuple(nr.tensor(np.asarray(i), device=dev) if isinstance(i, np.ndarray) else i for i in idx)
    return idx


def main() -> int:
    args = parse_args(__doc__, 300, big=True)
    rng = np.random.default_rng(args.seed)
    devs = devices(args.devices)
    rep = Report("inplace " + ",".join(devs), args.verbose)
    for case in range(args.cases):
        dtype = str(rng.choice(ALL_DTYPES))
        kind = nr.dtype(dtype).kind
        shape = random_shape(rng, 4, 5, empty=0.05)
        if args.big:  # tiles (32x32 copies), threads and the chunked paths
            shape = tuple(int(rng.integers(20, 140)) for _ in range(int(rng.integers(1, 4))))
            while int(np.prod(shape)) > 60000:
                shape = shape[1:]
        base = random_array(rng, shape, dtype, special=0.05, small_ints=True)
        descs, fns, _ = random_view_chain(rng, base, int(rng.integers(0, 4)), writable=True)
        steps = []  # (desc, np_apply(mirror_base, view), nr_apply(base, view, dev))
        for _ in range(int(rng.integers(1, 3))):
            vshape = apply_chain(fns, base).shape
            r = rng.random()
            if r < 0.45:
                op = str(rng.choice(list(IOPS)))
                if not _ok_iop(op, kind):
                    op = "+=" if kind != "b" else "|="
                od, onp, onr = random_operand(rng, vshape, dtype, base, fns)
                if kind in "iu" and op in ("//=", "%=") and od.startswith("scalar 0"):
                    od, onp, onr = "scalar 2", (lambda b: 2), (lambda b, dev: 2)

                def np_step(mb, v, op=op, onp=onp):
                    val = onp(mb)
                    with np.errstate(all="ignore"):
                        np_iop(op, v, val)

                def nr_step(b, v, dev, op=op, onr=onr):
                    getattr(v, IOPS[op])(onr(b, dev))
                steps.append((f"view {op} {od}", np_step, nr_step))
            elif r < 0.6:
                s = random_scalar(rng, kind)
                if rng.random() < 0.3:
                    steps.append(("view.zero_()", lambda mb, v: v.fill(0), lambda b, v, dev: v.zero_()))
                else:
                    steps.append((f"view.fill_({s!r})", lambda mb, v, s=s: v.fill(s),
                                  lambda b, v, dev, s=s: v.fill_(s)))
            elif r < 0.75:
                od, onp, onr = random_operand(rng, vshape, dtype, base, fns)

                def np_copy(mb, v, onp=onp):
                    val = onp(mb)
                    if type(val) is int and v.dtype.kind in "iu" and not \
                            np.iinfo(v.dtype).min <= val <= np.iinfo(v.dtype).max:
                        raise OverflowError(f"{val} out of range for {v.dtype}")  # numr's fill_ rule, as NumPy 2
                    np.copyto(v, numr_cast(val, v.dtype), casting="unsafe")

                steps.append((f"view.copy_({od})", np_copy, lambda b, v, dev, onr=onr: v.copy_(onr(b, dev))))
            else:
                idx, idesc, _adv = random_index(rng, vshape)
                try:
                    target = apply_chain(fns, base.copy())[idx]
                except (IndexError, ValueError):
                    continue
                tshape = np.shape(target)
                od, onp, onr = random_operand(rng, tshape, dtype, base, fns)

                def np_set(mb, v, idx=idx, onp=onp):
                    val = onp(mb)
                    v[idx] = numr_cast(val, v.dtype).copy() if isinstance(val, np.ndarray) else val

                def nr_set(b, v, dev, idx=idx, onr=onr):
                    v[_nr_index(idx, dev)] = onr(b, dev)
                steps.append((f"view{idesc} = {od}", np_set, nr_set))
        if not steps:
            continue
        mirror = base.copy()
        np_err = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _d, np_step, _n in steps:
                    np_step(mirror, apply_chain(fns, mirror))
        except Exception as e:
            np_err = f"{type(e).__name__}: {e}"
        rep.count(dtype)
        for d, _a, _b in steps:
            rep.count(d.split(" ")[1] if d.startswith("view ") else d.split("(")[0].split("[")[0])
        for dev in devs:
            text = (f"case {case} [{dev}] dtype={dtype} base{shape}={base.tolist() if base.size <= 24 else '...'}"
                    f"\n    view = base{''.join(descs)}\n    " + "\n    ".join(d for d, _a, _b in steps))

            def check(dev=dev):
                b = nr.tensor(base, device=dev)
                v = apply_chain(fns, b)
                try:
                    for _d, _np, nr_step in steps:
                        nr_step(b, v, dev)
                except nr.errors.NumrError as e:
                    if np_err is not None:
                        return None
                    if isinstance(e, (nr.errors.UnsupportedOperation,)):
                        raise
                    return f"numr raised {type(e).__name__}: {e} (numpy did not)"
                if np_err is not None:
                    return f"numpy raised {np_err}, numr did not"
                # autograd's version counter: shared by every view, one bump per write
                if v._version is not b._version or b._version[0] != len(steps):
                    return (f"version counter: shared={v._version is b._version}, "
                            f"{b._version[0]} after {len(steps)} writes")
                got = to_numpy(b)
                if not close(got, mirror, dtype, rtol=TOLR.get(dtype), atol=TOLR.get(dtype)):
                    bad = np.argwhere(~np.isclose(got.astype(np.complex128), mirror.astype(np.complex128),
                                                  equal_nan=True))
                    return (f"base differs\n    got ={got.tolist() if got.size <= 40 else got.shape}\n"
                            f"    want={mirror.tolist() if mirror.size <= 40 else mirror.shape}\n"
                            f"    first bad={bad[:5].tolist()}")
                gv = to_numpy(v)
                wv = apply_chain(fns, mirror)
                if not close(gv, np.asarray(wv), dtype, rtol=TOLR.get(dtype), atol=TOLR.get(dtype)):
                    return "view differs (base agreed)"
                return None
            rep.run(f"{dev}:{dtype}", text, check)
    return rep.summary()


TOLR = {"float16": 1e-3, "bfloat16": 8e-3, "float32": 1e-6, "float64": 1e-12, "complex64": 1e-6, "complex128": 1e-12}

if __name__ == "__main__":
    sys.exit(main())
