"""einsum: numr (greedy pairwise contraction, each pair one batched matmul) beside
np.einsum(optimize=True) and torch.einsum, float32."""

from .common import LIBS, Lib

#: name -> (equation, operand shapes)
CASES = {
    "batch_matmul": ("bij,bjk->bik", [(32, 64, 64), (32, 64, 64)]),
    "dot_1M": ("ij,ij->", [(1000, 1000), (1000, 1000)]),
    "attention_scores": ("bhqd,bhkd->bhqk", [(2, 4, 32, 16), (2, 4, 32, 16)]),
    "diagonal": ("ii->i", [(1000, 1000)]),
    "chain": ("ij,jk,kl->il", [(256, 256), (256, 256), (256, 16)]),
}


def einsum(L: Lib, eq: str, ops: list) -> object:
    """The library's einsum; NumPy with its contraction-order optimizer (BLAS pairs)."""
    if L.name == "numpy":
        return L.ns.einsum(eq, *ops, optimize=True)
    return L.ns.einsum(eq, *ops)


class Einsum:
    params = [LIBS, list(CASES)]
    param_names = ["lib", "case"]

    def setup(self, lib, case):
        self.L = Lib(lib)
        self.eq, shapes = CASES[case]
        self.ops = [self.L.randn(s, "float32", seed=i) for i, s in enumerate(shapes)]
        einsum(self.L, self.eq, self.ops)  # warm: numr caches the plan, torch its kernels

    def time_einsum(self, lib, case):
        self.L.sync(einsum(self.L, self.eq, self.ops))
