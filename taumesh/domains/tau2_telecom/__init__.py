"""τ²'s ``telecom`` domain, with dual control: the agent works the carrier's systems, the user their phone.

Two plugins over the same tasks and tools: ``tau2-telecom`` (τ²'s ``telecom``, the manual
tech-support policy) and ``tau2-telecom-workflow`` (τ²'s ``telecom-workflow``, the flow-chart policy).
"""

from __future__ import annotations

from functools import partial

from taumesh.domains.tau2 import Tau2Hasher, Tau2Layout, Tau2Plugin
from taumesh.domains.tau2._layout import USER_TABLE
from taumesh.domains.tau2_telecom.agent_tools import AGENT_FUNCTIONS, AGENT_TOOLS
from taumesh.domains.tau2_telecom.layout import LIST_TABLES, MANUAL, SPLITS, WORKFLOW
from taumesh.domains.tau2_telecom.sync import sync_tools
from taumesh.domains.tau2_telecom.user_tools import USER_FUNCTIONS, USER_TOOLS

IDENTITY_TOOLS = frozenset({"get_customer_by_phone", "get_customer_by_id", "get_customer_by_name"})
"""The telecom policy's identification: the customer found by phone number, id, or name and date of birth."""


def _plugin(name: str, layout: Tau2Layout) -> Tau2Plugin:
    return Tau2Plugin(
        name=name,
        source_name="telecom",
        tools=(*AGENT_TOOLS, *USER_TOOLS),
        env_functions=(*AGENT_FUNCTIONS, *USER_FUNCTIONS),
        layout=layout,
        splits=SPLITS,
        sync=sync_tools,
        hasher=partial(Tau2Hasher, list_tables=LIST_TABLES, user_table=USER_TABLE),
        identity_tools=IDENTITY_TOOLS,
        unordered_arguments={},  # no tool takes a list
    )


plugin = _plugin("tau2-telecom", MANUAL)
workflow_plugin = _plugin("tau2-telecom-workflow", WORKFLOW)
