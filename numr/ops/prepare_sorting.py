"""Preparation shared by every backend's sorting kernels: argument checks and the dim."""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedDType
from . import prepare


def sort_dim(op: str, client: Any, x: Any, dim: Any) -> int:
    """Check x (on the client's device, not complex) and return dim normalised (a 0-d tensor
    accepts 0 and -1)."""
    prepare.check_device(op, client, x)
    if x.dtype.is_complex:
        raise UnsupportedDType(client.device.runtime_name, op, x.dtype,
                               reason="complex numbers have no order")
    return prepare.single_dim(op, x, dim)
