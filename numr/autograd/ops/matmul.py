"""matmul and matmul_bias: ga = g @ b^T, gb = a^T @ g, with 1-d operands
promoted as NumPy does; the engine sums broadcast batch dims."""

from __future__ import annotations

from typing import Any

from ...ops.generic.matmul import COMPOSITES
from ._common import record, register, tensor_call


def matmul_grads(g: Any, a: Any, b: Any, need: list[bool]) -> tuple[Any, Any]:
    a1, b1 = a.ndim == 1, b.ndim == 1
    a2 = a.unsqueeze(0) if a1 else a
    b2 = b.unsqueeze(-1) if b1 else b
    g2 = g
    if a1:
        g2 = g2.unsqueeze(-2 if not b1 else 0)
    if b1:
        g2 = g2.unsqueeze(-1)
    ga = gb = None
    if need[0]:
        ga = g2 @ b2.mT
        if a1:
            ga = ga.squeeze(-2)
    if need[1]:
        gb = a2.mT @ g2
        if b1:
            gb = gb.squeeze(-1)
    return ga, gb


def _matmul_vjp(g, args, out, need, extra):
    return list(matmul_grads(g, args[0], args[1], need))


@register("matmul")
def var_matmul(a: Any, b: Any) -> Any:
    """a @ b (1-d, 2-d, batched with broadcast batch dims)."""
    return record("matmul", (a, b), tensor_call("matmul", (a, b)), _matmul_vjp)


def _matmul_bias_vjp(g, args, out, need, extra):
    ga, gb = matmul_grads(g, args[0], args[1], need)
    return [ga, gb, g if need[2] else None]


@register("matmul_bias")
def var_matmul_bias(a: Any, b: Any, bias: Any) -> Any:
    """a @ b + bias in the fused forward kernel; bias's gradient is summed over broadcast dims."""
    return record("matmul_bias", (a, b, bias), tensor_call("matmul_bias", (a, b, bias)), _matmul_bias_vjp)


for _name, _fn in COMPOSITES.items():  # semiring_matmul, matmul_bias_act: through their public ops
    register(_name)(_fn)

__all__ = ["var_matmul", "var_matmul_bias", "matmul_grads"]
