"""Composite ops written once against the op-family protocols.

``GenericOps`` is a mixin every backend client inherits last: a backend that
has a fused kernel for one of these simply defines the method itself.
"""

from __future__ import annotations

from . import (
    activation,
    compare,
    complex,
    conv,
    conv_pool,
    decomp,
    decomp_blocked,
    decomp_eig_gpu,
    decomp_ex,
    decomp_jacobi,
    decomp_ldl,
    distance,
    einsum,
    fft,
    fft_stft,
    indexing,
    indexing_masked,
    indexing_nd,
    indexing_scatter,
    linalg,
    linalg_extra,
    loss,
    loss_ctc,
    loss_pointwise,
    matfunc,
    mathx,
    matmul,
    normalization,
    normalization_instance,
    numeric,
    numeric_hist,
    optim,
    polynomial,
    reduce,
    schur,
    shape,
    shape_copy,
    shape_pad,
    shape_views,
    sorting,
    sorting_consecutive,
    sparse,
    sparse24,
    sparse_solve,
    special_airy,
    special_fresnel,
    special_gamma,
    special_hyp2f1,
    special_hyper,
    special_incomplete,
    special_inverse,
    special_orthopoly,
    special_zeta,
    statistics,
    statistics_nan,
    statistics_order,
)
from .methods import client_methods


class GenericOps:
    """Default implementations of the composite ops, for any client."""

    mean = reduce.mean
    var = reduce.var
    std = reduce.std
    amax = reduce.amax
    amin = reduce.amin
    isclose = compare.isclose
    allclose = compare.allclose
    cat = shape.cat
    stack = shape.stack
    pad = shape_pad.pad
    locals().update({**shape_views.GENERIC, **shape_copy.GENERIC})  # split, repeat, roll, ...
    matmul_bias = matmul.matmul_bias
    matmul_bias_act = matmul.matmul_bias_act
    scaled_mm = matmul.scaled_mm
    semiring_matmul = matmul.semiring_matmul
    index_add = indexing.index_add
    gather = indexing.gather
    scatter_add = indexing.scatter_add
    locals().update(client_methods({**indexing_masked.COMPOSITES, **indexing_scatter.COMPOSITES}))  # masked_fill, ...
    locals().update({**indexing_masked.METHODS, **indexing_scatter.METHODS})  # masked_fill_, scatter_, ...
    locals().update(client_methods({**indexing_nd.COMPOSITES, **sorting_consecutive.COMPOSITES}))  # gather_nd, ...
    locals().update(client_methods(distance.COMPOSITES))  # cdist, pdist, cosine_similarity, ...
    locals().update(client_methods({**loss.COMPOSITES, **loss_pointwise.COMPOSITES,
                                    **loss_ctc.COMPOSITES}))  # cross_entropy, mse_loss, ctc_loss, ...
    locals().update({n: getattr(activation, n) for n in activation.GENERIC})  # softmax, dropout, ...
    einsum = einsum.einsum
    locals().update(linalg.GENERIC)  # tensordot, outer, inner, kron, trace, diagonal, diag, tril, triu, ...
    locals().update(linalg_extra.GENERIC)  # matrix_power, matrix_exp, multi_dot, lu_solve, cross, ...
    locals().update(schur.GENERIC)  # rsf2csf
    locals().update(matfunc.GENERIC)  # sqrtm, logm, signm, fractional_matrix_power, polar_decomposition, ...
    locals().update(normalization.METHODS)  # layer_norm, rms_norm, ...
    locals().update(client_methods(normalization_instance.COMPOSITES))  # instance_norm, normalize, ...
    locals().update({n: getattr(sorting, n) for n in sorting.GENERIC})  # argsort, topk, unique
    unfold = conv.unfold
    fold = conv.fold
    locals().update(client_methods({**conv.COMPOSITES, **conv_pool.COMPOSITES}))
    locals().update(client_methods(mathx.COMPOSITES))  # logaddexp, heaviside, float_power, deg2rad, ...
    locals().update(client_methods({**statistics.COMPOSITES, **statistics_order.COMPOSITES,
                                    **statistics_nan.COMPOSITES}))
    locals().update(client_methods({**polynomial.COMPOSITES, **numeric.COMPOSITES,
                                    **numeric_hist.COMPOSITES}))  # polyval, interp, ...
    locals().update(fft.METHODS)  # fft, ifft, rfft, ..., fftfreq, fftshift, and the transform hooks
    locals().update(client_methods(fft_stft.COMPOSITES))  # stft, istft
    locals().update(client_methods(special_gamma.COMPOSITES))  # erf, lgamma, digamma, i0, ...
    locals().update(client_methods(special_incomplete.COMPOSITES))  # gammainc, betainc, bessel_j0, ellipk, ...
    locals().update(client_methods({**special_airy.COMPOSITES, **special_fresnel.COMPOSITES,
                                    **special_hyper.COMPOSITES, **special_hyp2f1.COMPOSITES}))  # airy, hyp1f1, ...
    locals().update(client_methods({**special_inverse.COMPOSITES, **special_zeta.COMPOSITES,
                                    **special_orthopoly.COMPOSITES}))  # gammaincinv, zeta, legendre_p, ...
    locals().update(complex.METHODS)  # real, imag, view_as_real/complex, conj, angle, complex, polar
    csr_matmul = sparse.csr_matmul  # numr.sparse's kernel (SparseOps), native on the CPU
    sparse24_matmul = sparse24.sparse24_matmul  # 2:4 sparse @ dense (Sparse24Ops); kernels on cpu/cuda/wgpu
    sparse24_prune = sparse24.sparse24_prune  # 2:4 pruning (Sparse24Ops); a kernel on the cpu
    locals().update(sparse_solve.METHODS)  # spsolve, spilu, ...: CPU kernels; GPUs raise UnsupportedOperation
    locals().update({**decomp.GENERIC, **decomp_blocked.METHODS, **decomp_jacobi.METHODS,
                    **decomp_eig_gpu.METHODS})  # linalg (CPU: kernels)
    locals().update(client_methods({**decomp_ex.COMPOSITES, **decomp_ldl.COMPOSITES}))  # cholesky_ex, ldl_factor, ...
    locals().update(optim.METHODS)  # _adam_step, _sgd_step: numr.optim's in-place updates (CPU: kernels)


__all__ = ["GenericOps"]
