"""numr's error types. Each subclasses the matching built-in so that
``except ValueError`` and friends keep working for users of NumPy habits."""

from __future__ import annotations


class NumrError(Exception):
    """Base class of every error numr raises on purpose."""


class ShapeError(NumrError, ValueError):
    """Shapes that do not fit the op (broadcasting, matmul, reshape, ...)."""


class DTypeError(NumrError, TypeError):
    """A dtype the op does not accept, or an impossible promotion."""


class DeviceError(NumrError, RuntimeError):
    """Tensors on different devices, an unknown device, or a backend failure."""


class UnsupportedOperation(NumrError, NotImplementedError):
    """A backend lacks an op (or an op in a dtype). Names backend, op and dtype."""

    def __init__(self, backend: str, op: str, dtype: object = None, reason: str = ""):
        self.backend, self.op, self.dtype = backend, op, dtype
        msg = f"{backend}: {op} is not supported"
        if dtype is not None:
            msg += f" for dtype {dtype}"
        if reason:
            msg += f" ({reason})"
        super().__init__(msg)


class UnsupportedDType(UnsupportedOperation):
    """An op exists on a backend but not for this dtype."""


class DomainError(NumrError, ValueError):
    """An argument outside the op's domain (a probability outside [0, 1], a negative rate, ...)."""


class OutOfMemoryError(NumrError, MemoryError):
    """A device allocation failed after the caches were released."""


class IndexOutOfRange(NumrError, IndexError):
    """An index outside a dimension's bounds."""


class LinAlgError(NumrError, ValueError):
    """A linear-algebra op met a singular or non-positive-definite matrix, or did not converge;
    names the op and the batch element."""


class KernelCompileError(NumrError, RuntimeError):
    """A GPU kernel failed to compile; ``log`` holds the compiler's output."""

    def __init__(self, message: str, log: str = ""):
        self.log = log
        super().__init__(f"{message}\n{log}" if log else message)


__all__ = [
    "NumrError",
    "ShapeError",
    "DTypeError",
    "DeviceError",
    "UnsupportedOperation",
    "UnsupportedDType",
    "OutOfMemoryError",
    "IndexOutOfRange",
    "LinAlgError",
    "KernelCompileError",
]
