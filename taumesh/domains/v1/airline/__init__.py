"""τ-bench v1 airline: flights, reservations and the airline's members."""

from __future__ import annotations

from taumesh.domains import DomainPlugin
from taumesh.domains.v1.airline.models import AirlineDatabase
from taumesh.domains.v1.airline.tools import AIRLINE_TOOLS
from taumesh.domains.v1.common_tools import Calculate, Think, TransferToHumanAgents

AIRLINE_IDENTITY_TOOLS = frozenset({"get_user_details"})
"""The airline policy identifies the member by user id, whose profile the agent looks up."""
AIRLINE_UNORDERED_ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "book_reservation": (("passengers",), ("payment_methods",)),
    "update_reservation_passengers": (("passengers",),),
}
"""Passengers and payment methods are sets: the policy orders neither (flights are an itinerary, in order)."""

plugin = DomainPlugin(
    name="airline",
    tools=(*AIRLINE_TOOLS, Calculate, Think, TransferToHumanAgents),
    database=AirlineDatabase,
    splits=("test",),
    tool_schemas_file="tools.json",
    identity_tools=AIRLINE_IDENTITY_TOOLS,
    unordered_arguments=AIRLINE_UNORDERED_ARGUMENTS,
)
"""The airline domain, registered by the entry point ``airline = "taumesh.domains.v1.airline:plugin"``."""

SPEC = plugin
