"""DLPack exchange of CUDA tensors (kDLCUDA) with CuPy, PyTorch and others, zero copy.

Export builds a legacy ``dltensor`` capsule whose manager keeps the numr
tensor alive; import consumes a producer's capsule and keeps it alive until
the numr storage goes. Streams follow the DLPack protocol: the producer makes
its pending work visible on the consumer's stream with an event.
"""

from __future__ import annotations

import ctypes
from typing import Any

from .. import dtypes as dt
from ..errors import DeviceError, DTypeError
from ..layout import Layout
from ..tensor import Tensor

kDLCUDA, kDLCUDAManaged = 2, 13


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter)]

# DLPack type codes (dlpack.h 1.1): int 0, uint 1, float 2, bfloat 4, complex 5, bool 6,
# float8_e4m3fn 10, float8_e5m2 12
_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
_SPECIAL = {dt.bfloat16: (4, 16), dt.float8_e4m3fn: (10, 8), dt.float8_e5m2: (12, 8), dt.bool_: (6, 8)}
_FROM_DL = {(_CODES[d.kind], d.itemsize * 8): d for d in dt.ALL_DTYPES if d not in _SPECIAL}
_FROM_DL.update({v: k for k, v in _SPECIAL.items()})
_FROM_DL[(1, 8)] = dt.uint8

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

_live: dict[int, Any] = {}  # manager_ctx -> what keeps an exported tensor alive


@_Deleter
def _delete(mt):  # called by the consumer (or by the capsule destructor when unconsumed)
    _live.pop(ctypes.addressof(mt.contents), None)


_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


# raw-pointer views of the capsule API: the destructor must not make new references
_is_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_get_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))


@_CapsuleDestructor
def _capsule_destructor(cap_ptr):
    if _is_valid_raw(cap_ptr, b"dltensor"):  # never consumed: release the export
        _live.pop(_get_pointer_raw(cap_ptr, b"dltensor"), None)


def dl_dtype(d: dt.DType) -> DLDataType:
    code, bits = _SPECIAL.get(d, (_CODES[d.kind], d.itemsize * 8))
    return DLDataType(code, bits, 1)


def _sync_to_consumer(state: Any, stream: Any) -> None:
    """Make work queued on numr's stream visible to the consumer's stream."""
    if stream == -1:
        return
    state.make_visible_to(1 if stream in (None, 0) else int(stream))  # None/0: the legacy default stream


def export(t: Tensor, state: Any, stream: Any = None, copy: Any = None) -> Any:
    """A ``dltensor`` capsule viewing ``t``'s device memory."""
    if copy:
        t = t.clone()
    _sync_to_consumer(state, stream)
    nd = t.ndim
    shape = (ctypes.c_int64 * max(nd, 1))(*t.shape)
    strides = (ctypes.c_int64 * max(nd, 1))(*t.strides)
    mt = DLManagedTensor()
    mt.dl_tensor.data = t._storage.ptr + t._layout.offset * t.dtype.itemsize if t.size else t._storage.ptr or None
    mt.dl_tensor.device = DLDevice(kDLCUDA, state.index)
    mt.dl_tensor.ndim = nd
    mt.dl_tensor.dtype = dl_dtype(t.dtype)
    mt.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    mt.dl_tensor.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    mt.dl_tensor.byte_offset = 0
    mt.deleter = _delete
    addr = ctypes.addressof(mt)
    mt.manager_ctx = addr
    _live[addr] = (t, mt, shape, strides)
    return _api.PyCapsule_New(addr, b"dltensor", ctypes.cast(_capsule_destructor, ctypes.c_void_p))


class _Imported:
    """Keeps a consumed DLManagedTensor alive; calls its deleter when numr is done."""

    def __init__(self, mt_addr: int, capsule: Any):
        self.addr, self.capsule = mt_addr, capsule

    def __del__(self) -> None:
        mt = DLManagedTensor.from_address(self.addr)
        if mt.deleter:
            try:
                mt.deleter(ctypes.pointer(mt))
            except Exception:
                pass


def import_(obj: Any, runtime: Any) -> Tensor:
    """A numr CUDA tensor sharing the memory of a DLPack producer (CuPy, PyTorch, numr)."""
    from .storage import CudaStorage
    dev_type, dev_id = obj.__dlpack_device__()
    if int(dev_type) not in (kDLCUDA, kDLCUDAManaged):
        raise DeviceError(f"from_dlpack: producer is on DLPack device type {dev_type}, not CUDA")
    device = runtime.device_for(int(dev_id))
    state = runtime.state(device)
    cap = obj.__dlpack__(stream=state.stream_int)
    if not _api.PyCapsule_IsValid(cap, b"dltensor"):
        raise DTypeError("from_dlpack: the producer did not return an unconsumed 'dltensor' capsule")
    addr = _api.PyCapsule_GetPointer(cap, b"dltensor")
    mt = DLManagedTensor.from_address(addr)
    tl = mt.dl_tensor
    key = (tl.dtype.code, tl.dtype.bits)
    if tl.dtype.lanes != 1 or key not in _FROM_DL:
        raise DTypeError(f"from_dlpack: unsupported DLPack dtype code {tl.dtype.code} bits {tl.dtype.bits} "
                         f"lanes {tl.dtype.lanes}")
    d = _FROM_DL[key]
    nd = tl.ndim
    shape = tuple(tl.shape[i] for i in range(nd))
    strides = tuple(tl.strides[i] for i in range(nd)) if tl.strides else Layout(shape).strides
    _api.PyCapsule_SetName(cap, b"used_dltensor")
    owner = _Imported(addr, cap)
    data = (tl.data or 0) + tl.byte_offset
    lay = Layout(shape, strides, 0)
    lo, hi = lay.extent()
    base = data + lo * d.itemsize
    storage = CudaStorage(base, (hi - lo) * d.itemsize, state, None, owner)
    return Tensor(storage, Layout(shape, strides, -lo), d, device)
