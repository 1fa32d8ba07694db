"""Checked calls into the CUDA driver API (``cuda.bindings.driver``).

Every binding returns ``(CUresult, *values)``; :func:`call` checks the result
and turns a failure into a numr error naming the call. Importing this module
never touches libcuda, so it is safe where CUDA is missing.
"""

from __future__ import annotations

from typing import Any

from ..errors import DeviceError, OutOfMemoryError

try:  # cuda-python is an optional dependency
    from cuda.bindings import driver as cu
    IMPORT_ERROR: str | None = None
except Exception as e:  # pragma: no cover - depends on the machine
    cu = None
    IMPORT_ERROR = f"cuda-python is not installed ({type(e).__name__}: {e}); pip install 'numr[cuda]'"


class CudaCallError(DeviceError):
    """A driver call failed: ``call`` is its name, ``code`` the CUresult name."""

    def __init__(self, call: str, code: str, detail: str = ""):
        self.call, self.code = call, code
        super().__init__(f"cuda: {call} failed with {code}{': ' + detail if detail else ''}")


def _name(res: Any) -> str:
    return getattr(res, "name", str(res))


def call(name: str, *args: Any) -> Any:
    """``cu.<name>(*args)``, checked. Returns None, the single value, or a tuple."""
    if cu is None:
        raise DeviceError(IMPORT_ERROR or "cuda-python is missing")
    out = getattr(cu, name)(*args)
    res, vals = out[0], out[1:]
    if res != cu.CUresult.CUDA_SUCCESS:
        code = _name(res)
        if code == "CUDA_ERROR_OUT_OF_MEMORY":
            raise OutOfMemoryError(f"cuda: {name} failed with {code}")
        raise CudaCallError(name, code)
    if not vals:
        return None
    return vals[0] if len(vals) == 1 else vals


def try_call(name: str, *args: Any) -> tuple[str | None, Any]:
    """Like :func:`call` but returns ``(error name or None, value)`` instead of raising."""
    out = getattr(cu, name)(*args)
    res, vals = out[0], out[1:]
    if res != cu.CUresult.CUDA_SUCCESS:
        return _name(res), None
    return None, (vals[0] if len(vals) == 1 else (vals or None))


def probe() -> tuple[int, str | None]:
    """(device count, reason when CUDA is unusable). Never raises."""
    if cu is None:
        return 0, IMPORT_ERROR
    try:
        out = cu.cuInit(0)
    except RuntimeError as e:  # cuda.pathfinder.DynamicLibNotFoundError: no libcuda
        return 0, f"the NVIDIA driver (libcuda) was not found: {e}"
    except Exception as e:  # pragma: no cover
        return 0, f"cuInit raised {type(e).__name__}: {e}"
    res = out[0]
    if res != cu.CUresult.CUDA_SUCCESS:
        code = _name(res)
        if code == "CUDA_ERROR_NO_DEVICE":
            return 0, "the NVIDIA driver is installed but reports no CUDA device (CUDA_ERROR_NO_DEVICE)"
        return 0, f"cuInit failed with {code}"
    res, n = cu.cuDeviceGetCount()
    if res != cu.CUresult.CUDA_SUCCESS:
        return 0, f"cuDeviceGetCount failed with {_name(res)}"
    if n == 0:
        return 0, "no CUDA device found"
    return int(n), None


def ptr(handle: Any) -> int:
    """The integer value of a CUdeviceptr / CUstream / ... binding object (or an int)."""
    if isinstance(handle, int):
        return handle
    return int(handle)


def attribute(dev: Any, attr: str) -> int:
    return int(call("cuDeviceGetAttribute", getattr(cu.CUdevice_attribute, attr), dev))
