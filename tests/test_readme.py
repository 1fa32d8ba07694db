"""The README's Python examples run as written (the tour names real functions with working
arguments), so the quick start stays true as the API moves. Without a WebGPU backend the tour's
one wgpu line runs on the CPU instead."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

import numr as nr

README = Path(__file__).resolve().parent.parent / "README.md"


def _run(code: str) -> dict:
    if "wgpu" not in nr.runtime.available():
        code = code.replace('device="wgpu"', 'device="cpu"')
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)
    return scope


def test_readme_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 2, "the README's tour and autograd example are its two Python blocks"
    tour = _run(blocks[0])
    x, y = tour["x"].numpy(), tour["y"].numpy().astype(np.float64)
    np.testing.assert_allclose(tour["z"].numpy(), np.exp(x @ y.T).sum(1), rtol=1e-6)  # what the comment says
    np.testing.assert_array_equal(tour["v"].numpy(), x[:, ::-1].T)
    spd = x @ x.T
    assert tour["info"] == 0  # cg converged, and its answer solves the system
    np.testing.assert_allclose(spd @ tour["r"].numpy(), x[0], rtol=1e-4, atol=1e-4)
    assert tour["b"].shape == (100,) and tour["g"].device.runtime_name in ("wgpu", "cpu")
    ag = _run("import numr as nr\n" + blocks[1])
    assert ag["grads"][ag["w"]].shape == (4, 3)
