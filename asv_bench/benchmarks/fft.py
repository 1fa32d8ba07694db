"""FFTs: numr beside np.fft (pocketfft) and torch.fft (MKL/pocketfft), same data.

- fft of 1M complex64 (2**20), of 4096 rows of 1024 complex64 (along the last dim), of a prime
  length 10007 complex64 (Bluestein in numr);
- rfft of 1M float32;
- fft2 of a 1024x1024 complex64 matrix.
NumPy 2 computes complex64 in complex64 (pocketfft's float path), torch too.

``python asv_bench/benchmarks/fft.py`` prints the times without asv.
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

CASES = ["fft_1M", "fft_4096x1024", "fft_prime_10007", "rfft_1M", "fft2_1024x1024"]
_SHAPES = {"fft_1M": (1 << 20,), "fft_4096x1024": (4096, 1024), "fft_prime_10007": (10007,),
           "rfft_1M": (1 << 20,), "fft2_1024x1024": (1024, 1024)}


class Fft:
    params = [LIBS, CASES]
    param_names = ["lib", "case"]

    def setup(self, lib, case):
        self.L = Lib(lib)
        shape = _SHAPES[case]
        rng = np.random.default_rng(0)
        a = rng.standard_normal(shape).astype(np.float32)
        if not case.startswith("rfft"):
            a = (a + 1j * rng.standard_normal(shape).astype(np.float32)).astype(np.complex64)
        self.x = self.L.array(a)
        ns = self.L.ns
        mod = ns if ns is nr else ns.fft
        name = case.split("_")[0]
        self.fn = getattr(mod, name)

    def time_fft(self, lib, case):
        self.L.sync(self.fn(self.x))


if __name__ == "__main__":
    import timeit
    for case in CASES:
        row = []
        for lib in LIBS:
            b = Fft()
            b.setup(lib, case)
            b.time_fft(lib, case)
            t = min(timeit.repeat(lambda b=b, lib=lib, case=case: b.time_fft(lib, case), number=1, repeat=5))
            row.append(f"{lib} {t * 1e3:8.2f} ms")
        print(f"{case:18s}", "  ".join(row))
