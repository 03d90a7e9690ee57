"""Every tool of the student-services desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.education.desk_tools import DESK_TOOLS
from taumesh.domains.education.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *DESK_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
