"""numr.special: torch.special's names for numr's special functions (SpecialOps), so code
written for torch.special or scipy.special reads the same: gammaln = lgamma, psi = digamma,
gamma/beta = gamma_fn/beta_fn (numr's op names: nr.gamma and nr.beta are the random samplers),
j0/y0/k0e = bessel_j0/bessel_y0/scaled_modified_bessel_k0, ..., softmax/log_softmax from the
activations, scipy's eval_legendre(n, x)/lpmv(m, v, x) and torch's legendre_polynomial_p(x, n)
argument orders for the orthogonal polynomials."""

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
rel_entr = _OPS["rel_entr"]
softmax = _OPS["softmax"]
# scipy.special's names; gamma/beta are the functions here (nr.gamma/nr.beta are the samplers)
gamma = _OPS["gamma_fn"]
beta = _OPS["beta_fn"]
betaln = _OPS["betaln"]
gammainc = _OPS["gammainc"]
gammaincc = _OPS["gammaincc"]
betainc = _OPS["betainc"]
j0 = bessel_j0 = _OPS["bessel_j0"]
j1 = bessel_j1 = _OPS["bessel_j1"]
y0 = bessel_y0 = _OPS["bessel_y0"]
y1 = bessel_y1 = _OPS["bessel_y1"]
k0 = modified_bessel_k0 = _OPS["modified_bessel_k0"]
k1 = modified_bessel_k1 = _OPS["modified_bessel_k1"]
k0e = scaled_modified_bessel_k0 = _OPS["scaled_modified_bessel_k0"]
k1e = scaled_modified_bessel_k1 = _OPS["scaled_modified_bessel_k1"]
modified_bessel_i0 = i0
modified_bessel_i1 = i1
ellipk = _OPS["ellipk"]
ellipe = _OPS["ellipe"]
log_softmax = _OPS["log_softmax"]
gammaincinv = _OPS["gammaincinv"]
gammainccinv = _OPS["gammainccinv"]
betaincinv = _OPS["betaincinv"]
zeta = _OPS["zeta"]
fresnel = _OPS["fresnel"]
airy = _OPS["airy"]
airy_ai = _OPS["airy_ai"]
hyp1f1 = _OPS["hyp1f1"]
hyp2f1 = _OPS["hyp2f1"]
_lpmv = _OPS["legendre_p_assoc"]
sph_harm_y = _OPS["sph_harm_y"]
# scipy's eval_* take (n, x) as numr's ops
eval_legendre = _OPS["legendre_p"]
eval_chebyt = _OPS["chebyshev_t"]
eval_chebyu = _OPS["chebyshev_u"]
eval_hermite = _OPS["hermite_h"]
eval_hermitenorm = _OPS["hermite_he"]
eval_laguerre = _OPS["laguerre_l"]


def lpmv(m: Any, v: Any, x: Any) -> Any:
    """scipy.special.lpmv(m, v, x) = legendre_p_assoc(v, m, x) (integer degree v)."""
    return _lpmv(v, m, x)


def _torch_poly(op: str) -> Any:
    fn = _OPS[op]

    def f(input: Any, n: Any) -> Any:  # noqa: A002  (torch's argument name)
        return fn(n, input)
    f.__name__, f.__doc__ = op, f"torch.special's (input, n) order for numr.{op}(n, input)."
    return f


legendre_polynomial_p = _torch_poly("legendre_p")
chebyshev_polynomial_t = _torch_poly("chebyshev_t")
chebyshev_polynomial_u = _torch_poly("chebyshev_u")
hermite_polynomial_h = _torch_poly("hermite_h")
hermite_polynomial_he = _torch_poly("hermite_he")
laguerre_polynomial_l = _torch_poly("laguerre_l")



def _polygamma_method(self: _Tensor, n: int) -> Any:
    """torch's ``x.polygamma(n)`` = polygamma(n, x) (the generic method would pass x as n)."""
    return polygamma(n, self)


_Tensor.polygamma = _polygamma_method


def kl_div(x: Any, y: Any) -> Any:
    """scipy.special.kl_div: x log(x / y) - x + y for x, y > 0; y for x = 0, y >= 0; inf otherwise
    (element-wise; nr.kl_div is torch's loss)."""
    return rel_entr(x, y) - x + y


__all__ = ["airy", "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "beta", "betainc",
           "betaincinv", "betaln", "chebyshev_polynomial_t", "chebyshev_polynomial_u", "digamma", "ellipe",
           "ellipk", "entr", "erf", "erfc", "erfcx", "erfinv", "eval_chebyt", "eval_chebyu", "eval_hermite",
           "eval_hermitenorm", "eval_laguerre", "eval_legendre", "expit", "fresnel", "gamma", "gammainc",
           "gammaincc", "gammainccinv", "gammaincinv", "gammaln", "hermite_polynomial_h",
           "hermite_polynomial_he", "hyp1f1", "hyp2f1", "i0", "i0e", "i1", "i1e", "j0", "j1", "k0", "k0e",
           "k1", "k1e", "kl_div", "laguerre_polynomial_l", "legendre_polynomial_p", "log_ndtr", "log_softmax",
           "logit", "lpmv", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
           "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "rel_entr",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "sinc", "softmax", "sph_harm_y",
           "xlog1py", "xlogy", "y0", "y1", "zeta"]
