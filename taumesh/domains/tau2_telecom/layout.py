"""Where τ²'s telecom domain keeps its files, for the ``tau2-telecom`` and ``tau2-telecom-workflow`` plugins."""

from __future__ import annotations

from taumesh.domains.tau2 import Tau2Layout
from taumesh.domains.tau2_telecom.agent_tools import AGENT_TOOLS
from taumesh.domains.tau2_telecom.models import TelecomDB
from taumesh.domains.tau2_telecom.phone_models import TelecomUserDB
from taumesh.domains.tau2_telecom.user_tools import USER_TOOLS

TOOLKIT = "TelecomTools"
USER_TOOLKIT = "TelecomUserTools"
LIST_TABLES = ("plans", "customers", "lines", "bills", "devices")
"""TelecomDB's tables, lists in τ²."""
SPLITS = ("base", "small", "train", "test", "full")


def telecom_layout(tech_support_file: str) -> Tau2Layout:
    """The telecom files with one of the two tech-support policies (``manual`` or ``workflow``)."""
    return Tau2Layout(
        toolkit=TOOLKIT,
        database=TelecomDB,
        tools=(*AGENT_TOOLS, *USER_TOOLS),
        user_toolkit=USER_TOOLKIT,
        user_database=TelecomUserDB,
        policy_file="main_policy.md",
        tech_support_file=tech_support_file,
        db_file="db.toml",
        user_db_file="user_db.toml",
        list_tables=LIST_TABLES,
    )


MANUAL = telecom_layout("tech_support_manual.md")
WORKFLOW = telecom_layout("tech_support_workflow.md")
