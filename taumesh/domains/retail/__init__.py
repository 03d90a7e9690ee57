"""τ-bench v1 retail: an online shop's users, orders and products."""

from __future__ import annotations

from taumesh.domains._domain import DomainSpec
from taumesh.domains.common_tools import Calculate, Think, TransferToHumanAgents
from taumesh.domains.retail.tools import RETAIL_TOOLS

SPEC = DomainSpec(
    name="retail",
    tools=(*RETAIL_TOOLS, Calculate, Think, TransferToHumanAgents),
    tables=("orders", "products", "users"),
    splits=("test", "train", "dev"),
)
