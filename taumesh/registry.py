"""Registries that name implementations without importing them until they are used.

LLM strategies import litellm (seconds and ~200 MB); a registry of lazy entries keeps that cost
off every process that never runs one (the env service, an oracle run).
"""

from __future__ import annotations

import importlib
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Lazy(Generic[T]):
    """A callable standing for ``module:attribute``, imported on the first call."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        module, _, attribute = self.target.partition(":")
        factory = getattr(importlib.import_module(module), attribute)
        instance: T = factory(*args, **kwargs)
        return instance

    def __repr__(self) -> str:
        return f"Lazy({self.target!r})"
