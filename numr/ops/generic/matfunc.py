"""scipy.linalg's matrix functions written once with numr's public functions (every backend runs
them, batched; autograd differentiates through their parts): sqrtm by the Denman-Beavers product
iteration with determinant scaling (Higham, Functions of Matrices, (6.29)), logm by inverse scaling
and squaring with the Gregory series, signm by the scaled Newton iteration, fractional_matrix_power
from matrix_power or expm(p logm), polar from the SVD, khatri_rao by broadcasting. Each iteration
reads one scalar (the largest residual of the batch) to decide whether to stop."""

from __future__ import annotations

import math
from typing import Any

from ...errors import DTypeError, LinAlgError, ShapeError
from ..prepare import plain
from .decomp import _back, _eps, _low, _mH, _square
from .linalg_extra import _eye_like, matrix_exp_any, matrix_power_any
from .matfunc_banded import solve_banded_any
from .methods import client_methods

_MAX_ITER = 60


def _check(op: str, A: Any) -> int:
    n = _square(op, A)
    if A.dtype.kind not in "fc":
        raise DTypeError(f"{op}: needs a floating-point or complex tensor, got {A.dtype}")
    return n


def _converged(err: float, prev: float, eps: float) -> bool:
    """The Newton-type iterations' stop: one step after ``err`` <= sqrt(eps) (quadratic
    convergence), or once it stagnates below eps^(1/3)."""
    return err <= math.sqrt(eps) or (err < eps ** (1 / 3) and err > prev / 2)


def _norm1(x: Any) -> Any:
    """The 1-norm (largest column sum) of each matrix, no gradient."""
    import numr as nr
    return nr.amax(nr.sum(nr.abs(plain(x)), dim=-2), dim=-1)


def _largest(e: Any) -> float:
    """The largest finite entry of the batch of residuals ``e`` (one host read)."""
    import numr as nr
    return float(nr.amax(nr.where(nr.isfinite(e), e, 0).reshape((-1,))).item())


def _finite(A: Any) -> tuple[Any, Any]:
    """(A with each non-finite matrix replaced by I, the (..., 1, 1) mask of those matrices): a NaN
    matrix gives a NaN result without steering (or stalling) the iteration of the others."""
    import numr as nr
    bad = ~nr.all(nr.isfinite(plain(A)).reshape(tuple(A.shape[:-2]) + (-1,)), dim=-1)
    bad = bad.reshape(tuple(A.shape[:-2]) + (1, 1))
    return nr.where(bad, _eye_like(A), A), bad


def _nan_where(mask: Any, X: Any) -> Any:
    import numr as nr
    return nr.where(mask, math.nan, X)


def _inv(op: str, M: Any) -> Any:
    import numr as nr
    try:
        return nr.inv(M)
    except LinAlgError:
        raise LinAlgError(f"{op}: a matrix is (or became) singular; {op} needs an invertible matrix "
                          f"(and, for signm, no eigenvalue on the imaginary axis)") from None


def _det_scale(M: Any, power: float) -> Any:
    """|det M|^power per matrix, shaped (..., 1, 1) (real, differentiable)."""
    import numr as nr
    _, logabs = nr.slogdet(M)
    return nr.exp(logabs * power).reshape(tuple(M.shape[:-2]) + (1, 1))


def _db_sqrt(op: str, A: Any) -> Any:
    """The Denman-Beavers product form M <- (I + (mu^2 M + mu^-2 M^-1)/2)/2, X <- mu X (I + mu^-2 M^-1)/2
    from M = X = A (mu = |det M|^(-1/2n) while ||M - I|| >= 1e-2); M -> I, X -> A^(1/2). Stops one
    step after ||M - I||_1 <= sqrt(eps) (quadratic convergence) or when it stagnates below eps^(1/3); matrices whose
    M never nears I (no principal root in A's dtype) give NaN."""
    n = A.shape[-1]
    I_ = _eye_like(A)
    M, X = A, A
    scale, last, prev = True, False, math.inf
    for _ in range(_MAX_ITER):
        Minv = _inv(op, M)
        if scale:
            mu2 = _det_scale(M, -1.0 / n)
            X = 0.5 * (mu2 ** 0.5) * (X + X @ Minv / mu2)
            M = 0.5 * I_ + 0.25 * (mu2 * M + Minv / mu2)
        else:
            X = 0.5 * (X + X @ Minv)
            M = 0.5 * I_ + 0.25 * (M + Minv)
        if last:
            break
        err = _largest(_norm1(M - I_))
        last = _converged(err, prev, _eps(A))
        scale, prev = err >= 1e-2, err
    return _nan_where(~(_norm1(M - I_) < 0.5).reshape(tuple(A.shape[:-2]) + (1, 1)), X)


