"""Every tool of the data-science service desk (the assistant's side), in the order the agent is shown them."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.data_science.access_tools import ACCESS_TOOLS
from taumesh.domains.data_science.analysis_tools import ANALYSIS_TOOLS
from taumesh.domains.data_science.lookup_tools import IDENTITY_TOOLS, LOOKUP_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*LOOKUP_TOOLS, *ANALYSIS_TOOLS, *ACCESS_TOOLS)

__all__ = ["AGENT_TOOLS", "IDENTITY_TOOLS"]
