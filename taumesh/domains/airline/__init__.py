"""τ-bench v1 airline: flights, reservations and the airline's members."""

from __future__ import annotations

from taumesh.domains._domain import DomainSpec
from taumesh.domains.airline.tools import AIRLINE_TOOLS
from taumesh.domains.common_tools import Calculate, Think, TransferToHumanAgents

SPEC = DomainSpec(
    name="airline",
    tools=(*AIRLINE_TOOLS, Calculate, Think, TransferToHumanAgents),
    tables=("flights", "reservations", "users"),
    splits=("test",),
)