_PHI = 0.01  # the turn for a complex matrix with an eigenvalue on the negative real axis


def _principal_sqrt(op: str, A: Any) -> Any:
    """_db_sqrt; a complex matrix on which it fails (an eigenvalue on the closed negative real axis,
    where the iteration cannot leave the real line) is turned: e^(i phi/2) sqrt(e^(-i phi) A), the
    principal root unless an eigenvalue lies within phi below the negative real axis."""
    import numr as nr
    if A.dtype.kind != "c":
        return _db_sqrt(op, A)
    try:
        X = _db_sqrt(op, A)
    except LinAlgError:  # an iterate hit a singular matrix: turned, or A itself is singular
        X = None
    if X is not None:
        failed = nr.any(nr.isnan(plain(X)).reshape(tuple(A.shape[:-2]) + (-1,)), dim=-1)
        if not bool(nr.any(failed).item()):
            return X
    turned = _db_sqrt(op, A * complex(math.cos(_PHI), -math.sin(_PHI)))
    turned = turned * complex(math.cos(_PHI / 2), math.sin(_PHI / 2))
    return turned if X is None else nr.where(failed.reshape(tuple(A.shape[:-2]) + (1, 1)), turned, X)


def sqrtm_any(A: Any) -> Any:
    """The principal square root X @ X = A (scipy.linalg.sqrtm): the determinant-scaled
    Denman-Beavers iteration; LinAlgError for a singular matrix, NaN for a real matrix without a
    real principal root (a negative real eigenvalue) and for a non-finite one; a complex matrix
    with a negative real eigenvalue gets its (complex) principal root."""
    _check("sqrtm", A)
    if A.size == 0:
        return A * 1
    A, d = _low(A)
    A, bad = _finite(A)
    return _back(_nan_where(bad, _principal_sqrt("sqrtm", A)), d)


_THETA = 0.5  # ||A - I||_1 <= theta before the series: ||Z|| <= theta / (2 - theta) = 1/3


def _gregory_terms(eps: float) -> int:
    """The number of odd terms of 2 atanh(Z) = 2 sum Z^(2i+1)/(2i+1) for a tail under eps."""
    z = _THETA / (2 - _THETA)
    m = 0
    while 2 * z ** (2 * m + 1) / ((2 * m + 1) * (1 - z * z)) > eps / 4:
        m += 1
    return m


def logm_any(A: Any) -> Any:
    """The principal logarithm (scipy.linalg.logm): k square roots until ||A^(1/2^k) - I||_1 <= 1/2,
    then 2^(k+1) atanh(Z), Z = (A_k - I)(A_k + I)^-1, by its odd series in Horner form. Same
    LinAlgError/NaN rules as sqrtm."""
    import numr as nr
    _check("logm", A)
    if A.size == 0:
        return A * 1
    A, d = _low(A)
    A, bad = _finite(A)
    I_ = _eye_like(A)
    k = 0
    while k < _MAX_ITER and _largest(_norm1(A - I_)) > _THETA:
        A, k = _principal_sqrt("logm", A), k + 1
    Z = nr.solve(A + I_, A - I_)
    m = _gregory_terms(_eps(A))
    Z2 = Z @ Z
    S = I_ * (1.0 / (2 * m - 1))
    for i in range(m - 2, -1, -1):
        S = S @ Z2 + I_ * (1.0 / (2 * i + 1))
    return _back(_nan_where(bad, (2.0 ** (k + 1)) * (Z @ S)), d)


