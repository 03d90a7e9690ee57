"""The imported forks' plugins, by attribute: what the ``taumesh-forks`` entry points load (see ``_finder``)."""

from __future__ import annotations

from typing import Any

from taumesh.forks._finder import domain_for


def __getattr__(attribute: str) -> Any:
    if not attribute.startswith("d_"):
        raise AttributeError(attribute)
    from taumesh.forks._plugin import fork_plugin

    return fork_plugin(domain_for(attribute))
