"""The CUDA kernels run in CI: a subset of the shared parity suite on the host emulator
(NUMR_CUDA_EMULATE=1, numr/_cuda/emulate.py) in a child process, with the "cuda" backend
required. It covers every kernel family that has block-level cooperation (tiled and tensor-core
matmul, warp-shuffle reductions, softmax, scans, nonzero's ballots, Philox random) on the dtypes
with distinct code paths, the element-wise families (strided and broadcast indexing), and graph
capture. It runs twice: in the default order, and checked (every buffer ends at an inaccessible
page, threads and blocks run in reverse order), so an out-of-bounds access, a use after free or a
missing barrier fails here rather than flakily on a GPU.
The whole parity suite runs on the emulator with ``NUMR_CUDA_EMULATE=1 pytest tests -k cuda``
(a few minutes)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import numr as nr

ROOT = Path(__file__).resolve().parents[2]
FILES = ["test_matmul.py", "test_reduce.py", "test_activation.py", "test_cumulative.py", "test_indexing_ops.py",
         "test_index_add.py", "test_random.py", "test_binary.py", "test_unary.py", "test_cast.py", "test_compare.py",
         "test_where.py"]
# one dtype of each kind with its own kernel path; the large-size tests are the slow ones on the emulator
SELECT = ("cuda and not (complex or float8 or int8 or int16 or uint or int32 or float64 or large or accuracy "
          "or views or mean_var or multithreaded)")


MODES = {"default": {}, "checked": {"NUMR_CUDA_EMULATE_CHECK": "1", "NUMR_CUDA_EMULATE_ORDER": "reverse"}}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.skipif(os.environ.get("NUMR_CUDA_EMULATE") == "1", reason="already running on the emulator")
@pytest.mark.skipif(nr.runtime.get("cuda").is_available(), reason="a CUDA GPU is here: the parity suite runs on it")
@pytest.mark.skipif(shutil.which("g++") is None, reason="the CUDA emulator needs g++")
def test_parity_subset_on_the_emulator(mode):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMR_CUDA_EMULATE")}
    env.update(MODES[mode], NUMR_CUDA_EMULATE="1", NUMR_REQUIRE_BACKENDS="cuda", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-k", SELECT,
           *[str(ROOT / "tests" / "ops" / f) for f in FILES], str(ROOT / "tests" / "cuda" / "test_gpu.py")]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    tail = (r.stdout + r.stderr)[-4000:]
    assert r.returncode == 0, tail
    passed = re.search(r"(\d+) passed", r.stdout)
    assert passed and int(passed.group(1)) >= 300, tail
    assert not re.search(r"\d+ (failed|error)", r.stdout), tail