def signm_any(A: Any) -> Any:
    """The matrix sign function (scipy.linalg.signm): X <- (mu X + (mu X)^-1)/2 from X = A,
    mu = |det X|^(-1/n) while the step is large; NaN where X^2 does not reach I (an eigenvalue on
    or, numerically, at the imaginary axis), LinAlgError when an iterate is singular."""
    _check("signm", A)
    if A.size == 0:
        return A * 1
    A, d = _low(A)
    A, bad = _finite(A)
    n, I_ = A.shape[-1], _eye_like(A)
    X, scale, last, prev = A, True, False, math.inf
    for _ in range(_MAX_ITER):
        Xinv = _inv("signm", X)
        mu = _det_scale(X, -1.0 / n) if scale else 1.0
        Xn = 0.5 * (mu * X + Xinv / mu)
        if last:
            X = Xn
            break
        err = _largest(_norm1(Xn - X) / _norm1(Xn))
        X = Xn
        last = _converged(err, prev, _eps(A))
        scale, prev = err >= 1e-2, err
    off = ~(_norm1(X @ X - I_) < 0.5).reshape(tuple(A.shape[:-2]) + (1, 1))
    return _back(_nan_where(bad | off, X), d)


def fractional_matrix_power_any(A: Any, p: float) -> Any:
    """A^p (scipy.linalg.fractional_matrix_power): matrix_power for an integer-valued p, else
    expm(p logm(A)) (NaN for a real A with a negative real eigenvalue)."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise DTypeError(f"fractional_matrix_power: p must be a real number, got {p!r}")
    _check("fractional_matrix_power", A)
    if float(p).is_integer():
        return matrix_power_any(A, int(p))
    if A.size == 0:
        return A * 1
    return matrix_exp_any(logm_any(A) * float(p))


def polar_decomposition_any(A: Any, side: str = "right") -> tuple[Any, Any]:
    """(U, P) of scipy.linalg.polar from A = W diag(s) Vh: U = W Vh, P = Vh^H diag(s) Vh (side
    "right", A = U P) or W diag(s) W^H ("left", A = P U); (m, n) A, batched."""
    import numr as nr
    if side not in ("right", "left"):
        raise ValueError(f"polar: side must be 'right' or 'left', got {side!r}")
    if A.ndim < 2:
        raise ShapeError(f"polar: needs (..., m, n) matrices, got shape {tuple(A.shape)}")
    if A.dtype.kind not in "fc":
        raise DTypeError(f"polar: needs a floating-point or complex tensor, got {A.dtype}")
    A, d = _low(A)
    W, s, Vh = nr.svd(A, full_matrices=False)
    s = nr.cast(s, A.dtype) if A.dtype.kind == "c" else s
    U = W @ Vh
    P = _mH(Vh) @ (s.unsqueeze(-1) * Vh) if side == "right" else (W * s.unsqueeze(-2)) @ _mH(W)
    return _back(U, d), _back(P, d)


def khatri_rao_any(a: Any, b: Any) -> Any:
    """(..., I*J, K) with column k the Kronecker product of a[..., :, k] and b[..., :, k]
    (scipy.linalg.khatri_rao), batch dims broadcast."""
    from ...shapes import broadcast_shapes
    if a.ndim < 2 or b.ndim < 2:
        raise ShapeError(f"khatri_rao: both arrays must be (at least) 2-d, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.shape[-1] != b.shape[-1]:
        raise ShapeError(f"khatri_rao: the number of columns must be equal, got {tuple(a.shape)} and "
                         f"{tuple(b.shape)}")
    batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]), op="khatri_rao")
    out = a.unsqueeze(-2) * b.unsqueeze(-3)
    return out.reshape(batch + (a.shape[-2] * b.shape[-2], a.shape[-1]))


#: public name -> the composite taking the public arguments (autograd registers these)
COMPOSITES = {"sqrtm": sqrtm_any, "logm": logm_any, "signm": signm_any,
              "fractional_matrix_power": fractional_matrix_power_any,
              "polar_decomposition": polar_decomposition_any, "khatri_rao": khatri_rao_any,
              "solve_banded": solve_banded_any}

GENERIC = client_methods(COMPOSITES)
