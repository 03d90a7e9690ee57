"""Every tool the agent holds: the desk's lookups and identity check, then its writes."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.agriculture.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS
from taumesh.domains.agriculture.operation_tools import OPERATION_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *OPERATION_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
