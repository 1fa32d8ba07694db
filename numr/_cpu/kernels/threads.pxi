# Included by every kernel module: this module's copy of the thread settings (threads.h),
# registered with numr/threads.py, which applies set_num_threads() and the fork state to it.

cdef extern from "threads.h":
    void nr_set_thread_limit(int n)
    int nr_max_threads()
    void nr_set_single_threaded()
    int nr_is_single_threaded()


def _set_thread_limit(int n) -> None:
    """Threads this module's kernels use above their size thresholds (0: OpenMP's default)."""
    nr_set_thread_limit(n)


def _max_threads() -> int:
    """Threads this module's kernels use above their size thresholds."""
    return nr_max_threads()


def _set_single_threaded() -> None:
    """This process is a fork of a multi-threaded parent: one thread from now on."""
    nr_set_single_threaded()


def _is_single_threaded() -> bool:
    return bool(nr_is_single_threaded())


import numr.threads as _numr_threads  # noqa: E402

_numr_threads._register_module(_set_thread_limit, _set_single_threaded)
