"""What a registered strategy's class declares, read by name without making one (the agent's and the user's).

Each strategy class declares whether it calls a model (``calls_model``); the registries name classes lazily
(:class:`taumesh.registry.Lazy`), so a lookup imports the one module it names, no other.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, cast

from taumesh.registry import Lazy


class DeclaresModelUse(Protocol):
    """A strategy class: whether it calls a model is its own declaration."""

    calls_model: ClassVar[bool]


def registered_class(registry: Mapping[str, Lazy[Any]], name: str) -> type[Any]:
    """The class ``registry`` names ``name``, its module imported (a model-calling strategy's brings litellm)."""
    return cast("type[Any]", pkgutil.resolve_name(registry[name].target))


def calls_model(registry: Mapping[str, Lazy[Any]], name: str) -> bool:
    """Whether the strategy ``registry`` names ``name`` calls a model, as its class declares.

    A name the registry lacks (an external agent's own, a remote service's) is taken to: nothing here can say it
    does not.
    """
    if name not in registry:
        return True
    declared: type[DeclaresModelUse] = registered_class(registry, name)
    return declared.calls_model
