"""Every tool of the satellite operations desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.space.booking_tools import BOOKING_TOOLS
from taumesh.domains.space.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS
from taumesh.domains.space.operations_tools import OPERATIONS_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *BOOKING_TOOLS, *OPERATIONS_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
