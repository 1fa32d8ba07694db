"""Runtimes (backends), devices and the registry."""

from .protocols import Device, Runtime, RuntimeClient
from .registry import all_runtimes, available, device, get, names, register, unregister

__all__ = ["Device", "Runtime", "RuntimeClient", "all_runtimes", "available", "device", "get", "names",
           "register", "unregister"]
