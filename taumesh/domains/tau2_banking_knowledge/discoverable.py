"""The discoverable tools' implementations, by name: each ``function(data, **arguments) -> str``.

The catalogue (names, tags, docstrings) is upstream's, imported as data (:mod:`.texts`); the implementations
(:mod:`.discoverable_tools`) return upstream's texts and change the tables as upstream's do.
"""

from __future__ import annotations

from taumesh.domains.tau2_banking_knowledge.discoverable_tools import bank, credit, debit, transfers, user
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import AGENT, USER

AGENT_DISCOVERABLE = AGENT
USER_DISCOVERABLE = USER
FAMILIES = (bank, credit, debit, transfers, user)
"""The modules whose import registered the tools."""
