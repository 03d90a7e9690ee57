"""The imported forks' domains, as one domain source (entry point ``forks`` of group ``taumesh.domain_sources``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from taumesh.domains import DomainPlugin
from taumesh.forks._index import read_index


def domains() -> dict[str, Callable[[], DomainPlugin]]:
    """Every environment ``taumesh domain import-fork`` registered, by domain name, each loaded when called."""
    from taumesh.forks._plugin import fork_plugin

    return {name: partial(fork_plugin, name) for name in read_index()}
