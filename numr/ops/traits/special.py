"""Special functions, element-wise (torch / scipy.special names). Integer and bool inputs
compute in the default float; float16/bfloat16 in float32, returning their own dtype; complex
raises UnsupportedDType. NaN propagates; poles and infinities give scipy's/torch's values."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...tensor import Tensor


@runtime_checkable
class SpecialOps(Protocol):
    def erf(self, x: Tensor) -> Tensor:
        """The error function 2/sqrt(pi) int_0^x exp(-t^2) dt."""
    def erfc(self, x: Tensor) -> Tensor:
        """1 - erf(x), accurate (no cancellation) for large x."""
    def erfcx(self, x: Tensor) -> Tensor:
        """exp(x^2) erfc(x), the scaled complementary error function."""
    def erfinv(self, x: Tensor) -> Tensor:
        """The inverse of erf on [-1, 1]: +-inf at +-1, NaN outside."""
    def lgamma(self, x: Tensor) -> Tensor:
        """log |Gamma(x)|; inf at the poles 0, -1, -2, ... (torch)."""
    def digamma(self, x: Tensor) -> Tensor:
        """psi(x) = d/dx lgamma(x); -inf at 0, NaN at the negative integers."""
    def polygamma(self, n: int, x: Tensor) -> Tensor:
        """The n-th derivative of digamma (n >= 0)."""
    def multigammaln(self, a: Tensor, p: int) -> Tensor:
        """log of the multivariate gamma function of dimension p (every a > (p-1)/2)."""
    def ndtr(self, x: Tensor) -> Tensor:
        """The standard normal CDF."""
    def ndtri(self, p: Tensor) -> Tensor:
        """The inverse of ndtr on [0, 1]: -inf/inf at 0/1, NaN outside."""
    def log_ndtr(self, x: Tensor) -> Tensor:
        """log ndtr(x), accurate far in the left tail."""
    def i0(self, x: Tensor) -> Tensor:
        """The modified Bessel function of the first kind, order 0."""
    def i0e(self, x: Tensor) -> Tensor:
        """exp(-|x|) i0(x)."""
    def i1(self, x: Tensor) -> Tensor:
        """The modified Bessel function of the first kind, order 1."""
    def i1e(self, x: Tensor) -> Tensor:
        """exp(-|x|) i1(x)."""
    def sinc(self, x: Tensor) -> Tensor:
        """The normalised sinc sin(pi x)/(pi x), 1 at 0."""
    def xlogy(self, x: Tensor, y: Tensor) -> Tensor:
        """x * log(y), 0 where x == 0 (unless y is NaN); broadcasts."""
    def xlog1py(self, x: Tensor, y: Tensor) -> Tensor:
        """x * log1p(y), 0 where x == 0 (unless y is NaN); broadcasts."""
    def entr(self, x: Tensor) -> Tensor:
        """-x log(x) for x > 0, 0 at 0, -inf for x < 0."""
    def logit(self, x: Tensor, eps: float | None = None) -> Tensor:
        """log(x / (1 - x)); with eps, x is first clamped to [eps, 1 - eps]."""
    def expit(self, x: Tensor) -> Tensor:
        """1 / (1 + exp(-x)) (sigmoid)."""
    def gamma_fn(self, x: Tensor) -> Tensor:
        """Gamma(x) (scipy.special.gamma; not nr.gamma, the sampler): inf at +0, -inf at -0,
        NaN at the negative integers and -inf."""
    def beta_fn(self, a: Tensor, b: Tensor) -> Tensor:
        """B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b) (scipy.special.beta; not nr.beta, the sampler)."""
    def betaln(self, a: Tensor, b: Tensor) -> Tensor:
        """log |B(a, b)|."""
    def gammainc(self, a: Tensor, x: Tensor) -> Tensor:
        """The regularized lower incomplete gamma P(a, x); NaN for a < 0 or x < 0; broadcasts."""
    def gammaincc(self, a: Tensor, x: Tensor) -> Tensor:
        """The regularized upper incomplete gamma Q(a, x) = 1 - P(a, x), without cancellation."""
    def betainc(self, a: Tensor, b: Tensor, x: Tensor) -> Tensor:
        """The regularized incomplete beta I_x(a, b); NaN outside 0 <= x <= 1; broadcasts."""
    def bessel_j0(self, x: Tensor) -> Tensor:
        """J0(x), the Bessel function of the first kind of order 0."""
    def bessel_j1(self, x: Tensor) -> Tensor:
        """J1(x), the Bessel function of the first kind of order 1."""
    def bessel_y0(self, x: Tensor) -> Tensor:
        """Y0(x), of the second kind: -inf at 0, NaN for x < 0."""
    def bessel_y1(self, x: Tensor) -> Tensor:
        """Y1(x), of the second kind: -inf at 0, NaN for x < 0."""
    def modified_bessel_k0(self, x: Tensor) -> Tensor:
        """K0(x), the modified Bessel function of the second kind: inf at 0, NaN for x < 0."""
    def modified_bessel_k1(self, x: Tensor) -> Tensor:
        """K1(x): inf at 0, NaN for x < 0."""
    def scaled_modified_bessel_k0(self, x: Tensor) -> Tensor:
        """exp(x) K0(x)."""
    def scaled_modified_bessel_k1(self, x: Tensor) -> Tensor:
        """exp(x) K1(x)."""
    def ellipk(self, m: Tensor) -> Tensor:
        """The complete elliptic integral of the first kind K(m) (parameter m = k^2): inf at 1, NaN above."""
    def ellipe(self, m: Tensor) -> Tensor:
        """The complete elliptic integral of the second kind E(m): 1 at m = 1, NaN above."""
    def gammaincinv(self, a: Tensor, y: Tensor) -> Tensor:
        """x with gammainc(a, x) = y (scipy): 0 at y = 0, inf at 1, NaN outside [0, 1] or a <= 0."""
    def gammainccinv(self, a: Tensor, y: Tensor) -> Tensor:
        """x with gammaincc(a, x) = y (scipy): inf at y = 0, 0 at 1, NaN outside [0, 1] or a <= 0."""
    def betaincinv(self, a: Tensor, b: Tensor, y: Tensor) -> Tensor:
        """x with betainc(a, b, x) = y (scipy): 0/1 at y = 0/1, NaN outside [0, 1] or a, b <= 0."""
    def zeta(self, x: Tensor, q: Tensor | None = None) -> Tensor:
        """The Hurwitz zeta function sum_k (k + q)^-x (torch.special.zeta); without q, Riemann's
        zeta(x) for every real x (scipy.special.zeta)."""
    def fresnel_s(self, x: Tensor) -> Tensor:
        """The Fresnel integral S(x) = int_0^x sin(pi t^2 / 2) dt."""
    def fresnel_c(self, x: Tensor) -> Tensor:
        """The Fresnel integral C(x) = int_0^x cos(pi t^2 / 2) dt."""
    def fresnel(self, x: Tensor) -> tuple[Tensor, Tensor]:
        """(S(x), C(x)) from one evaluation (scipy.special.fresnel)."""
    def legendre_p(self, n: Tensor, x: Tensor) -> Tensor:
        """The Legendre polynomial P_n(x) of integer degree n (a tensor, broadcast with x; n < 0: 0)."""
    def chebyshev_t(self, n: Tensor, x: Tensor) -> Tensor:
        """The Chebyshev polynomial of the first kind T_n(x)."""
    def chebyshev_u(self, n: Tensor, x: Tensor) -> Tensor:
        """The Chebyshev polynomial of the second kind U_n(x)."""
    def hermite_h(self, n: Tensor, x: Tensor) -> Tensor:
        """The physicists' Hermite polynomial H_n(x)."""
    def hermite_he(self, n: Tensor, x: Tensor) -> Tensor:
        """The probabilists' Hermite polynomial He_n(x)."""
    def laguerre_l(self, n: Tensor, x: Tensor) -> Tensor:
        """The Laguerre polynomial L_n(x)."""
    def legendre_p_assoc(self, n: Tensor, m: Tensor, x: Tensor) -> Tensor:
        """The associated Legendre function P_n^m(x), integer n >= 0 and m, with the Condon-Shortley
        phase (scipy.special.lpmv(m, n, x)); 0 where |m| > n (scipy: NaN for m < -n)."""
    def sph_harm_y(self, n: Tensor, m: Tensor, theta: Tensor, phi: Tensor) -> Tensor:
        """The spherical harmonic Y_n^m(theta, phi), theta polar, phi azimuthal (scipy.special.sph_harm_y):
        complex; UnsupportedDType on a backend without complex dtypes."""
    def airy_ai(self, x: Tensor) -> Tensor:
        """The Airy function Ai(x) (torch.special.airy_ai): 0 at +-inf."""
    def airy_ai_prime(self, x: Tensor) -> Tensor:
        """Ai'(x)."""
    def airy_bi(self, x: Tensor) -> Tensor:
        """The Airy function of the second kind Bi(x): inf at +inf, 0 at -inf."""
    def airy_bi_prime(self, x: Tensor) -> Tensor:
        """Bi'(x)."""
    def airy(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """(Ai, Ai', Bi, Bi') from one evaluation (scipy.special.airy)."""
    def hyp1f1(self, a: Tensor, b: Tensor, x: Tensor) -> Tensor:
        """Kummer's confluent hypergeometric function M(a, b, x) = 1F1(a; b; x) (scipy.special.hyp1f1,
        real arguments; inf where b is a non-positive integer)."""
    def hyp2f1(self, a: Tensor, b: Tensor, c: Tensor, x: Tensor) -> Tensor:
        """The Gauss hypergeometric function 2F1(a, b; c; x), real arguments, x <= 1 (scipy.special.hyp2f1;
        NaN for x > 1)."""
