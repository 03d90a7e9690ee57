"""τ-bench v1 airline: flights, reservations and the airline's members."""

from __future__ import annotations

from taumesh.domains import DomainPlugin
from taumesh.domains.v1.airline.models import AirlineDatabase
from taumesh.domains.v1.airline.tools import AIRLINE_TOOLS
from taumesh.domains.v1.common_tools import Calculate, Think, TransferToHumanAgents

plugin = DomainPlugin(
    name="airline",
    tools=(*AIRLINE_TOOLS, Calculate, Think, TransferToHumanAgents),
    database=AirlineDatabase,
    splits=("test",),
    tool_schemas_file="tools.json",
)
"""The airline domain, registered by the entry point ``airline = "taumesh.domains.v1.airline:plugin"``."""

SPEC = plugin
