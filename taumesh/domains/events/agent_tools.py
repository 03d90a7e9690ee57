"""Every tool the agent holds: identity checks, the attendee's tickets, and the organiser's venues and schedules."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.events.identity_tools import IDENTITY_TOOLS
from taumesh.domains.events.organiser_tools import ORGANISER_TOOLS
from taumesh.domains.events.ticket_tools import TICKET_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*IDENTITY_TOOLS, *TICKET_TOOLS, *ORGANISER_TOOLS)
