"""numr's asv benchmarks: every file compares numr with NumPy and PyTorch in one run.

Start from ``common.py`` (LIBS, Lib): it documents how to write a benchmark so
that ``tools/bench_ratios.py`` can print numr/NumPy and numr/torch ratios.
"""

import importlib.util
import os
import sys

if importlib.util.find_spec("numr") is None:  # asv "existing" env without an installed numr: use this checkout
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
