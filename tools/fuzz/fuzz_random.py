"""Randomized check of the Philox streams (docs/architecture.md "Random numbers").

For random seeds (0, small, 64-bit with high bits), streams (0, the global counter after
manual_seed, and streams past 2**32 through the client call), shapes (0-d, empty, odd
element counts), every float dtype for rand/randn and every integer dtype with random
[low, high) ranges for randint (spans below and above 2**32, negative lows, dtype limits):
every backend must give the numbers of a vectorised NumPy Philox4x32-10 reference (rand,
randint bit for bit, randn within a few ulp), the right shape/dtype/range; dropout's mask is
rand's stream; plus cheap moments on a few thousand samples.

    PYTHONPATH=. python tools/fuzz/fuzz_random.py --seed 0 --cases 200 --devices cpu,wgpu
"""

# ruff: noqa: B023, B905  (closures run at once in their loop iteration; zips of equal lengths)

from __future__ import annotations

import sys

import numpy as np
from _common import Report, devices, nr, parse_args, to_numpy

M32 = np.uint64(0xFFFFFFFF)


def philox(blocks: np.ndarray, stream: int, seed: int) -> np.ndarray:
    """Philox4x32-10 words (n, 4) for counters (block, stream) and key seed; NumPy uint64 lanes."""
    b = blocks.astype(np.uint64)
    c = [b & M32, b >> np.uint64(32), np.full_like(b, stream & 0xFFFFFFFF), np.full_like(b, stream >> 32)]
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0 = np.uint64(0xD2511F53) * c[0]
        p1 = np.uint64(0xCD9E8D57) * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0), p1 & M32, (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1),
             p0 & M32]
    return np.stack(c, axis=-1)


