"""τ²'s ``retail`` domain as the ``tau2-retail`` plugin."""

from __future__ import annotations

from taumesh.domains.tau2 import Tau2Layout, Tau2Plugin
from taumesh.domains.tau2_retail.models import RetailDB
from taumesh.domains.tau2_retail.tools import HEAD_TOOLS, TOOLS
from taumesh.domains.v1.retail import RETAIL_IDENTITY_TOOLS, RETAIL_UNORDERED_ARGUMENTS

plugin = Tau2Plugin(
    name="tau2-retail",
    source_name="retail",
    tools=TOOLS,
    head_tools=HEAD_TOOLS,
    layout=Tau2Layout(toolkit="RetailTools", database=RetailDB, tools=TOOLS),
    identity_tools=RETAIL_IDENTITY_TOOLS,
    unordered_arguments=RETAIL_UNORDERED_ARGUMENTS,
)
