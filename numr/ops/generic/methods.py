"""Composites become client methods here: each is written once as a function of its public
arguments (so autograd can register the same function), and joins GenericOps with the
client argument dropped."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def client_method(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a client method, named after it without its ``_any`` suffix."""
    def m(self: Any, *args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)
    m.__name__, m.__doc__ = fn.__name__.removesuffix("_any"), fn.__doc__
    return m


def client_methods(composites: Mapping[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """{op name: client method} for {op name: composite}."""
    return {name: client_method(fn) for name, fn in composites.items()}
