"""The complex family on 1M complex64 (2**20) beside NumPy and torch, same data.

- ComplexParts: ``z.real`` / ``z.imag`` / view_as_real are views (O(1): per-call cost only, so
  the operands are built at import and asv batches calls; see overhead.py);
- Complex: conj (torch.conj_physical: torch.conj is a lazy bit), angle, complex(re, im) (NumPy
  has no complex(): an empty complex64 array with its parts assigned), and conj of complex128.
WebGPU has no complex dtype (numr-wgpu rows are skipped).

``python asv_bench/benchmarks/complex.py`` prints the times without asv.
"""

from __future__ import annotations

if __name__ == "__main__":  # a script: import the package asv uses, not this folder
    import os
    import sys
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))
    from benchmarks.common import LIBS, Lib
else:
    from .common import LIBS, Lib

import numpy as np  # noqa: E402

import numr as nr  # noqa: E402

N = 1 << 20


def _data(dtype: str = "complex64") -> np.ndarray:
    rng = np.random.default_rng(0)
    return (rng.standard_normal(N) + 1j * rng.standard_normal(N)).astype(dtype)


def _lib(lib: str) -> Lib:
    L = Lib(lib)
    if L.ns is nr and L.device == "wgpu":
        raise NotImplementedError("WebGPU has no complex dtype")
    return L


def _views(lib: str) -> dict:
    ns = _lib(lib).ns
    if ns is np:
        return {"real": lambda z: z.real, "imag": lambda z: z.imag, "view_as_real": lambda z: z.view(np.float32)}
    return {"real": lambda z: z.real, "imag": lambda z: z.imag, "view_as_real": ns.view_as_real}


_PARTS = {}
for _l in LIBS:
    try:
        _PARTS[_l] = (_views(_l), _lib(_l).array(_data()[:4096]))
    except NotImplementedError:
        _PARTS[_l] = None


class ComplexParts:
    params = [LIBS, ["real", "imag", "view_as_real"]]
    param_names = ["lib", "op"]

    def time_view(self, lib, op):
        got = _PARTS[lib]
        if got is None:
            raise NotImplementedError(f"{lib} is not available here")
        got[0][op](got[1])


def _np_complex(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    out = np.empty(re.shape, np.complex64)
    out.real, out.imag = re, im
    return out


class Complex:
    params = [LIBS, ["conj", "angle", "complex", "conj_complex128"]]
    param_names = ["lib", "op"]

    def setup(self, lib, op):
        self.L = L = _lib(lib)
        ns = L.ns
        a = _data("complex128" if op == "conj_complex128" else "complex64")
        self.args = (L.array(a),)
        if op == "complex":
            self.args = (L.array(a.real), L.array(a.imag))
        if ns is np:
            self.fn = {"conj": np.conj, "angle": np.angle, "complex": _np_complex}[op.split("_")[0]]
        elif ns is nr:
            self.fn = getattr(nr, op.split("_")[0])
        else:
            self.fn = {"conj": ns.conj_physical, "angle": ns.angle, "complex": ns.complex}[op.split("_")[0]]

    def time_op(self, lib, op):
        self.L.sync(self.fn(*self.args))


if __name__ == "__main__":
    import timeit
    for op in ComplexParts.params[1]:
        row = []
        for lib in LIBS:
            b = ComplexParts()
            try:
                t = min(timeit.repeat(lambda b=b, lib=lib, op=op: b.time_view(lib, op), number=1000, repeat=5)) / 1000
            except NotImplementedError:
                continue
            row.append(f"{lib} {t * 1e6:8.2f} us")
        print(f"{op:16s}", "  ".join(row))
    for op in Complex.params[1]:
        row = []
        for lib in LIBS:
            b = Complex()
            try:
                b.setup(lib, op)
            except NotImplementedError:
                continue
            t = min(timeit.repeat(lambda b=b, lib=lib, op=op: b.time_op(lib, op), number=1, repeat=20))
            row.append(f"{lib} {t * 1e6:8.1f} us")
        print(f"{op:16s}", "  ".join(row))
