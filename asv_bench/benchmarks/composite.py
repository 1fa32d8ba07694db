"""A softmax-like composite from core ops, exp(x - max) / sum, beside NumPy and PyTorch.

Every library runs the same five primitives (max, sub, exp, sum, div) with broadcasting,
so this measures the core ops and their per-call cost together, not a fused kernel."""

from .common import LIBS, Lib


class SoftmaxComposite:
    params = [LIBS, [(64, 128), (4096, 1024)], ["float32", "float64"]]
    param_names = ["lib", "shape", "dtype"]

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, dtype)

    def time_softmax_lastdim(self, lib, shape, dtype):
        self.L.sync(self.L.softmax_composite(self.x, dim=-1))

    def time_softmax_firstdim(self, lib, shape, dtype):
        """Reducing the leading dim: strided reductions and broadcasting along rows."""
        self.L.sync(self.L.softmax_composite(self.x, dim=0))


class NormalizeComposite:
    """(x - mean) / sqrt(var + eps) over the last dim: layer-norm-like, from core ops."""

    params = [LIBS, [(4096, 1024)], ["float32"]]
    param_names = ["lib", "shape", "dtype"]

    def setup(self, lib, shape, dtype):
        self.L = Lib(lib)
        self.x = self.L.randn(shape, dtype)

    def time_normalize(self, lib, shape, dtype):
        L, x = self.L, self.x
        c = x - L.mean(x, -1, keepdim=True)
        self.L.sync(c / L.sqrt(L.mean(c * c, -1, keepdim=True) + 1e-5))
