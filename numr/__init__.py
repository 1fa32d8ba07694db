"""numr: numerical computing with multi-backend GPU acceleration (CPU/CUDA/WebGPU).

    import numr as nr
    x = nr.randn(4, 8, device="cpu", seed=0)
    y = (x @ x.T).exp().sum(dim=1)
"""

from __future__ import annotations

from . import errors, random, runtime
from .creation import (
    arange,
    asarray,
    empty,
    empty_like,
    eye,
    from_dlpack,
    from_numpy,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    rand,
    randint,
    randn,
    tensor,
    zeros,
    zeros_like,
)
from .dtypes import (
    ALL_DTYPES,
    DType,
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype,
    finfo,
    float8_e4m3fn,
    float8_e5m2,
    float16,
    float32,
    float64,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    result_type,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .errors import (
    DeviceError,
    DomainError,
    DTypeError,
    IndexOutOfRange,
    KernelCompileError,
    LinAlgError,
    NumrError,
    OutOfMemoryError,
    ShapeError,
    UnsupportedDType,
    UnsupportedOperation,
)
from .ops import api as _api
from .random import Generator, manual_seed
from .runtime import Device, device
from .tensor import Tensor
from .threads import get_num_threads, set_num_threads

__version__ = "0.1.0"

globals().update(_api.OPS)

from .ops.generic import distributions as _dist  # noqa: E402  (uniform, normal, poisson, multinomial, ...)
from .ops.generic import distributions_choice as _dist_choice  # noqa: E402
from .ops.generic import distributions_continuous as _dist_cont  # noqa: E402  (weibull, wald, standard_t, ...)
from .ops.generic import distributions_count as _dist_count  # noqa: E402  (hypergeometric, zipf, permutation, ...)
from .ops.generic import distributions_discrete as _dist_discrete  # noqa: E402
from .ops.generic import distributions_gamma as _dist_gamma  # noqa: E402
from .ops.generic import distributions_mixture as _dist_mix  # noqa: E402  (f_distribution, vonmises, noncentral_*)
from .ops.generic import distributions_multivariate as _dist_mv  # noqa: E402  (multivariate_normal, wishart)

globals().update({n: getattr(m, n) for m in (_dist, _dist_discrete, _dist_gamma, _dist_choice, _dist_mv,
                                             _dist_cont, _dist_mix, _dist_count)
                  for n in m.PUBLIC})

from . import decomposition, linalg, qmc, special  # noqa: E402  (torch.linalg's, torch.special's, TensorLy's, scipy.stats.qmc's names)
from .ops.generic.complex import is_complex  # noqa: E402


def cast(x: Tensor, dtype: object) -> Tensor:  # noqa: F811  (the keyword users pass)
    """x converted to ``dtype`` (a new tensor)."""
    return _api.call("cast", (x, globals()["dtype"](dtype)), {})


def broadcast_to(x: Tensor, shape: object) -> Tensor:
    return x.broadcast_to(shape)


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    from .shapes import broadcast_shapes as _bs
    return _bs(*shapes)


def reshape(x: Tensor, shape: object) -> Tensor:
    return x.reshape(shape)


def transpose(x: Tensor, dim0: int = 0, dim1: int = 1) -> Tensor:
    return x.transpose(dim0, dim1)


def permute(x: Tensor, dims: object) -> Tensor:
    return x.permute(dims)


def squeeze(x: Tensor, dim: object = None) -> Tensor:
    return x.squeeze(dim)


def unsqueeze(x: Tensor, dim: int) -> Tensor:
    return x.unsqueeze(dim)


def flip(x: Tensor, dims: object = None) -> Tensor:
    return x.flip(dims)


def flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return x.flatten(start_dim, end_dim)


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    return x.narrow(dim, start, length)


def clip(x: Tensor, min: object = None, max: object = None) -> Tensor:
    return _api.call("clamp", (x, min, max), {})


bool = bool_  # noqa: A001  (nr.bool, as in NumPy/PyTorch)
absolute = globals()["abs"]
divide, multiply, subtract, negative, power = div, mul, sub, neg, pow  # noqa: F821
true_divide = div  # noqa: F821

from . import autograd, optim, sparse  # noqa: E402  (autograd registers Var and DualTensor with the public functions)
from .sparse.sparse24 import Sparse24Tensor, prune_to_24, sparse_24_matmul, sparse_24_to_dense  # noqa: E402
