"""Convolution and pooling, float32, forward and forward+backward: numr (unfold view + batched
matmul; on the CPU a direct kernel for depthwise convs; pooling as elementwise chains over the
window slices) beside torch.nn.functional.
NumPy has no convolution: its rows are skipped, except conv1d where the "numpy" row is
scipy.signal.correlate (one channel, where installed).

    python tools/bench_ratios.py -b conv
"""

from __future__ import annotations

import importlib.util

import numpy as np

import numr as nr

from .common import LIBS, Lib

#: name -> (x shape, weight shape, kwargs): conv2d N=8 C=64 56x56 as in a ResNet stage
CONV2D = {
    "3x3": ((8, 64, 56, 56), (64, 64, 3, 3), {"padding": 1}),
    "1x1": ((8, 64, 56, 56), (64, 64, 1, 1), {}),
    "depthwise3x3": ((8, 64, 56, 56), (64, 1, 3, 3), {"padding": 1, "groups": 64}),
}


def _fn(L: Lib, name: str) -> object:
    if L.ns is np:
        raise NotImplementedError("NumPy has no convolution")
    return getattr(nr, name) if L.ns is nr else getattr(L.ns.nn.functional, name)


class _Base:
    """Operands and, for forward+backward, leaf Vars / requires_grad tensors and a seed gradient."""

    def _make(self, lib: str, xs: tuple, ws: tuple | None) -> None:
        self.L = Lib(lib)
        self.x = self.L.randn(xs, "float32", seed=0)
        self.w = None if ws is None else self.L.randn(ws, "float32", seed=1)

    def _fwd_bwd(self, fn, kw: dict) -> None:
        ns = self.L.ns
        if ns is nr:
            from numr.autograd import Var, backward
            xv = Var(self.x, requires_grad=True)
            args = (xv,) if self.w is None else (xv, Var(self.w, requires_grad=True))
            y = fn(*args, **kw)
            self.L.sync(backward(nr.sum(y))[xv])
        else:
            xt = self.x.clone().requires_grad_(True)
            args = (xt,) if self.w is None else (xt, self.w.clone().requires_grad_(True))
            ns.sum(fn(*args, **kw)).backward()


class Conv2d(_Base):
    params = [LIBS, list(CONV2D)]
    param_names = ["lib", "case"]

    def setup(self, lib, case):
        xs, ws, self.kw = CONV2D[case]
        self._make(lib, xs, ws)
        self.fn = _fn(self.L, "conv2d")
        self.fn(self.x, self.w, **self.kw)  # warm

    def time_forward(self, lib, case):
        self.L.sync(self.fn(self.x, self.w, **self.kw))

    def time_forward_backward(self, lib, case):
        self._fwd_bwd(self.fn, self.kw)


class ConvTranspose2d(_Base):
    """8x64x28x28 -> 8x64x56x56, kernel 4, stride 2, padding 1 (a decoder's upsampling)."""
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self._make(lib, (8, 64, 28, 28), (64, 64, 4, 4))
        self.fn, self.kw = _fn(self.L, "conv_transpose2d"), {"stride": 2, "padding": 1}
        self.fn(self.x, self.w, **self.kw)

    def time_forward(self, lib):
        self.L.sync(self.fn(self.x, self.w, **self.kw))

    def time_forward_backward(self, lib):
        self._fwd_bwd(self.fn, self.kw)


class MaxPool2d(_Base):
    """2x2, stride 2 on 8x64x56x56."""
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self._make(lib, (8, 64, 56, 56), None)
        self.fn, self.kw = _fn(self.L, "max_pool2d"), {"kernel_size": 2}
        self.fn(self.x, **self.kw)

    def time_forward(self, lib):
        self.L.sync(self.fn(self.x, **self.kw))

    def time_forward_backward(self, lib):
        self._fwd_bwd(self.fn, self.kw)


class Conv1d:
    """One channel, 100k samples, a 31-tap filter ("valid"): numr, torch, scipy.signal.correlate."""
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self.L = Lib(lib)
        if self.L.ns is np and importlib.util.find_spec("scipy") is None:
            raise NotImplementedError("scipy is not installed")
        self.x = self.L.randn((1, 1, 100_000), "float32", seed=0)
        self.w = self.L.randn((1, 1, 31), "float32", seed=1)
        self.time_conv1d(lib)

    def time_conv1d(self, lib):
        if self.L.ns is np:
            from scipy import signal
            signal.correlate(self.x[0, 0], self.w[0, 0], mode="valid")
        elif self.L.ns is nr:
            self.L.sync(nr.conv1d(self.x, self.w))
        else:
            self.L.ns.nn.functional.conv1d(self.x, self.w)


class DepthwiseConv1d(_Base):
    """A causal depthwise conv1d as in Mamba/Hyena blocks: 8x512x1024, kernel 4, padding 3."""
    params = [LIBS]
    param_names = ["lib"]

    def setup(self, lib):
        self._make(lib, (8, 512, 1024), (512, 1, 4))
        self.fn, self.kw = _fn(self.L, "conv1d"), {"padding": 3, "groups": 512}
        self.fn(self.x, self.w, **self.kw)

    def time_forward(self, lib):
        self.L.sync(self.fn(self.x, self.w, **self.kw))

    def time_forward_backward(self, lib):
        self._fwd_bwd(self.fn, self.kw)
