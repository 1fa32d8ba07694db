"""``python -m numr``: the backends and devices found here, then a short demo on each."""

from __future__ import annotations

import sys
import time

import numr as nr


def describe_runtimes() -> list[str]:
    """Print every registered runtime; return the names of the available ones."""
    usable = []
    for name in nr.runtime.names():
        try:
            rt = nr.runtime.get(name)
        except Exception as e:  # a broken optional backend must not hide the others
            print(f"{name:5s}  failed to load: {type(e).__name__}: {e}")
            continue
        if not rt.is_available():
            print(f"{name:5s}  unavailable: {rt.unavailable_reason()}")
            continue
        usable.append(name)
        print(f"{name:5s}  available")
        for dev in rt.devices():
            info = rt.device_info(dev)
            details = ", ".join(f"{k}={v}" for k, v in info.items())
            print(f"       device {dev}: {details}")
            dtypes = sorted(rt.supported_dtypes(dev), key=lambda d: (d.kind, d.itemsize))
            print(f"       dtypes: {' '.join(d.name for d in dtypes)}")
    return usable


def demo(device: str) -> None:
    """A small computation whose answer is known: checks the device really computes."""
    t0 = time.perf_counter()
    x = nr.randn(64, 32, device=device, seed=0, dtype=nr.float32)
    w = nr.randn(32, 16, device=device, seed=1, dtype=nr.float32)
    y = (x @ w).exp().sum(dim=1)
    host = x.numpy().astype("float64") @ w.numpy().astype("float64")
    import numpy as np
    expect = np.exp(host).sum(axis=1)
    err = float(np.max(np.abs(y.numpy() - expect) / np.abs(expect)))
    # uniform streams are bit-exact across backends (randn differs by libm ulps)
    same = np.array_equal(nr.rand(1000, device=device, seed=7).numpy(), nr.rand(1000, seed=7).numpy())
    dt = (time.perf_counter() - t0) * 1e3
    print(f"  {device}: exp(x @ w).sum(dim=1) for x (64, 32), w (32, 16) float32 -> shape {y.shape}, "
          f"max rel. error vs NumPy float64 {err:.1e}; rand(seed=7) equals the CPU's bit for bit: {same}; {dt:.0f} ms")


def main() -> int:
    print(f"numr {nr.__version__}")
    usable = describe_runtimes()
    print("demo:")
    failed = False
    for name in usable:
        try:
            demo(name)
        except Exception as e:
            failed = True
            print(f"  {name}: FAILED: {type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
