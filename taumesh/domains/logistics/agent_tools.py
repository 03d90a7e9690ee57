"""Every tool the desk's agent holds: identity, look-ups, shipment writes, depot writes and the hand-off."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.logistics.depot_tools import DEPOT_TOOLS
from taumesh.domains.logistics.identity_tools import IDENTITY_TOOL_CLASSES, IDENTITY_TOOLS
from taumesh.domains.logistics.lookup_tools import LOOKUP_TOOLS
from taumesh.domains.logistics.shipment_tools import SHIPMENT_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*IDENTITY_TOOL_CLASSES, *LOOKUP_TOOLS, *SHIPMENT_TOOLS, *DEPOT_TOOLS)
READ_TOOLS = frozenset(tool.name for tool in LOOKUP_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS", "READ_TOOLS"]
