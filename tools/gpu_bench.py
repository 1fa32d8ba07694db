"""Side-by-side GPU benchmark: numr vs CuPy vs PyTorch on the same GPU.

    python tools/gpu_bench.py [--budget SECONDS]

Device-to-device copy bandwidth is the ceiling for the memory-bound rows (add, sum, SwiGLU,
softmax). Every cell is measured independently and fails soft ("err"/"n/a"); the table comes
last. Timings: median of repeated runs between device synchronisations.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import traceback

N_ELEMS = 1 << 24  # 16M float32 = 64 MiB
ROWS, COLS = 8192, 4096  # SwiGLU / softmax
MM = 4096
VOCAB, WIDTH, TOKENS = 32000, 512, 8192  # index_add_: an embedding gradient
SORT_N, SROWS, SCOLS = 1 << 24, 65536, 1024  # sort: one long row; many rows
if os.environ.get("NUMR_BENCH_SMOKE") == "1":  # tiny sizes: checks the script itself (e.g. on the emulator)
    N_ELEMS, ROWS, COLS, MM = 4096, 64, 64, 64
    VOCAB, WIDTH, TOKENS = 100, 16, 64
    SORT_N, SROWS, SCOLS = 9000, 16, 64  # 9000: past one block, the global sort steps run


def timeit(fn, sync, budget: float = 1.0, min_reps: int = 3) -> float:
    """Median seconds per call of fn()."""
    fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    one = max(time.perf_counter() - t0, 1e-6)
    reps = max(min_reps, min(50, int(budget / one)))
    inner = max(1, min(20, int(0.02 / one)))
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / inner)
    return statistics.median(times)


def numr_cases():
    import numr as nr
    rt = nr.runtime.get("cuda")
    if not rt.is_available():
        raise RuntimeError(rt.unavailable_reason())
    dev = "cuda"
    sync = lambda: rt.synchronize()  # noqa: E731
    x = nr.rand(N_ELEMS, dtype=nr.float32, device=dev, seed=1)
    y = nr.rand(N_ELEMS, dtype=nr.float32, device=dev, seed=2)
    out = nr.empty(N_ELEMS, dtype=nr.float32, device=dev)
    g = nr.randn(ROWS, COLS, dtype=nr.float32, device=dev, seed=3)
    u = nr.randn(ROWS, COLS, dtype=nr.float32, device=dev, seed=4)
    a32 = nr.randn(MM, MM, dtype=nr.float32, device=dev, seed=5)
    b32 = nr.randn(MM, MM, dtype=nr.float32, device=dev, seed=6)
    a16, b16 = a32.astype(nr.bfloat16), b32.astype(nr.bfloat16)
    table = nr.zeros((VOCAB, WIDTH), dtype=nr.float32, device=dev)
    rows = nr.randint(0, VOCAB, (TOKENS,), device=dev, seed=7)
    src = nr.randn(TOKENS, WIDTH, dtype=nr.float32, device=dev, seed=8)
    s1 = nr.rand(SORT_N, dtype=nr.float32, device=dev, seed=9)
    s2 = nr.rand(SROWS, SCOLS, dtype=nr.float32, device=dev, seed=10)
    return sync, {
        "copy": lambda: out.copy_(x),
        "add": lambda: x + y,
        "sum": lambda: x.sum(),
        "mm_f32": lambda: a32 @ b32,
        "mm_bf16": lambda: a16 @ b16,
        "swiglu": lambda: nr.silu_mul(g, u),
        "softmax": lambda: nr.softmax(g, -1),
        "index_add": lambda: table.index_add_(0, rows, src),
        "sort_1d": lambda: nr.sort(s1),
        "sort_rows": lambda: nr.sort(s2, -1),
    }


def torch_cases():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False  # plain float32, like numr
    d = "cuda"
    sync = torch.cuda.synchronize
    gen = torch.Generator(device=d).manual_seed(0)
    x = torch.rand(N_ELEMS, device=d, generator=gen)
    y = torch.rand(N_ELEMS, device=d, generator=gen)
    out = torch.empty_like(x)
    g = torch.randn(ROWS, COLS, device=d, generator=gen)
    u = torch.randn(ROWS, COLS, device=d, generator=gen)
    a32 = torch.randn(MM, MM, device=d, generator=gen)
    b32 = torch.randn(MM, MM, device=d, generator=gen)
    a16, b16 = a32.bfloat16(), b32.bfloat16()
    table = torch.zeros(VOCAB, WIDTH, device=d)
    rows = torch.randint(0, VOCAB, (TOKENS,), device=d, generator=gen)
    src = torch.randn(TOKENS, WIDTH, device=d, generator=gen)
    s1 = torch.rand(SORT_N, device=d, generator=gen)
    s2 = torch.rand(SROWS, SCOLS, device=d, generator=gen)
    F = torch.nn.functional
    return sync, {
        "copy": lambda: out.copy_(x),
        "add": lambda: x + y,
        "sum": lambda: x.sum(),
        "mm_f32": lambda: a32 @ b32,
        "mm_bf16": lambda: a16 @ b16,
        "swiglu": lambda: F.silu(g) * u,
        "softmax": lambda: torch.softmax(g, -1),
        "index_add": lambda: table.index_add_(0, rows, src),
        "sort_1d": lambda: torch.sort(s1, stable=True),
        "sort_rows": lambda: torch.sort(s2, dim=-1, stable=True),
    }


def cupy_cases():
    import cupy as cp
    import cupyx
    sync = cp.cuda.Device().synchronize
    rs = cp.random.RandomState(0)
    x = rs.random_sample(N_ELEMS, dtype=cp.float32)
    y = rs.random_sample(N_ELEMS, dtype=cp.float32)
    out = cp.empty_like(x)
    g = rs.standard_normal((ROWS, COLS), dtype=cp.float32)
    u = rs.standard_normal((ROWS, COLS), dtype=cp.float32)
    a32 = rs.standard_normal((MM, MM), dtype=cp.float32)
    b32 = rs.standard_normal((MM, MM), dtype=cp.float32)
    table = cp.zeros((VOCAB, WIDTH), dtype=cp.float32)
    rows = rs.randint(0, VOCAB, TOKENS)
    src = rs.standard_normal((TOKENS, WIDTH), dtype=cp.float32)
    s1 = rs.random_sample(SORT_N, dtype=cp.float32)
    s2 = rs.random_sample((SROWS, SCOLS), dtype=cp.float32)
    swiglu = cp.ElementwiseKernel("float32 g, float32 u", "float32 o", "o = g / (1.0f + expf(-g)) * u", "swiglu")

    def softmax():
        m = g.max(axis=-1, keepdims=True)
        e = cp.exp(g - m)
        return e / e.sum(axis=-1, keepdims=True)

    return sync, {
        "copy": lambda: cp.copyto(out, x),
        "add": lambda: x + y,
        "sum": lambda: x.sum(),
        "mm_f32": lambda: a32 @ b32,
        "swiglu": lambda: swiglu(g, u),
        "softmax": softmax,
        "index_add": lambda: cupyx.scatter_add(table, rows, src),
        "sort_1d": lambda: cp.sort(s1),  # values only (cupy has no stable sort with indices in one call)
        "sort_rows": lambda: cp.sort(s2, axis=-1),
    }


# name: (label, unit, work per call)
ROWS_DEF = {
    "copy": ("d2d copy f32 16M", "GB/s", 2 * 4 * N_ELEMS / 1e9),
    "add": ("add f32 16M", "GB/s", 3 * 4 * N_ELEMS / 1e9),
    "sum": ("sum f32 16M", "GB/s", 4 * N_ELEMS / 1e9),
    "mm_f32": ("matmul f32 4096^3", "TFLOP/s", 2 * MM ** 3 / 1e12),
    "mm_bf16": ("matmul bf16 4096^3", "TFLOP/s", 2 * MM ** 3 / 1e12),
    "swiglu": ("SwiGLU f32 8192x4096", "GB/s", 3 * 4 * ROWS * COLS / 1e9),
    "softmax": ("softmax f32 8192x4096", "GB/s", 2 * 4 * ROWS * COLS / 1e9),
    "index_add": ("index_add_ 8192x512", "GB/s", 3 * 4 * TOKENS * WIDTH / 1e9),
    "sort_1d": ("sort f32 16M (+idx)", "Gkey/s", SORT_N / 1e9),
    "sort_rows": ("sort f32 65536x1024", "Gkey/s", SROWS * SCOLS / 1e9),
}


def check_numr_against_torch() -> list[str]:
    """A few result checks (numr vs PyTorch on the same inputs through DLPack)."""
    import numpy as np
    import torch

    import numr as nr
    notes = []
    a = torch.randn(257, 193, device="cuda", dtype=torch.float32)
    b = torch.randn(193, 131, device="cuda", dtype=torch.float32)
    na = nr.from_dlpack(a)
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        ta, tb = a.to(dtype), b.to(dtype)
        got = torch.from_dlpack(nr.from_dlpack(ta) @ nr.from_dlpack(tb)).float()
        ref = (ta.float() @ tb.float())
        err = ((got - ref).abs().max() / ref.abs().max()).item()
        notes.append(f"matmul {str(dtype)[6:]} 257x193x131 rel err {err:.2e}")
    s = torch.from_dlpack(nr.softmax(na, -1))
    notes.append(f"softmax max abs err {(s - torch.softmax(a, -1)).abs().max().item():.2e}")
    x = nr.rand(1000, seed=7, device="cuda", dtype=nr.float32).numpy()
    c = nr.rand(1000, seed=7, device="cpu", dtype=nr.float32).numpy()
    notes.append(f"rand seed parity cuda vs cpu: {'identical' if np.array_equal(x, c) else 'DIFFERENT'}")
    return notes


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=120.0, help="seconds for the whole benchmark")
    args = ap.parse_args()
    t_start = time.perf_counter()
    per = max(0.2, args.budget / 40)
    results: dict[str, dict[str, str]] = {k: {} for k in ROWS_DEF}
    for lib, make in (("numr", numr_cases), ("cupy", cupy_cases), ("torch", torch_cases)):
        try:
            sync, cases = make()
        except Exception as e:
            print(f"{lib}: setup failed: {type(e).__name__}: {e}", file=sys.stderr)
            for k in ROWS_DEF:
                results[k][lib] = "n/a"
            continue
        for k, (_, _, work) in ROWS_DEF.items():
            if time.perf_counter() - t_start > args.budget:
                results[k][lib] = "time"
                continue
            fn = cases.get(k)
            if fn is None:
                results[k][lib] = "n/a"
                continue
            try:
                t = timeit(fn, sync, per)
                results[k][lib] = f"{work / t:.1f}"
            except Exception as e:
                results[k][lib] = "err"
                print(f"{lib} {k}: {type(e).__name__}: {e}", file=sys.stderr)
                traceback.print_exc(limit=3)
        del cases
    try:
        for line in check_numr_against_torch():
            print("check:", line)
    except Exception as e:
        print(f"check: failed: {type(e).__name__}: {e}")
    print(f"\n== numr vs CuPy vs PyTorch (higher is better; {time.perf_counter() - t_start:.0f} s)")
    print(f"{'benchmark':24} {'unit':8} {'numr':>8} {'cupy':>8} {'torch':>8} {'numr/best':>10}")
    for k, (label, unit, _) in ROWS_DEF.items():
        r = results[k]
        vals = [float(v) for lib, v in r.items() if lib != "numr" and v.replace(".", "", 1).isdigit()]
        ratio = ""
        if vals and r.get("numr", "").replace(".", "", 1).isdigit():
            ratio = f"{float(r['numr']) / max(vals):.2f}"
        print(f"{label:24} {unit:8} {r.get('numr', '-'):>8} {r.get('cupy', '-'):>8} {r.get('torch', '-'):>8} "
              f"{ratio:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
