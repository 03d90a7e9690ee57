"""τ²'s ``airline`` domain as the ``tau2-airline`` plugin."""

from __future__ import annotations

from taumesh.domains.tau2 import Tau2Layout, Tau2Plugin
from taumesh.domains.tau2_airline.models import FlightDB
from taumesh.domains.tau2_airline.tools import TOOLS
from taumesh.domains.v1.airline import AIRLINE_IDENTITY_TOOLS, AIRLINE_UNORDERED_ARGUMENTS

plugin = Tau2Plugin(
    name="tau2-airline",
    source_name="airline",
    tools=TOOLS,
    layout=Tau2Layout(toolkit="AirlineTools", database=FlightDB, tools=TOOLS),
    identity_tools=AIRLINE_IDENTITY_TOOLS,
    unordered_arguments=AIRLINE_UNORDERED_ARGUMENTS,
)
