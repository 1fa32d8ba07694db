"""Element-wise ops: numr beside NumPy and PyTorch (when installed) in one class, so the
ratios come from one run. Targets (2 cores, float32, 16M elements): add, mul and exp
numr/NumPy <= 1.0; ``a + b`` on two 100-element tensors <= 3 us per call.

Every op allocates its result (``c = a + b``), as user code does."""

from .common import LIBS, Lib

N = 16_000_000


class Add:
    params = [LIBS, [N], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.a = self.L.randn((n,), dtype, seed=1)
        self.b = self.L.randn((n,), dtype, seed=2)

    def time_add(self, lib, n, dtype):
        self.L.sync(self.a + self.b)

    def time_mul(self, lib, n, dtype):
        self.L.sync(self.a * self.b)


class Broadcast:
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.m = self.L.randn((4000, 4000), "float32", seed=1)
        self.row = self.L.randn((4000,), "float32", seed=2)
        self.mt = self.m.T

    def time_add_row(self, lib):
        """(4000, 4000) + (4000,): the row operand is read with stride 0."""
        self.L.sync(self.m + self.row)

    def time_add_transposed(self, lib):
        """m.T + m: a strided operand (no copy first)."""
        self.L.sync(self.mt + self.m)


class Unary:
    params = [LIBS, [N], ["float32"]]
    param_names = ["lib", "n", "dtype"]

    def setup(self, lib, n, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn((n,), dtype, seed=3)
        self.pos = self.L.rand((n,), dtype, seed=4)

    def time_exp(self, lib, n, dtype):
        self.L.sync(self.L.exp(self.x))

    def time_tanh(self, lib, n, dtype):
        self.L.sync(self.L.tanh(self.x))

    def time_log(self, lib, n, dtype):
        self.L.sync(self.L.ns.log(self.pos))

    def time_sin(self, lib, n, dtype):
        self.L.sync(self.L.ns.sin(self.x))

    def time_sqrt(self, lib, n, dtype):
        self.L.sync(self.L.sqrt(self.pos))


_SMALL = {}


def _small(lib):
    if lib not in _SMALL:
        try:
            L = Lib(lib)
            _SMALL[lib] = (L, L.randn((100,), "float32", seed=1), L.randn((100,), "float32", seed=2))
        except NotImplementedError:
            _SMALL[lib] = None
    if _SMALL[lib] is None:
        raise NotImplementedError(f"{lib} is not available here")
    return _SMALL[lib]


for _lib in LIBS:  # built at import so that asv can batch many calls per sample (no setup method)
    try:
        _small(_lib)
    except NotImplementedError:
        pass


class Small:
    """Per-call cost on 100 elements (no setup: asv batches calls)."""

    params = [LIBS]
    param_names = ["lib"]

    def time_add_100(self, lib):
        _, a, b = _small(lib)
        a + b

    def time_add_scalar_100(self, lib):
        _, a, _ = _small(lib)
        a + 1.0

    def time_exp_100(self, lib):
        L, a, _ = _small(lib)
        L.exp(a)

    def time_lt_100(self, lib):
        _, a, b = _small(lib)
        _ = a < b

    def time_relu_100(self, lib):
        L, a, _ = _small(lib)
        L.relu(a)

    def time_where_100(self, lib):
        L, a, b = _small(lib)
        L.where(a < b, a, b)

    def time_cat_100(self, lib):
        L, a, b = _small(lib)
        L.cat([a, b])


class TransposedOperands:
    """Element-wise ops on transposed views (x.T): results in the operands' memory order."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.x = self.L.randn((512, 1024), "float32", seed=1).T
        self.y = self.L.randn((512, 1024), "float32", seed=2).T

    def time_add(self, lib):
        self.L.sync(self.x + self.y)

    def time_exp(self, lib):
        self.L.sync(self.L.exp(self.x))


class MathExtras:
    """NumPy's element-wise extras on 1M float32 (numr: native copysign/fmod/nan_to_num kernels,
    logaddexp a composite)."""

    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        self.a = self.L.randn((1_000_000,), "float32", seed=1)
        self.b = self.L.randn((1_000_000,), "float32", seed=2)
        self.ns = self.L.ns

    def time_copysign(self, lib):
        self.L.sync(self.ns.copysign(self.a, self.b))

    def time_fmod(self, lib):
        self.L.sync(self.ns.fmod(self.a, self.b))

    def time_logaddexp(self, lib):
        self.L.sync(self.ns.logaddexp(self.a, self.b))

    def time_nan_to_num(self, lib):
        self.L.sync(self.ns.nan_to_num(self.a))
