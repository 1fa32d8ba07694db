"""numr.optim: torch.optim's optimizers (SGD, Adam, AdamW, RMSprop, Adagrad) and learning-rate
schedulers over numr.autograd Var leaves, updating parameters in place on their device.

    opt = numr.optim.Adam([w, b], lr=1e-3)
    for x, y in data:
        opt.zero_grad()
        opt.backward(nr.mse_loss(x @ w + b, y))   # or: opt.step(grads=numr.autograd.backward(loss))
        opt.step()
"""

from __future__ import annotations

from . import lr_scheduler
from .optimizer import Optimizer
from .optimizers import SGD, Adagrad, Adam, AdamW, RMSprop

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
