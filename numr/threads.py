"""How many threads the CPU kernels use: ``nr.set_num_threads`` / ``nr.get_num_threads``,
as ``torch.set_num_threads``. The default is OpenMP's (``OMP_NUM_THREADS``, else one per
core); kernels below their size thresholds run on one thread whatever the setting.

Every kernel extension module holds its own copy of the settings
(``numr/_cpu/kernels/threads.h``) and registers its setters here when it loads, so the
limit is process-wide and reaches modules loaded later. The same goes for the fork state:
in a child forked from a multi-threaded parent, GNU OpenMP's thread pool is gone and
every kernel must stay on one thread, including those of modules the child loads first.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable

_limit = 0  # set_num_threads(); 0: OpenMP's default
_single_threaded = False  # a fork of a multi-threaded parent
_modules: list[tuple[Callable[[int], None], Callable[[], None]]] = []


def _register_module(set_limit: Callable[[int], None], set_single: Callable[[], None]) -> None:
    """Called by each kernel module as it loads (threads.pxi)."""
    _modules.append((set_limit, set_single))
    if _limit:
        set_limit(_limit)
    if _single_threaded:
        set_single()


def set_num_threads(n: int) -> None:
    """Use at most ``n`` threads in every CPU kernel (in a process forked from a
    multi-threaded parent the kernels stay on one thread: GNU OpenMP's pool is gone)."""
    global _limit
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"set_num_threads: need an int, got {n!r}") from None
    if n < 1:
        raise ValueError(f"set_num_threads: need at least 1 thread, got {n}")
    _limit = n
    for set_limit, _ in _modules:
        set_limit(n)


def get_num_threads() -> int:
    """Threads the CPU kernels use above their size thresholds."""
    from ._cpu.kernels import info
    return info._max_threads()


def _after_fork_in_child() -> None:
    """The C fork handlers of the modules loaded before the fork decided; pass it on."""
    global _single_threaded
    try:
        from ._cpu.kernels import info
    except ImportError:
        return
    if info._is_single_threaded():
        _single_threaded = True
        for _, set_single in _modules:
            set_single()


def _load_info() -> None:
    """Load one kernel module now, so that its fork handlers run at every later fork."""
    try:
        from ._cpu.kernels import info  # noqa: F401
    except ImportError:  # the CPU extensions are not built: no OpenMP in this process
        pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
_load_info()

__all__ = ["get_num_threads", "set_num_threads"]
