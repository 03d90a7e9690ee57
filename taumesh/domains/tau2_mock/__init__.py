"""τ²'s ``mock`` domain (users and their to-do tasks) as the ``tau2-mock`` plugin."""

from __future__ import annotations

from taumesh.domains.tau2 import Tau2Layout, Tau2Plugin
from taumesh.domains.tau2_mock.models import MockDB
from taumesh.domains.tau2_mock.tools import ENV_FUNCTIONS, TOOLS

plugin = Tau2Plugin(
    name="tau2-mock",
    source_name="mock",
    tools=TOOLS,
    env_functions=ENV_FUNCTIONS,
    layout=Tau2Layout(toolkit="MockTools", database=MockDB, tools=TOOLS),
)
