"""The exceptions a domain raises to the services: bad data, broken plugins, broken tools."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from taumesh.data import DataError

__all__ = [
    "LAST_MUTATION",
    "BaseDataMutation",
    "DataError",
    "DomainNotRunnable",
    "EpisodeMismatch",
    "PluginError",
    "ToolCrash",
]


class PluginError(DataError):
    """A domain plugin could not be loaded (import error, wrong type, duplicate name); names its source."""


class DomainNotRunnable(DataError):
    """The environment lacks what the domain needs to run (a model, a sandbox): ``DomainPlugin.run_problem``."""


class ToolCrash(Exception):
    """The tool broke outside what τ-bench's ``step`` catches (it returned no string).

    The original lets this escape ``step`` and aborts the task with reward 0; we report it the same
    way instead of inventing an observation.
    """


class EpisodeMismatch(Exception):
    """A recorded episode cannot be reproduced: replaying its tool calls does not reach the state the env reported."""


class BaseDataMutation(ToolCrash):
    """A tool tried to change data it may not change: a domain bug, never an observation for the agent.

    Raised when a tool changes a shared base record, or a tool tagged read (``writes = False``)
    changes a table. It escapes :meth:`Session.call` (the env service aborts the episode) instead of
    becoming ``"Error: ..."``, because the tool, not the agent, is at fault.
    """

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        LAST_MUTATION.set(self)  # so the session sees it even when the tool catches it


LAST_MUTATION: ContextVar[BaseDataMutation | None] = ContextVar("taumesh_last_base_data_mutation", default=None)
"""The last :class:`BaseDataMutation` raised in this context; the session clears it around each call."""
