"""The Optimizer base of numr.optim (torch.optim's shape): param_groups of hyper-parameters over
autograd leaves (Var), per-parameter state, state_dict/load_state_dict, zero_grad, and gradients
either passed to ``step`` (the GradStore of ``numr.autograd.backward``) or accumulated by
``opt.backward(loss)`` until ``zero_grad`` (torch's ``.grad``). Updates write the parameter's tensor in
place with numr ops on its device: no host round trip, no graph nodes."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import DomainError, DTypeError, ShapeError

_REQUIRED = object()


def _is_tensor(x: Any) -> bool:
    from ..tensor import Tensor
    return isinstance(x, Tensor)


class Optimizer:
    """Base class: subclasses set ``defaults`` and implement ``_update(p, grad, group, state)``."""

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]):
        self.defaults = dict(defaults)
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[Any, dict[str, Any]] = {}
        self._grads: dict[int, Any] = {}
        groups = list(params)
        if not groups:
            raise ShapeError(f"{type(self).__name__}: got an empty parameter list")
        if not isinstance(groups[0], Mapping):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, group: Mapping[str, Any]) -> None:
        """Add a group of parameters (Var leaves that require grad) with its own hyper-parameters."""
        from ..autograd import Var
        group = dict(group)
        ps = group["params"]
        ps = [ps] if isinstance(ps, Var) else list(ps)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for p in ps:
            if not isinstance(p, Var):
                raise DTypeError(f"{type(self).__name__}: parameters must be numr.autograd.Var leaves, got "
                                 f"{type(p).__name__}")
            if not p.is_leaf or not p.requires_grad:
                raise ShapeError(f"{type(self).__name__}: a parameter must be a leaf Var that requires grad "
                                 f"(shape {tuple(p.shape)})")
            if id(p) in seen:
                raise ShapeError(f"{type(self).__name__}: a parameter appears in more than one group")
            seen.add(id(p))
        group["params"] = ps
        for k, v in self.defaults.items():
            if v is _REQUIRED and k not in group:
                raise DomainError(f"{type(self).__name__}: parameter group lacks the required {k!r}")
            group.setdefault(k, v)
        self.param_groups.append(group)

    # ---- gradients ------------------------------------------------------
    def backward(self, loss: Any) -> Any:
        """Run ``numr.autograd.backward(loss)`` and add each parameter's gradient to the one held
        since the last ``zero_grad`` (torch's ``loss.backward()`` into ``.grad``); returns loss."""
        from ..autograd import backward
        store = backward(loss)
        for g in self.param_groups:
            for p in g["params"]:
                d = store.get(p)
                if d is not None:
                    old = self._grads.get(p.id)
                    self._grads[p.id] = d if old is None else old + d
        return loss

    def grad(self, p: Any) -> Any:
        """The gradient accumulated for parameter p (None if none)."""
        return self._grads.get(p.id)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the accumulated gradients (set_to_none=False keeps zero tensors)."""
        if set_to_none:
            self._grads.clear()
        else:
            for g in self._grads.values():
                g.zero_()

    def step(self, closure: Callable[[], Any] | None = None, grads: Mapping[Any, Any] | None = None) -> Any:
        """One update of every parameter that has a gradient, from ``grads`` (a GradStore or
        {Var: Tensor}) or else the accumulated ones; ``closure`` (re)computes and returns the loss
        first (it typically calls zero_grad and backward)."""
        from ..autograd import enable_grad, no_grad
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    g = grads.get(p) if grads is not None else self._grads.get(p.id)
                    if g is None:
                        continue
                    g = getattr(g, "tensor", g)
                    if tuple(g.shape) != tuple(p.shape):
                        raise ShapeError(f"{type(self).__name__}.step: gradient shape {tuple(g.shape)} does not "
                                         f"match parameter shape {tuple(p.shape)}")
                    self._update(p.tensor, g, group, self.state.setdefault(p, {}))
        return loss

    def _update(self, p: Any, grad: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        raise NotImplementedError

    # ---- serialisation --------------------------------------------------
    def _params(self) -> list[Any]:
        return [p for g in self.param_groups for p in g["params"]]

    def state_dict(self) -> dict[str, Any]:
        """{'state': {param index: its state}, 'param_groups': [hyper-parameters with param indices]}
        (tensors are the optimizer's own, as torch's; copy them to keep a snapshot)."""
        index = {id(p): i for i, p in enumerate(self._params())}
        groups, start = [], 0
        for g in self.param_groups:
            d = {k: v for k, v in g.items() if k != "params"}
            d["params"] = list(range(start, start + len(g["params"])))
            start += len(g["params"])
            groups.append(d)
        state = {index[id(p)]: dict(s) for p, s in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: Mapping[str, Any]) -> None:
        """Restore hyper-parameters and state saved by state_dict (same group sizes); tensors are
        copied onto each parameter's device (float state in the parameter's dtype)."""
        import numr as nr
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups) or any(
                len(a["params"]) != len(b["params"]) for a, b in zip(groups, self.param_groups, strict=True)):
            raise ShapeError(f"{type(self).__name__}.load_state_dict: the saved groups' sizes differ from this "
                             "optimizer's")
        params = self._params()
        self.state = {}
        for i, s in state_dict["state"].items():
            p = params[int(i)]
            new = {}
            for k, v in s.items():
                if _is_tensor(v):
                    d = p.dtype if v.dtype.is_floating_point else v.dtype
                    v = nr.cast(v.to(p.device), d).clone()
                new[k] = v if _is_tensor(v) else copy.deepcopy(v)
            self.state[p] = new
        for g, saved in zip(self.param_groups, groups, strict=True):
            g.update({k: copy.deepcopy(v) for k, v in saved.items() if k != "params"})

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, g in enumerate(self.param_groups):
            hp = ", ".join(f"{k}={v}" for k, v in g.items() if k != "params")
            lines.append(f"  group {i}: {len(g['params'])} params, {hp}")
        return "\n".join(lines + [")"])
