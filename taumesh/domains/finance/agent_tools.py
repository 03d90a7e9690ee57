"""Every tool the desk's agent holds: the identity check and reads, dealing, and servicing."""

from __future__ import annotations

from taumesh.domains.finance.dealing_tools import DEALING_TOOLS
from taumesh.domains.finance.lookup_tools import LOOKUP_TOOLS
from taumesh.domains.finance.service_tools import SERVICE_TOOLS

AGENT_TOOLS = (*LOOKUP_TOOLS, *DEALING_TOOLS, *SERVICE_TOOLS)
