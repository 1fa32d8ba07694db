"""Builds numr's CPU kernels: every numr/_cpu/kernels/*.pyx is one extension.

NUMR_PORTABLE=1 builds for a generic x86-64/aarch64 instead of the host's
vector ISA (-march=native). NUMR_DEBUG=1 builds without optimisation.
"""

import glob
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = "numr/_cpu/kernels"


def compile_args() -> list[str]:
    if os.environ.get("NUMR_DEBUG") == "1":
        opt = ["-O0", "-g"]
    else:
        opt = ["-O3"]
    if os.environ.get("NUMR_PORTABLE") != "1":
        opt.append("-march=native")
    # Neither flag changes a result, NaN and inf included. -fno-math-errno lets GCC
    # vectorise libm calls. -fno-trapping-math lets it if-convert a select over FP
    # math (numr never reads the FP exception flags): without it GCC sinks one arm
    # into a branch and the `omp simd` loop stays scalar (softplus ran 14x slower).
    # -Wno-psabi: reduce_arg.h's static helpers pass 64-byte vectors, which a build without
    # AVX-512 (NUMR_PORTABLE) warns about although they never cross a library boundary.
    return opt + ["-fopenmp", "-fno-math-errno", "-fno-trapping-math", "-Wno-psabi", "-Wno-unused-function",
                  "-Wno-unreachable-code", "-DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION"]


headers = glob.glob(f"{KERNELS}/*.h") + glob.glob(f"{KERNELS}/*.pxi")
extensions = [
    Extension(
        name=path[:-4].replace("/", "."),
        sources=[path],
        include_dirs=[KERNELS, np.get_include()],
        extra_compile_args=compile_args(),
        extra_link_args=["-fopenmp"],
        depends=headers,
    )
    for path in sorted(glob.glob(f"{KERNELS}/*.pyx"))
    # NUMR_ONLY=unary,binary builds just those kernels (handy while developing)
    if not os.environ.get("NUMR_ONLY") or os.path.basename(path)[:-4] in os.environ["NUMR_ONLY"].split(",")
]

JOBS = int(os.environ.get("NUMR_BUILD_JOBS", os.cpu_count() or 1))

setup(
    options={"build_ext": {"parallel": JOBS}},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        nthreads=JOBS,
        quiet=True,
    ),
)
