"""τ-bench v1 retail: an online shop's users, orders and products."""

from __future__ import annotations

from taumesh.domains import DomainPlugin
from taumesh.domains.v1.common_tools import Calculate, Think, TransferToHumanAgents
from taumesh.domains.v1.retail.models import RetailDatabase
from taumesh.domains.v1.retail.tools import RETAIL_TOOLS

RETAIL_IDENTITY_TOOLS = frozenset({"find_user_id_by_email", "find_user_id_by_name_zip"})
"""The retail policy's authentication: the user is found by email, or by name and zip code."""
RETAIL_UNORDERED_ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "exchange_delivered_order_items": (("item_ids", "new_item_ids"),),
    "modify_pending_order_items": (("item_ids", "new_item_ids"),),
    "return_delivered_order_items": (("item_ids",),),
}
"""Items exchanged, modified or returned are a set (paired item lists reordered together); order ids say which."""

plugin = DomainPlugin(
    name="retail",
    tools=(*RETAIL_TOOLS, Calculate, Think, TransferToHumanAgents),
    database=RetailDatabase,
    splits=("test", "train", "dev"),
    tool_schemas_file="tools.json",
    identity_tools=RETAIL_IDENTITY_TOOLS,
    unordered_arguments=RETAIL_UNORDERED_ARGUMENTS,
)
"""The retail domain, registered by the entry point ``retail = "taumesh.domains.v1.retail:plugin"``."""

SPEC = plugin
