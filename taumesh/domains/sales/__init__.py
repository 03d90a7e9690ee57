"""The sales domain: a sales-operations desk over a CRM, built with the domain factory (docs/domains/sales.md).

Reps and managers ask the desk to keep the CRM right (quotes, discounts within authority limits and their
approvals, close dates and forecast, logged meetings, follow-ups that respect contact preferences, account
take-overs); client contacts ask it to accept a quote, which they sign in their own e-signature app. The rep's
calendar and the client's inbox and e-signature app are the user's own (dual control).
``python -m taumesh.domains.sales.build`` regenerates ``data/`` from three seeded worlds.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.sales.agent_tools import AGENT_TOOLS
from taumesh.domains.sales.drafts import IDENTITY
from taumesh.domains.sales.models import SalesDatabase
from taumesh.domains.sales.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then train (worlds w1 and w2) and test (world w3), which touch no common entity."""
RELEASE = "sales-1"
IDENTITY_TOOLS = IDENTITY
"""Finding the caller and verifying them: a rep's employee number, a contact's emailed code read from their inbox."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a gold outcome takes up to 11 actions, some the client's own in their inbox and e-signature app,
beside the conversation, so τ-bench v1's 30 steps left an agent little room; 50 bound a loop. Ten tool errors end an
episode, as τ²'s dual-control runs; each trial gets its own seed; task ids are the desk's own text; and re-grading
replays the user's tool calls too (the timeline), without which a client's signature would be lost."""

plugin = FactoryPlugin(
    name="sales",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=SalesDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``sales = "taumesh.domains.sales:plugin"``)."""
