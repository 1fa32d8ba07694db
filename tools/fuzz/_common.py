"""Shared pieces of the randomized differential fuzzers (tools/fuzz/*.py).

Not collected by pytest. Each fuzzer builds random inputs with NumPy, applies the same
operations to a numr tensor on every backend and to a NumPy mirror, and prints the
failing cases (a short, self-contained description of each) at the end.

Run from the repository root: ``PYTHONPATH=. python tools/fuzz/<name>.py --seed 0 --cases 200``.
Backends: cpu always; wgpu with WGPU_BACKEND_TYPE=Vulkan (lavapipe); cuda with
NUMR_CUDA_EMULATE=1 (host emulator, slow: keep tensors small).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("WGPU_BACKEND_TYPE", "Vulkan")
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp/xdg")
os.makedirs(os.environ["XDG_RUNTIME_DIR"], exist_ok=True)

import numpy as np  # noqa: E402

import numr as nr  # noqa: E402
from numr.errors import UnsupportedDType, UnsupportedOperation  # noqa: E402

ALL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
TOL = {"float64": (1e-10, 1e-12), "float32": (2e-5, 1e-6), "float16": (5e-3, 1e-3),
       "bfloat16": (4e-2, 1e-2), "complex64": (2e-5, 1e-6), "complex128": (1e-10, 1e-12)}


def parse_args(doc: str, cases: int = 200, big: bool = False, dtype: bool = False) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=doc)
    if dtype:
        p.add_argument("--dtype", default="float64", choices=["float64", "float32", "float16", "bfloat16"])
    if big:
        p.add_argument("--big", action="store_true", help="large shapes (multi-pass/threaded kernels)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cases", type=int, default=cases)
    p.add_argument("--devices", default="cpu,wgpu,cuda", help="comma list; unavailable ones are skipped")
    p.add_argument("--only", default="", help="comma list of op names to restrict to")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args()


def devices(spec: str) -> list[str]:
    out = []
    for name in spec.split(","):
        if not name:
            continue
        if name == "cuda" and not os.environ.get("NUMR_CUDA_EMULATE"):
            try:
                if not nr.runtime.get("cuda").is_available():
                    continue
            except Exception:
                continue
        try:
            rt = nr.runtime.get(name)
            if rt.is_available():
                out.append(name)
        except Exception:
            pass
    return out


def np_dtype(name: str):
    return nr.dtype(name).np


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: str, special: float = 0.0,
                 lo: float = -4.0, hi: float = 4.0, small_ints: bool = False) -> np.ndarray:
    """Random values of ``dtype`` (NumPy/ml_dtypes); floats get NaN/inf at rate ``special``."""
    npd = np_dtype(dtype)
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    kind = nr.dtype(dtype).kind
    if kind in "iu":
        info = np.iinfo(npd)
        if small_ints:
            a, b = (max(info.min, -3), 4)
        elif rng.random() < 0.3:
            a, b = int(info.min), int(info.max) + 1
        else:
            a, b = max(int(info.min), -100), 101
        big = np.int64 if kind == "i" or info.max < 2**63 else np.uint64
        return rng.integers(a, b, size=shape, dtype=big).astype(npd)
    v = rng.uniform(lo, hi, size=shape)
    if kind == "c":
        v = v + 1j * rng.uniform(lo, hi, size=shape)
    if special and v.size:
        m = rng.random(shape)
        v = np.where(m < special / 3, np.nan, v)
        v = np.where((m >= special / 3) & (m < special * 2 / 3), np.inf, v)
        v = np.where((m >= special * 2 / 3) & (m < special), -np.inf, v)
    return np.asarray(v).astype(npd)


def random_shape(rng: np.random.Generator, max_ndim: int = 4, max_dim: int = 5, empty: float = 0.08) -> tuple[int, ...]:
    nd = int(rng.integers(0, max_ndim + 1))
    return tuple(0 if rng.random() < empty else int(rng.integers(1, max_dim + 1)) for _ in range(nd))


# ---- random view chains, applied to a numr tensor and a NumPy mirror alike ----

def _rand_slice(rng, n):
    step = int(rng.choice([1, 1, 2, 3, -1, -2]))
    if n == 0:
        return slice(None, None, step), f"::{step}"
    a = int(rng.integers(-n, n + 1)) if rng.random() < 0.6 else None
    b = int(rng.integers(-n - 1, n + 2)) if rng.random() < 0.6 else None
    return slice(a, b, step), f"{'' if a is None else a}:{'' if b is None else b}:{step}"


def random_view_op(rng, shape: tuple[int, ...], writable: bool = True, allow_expand: bool = True):
    """One view op as (description, f(numr_or_numpy) -> view). ``writable``: no stride-0 result."""
    nd = len(shape)
    choices = ["slice", "unsqueeze"]
    if nd >= 1:
        choices += ["slice", "flip", "int", "narrow", "view"]
    if nd >= 2:
        choices += ["transpose", "permute"]
    if 1 in shape:
        choices += ["squeeze"]
    if allow_expand and not writable:
        choices += ["expand"]
    kind = str(rng.choice(choices))
    if kind == "slice":
        sl, txt = zip(*[_rand_slice(rng, n) for n in shape], strict=True) if nd else ((), ())
        sl = tuple(sl)
        # NumPy gives a scalar copy for a[()] and a[i] on the last dim: "..." keeps a view
        return f"[{', '.join(txt)}]", lambda x: x[sl] if hasattr(x, "unsqueeze") else x[sl + (Ellipsis,)]
    if kind == "unsqueeze":
        d = int(rng.integers(-nd - 1, nd + 1))
        return f".unsqueeze({d})", lambda x: x.unsqueeze(d) if hasattr(x, "unsqueeze") else np.expand_dims(x, d)
    if kind == "flip":
        d = int(rng.integers(0, nd))
        return f".flip({d})", lambda x: x.flip(d) if hasattr(x, "unsqueeze") else np.flip(x, d)
    if kind == "int":
        d = int(rng.integers(0, nd))
        if shape[d] == 0:
            return random_view_op(rng, shape, writable, allow_expand)
        i = int(rng.integers(-shape[d], shape[d]))
        idx = (slice(None),) * d + (i,)
        return f"[{':, ' * d}{i}]", lambda x: x[idx] if hasattr(x, "unsqueeze") else x[idx + (Ellipsis,)]
    if kind == "narrow":
        d = int(rng.integers(0, nd))
        s = int(rng.integers(0, shape[d] + 1))
        ln = int(rng.integers(0, shape[d] - s + 1))
        return (f".narrow({d}, {s}, {ln})", lambda x: x.narrow(d, s, ln) if hasattr(x, "unsqueeze")
                else x[(slice(None),) * d + (slice(s, s + ln),)])
    if kind == "transpose":
        a, b = (int(v) for v in rng.choice(nd, 2, replace=False))
        return f".transpose({a}, {b})", lambda x: x.transpose(a, b) if hasattr(x, "unsqueeze") else np.swapaxes(x, a, b)
    if kind == "permute":
        p = tuple(int(v) for v in rng.permutation(nd))
        return f".permute{p}", lambda x: x.permute(*p) if hasattr(x, "unsqueeze") else np.transpose(x, p)
    if kind == "squeeze":
        d = int(rng.choice([i for i, n in enumerate(shape) if n == 1]))
        return f".squeeze({d})", lambda x: x.squeeze(d) if hasattr(x, "unsqueeze") else np.squeeze(x, d)
    if kind == "expand":
        ns = tuple(int(rng.integers(1, 4)) if n == 1 else n for n in shape)
        lead = tuple(int(rng.integers(1, 3)) for _ in range(int(rng.integers(0, 2))))
        ns = lead + ns
        return f".expand{ns}", lambda x: x.expand(*ns) if hasattr(x, "unsqueeze") else np.broadcast_to(x, ns)
    if kind == "view":
        # a reshape NumPy can do without copying (merge or split dims)
        size = int(np.prod(shape))
        cands = [(size,)] if nd != 1 else []
        for i in range(nd - 1):
            cands.append(shape[:i] + (shape[i] * shape[i + 1],) + shape[i + 2:])
        for i, n in enumerate(shape):
            for f in (2, 3):
                if n and n % f == 0 and n != f:
                    cands.append(shape[:i] + (f, n // f) + shape[i + 1:])
        if not cands:
            return random_view_op(rng, shape, writable, allow_expand)
        ns = cands[int(rng.integers(0, len(cands)))]

        def f(x, ns=ns):
            if hasattr(x, "unsqueeze"):
                return x.view(*ns) if ns else x.view(())
            v = x.view()
            v.shape = ns  # raises AttributeError when a copy would be needed
            return v
        return f".view{ns}", f
    raise AssertionError(kind)


def random_view_chain(rng, a: np.ndarray, depth: int, writable: bool = True, allow_expand: bool = True):
    """Apply ``depth`` random view ops to NumPy array ``a``; returns (desc list, fns list, view)."""
    descs, fns = [], []
    v = a
    for _ in range(depth):
        desc, f = random_view_op(rng, v.shape, writable, allow_expand)
        try:
            nv = f(v)
        except (AttributeError, ValueError):
            continue  # not a view in NumPy: skip it
        descs.append(desc)
        fns.append(f)
        v = nv
    return descs, fns, v


def apply_chain(fns, x):
    for f in fns:
        x = f(x)
    return x


def to_numpy(t) -> np.ndarray:
    return np.asarray(t.cpu().numpy())


def close(got: np.ndarray, want: np.ndarray, dtype: str, scale: np.ndarray | None = None, rtol=None, atol=None) -> bool:
    """NaN-aware comparison; exact for bool/int; ``scale`` widens atol per element."""
    if got.shape != want.shape:
        return False
    r, a = TOL.get(dtype, (0.0, 0.0))
    r = r if rtol is None else rtol
    a = a if atol is None else atol
    if r == 0 and a == 0:
        return bool(np.array_equal(got, want))
    if np.iscomplexobj(got) or np.iscomplexobj(want):  # parts apart: inf - inf is NaN in complex |g - w|
        sc = None if scale is None else np.nan_to_num(np.asarray(scale, np.float64), nan=0.0)
        return (close(np.real(got).astype(np.float64), np.real(want).astype(np.float64), "float64", sc, r, a) and
                close(np.imag(got).astype(np.float64), np.imag(want).astype(np.float64), "float64", sc, r, a))
    g = got.astype(np.complex128 if np.iscomplexobj(got) else np.float64)
    w = want.astype(np.complex128 if np.iscomplexobj(want) else np.float64)
    tol = a + r * np.abs(w)
    if scale is not None:
        tol = tol + r * np.asarray(scale, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        ok = (g == w) | (np.abs(g - w) <= tol) | (np.isnan(g) & np.isnan(w))
    if np.iscomplexobj(g) or np.iscomplexobj(w):
        ok = ok | (np.isnan(g) & np.isnan(w))
    return bool(np.all(ok))


class Report:
    """Counts cases and collects failures (first few per key printed in full)."""

    def __init__(self, name: str, verbose: bool = False):
        self.name = name
        self.verbose = verbose
        self.ran = 0
        self.skipped = 0
        self.failures: dict[str, list[str]] = {}
        self.stats: dict[str, int] = {}

    def count(self, key: str) -> None:
        self.stats[key] = self.stats.get(key, 0) + 1

    def fail(self, key: str, text: str) -> None:
        self.failures.setdefault(key, []).append(text)
        if self.verbose:
            print("FAIL", key, text, flush=True)

    def run(self, key: str, text: str, fn) -> None:
        """Run one check; fn returns None (pass), a string (failure) or raises."""
        self.ran += 1
        try:
            msg = fn()
        except (UnsupportedDType, UnsupportedOperation):
            self.skipped += 1
            return
        except Exception as e:  # a crash is a failure too
            msg = f"raised {type(e).__name__}: {e}\n{traceback.format_exc(limit=-3)}"
        if msg:
            self.fail(key, f"{text}\n    {msg}")

    def summary(self) -> int:
        print(f"[{self.name}] checks run: {self.ran}, unsupported (skipped): {self.skipped}, "
              f"failing keys: {len(self.failures)}")
        if self.stats:
            print("  coverage:", ", ".join(f"{k}={v}" for k, v in sorted(self.stats.items())))
        for key, items in sorted(self.failures.items()):
            print(f"--- {key}: {len(items)} failure(s); smallest:")
            for t in sorted(items, key=len)[:3]:
                print("  ", t)
        sys.stdout.flush()
        return 1 if self.failures else 0