def ref_rand(n, dtype, seed, stream):
    i = np.arange(n)
    if dtype == "float64":
        w = philox(i // 2, stream, seed)
        k = (i % 2) * 2
        hi, lo = w[i, k] if n else w[:0, 0], w[i, k + 1] if n else w[:0, 0]
        u = ((hi << np.uint64(32)) | lo) >> np.uint64(11)
        return u.astype(np.float64) * 2.0 ** -53
    w = philox(i // 4, stream, seed)
    v = (w[i, i % 4] >> np.uint64(8)).astype(np.float32) * np.float32(2.0 ** -24) if n else np.zeros(0, np.float32)
    return v.astype(nr.dtype(dtype).np)


def ref_randn(n, dtype, seed, stream):
    i = np.arange(n)
    w = philox(i // 2, stream, seed)
    k = (i % 2) * 2
    a, b = (w[i, k], w[i, k + 1]) if n else (np.zeros(0, np.uint64),) * 2
    u1 = (a + 1).astype(np.float64) * 2.0 ** -32
    u2 = b.astype(np.float64) * 2.0 ** -32
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(2 * np.pi * u2)


def ref_randint(n, low, high, dtype, seed, stream):
    span = high - low
    i = np.arange(n)
    if span <= 2 ** 32:
        w = philox(i // 4, stream, seed)
        vals = [int(x) % span for x in (w[i, i % 4] if n else [])]
    else:
        w = philox(i // 2, stream, seed)
        k = (i % 2) * 2
        vals = [((int(w[j, kk]) << 32) | int(w[j, kk + 1])) % span for j, kk in zip(i, k)]
    return np.array([low + v for v in vals], dtype=nr.dtype(dtype).np).reshape(-1)


def rand_seed(rng):
    r = rng.random()
    if r < 0.2:
        return 0
    if r < 0.5:
        return int(rng.integers(0, 1000))
    if r < 0.8:
        return int(rng.integers(0, 2 ** 63)) * 2 + int(rng.integers(0, 2))
    return int(rng.integers(0, 2 ** 32)) << 32


def rand_range(rng, dtype):
    info = np.iinfo(nr.dtype(dtype).np)
    lo_, hi_ = int(info.min), int(info.max) + 1
    r = rng.random()
    if r < 0.3:
        return lo_, hi_  # the whole dtype
    if r < 0.5 and hi_ - lo_ > 2 ** 32:
        a = int(rng.integers(lo_, max(lo_ + 1, hi_ - 2 ** 33))) if lo_ < 0 else int(rng.integers(0, 2 ** 62))
        return a, min(hi_, a + 2 ** 32 + int(rng.integers(1, 2 ** 31)))
    a = int(rng.integers(max(lo_, -1000), min(hi_ - 1, 1000)))
    return a, min(hi_, a + int(rng.integers(1, 300)))


def main() -> int:
    args = parse_args(__doc__, 200)
    rng = np.random.default_rng(args.seed)
    devs = devices(args.devices)
    rep = Report("random " + ",".join(devs), args.verbose)
    for case in range(args.cases):
        op = str(rng.choice(["rand", "randn", "randint", "global", "client_stream", "dropout"]))
        shape = tuple(int(rng.integers(0, 6)) if rng.random() < 0.1 else int(rng.integers(1, 9))
                      for _ in range(int(rng.integers(0, 4))))
        n = int(np.prod(shape))
        seed = rand_seed(rng)
        fdt = str(rng.choice(["float16", "bfloat16", "float32", "float64"]))
        idt = str(rng.choice(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]))
        low, high = rand_range(rng, idt)
        stream = int(rng.choice([1, 7, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 5, 2 ** 63 + 3]))
        which = str(rng.choice(["rand", "randn", "randint"]))
        n_before = int(rng.integers(0, 3))
        p_drop = float(rng.choice([0.1, 0.5, 0.9]))
        rep.count(op)
        for dev in devs:
            text = (f"case {case} [{dev}] {op} shape={shape} seed={seed} rand dtype={fdt} randint dtype={idt} "
                    f"[{low}, {high}) stream={stream} which={which}")

            def check(dev=dev):
                if op in ("rand", "randn", "randint", "client_stream", "global"):
                    kind = op if op in ("rand", "randn", "randint") else which
                    st = 0
                    if op == "rand":
                        t = nr.rand(shape, dtype=fdt, device=dev, seed=seed)
                    elif op == "randn":
                        t = nr.randn(shape, dtype=fdt, device=dev, seed=seed)
                    elif op == "randint":
                        t = nr.randint(low, high, shape, dtype=idt, device=dev, seed=seed)
                    elif op == "global":
                        nr.manual_seed(seed)
                        k = n_before
                        for _ in range(k):
                            nr.rand((2,), device=dev)
                        st = k + 1
                        t = (nr.rand(shape, dtype=fdt, device=dev) if kind == "rand" else
                             nr.randn(shape, dtype=fdt, device=dev) if kind == "randn" else
                             nr.randint(low, high, shape, dtype=idt, device=dev))
                    else:
                        c = nr.device(dev).client if hasattr(nr, "device") else None
                        if c is None:
                            return None
                        st = stream
                        d = nr.dtype(fdt if kind != "randint" else idt)
                        t = (c.rand(shape, d, seed, stream) if kind == "rand" else
                             c.randn(shape, d, seed, stream) if kind == "randn" else
                             c.randint(low, high, shape, d, seed, stream))
                    want_dt = nr.dtype(idt if kind == "randint" else fdt)
                    if tuple(t.shape) != shape or t.dtype is not want_dt:
                        return f"shape/dtype {t.shape} {t.dtype}, want {shape} {want_dt}"
                    got = to_numpy(t).reshape(-1)
                    if kind == "rand":
                        want = ref_rand(n, fdt, seed, st)
                        if not np.array_equal(got, want):
                            return f"rand differs at {np.flatnonzero(got != want)[:5]}: {got[:6]} vs {want[:6]}"
                        if fdt in ("float32", "float64") and n and not (got.min() >= 0 and got.max() < 1):
                            return "rand outside [0, 1)"
                    elif kind == "randn":
                        want = ref_randn(n, fdt, seed, st)
                        g = got.astype(np.float64)
                        tol = {"float64": 1e-13, "float32": 3e-6, "float16": 2e-3, "bfloat16": 1.6e-2}[fdt]
                        if not np.all(np.abs(g - want) <= tol * (1 + np.abs(want)) * 2):
                            bad = np.flatnonzero(~(np.abs(g - want) <= tol * (1 + np.abs(want)) * 2))
                            return f"randn differs at {bad[:5]}: {g[bad[:4]]} vs {want[bad[:4]]}"
                    else:
                        want = ref_randint(n, low, high, idt, seed, st)
                        if not np.array_equal(got, want):
                            bad = np.flatnonzero(got != want)
                            return f"randint differs at {bad[:5]}: {got[bad[:4]]} vs {want[bad[:4]]}"
                        if n and (int(got.min()) < low or int(got.max()) >= high):
                            return "randint outside [low, high)"
                    return None
                # dropout: kept where rand(float32 stream) >= p, scaled by 1/(1-p)
                p = p_drop
                x = nr.ones(shape, dtype=fdt, device=dev)
                y = to_numpy(nr.dropout(x, p=p, seed=seed)).astype(np.float64).reshape(-1)
                u = ref_rand(n, "float32", seed, 0)
                keep = u >= np.float32(p)
                want = np.where(keep, np.float64(np.asarray(1.0 / (1.0 - p)).astype(nr.dtype(fdt).np)), 0.0)
                if not np.allclose(y, want, rtol={"float64": 1e-15, "float32": 1e-7}.get(fdt, 1e-2)):
                    return f"dropout mask/scale differ: {y[:8]} vs {want[:8]}"
                return None
            rep.run(f"{dev}:{op}", text, check)
    # moments, once per device
    for dev in devs:
        def moments(dev=dev):
            out = []
            for fdt in ("float32", "float64"):
                u = to_numpy(nr.rand((4099,), dtype=fdt, device=dev, seed=11)).astype(np.float64)
                z = to_numpy(nr.randn((4099,), dtype=fdt, device=dev, seed=12)).astype(np.float64)
                if abs(u.mean() - 0.5) > 5 * np.sqrt(1 / 12 / u.size) or abs(u.var() - 1 / 12) > 0.01:
                    out.append(f"rand {fdt} moments {u.mean()} {u.var()}")
                if abs(z.mean()) > 5 / np.sqrt(z.size) or abs(z.var() - 1) > 0.1:
                    out.append(f"randn {fdt} moments {z.mean()} {z.var()}")
            k = to_numpy(nr.randint(-3, 4, (4099,), dtype="int8", device=dev, seed=13))
            if set(np.unique(k).tolist()) != set(range(-3, 4)) or abs(k.mean()) > 0.2:
                out.append(f"randint moments {np.unique(k)} {k.mean()}")
            return "; ".join(out) or None
        rep.run(f"{dev}:moments", f"[{dev}] moments", moments)
    return rep.summary()


if __name__ == "__main__":
    sys.exit(main())
