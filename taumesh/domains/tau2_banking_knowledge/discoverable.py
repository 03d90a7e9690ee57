"""The discoverable tools' implementations, by name: each ``function(data, **arguments) -> str``.

The catalogue (names, tags, docstrings) is upstream's, imported as data (:mod:`.texts`); a tool listed there but
not implemented here is an error of the call naming it.
"""

from __future__ import annotations

from collections.abc import Callable

AGENT_DISCOVERABLE: dict[str, Callable[..., str]] = {}
USER_DISCOVERABLE: dict[str, Callable[..., str]] = {}
