"""Every tool the desk's agent holds: identity checks, reads, and the writes over matters and their files."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.legal.file_tools import FILE_TOOLS
from taumesh.domains.legal.identity_tools import IDENTITY_TOOLS
from taumesh.domains.legal.lookup_tools import LOOKUP_TOOLS
from taumesh.domains.legal.matter_tools import MATTER_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*IDENTITY_TOOLS, *LOOKUP_TOOLS, *MATTER_TOOLS, *FILE_TOOLS)
