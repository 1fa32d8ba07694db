"""CUDA graph capture and replay of a sequence of numr ops.

    g = nr.runtime.get("cuda").capture_graph("cuda")
    with g:                 # ops are recorded, not run
        y = (x @ w + b).exp()
    g.replay()              # runs them again on the current contents of x, w, b; y is updated

While capturing, the device's allocator is frozen: new buffers are private to
the graph and freed buffers are held, so every address recorded in the graph
stays valid until ``g.release()`` (or garbage collection). Kernel arguments
(shapes, strides, scalars) are copied into the graph at capture time. Host
synchronisation (``.item()``, ``.numpy()``, host copies, ``nonzero``, bounds
checks of ``index_select``) is not allowed inside a capture.
"""

from __future__ import annotations

from typing import Any

from ..errors import DeviceError
from .driver import call, cu


class Graph:
    """A captured sequence of kernels on one CUDA device."""

    def __init__(self, state: Any):
        self.state = state
        self.private_blocks: list = []
        self.released_blocks: list = []
        self.held_bytes = 0
        self._graph = None
        self._exec = None
        self._capturing = False

    @property
    def captured(self) -> bool:
        return self._exec is not None

    def __enter__(self) -> Graph:
        if self._capturing or self._exec is not None:
            raise DeviceError("cuda graph: this Graph is already captured; make a new one")
        st = self.state
        st.synchronize()  # work queued before the capture is not part of it
        st.allocator.begin_capture(self)
        try:
            self._begin_capture()
        except Exception:
            st.allocator.end_capture()
            raise
        self._capturing = True
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self._capturing = False
        try:
            graph = self._end_capture()
        except Exception:
            if exc_type is None:
                raise
            graph = None  # the error that stopped the capture also invalidated it: that error goes up
        finally:
            self.state.allocator.end_capture()
        if exc_type is not None:
            if graph is not None:
                self._graph = graph
                self._destroy()
            return
        self._graph = graph
        self._exec = self._instantiate(graph)

    def replay(self) -> None:
        """Launch the captured kernels again (asynchronously, on the device's stream)."""
        if self._exec is None:
            raise DeviceError("cuda graph: nothing captured yet (use `with graph:` first)")
        self.state.activate()
        self._launch()

    def release(self) -> None:
        """Free the graph and give its held buffers back to the allocator."""
        self._destroy()
        self.state.allocator.release_graph(self)

    def __del__(self) -> None:
        try:
            if self._exec is not None or self.private_blocks or self.released_blocks:
                self.state.synchronize()
                self.release()
        except Exception:
            pass

    # ---- the driver's part (the host emulator overrides these) ---------------------
    def _begin_capture(self) -> None:
        call("cuStreamBeginCapture", self.state.stream, cu.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED)

    def _end_capture(self) -> Any:
        return call("cuStreamEndCapture", self.state.stream)

    def _instantiate(self, graph: Any) -> Any:
        return call("cuGraphInstantiate", graph, 0)

    def _launch(self) -> None:
        call("cuGraphLaunch", self._exec, self.state.stream)

    def _destroy(self) -> None:
        if self._exec is not None:
            call("cuGraphExecDestroy", self._exec)
            self._exec = None
        if self._graph is not None:
            call("cuGraphDestroy", self._graph)
            self._graph = None
