"""The advertising domain: Kestrel Ads' advertiser support desk, built with the domain factory.

Its page is docs/domains/advertising.md.
Advertisers ask the desk to adjust their campaigns: daily budgets under a pacing rule, the account's spend cap under
its credit limit, resuming delivery, audience ages and interest segments, brand-safety exclusions, A/B tests under a
stopping rule, and the week's cost per conversion. Budget and spend-cap changes take effect only when the advertiser
approves them in their own ads dashboard (dual control). ``python -m taumesh.domains.advertising.build`` regenerates
``data/`` from three seeded worlds.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.advertising.agent_tools import AGENT_TOOLS
from taumesh.domains.advertising.drafts import IDENTITY
from taumesh.domains.advertising.models import AdvertisingDatabase
from taumesh.domains.advertising.user_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then train (worlds w1 and w2) and test (world w3), which touch no common entity."""
RELEASE = "advertising-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a gold outcome takes up to 8 actions, two of them the advertiser's in their dashboard, beside the
conversation, so τ-bench v1's 30 steps leave an agent little room and 50 still bound a loop. Ten tool errors end an
episode, as τ²'s dual-control runs do; each trial gets its own seed; task ids are the desk's text; and re-grading
replays the advertiser's tool calls too (the timeline), without which an approval in the dashboard would be lost."""

plugin = FactoryPlugin(
    name="advertising",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=AdvertisingDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``advertising = "taumesh.domains.advertising:plugin"``)."""
