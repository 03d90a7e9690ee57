"""Every tool the account team's agent holds: identity, campaigns and budgets, targeting, and A/B tests."""

from __future__ import annotations

from taumesh.domains.advertising.campaign_tools import CAMPAIGN_TOOLS
from taumesh.domains.advertising.experiment_tools import EXPERIMENT_TOOLS
from taumesh.domains.advertising.identity_tools import IDENTITY_TOOLS
from taumesh.domains.advertising.targeting_tools import TARGETING_TOOLS

AGENT_TOOLS = (*IDENTITY_TOOLS, *CAMPAIGN_TOOLS, *TARGETING_TOOLS, *EXPERIMENT_TOOLS)
