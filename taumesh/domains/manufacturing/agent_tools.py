"""Every tool of the plant operations desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.manufacturing.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS
from taumesh.domains.manufacturing.maintenance_tools import MAINTENANCE_TOOLS
from taumesh.domains.manufacturing.order_tools import ORDER_TOOLS
from taumesh.domains.manufacturing.quality_tools import QUALITY_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *QUALITY_TOOLS, *ORDER_TOOLS, *MAINTENANCE_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
