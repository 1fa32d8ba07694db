"""The global generator: a seed plus a stream counter for Philox4x32-10.

Each call without ``seed=`` takes the next stream of the global seed, so
successive calls differ; ``seed=s`` gives stream 0 of seed s every time.
``seed=`` also takes a :class:`Generator` (numr/random_generator.py: its own
seed and stream counter, NumPy's Generator / torch.Generator) or a fixed
:class:`Stream`: anything with a ``next_stream()`` method.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_state = {"seed": 0x5EED_0F_4E_55, "stream": 0}
MASK64 = (1 << 64) - 1


def manual_seed(seed: int) -> None:
    """Reset the global generator: the numbers that follow are reproducible."""
    with _lock:
        _state["seed"] = int(seed) & MASK64
        _state["stream"] = 0


def initial_seed() -> int:
    return _state["seed"]


class Stream:
    """One fixed (seed, stream) pair, usable as ``seed=``: a composite sampler hands its own
    sub-stream to another public sampler this way."""

    def __init__(self, seed: int, stream: int):
        self.seed, self.stream = int(seed) & MASK64, int(stream) & MASK64

    def next_stream(self) -> tuple[int, int]:
        return self.seed, self.stream


def next_stream(seed: Any) -> tuple[int, int]:
    """(seed, stream) for one random op: ``seed`` None (the global generator), an int (its
    stream 0) or an object with ``next_stream()`` (a Generator, a Stream)."""
    if hasattr(seed, "next_stream"):
        return seed.next_stream()
    if seed is not None:
        return int(seed) & MASK64, 0
    with _lock:
        s = _state["stream"]
        _state["stream"] = s + 1
        return _state["seed"], s + 1


from .random_generator import Generator, Philox, SeedSequence, default_rng  # noqa: E402,F401  (numr.random.default_rng)
