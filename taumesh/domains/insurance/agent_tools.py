"""Every tool of the agent, gathered from its three modules: identity, policies and claims."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.insurance.claim_tools import CLAIM_TOOLS
from taumesh.domains.insurance.identity_tools import IDENTITY_TOOLS
from taumesh.domains.insurance.policy_tools import POLICY_TOOLS

AGENT_TOOLS: tuple[type[Tool], ...] = (*IDENTITY_TOOLS, *POLICY_TOOLS, *CLAIM_TOOLS)
