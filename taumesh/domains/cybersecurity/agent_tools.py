"""Every tool of the security operations desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.cybersecurity.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS
from taumesh.domains.cybersecurity.remediation_tools import REMEDIATION_TOOLS
from taumesh.domains.cybersecurity.response_tools import RESPONSE_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *RESPONSE_TOOLS, *REMEDIATION_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
