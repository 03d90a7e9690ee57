"""Every tool the desk's agent holds: identity, payables and ledger, and the names of the identity tools."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.accounting.identity_tools import IDENTITY_TOOLS
from taumesh.domains.accounting.ledger_tools import LEDGER_TOOLS
from taumesh.domains.accounting.payables_tools import PAYABLES_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*IDENTITY_TOOLS, *PAYABLES_TOOLS, *LEDGER_TOOLS)
IDENTITY_NAMES = frozenset(tool.name for tool in IDENTITY_TOOLS)
"""Finding the caller, then verifying them by a security detail or a code in their portal."""
