"""Automatic differentiation: reverse mode (Var, GradFn, backward), higher order
(backward_with_graph, hvp), forward mode (DualTensor, jvp, jacobian_forward), function transforms
(grad, value_and_grad, vjp, jacobian, jacrev, jacfwd, vhp, hessian),
checkpointing and a finite-difference gradcheck.

    import numr as nr
    from numr.autograd import Var, backward
    x = Var(nr.randn((3, 4), seed=0))
    loss = (nr.silu(x) @ x.T).sum()
    g = backward(loss)[x]
"""

from __future__ import annotations

from . import tracer  # noqa: F401  (registers Var with numr.ops.api)
from .engine import BackwardHook, GradStore, backward, backward_with_graph, backward_with_hooks, sum_to_shape
from .forward import DualTensor, jacobian_forward, jvp
from .functional import GradcheckError, checkpoint, gradcheck, hvp, saved_tensor_stats
from .grad_fn import Edge, FormulaFn, GradFn, SavedTensorModifiedError
from .jacobian import jacfwd, jacobian, jacrev
from .ops.activation import *  # noqa: F401,F403
from .ops.elementwise import *  # noqa: F401,F403
from .ops.matmul import var_matmul, var_matmul_bias  # noqa: F401
from .ops.reduce import *  # noqa: F401,F403
from .ops.shape import *  # noqa: F401,F403
from .transforms import grad, hessian, value_and_grad, vhp, vjp
from .var import Var, enable_grad, is_grad_enabled, no_grad, set_grad_enabled

__all__ = [
    "Var", "GradFn", "FormulaFn", "Edge", "GradStore", "BackwardHook", "backward", "backward_with_graph",
    "backward_with_hooks", "sum_to_shape", "DualTensor", "jvp", "jacobian_forward", "hvp", "hessian",
    "checkpoint", "gradcheck", "GradcheckError", "saved_tensor_stats", "no_grad", "enable_grad",
    "set_grad_enabled", "is_grad_enabled", "SavedTensorModifiedError", "grad", "value_and_grad", "vjp", "vhp",
    "jacobian", "jacrev", "jacfwd",
]
