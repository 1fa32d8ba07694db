"""Threads of the CPU kernels: nr.set_num_threads / nr.get_num_threads, and numr in a
process forked from a parent that already ran multi-threaded kernels.

GNU OpenMP's thread pool does not survive fork(): without numr's fork handlers
(numr/_cpu/kernels/threads.h) the child's first parallel kernel hangs forever.
"""

from __future__ import annotations

import importlib
import multiprocessing as mp
import pkgutil
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import numr as nr
from numr._cpu.kernels import info

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="fork() start method is Linux-only here")

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


@linux_only
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


@linux_only
def test_parent_keeps_its_threads_after_fork():
    before = info.max_threads()
    proc = mp.get_context("fork").Process(target=lambda: None)
    proc.start()
    proc.join(timeout=60)
    assert proc.exitcode == 0
    assert info.max_threads() == before


def test_set_num_threads_holds_in_every_module_and_python_thread():
    before = nr.get_num_threads()
    from numr._cpu import kernels
    mods = [importlib.import_module(f"numr._cpu.kernels.{m.name}") for m in pkgutil.iter_modules(kernels.__path__)]
    assert {m.__name__.rsplit(".", 1)[1] for m in mods} >= {"binary", "unary", "reduce", "matmul", "copy", "info"}
    try:
        nr.set_num_threads(1)
        assert nr.get_num_threads() == 1
        assert all(m._max_threads() == 1 for m in mods)
        seen = []
        worker = threading.Thread(target=lambda: seen.append((nr.get_num_threads(), (nr.arange(N) * 2).numpy())))
        worker.start()
        worker.join(timeout=60)
        assert seen[0][0] == 1  # a process-wide limit, not the calling thread's OpenMP default
        np.testing.assert_array_equal(seen[0][1], np.arange(N) * 2)
        nr.set_num_threads(3)  # more threads than cores is allowed, as in torch
        assert all(m._max_threads() == 3 for m in mods)
        a = np.random.default_rng(0).standard_normal((300, 200))
        np.testing.assert_allclose((nr.tensor(a) @ nr.tensor(a.T)).numpy(), a @ a.T, rtol=1e-12, atol=1e-12)
    finally:
        nr.set_num_threads(before)
    assert nr.get_num_threads() == before


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-2, ValueError), (1.5, TypeError), ("2", TypeError)])
def test_set_num_threads_rejects_bad_counts(bad, error):
    before = nr.get_num_threads()
    with pytest.raises(error, match="set_num_threads"):
        nr.set_num_threads(bad)
    assert nr.get_num_threads() == before


_FRESH_CHILD = r"""
import os, sys
import numpy as np
import numr as nr
x = nr.ones((1 << 20,), dtype=nr.float32)
assert float((x + 1).sum()) == 2 * (1 << 20)  # the binary kernels start OpenMP's pool
assert "numr._cpu.kernels.matmul" not in sys.modules  # loaded first in the child below
pid = os.fork()
if pid == 0:
    a = nr.ones((300, 300), dtype=nr.float64)
    c = (a @ a).numpy()
    ok = (c == 300.0).all() and nr.get_num_threads() == 1
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@linux_only
def test_module_loaded_first_in_a_forked_child_stays_single_threaded():
    """A kernel module the child loads itself gets the fork state from numr/threads.py."""
    import os
    import subprocess
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(Path(nr.__file__).parent.parent),
                                                                    os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", _FRESH_CHILD], env=env, timeout=120, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
