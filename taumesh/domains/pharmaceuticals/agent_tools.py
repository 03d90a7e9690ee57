"""Every tool of the agent's, in the order its schema lists them: the look-ups (identity first), then the writes."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.pharmaceuticals.action_tools import ACTION_TOOLS
from taumesh.domains.pharmaceuticals.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *ACTION_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
