"""numr.special: torch.special's names for numr's special functions (SpecialOps), so code
written for torch.special or scipy.special reads the same: gammaln = lgamma, psi = digamma,
and softmax/log_softmax from the activations."""

from __future__ import annotations

from typing import Any

from .ops import api as _api
from .tensor import Tensor as _Tensor

_OPS = _api.OPS

erf = _OPS["erf"]
erfc = _OPS["erfc"]
erfcx = _OPS["erfcx"]
erfinv = _OPS["erfinv"]
gammaln = _OPS["lgamma"]
digamma = _OPS["digamma"]
psi = _OPS["digamma"]
polygamma = _OPS["polygamma"]
multigammaln = _OPS["multigammaln"]
ndtr = _OPS["ndtr"]
ndtri = _OPS["ndtri"]
log_ndtr = _OPS["log_ndtr"]
expit = _OPS["expit"]
logit = _OPS["logit"]
i0 = _OPS["i0"]
i0e = _OPS["i0e"]
i1 = _OPS["i1"]
i1e = _OPS["i1e"]
sinc = _OPS["sinc"]
xlogy = _OPS["xlogy"]
xlog1py = _OPS["xlog1py"]
entr = _OPS["entr"]
softmax = _OPS["softmax"]
log_softmax = _OPS["log_softmax"]



def _polygamma_method(self: _Tensor, n: int) -> Any:
    """torch's ``x.polygamma(n)`` = polygamma(n, x) (the generic method would pass x as n)."""
    return polygamma(n, self)


_Tensor.polygamma = _polygamma_method

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "expit", "gammaln", "i0", "i0e", "i1",
           "i1e", "log_ndtr", "log_softmax", "logit", "multigammaln", "ndtr", "ndtri", "polygamma", "psi",
           "sinc", "softmax", "xlog1py", "xlogy"]
