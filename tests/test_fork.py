"""numr in a process forked from a parent that already ran multi-threaded kernels.

GNU OpenMP's thread pool does not survive fork(): without numr's fork handlers
(numr/_cpu/kernels/threads.h) the child's first parallel kernel hangs forever.
"""

from __future__ import annotations

import multiprocessing as mp
import sys

import numpy as np
import pytest

import numr as nr
from numr._cpu.kernels import info

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork() start method is Linux-only here")

N = 1 << 20  # far above every kernel's parallel threshold


def _child_work(queue: mp.Queue) -> None:
    x = nr.arange(N, dtype=nr.float32)
    a = nr.ones((256, 256), dtype=nr.float64)
    queue.put({
        "threads": info.max_threads(),
        "add": (x + 1).numpy(),
        "sum": float(x.sum()),
        "exp": nr.exp(x / N).numpy(),
        "matmul": (a @ a).numpy(),
        "cumsum": nr.cumsum(x, dim=0).numpy(),
        "randn": nr.randn(N, seed=3).numpy(),
    })


def test_forked_child_runs_parallel_kernels_without_hanging():
    x = nr.arange(N, dtype=nr.float32)
    assert float((x * 2).sum()) == float(np.arange(N, dtype=np.float64).sum() * 2)  # starts the pool
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=_child_work, args=(queue,))
    proc.start()
    try:
        got = queue.get(timeout=120)
    finally:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.kill()
    assert proc.exitcode == 0
    assert got["threads"] == 1  # the parent had threads: the child's kernels run on one
    ref = np.arange(N, dtype=np.float32)
    np.testing.assert_array_equal(got["add"], ref + 1)
    assert got["sum"] == pytest.approx(float(ref.astype(np.float64).sum()), rel=1e-6)
    np.testing.assert_allclose(got["exp"], np.exp(ref / N), rtol=2e-7)
    np.testing.assert_array_equal(got["matmul"], np.full((256, 256), 256.0))
    np.testing.assert_allclose(got["cumsum"], np.cumsum(ref.astype(np.float64)), rtol=1e-6)
    np.testing.assert_array_equal(got["randn"], nr.randn(N, seed=3).numpy())  # same stream


def test_parent_keeps_its_threads_after_fork():
    before = info.max_threads()
    proc = mp.get_context("fork").Process(target=lambda: None)
    proc.start()
    proc.join(timeout=60)
    assert proc.exitcode == 0
    assert info.max_threads() == before
