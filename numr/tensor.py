"""Tensor: storage + layout + dtype + device.

Views share storage and only change the layout. Math goes through the
client of the tensor's device (``x.client.add(x, y)``); the operator and
method sugar lives in ``numr/_tensor_methods.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as dt
from .errors import DTypeError, ShapeError
from .layout import Layout, contiguous_strides, result_strides
from .shapes import infer_reshape, normalize_dim

_new = object.__new__


class Tensor:
    """An N-d array on one device. Create with ``numr.tensor``, ``numr.zeros``, ..."""

    # _version: a one-element list shared by a tensor and its views, bumped by every in-place
    # write through the public API; autograd compares it with the value at save time
    __slots__ = ("_storage", "_layout", "dtype", "device", "_version", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, storage: Any, layout: Layout, dtype: dt.DType, device: Any):
        self._storage = storage
        self._layout = layout
        self.dtype = dtype
        self.device = device
        self._version = [0]

    # ---- attributes ----------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._layout.shape

    @property
    def strides(self) -> tuple[int, ...]:
        """Strides in elements (PyTorch's convention, not NumPy's bytes)."""
        return self._layout.strides

    @property
    def ndim(self) -> int:
        return len(self._layout.shape)

    @property
    def size(self) -> int:
        return self._layout.numel

    def numel(self) -> int:
        return self._layout.numel

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def storage_offset(self) -> int:
        return self._layout.offset

    def is_contiguous(self) -> bool:
        return self._layout.is_contiguous()

    @property
    def client(self) -> Any:
        """The op implementation of this tensor's device."""
        return self.device.client

    @property
    def runtime(self) -> Any:
        return self.device.runtime

    def dim(self) -> int:
        return self.ndim

    # ---- conversion ----------------------------------------------------
    def numpy(self) -> np.ndarray:
        """Values as a NumPy array (a zero-copy view for CPU tensors)."""
        return self.device.runtime.to_numpy(self)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """NumPy's array protocol: a view on the CPU; ``copy=False`` refuses to copy (NumPy 2)."""
        a = self.numpy()
        if dtype is not None and np.dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError(f"__array__: converting {self.dtype} to {np.dtype(dtype)} needs a copy")
            return a.astype(dtype)
        if copy:
            return a.copy()
        if copy is False and self.device.runtime_name != "cpu":
            raise ValueError(f"__array__: a tensor on {self.device} cannot be viewed without a copy")
        return a

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def item(self) -> Any:
        if self.size != 1:
            raise ShapeError(f"item: tensor of shape {self.shape} has {self.size} elements, not 1")
        return self.numpy().reshape(()).item()

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError(f"the truth value of a tensor with {self.size} elements is ambiguous; use any() or all()")
        return bool(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self.size != 1:
            raise TypeError("only integer tensors with one element can be used as an index")
        return int(self.item())

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def to(self, target: Any = None, dtype: Any = None, *, copy: bool = False) -> Tensor:
        """Move to a device and/or cast: ``x.to("wgpu")``, ``x.to(nr.float16)``, ``x.to("cpu", nr.int32)``."""
        if type(target) is dt.DType and dtype is None:  # x.to(nr.float64), the common case, directly
            if target is not self.dtype:
                return self._cast_keeping_order(target)
            return self.clone() if copy else self
        from .creation import move_to_device
        from .runtime import device as parse_device
        if target is not None:
            try:
                dtype_ = dt.dtype(target)
            except DTypeError:
                dtype_ = None
            if dtype_ is not None and not (isinstance(target, str) and ":" in target):
                dtype, target = dtype_, None
        out = self
        if target is not None:
            dev = parse_device(target)
            if dev != self.device:
                out = move_to_device(out, dev)
                copy = False
        if dtype is not None and dt.dtype(dtype) is not out.dtype:
            return out._cast_keeping_order(dt.dtype(dtype))
        return out.clone() if copy else out

    def astype(self, dtype: Any, copy: bool = True) -> Tensor:
        """A copy converted to ``dtype``, laid out in this tensor's memory order when that is
        a permuted dense one (``x.T.astype(...)`` is transposed too), as NumPy's order="K"
        and PyTorch's preserve_format; otherwise contiguous."""
        d = dt.dtype(dtype)
        if d is self.dtype and not copy:
            return self
        return self._cast_keeping_order(d)

    def _cast_keeping_order(self, d: dt.DType) -> Tensor:
        """client.cast (contiguous results) on the dims in memory order, permuted back: a
        transposed tensor converts in one contiguous run instead of through tiles."""
        lay = self._layout
        if lay.is_contiguous():  # the common case: no permutation to find (cached per layout)
            return self.client.cast(self, d)
        order = result_strides(lay.shape, [lay.strides])
        if order == contiguous_strides(lay.shape):
            return self.client.cast(self, d)
        perm = sorted(range(len(order)), key=lambda k: -order[k])
        out = self.client.cast(self.permute(perm), d)
        return out.permute(sorted(range(len(perm)), key=perm.__getitem__))

    def cpu(self) -> Tensor:
        return self.to("cpu")

    def contiguous(self) -> Tensor:
        """This tensor if it is dense with offset 0, else a dense copy."""
        if self._layout.offset == 0 and self._layout.is_contiguous():
            return self
        return self.clone()

    def clone(self) -> Tensor:
        out = self.client.empty(self.shape, self.dtype)
        self.client.copy_(out, self)
        return out

    copy = clone

    def __dlpack__(self, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: Any = None):
        return self.device.runtime.dlpack(self, stream=stream, max_version=max_version, copy=copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device.runtime.dlpack_device(self)

    def __repr__(self) -> str:
        vals = np.array2string(np.asarray(self.numpy()), separator=", ", prefix="tensor(", threshold=200)
        dev = "" if str(self.device) == "cpu" else f", device='{self.device}'"
        return f"tensor({vals}, dtype={self.dtype.name}{dev})"

    # ---- views (zero copy) -----------------------------------------------
    def _view(self, layout: Layout) -> Tensor:
        t = _new(Tensor)  # Tensor(...) without making a version counter only to replace it
        t._storage, t._layout, t.dtype, t.device, t._version = (
            self._storage, layout, self.dtype, self.device, self._version)
        return t

    def reshape(self, *shape: Any) -> Tensor:
        """A view when the strides allow it, otherwise a copy."""
        shape = infer_reshape(shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape, self.size)
        lay = self._layout.reshape(shape)
        if lay is not None:
            return self._view(lay)
        return self.clone().reshape(shape)

    def view(self, *shape: Any) -> Tensor:
        """Like reshape but never copies: raises ShapeError when no view exists."""
        if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)):
            return self.astype(shape[0], copy=False) if dt.dtype(shape[0]) is self.dtype else self._bitcast(shape[0])
        shape = infer_reshape(shape[0] if len(shape) == 1 and not isinstance(shape[0], int) else shape, self.size)
        lay = self._layout.reshape(shape)
        if lay is None:
            raise ShapeError(f"view: shape {shape} is not compatible with strides {self.strides}; use reshape")
        return self._view(lay)

    def _reinterpret(self, layout: Layout, dtype: dt.DType) -> Tensor:
        """This storage seen through ``layout`` as ``dtype`` (the complex family's real/imag
        views: numr.ops.generic.complex); shares the version counter, as a view. A runtime whose
        storage is typed (the CPU's NumPy arrays) gives ``reinterpret(storage, dtype)``."""
        conv = getattr(self.device.runtime, "reinterpret", None)
        t = Tensor(self._storage if conv is None else conv(self._storage, dtype), layout, dtype, self.device)
        t._version = self._version
        return t

    @property
    def real(self) -> Tensor:
        """The real parts: a view of a complex tensor (``z.real[...] = v`` writes z), a real
        tensor itself (``nr.real``)."""
        return self.client.real(self)

    @real.setter
    def real(self, value: Any) -> None:
        self.client.real(self).copy_(value)

    @property
    def imag(self) -> Tensor:
        """The imaginary parts as a view of a complex tensor; a real tensor raises DTypeError
        (``nr.imag``, as torch)."""
        return self.client.imag(self)

    @imag.setter
    def imag(self, value: Any) -> None:
        self.client.imag(self).copy_(value)

    def is_complex(self) -> bool:
        return self.dtype.is_complex

    def _bitcast(self, dtype: Any) -> Tensor:
        raise DTypeError("view(dtype): reinterpreting storage as another dtype is not supported")

    def transpose(self, dim0: int = 0, dim1: int = 1) -> Tensor:
        return self._view(self._layout.transpose(dim0, dim1))

    def permute(self, *dims: Any) -> Tensor:
        if len(dims) == 1 and not isinstance(dims[0], int):
            dims = tuple(dims[0])
        return self._view(self._layout.permute(dims))

    @property
    def T(self) -> Tensor:
        """Reverse all dims (NumPy's ``.T``)."""
        return self._view(self._layout.reversed())

    @property
    def mT(self) -> Tensor:
        """Swap the last two dims (a batch of matrices transposed)."""
        lay = self._layout
        nd = len(lay.shape)
        if nd == 2:  # a matrix (every matmul backward): the reversed layout, no dim arithmetic
            return self._view(lay.reversed())
        if nd < 2:
            raise ShapeError(f"mT needs at least 2 dims, got shape {self.shape}")
        return self.transpose(-2, -1)

    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        return self._view(self._layout.narrow(dim, start, length))

    def squeeze(self, dim: Any = None) -> Tensor:
        return self._view(self._layout.squeeze(dim))

    def unsqueeze(self, dim: int) -> Tensor:
        return self._view(self._layout.unsqueeze(dim))

    def expand(self, *shape: Any) -> Tensor:
        shape = tuple(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else shape
        return self._view(self._layout.expand(tuple(int(s) for s in shape)))

    def broadcast_to(self, shape: Any) -> Tensor:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if -1 in shape:
            raise ShapeError(f"broadcast_to: -1 is not a size, got {shape}")
        return self._view(self._layout.expand(shape))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.broadcast_to(other.shape)

    def flip(self, *dims: Any) -> Tensor:
        """Reverse ``dims`` (``x.flip(0)``, ``x.flip(0, 1)``, ``x.flip((0, 1))``; none: every dim)."""
        d = dims[0] if len(dims) == 1 else (dims or None)
        return self._view(self._layout.flip(d))

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        if self.ndim == 0:
            return self.reshape(1)
        s = normalize_dim(start_dim, self.ndim, "flatten")
        e = normalize_dim(end_dim, self.ndim, "flatten")
        if s > e:
            raise ShapeError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim}")
        shape = self.shape[:s] + (-1,) + self.shape[e + 1:]
        if self.size == 0:
            shape = self.shape[:s] + (0,) + self.shape[e + 1:]
        return self.reshape(shape)

    def ravel(self) -> Tensor:
        return self.reshape(-1)

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The view of the elements x[..., i, ..., i + offset, ...] of dims dim1 and dim2,
        those dims removed and the diagonal appended last (torch.diagonal, np.diagonal)."""
        nd = self.ndim
        d1, d2 = normalize_dim(dim1, nd, "diagonal"), normalize_dim(dim2, nd, "diagonal")
        if d1 == d2:
            raise ShapeError(f"diagonal: dim1 and dim2 are the same dim ({dim1}, {dim2}) of shape {self.shape}")
        lay, off = self._layout, int(offset)
        n = max(0, min(lay.shape[d1] - max(-off, 0), lay.shape[d2] - max(off, 0)))
        start = lay.offset + (max(off, 0) * lay.strides[d2] + max(-off, 0) * lay.strides[d1] if n else 0)
        keep = [i for i in range(nd) if i not in (d1, d2)]
        shape = tuple(lay.shape[i] for i in keep) + (n,)
        strides = tuple(lay.strides[i] for i in keep) + (lay.strides[d1] + lay.strides[d2],)
        return self._view(Layout(shape, strides, start))

    def __getitem__(self, index: Any) -> Tensor:
        return _getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        _setitem(self, index, value)
        self._version[0] += 1


from . import _tensor_methods  # noqa: E402,F401  (attaches operators and op methods)
from .indexing import getitem as _getitem  # noqa: E402  (bound once: no import per call)
from .indexing import setitem as _setitem  # noqa: E402
