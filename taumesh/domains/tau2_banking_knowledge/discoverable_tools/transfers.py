"""The agent's discoverable transfer steps: each only answers with its docstring's ``Returns:`` line (imported)."""

from __future__ import annotations

import re

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import agent_tool
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts

RETURNS = re.compile(r"\n\s*Returns:\s*\n")


def _announce(name: str) -> str:
    """The first line after the docstring's ``Returns:``, then what ran."""
    doc = banking_texts().agent_discoverable_by_name()[name].doc
    success = RETURNS.split(doc, maxsplit=1)[-1].strip().split("\n")[0].strip()
    return f"{success}\n\nExecuted: {name}\nArguments: (no arguments)"


@agent_tool
def initial_transfer_to_human_agent_0218(data: Data) -> str:
    """Upstream's ``initial_transfer_to_human_agent_0218`` (its description is the imported docstring)."""
    return _announce("initial_transfer_to_human_agent_0218")


@agent_tool
def initial_transfer_to_human_agent_1822(data: Data) -> str:
    """Upstream's ``initial_transfer_to_human_agent_1822`` (its description is the imported docstring)."""
    return _announce("initial_transfer_to_human_agent_1822")


@agent_tool
def emergency_credit_bureau_incident_transfer_1114(data: Data) -> str:
    """Upstream's ``emergency_credit_bureau_incident_transfer_1114`` (its description is the imported docstring)."""
    return _announce("emergency_credit_bureau_incident_transfer_1114")
