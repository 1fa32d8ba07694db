"""The CPU kernels as built: no loop calls libgcc's float16 soft-float routines.

GCC narrows a comparison of floats converted from float16 (`v != v`, `v == 0`) to a
float16 comparison; without AVX512-FP16 that is a call to __eqhf2/__nehf2 per element
(float16 clamp and max ran 10-40x slower). The kernels test NaN with NR_ISNAN and zero by
bits instead; the linker pulls those routines in only when a kernel calls one.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess

import pytest

import numr

KERNELS = os.path.join(os.path.dirname(numr.__file__), "_cpu", "kernels")


def test_no_float16_soft_float_calls():
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("binutils' nm is not installed")
    libs = glob.glob(os.path.join(KERNELS, "*.so")) + glob.glob(os.path.join(KERNELS, "*.pyd"))
    assert libs, f"no built kernels in {KERNELS}"
    found = {}
    for lib in libs:
        symbols = subprocess.run([nm, lib], capture_output=True, text=True, check=True).stdout
        soft = sorted({line.split()[-1] for line in symbols.splitlines() if line.endswith("hf2")})
        if soft:
            found[os.path.basename(lib)] = soft
    assert not found, f"float16 soft-float routines linked into the kernels: {found}"
