"""Every tool of the automation desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.web_automation.job_tools import JOB_TOOLS
from taumesh.domains.web_automation.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS
from taumesh.domains.web_automation.web_tools import WEB_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *JOB_TOOLS, *WEB_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
