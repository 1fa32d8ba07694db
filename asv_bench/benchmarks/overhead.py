"""Per-call overhead: ``a + b`` on 100-element tensors (target <= 3 us for numr on the CPU).

The operands are built at import, not in ``setup``: without a setup method asv batches
many calls per sample, so the time is the per-call cost, not one call plus timer noise."""

from .common import LIBS, Lib

_OPERANDS = {}


def _make(lib):
    try:
        L = Lib(lib)
    except NotImplementedError:
        return None
    return L, L.randn((100,), "float32", seed=1), L.randn((100,), "float32", seed=2)


for _lib in LIBS:
    _OPERANDS[_lib] = _make(_lib)


def _get(lib):
    ops = _OPERANDS[lib]
    if ops is None:
        raise NotImplementedError(f"{lib} is not available here")
    return ops


class Overhead:
    params = [LIBS]
    param_names = ["lib"]

    def time_add_100(self, lib):
        """a + b, two float32 tensors of 100 elements."""
        _, a, b = _OPERANDS[lib] or _get(lib)
        a + b

    def time_mul_scalar_100(self, lib):
        """a * 2.0: a Python scalar operand (weak type)."""
        _, a, _ = _OPERANDS[lib] or _get(lib)
        a * 2.0

    def time_exp_100(self, lib):
        L, a, _ = _OPERANDS[lib] or _get(lib)
        L.exp(a)

    def time_sum_100(self, lib):
        L, a, _ = _OPERANDS[lib] or _get(lib)
        L.sum(a)

    def time_slice_view(self, lib):
        """a[10:90:2]: a view, no kernel at all (pure layout arithmetic)."""
        _, a, _ = _OPERANDS[lib] or _get(lib)
        a[10:90:2]

    def time_add_100_sync(self, lib):
        """a + b including the device sync (what a GPU backend pays per call)."""
        L, a, b = _OPERANDS[lib] or _get(lib)
        L.sync(a + b)
