"""Every tool the desk's agent holds: identity checks, lookups, quote tools and pipeline tools."""

from __future__ import annotations

from taumesh.domains.sales.identity_tools import IDENTITY_TOOLS
from taumesh.domains.sales.lookup_tools import LOOKUP_TOOLS
from taumesh.domains.sales.pipeline_tools import PIPELINE_TOOLS
from taumesh.domains.sales.quote_tools import QUOTE_TOOLS

AGENT_TOOLS = (*IDENTITY_TOOLS, *LOOKUP_TOOLS, *QUOTE_TOOLS, *PIPELINE_TOOLS)
