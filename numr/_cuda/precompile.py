"""Compile every CUDA program (family x dtype) into the disk cache ahead of use.

    python -m numr._cuda.precompile [--arch sm_90] [--jobs N]

Without ``--arch`` the arch of GPU 0 is used (CUBIN for its exact compute capability).
NVRTC runs in parallel processes; later runs find everything in the cache.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from .. import dtypes as dt
from . import compiler


def _one(job: tuple[str, int, str]) -> tuple[str, int, str | None]:
    family, code, arch = job
    try:
        compiler.compile_program(family, code, arch)
        return family, code, None
    except Exception as e:  # reported, not fatal: the first use shows the same error
        return family, code, str(e)[:2000]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--arch", help="e.g. sm_90 (default: GPU 0's)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    arch = args.arch
    if arch is None:
        import numr as nr
        rt = nr.runtime.get("cuda")
        if not rt.is_available():
            print(f"precompile: no GPU ({rt.unavailable_reason()}); pass --arch", file=sys.stderr)
            return 2
        arch = rt.state(rt.default_device()).arch
    families = sorted(p.stem for p in compiler.KERNEL_DIR.glob("*.cu"))
    jobs = [(f, d.code, arch) for f in families for d in dt.ALL_DTYPES]
    t0 = time.perf_counter()
    errors = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for fam, code, err in ex.map(_one, jobs):
            if err:
                errors.append(f"{fam} dtype {code}: {err}")
    print(f"precompile: {len(jobs)} programs for {arch} in {time.perf_counter() - t0:.1f} s "
          f"({len(errors)} failed) -> {compiler.cache_dir()}")
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
