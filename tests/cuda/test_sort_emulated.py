"""The CUDA sort.cu kernels: the checks of tests/wgpu/test_sort_wgpu.py on the "cuda" device (a GPU,
or the host emulator with NUMR_CUDA_EMULATE=1), plus float8. Without a GPU, the last test runs this
file and the shared tests/ops/test_sorting.py on the emulator in a child process, in the default
order and checked (buffers end at an inaccessible page, threads and blocks in reverse order), so a
missing barrier or an access past a buffer fails here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import numr as nr

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "wgpu"))
from test_sort_wgpu import (  # noqa: E402
    REAL,
    check_sort,
    oracle_sort,
    run_complex_rejected,
    run_dims_and_views,
    run_dtypes,
    run_edges,
    run_long_rows,
    run_searchsorted,
    run_searchsorted_nd,
    sample,
)

MODES = {"default": {}, "checked": {"NUMR_CUDA_EMULATE_CHECK": "1", "NUMR_CUDA_EMULATE_ORDER": "reverse"}}


@pytest.fixture(name="dev")
def dev_fixture():
    rt = nr.runtime.get("cuda")
    if not rt.is_available():
        pytest.skip(f"cuda unavailable: {rt.unavailable_reason()}")
    return "cuda"


@pytest.mark.parametrize("dtype", REAL)
def test_sort_dtypes_cuda(dev, dtype):
    run_dtypes(dev, dtype)


@pytest.mark.parametrize("dtype,n", [("float32", 5000), ("float64", 2049), ("int8", 9000), ("uint64", 3000),
                                     ("float8_e4m3fn", 4097), ("bfloat16", 4100), ("int64", 17000),
                                     ("float32", 40000)])
def test_sort_long_rows_take_the_global_path_cuda(dev, dtype, n):
    run_long_rows(dev, dtype, n)


def test_sort_dims_and_views_cuda(dev):
    run_dims_and_views(dev)


def test_sort_edges_cuda(dev):
    run_edges(dev)


def test_complex_rejected_cuda(dev):
    run_complex_rejected(dev)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "float8_e5m2", "int8", "uint16",
                                   "int64", "uint64", "bool"])
def test_searchsorted_cuda(dev, dtype):
    run_searchsorted(dev, dtype)


def test_searchsorted_nd_scalars_and_errors_cuda(dev):
    run_searchsorted_nd(dev)


def test_blocks_loop_over_chunks_cuda(dev, monkeypatch):
    """A grid smaller than the chunks: each block sorts several chunks in turn (shared memory reused)."""
    import numr._cuda.ops.sorting as cs

    monkeypatch.setattr(cs, "MAX_GRID", 3)
    rng = np.random.default_rng(9)
    for shape, dim in (((40, 300), -1), ((2, 9000), -1), ((300, 5, 2), 0)):
        a = sample("float32", shape, rng)
        check_sort(nr.tensor(a, device=dev), a, dim, True)


def test_sort_in_a_captured_graph_cuda(dev):
    """sort and searchsorted read nothing back to the host: both capture into a CUDA graph, and a
    replay sorts the buffer's new contents (a long row: the global steps and their scratch)."""
    rt = nr.runtime.get("cuda")
    rng = np.random.default_rng(11)
    a = sample("float32", (2, 9000), rng)
    x = nr.tensor(a, device=dev)
    seq = nr.tensor(np.sort(rng.integers(-9, 9, 50)).astype(np.float32), device=dev)
    g = rt.capture_graph(dev)
    with g:
        v, i = nr.sort(x, descending=True)
        pos = nr.searchsorted(seq, x[0, :100])
    for b in (a, sample("float32", (2, 9000), rng)):
        x.copy_(nr.tensor(b, device=dev))
        g.replay()
        rt.synchronize()
        ev, ei = oracle_sort(b, -1, True)
        np.testing.assert_array_equal(i.numpy(), ei)
        assert v.numpy().tobytes() == ev.tobytes()
        np.testing.assert_array_equal(pos.numpy(), np.searchsorted(seq.numpy(), b[0, :100]))
    g.release()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.skipif(os.environ.get("NUMR_CUDA_EMULATE") == "1", reason="already running on the emulator")
@pytest.mark.skipif(nr.runtime.get("cuda").is_available(), reason="a CUDA GPU is here: the tests above run on it")
@pytest.mark.skipif(shutil.which("g++") is None, reason="the CUDA emulator needs g++")
def test_sort_on_the_emulator(mode):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMR_CUDA_EMULATE")}
    env.update(MODES[mode], NUMR_CUDA_EMULATE="1", NUMR_REQUIRE_BACKENDS="cuda", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-k", "cuda", str(Path(__file__)),
           str(ROOT / "tests" / "ops" / "test_sorting.py")]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    tail = (r.stdout + r.stderr)[-4000:]
    assert r.returncode == 0, tail
    passed = re.search(r"(\d+) passed", r.stdout)
    assert passed and int(passed.group(1)) >= 35 + 100, tail
    assert not re.search(r"\d+ (failed|error)", r.stdout), tail
