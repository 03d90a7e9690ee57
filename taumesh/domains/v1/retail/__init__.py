"""τ-bench v1 retail: an online shop's users, orders and products."""

from __future__ import annotations

from taumesh.domains import DomainPlugin
from taumesh.domains.v1.common_tools import Calculate, Think, TransferToHumanAgents
from taumesh.domains.v1.retail.models import RetailDatabase
from taumesh.domains.v1.retail.tools import RETAIL_TOOLS

plugin = DomainPlugin(
    name="retail",
    tools=(*RETAIL_TOOLS, Calculate, Think, TransferToHumanAgents),
    database=RetailDatabase,
    splits=("test", "train", "dev"),
    tool_schemas_file="tools.json",
)
"""The retail domain, registered by the entry point ``retail = "taumesh.domains.v1.retail:plugin"``."""

SPEC = plugin
