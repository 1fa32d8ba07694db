"""The CPU kernels as built: no loop calls libgcc's float16 soft-float routines, and the
vector-math loops are vectorised.

GCC narrows a comparison of floats converted from float16 (`v != v`, `v == 0`) to a
float16 comparison; without AVX512-FP16 that is a call to __eqhf2/__nehf2 per element
(float16 clamp and max ran 10-40x slower). The kernels test NaN with NR_ISNAN and zero by
bits instead; the linker pulls those routines in only when a kernel calls one.
"""

from __future__ import annotations

import glob
import os
import re
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


# loops whose speed depends on GCC vectorising vmath*.h / binary_intdiv.h code: a change that
# stops one (an int/double conversion GCC cannot vectorise, a select turned into a branch)
# silently makes it 5-60x slower without changing a result
VECTOR_LOOPS = {
    "unary": [f"nr_u_{op}_{t}" for t in ("f32", "f64") for op in (
        "exp", "expm1", "log", "log1p", "tanh", "sinh", "cosh", "atan", "asin", "acos", "sin", "cos", "tan",
        "asinh", "acosh", "atanh", "cbrt", "exp2", "log2", "log10")],
    "activation": [f"nra_{op}_{t}" for t in ("f32", "f64", "bf16") for op in (
        "sigmoid", "silu", "gelu", "gelut", "elu", "softplus", "silu_mul", "gelu_mul")],
    "binary": ["nr_b_pow_f32", "nr_b_pow_any_f32", "nr_b_pow_f64", "nr_b_pow_any_f64", "nr_b_atan2_f32",
               "nr_b_atan2_f64", "nr_b_hypot_f32", "nr_b_hypot_f64", "nr_b_floor_divide_i64", "nr_b_remainder_i64",
               "nr_b_floor_divide_u64"],
}


def _bodies(lib: str) -> dict[str, str]:
    out = subprocess.run([shutil.which("objdump"), "-d", "--no-show-raw-insn", lib], capture_output=True,
                         text=True, check=True).stdout
    bodies, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            name = m.group(1).split(".")[0]  # GCC's clones: nr_b_pow_any_f32.constprop.0
            bodies.setdefault(name, [])
        elif name is not None:
            bodies[name].append(line)
    return {k: "\n".join(v) for k, v in bodies.items()}


@pytest.mark.parametrize("ext", sorted(VECTOR_LOOPS))
def test_vector_math_loops_are_vectorised(ext):
    if shutil.which("objdump") is None:
        pytest.skip("binutils' objdump is not installed")
    lib = (glob.glob(os.path.join(KERNELS, f"{ext}.*.so")) or [None])[0]
    assert lib, f"no built {ext} kernel in {KERNELS}"
    bodies = _bodies(lib)
    missing = [f for f in VECTOR_LOOPS[ext] if f not in bodies]
    assert not missing, f"loops not found in {os.path.basename(lib)}: {missing}"
    scalar = []
    for f in VECTOR_LOOPS[ext]:
        packed = [ln for ln in bodies[f].splitlines()
                  if re.search(r"\s(v?(mul|add|sub)p[sd]|vfn?m(add|sub)\d+p[sd]|v?pmuludq|vpmullq)\s", ln)]
        if not packed:
            scalar.append(f)
    assert not scalar, f"loops with no packed arithmetic (not vectorised): {scalar}"
