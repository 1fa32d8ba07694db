"""The global generator: a seed plus a stream counter for Philox4x32-10.

Each call without ``seed=`` takes the next stream of the global seed, so
successive calls differ; ``seed=s`` gives stream 0 of seed s every time.
"""

from __future__ import annotations

import threading

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


def next_stream(seed: int | None) -> tuple[int, int]:
    """(seed, stream) for one random op."""
    if seed is not None:
        return int(seed) & MASK64, 0
    with _lock:
        s = _state["stream"]
        _state["stream"] = s + 1
        return _state["seed"], s + 1
