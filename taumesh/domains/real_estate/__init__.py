"""The real-estate domain: Larchmont Realty's client desk for buyers and renters, with dual control.

Clients tour homes, learn what a listing costs, make, counter and withdraw offers, receive and sign disclosures,
upload pre-approval letters and pay stubs, and apply for rentals. The client holds a portal the agent cannot act in:
only they sign in, upload their files and sign disclosures. Built on the domain factory
(``taumesh.domains.factory``): three seeded worlds, test clients never in train, every allowed outcome accepted,
statements checked by predicate, a numbered policy (docs/domains/real-estate.md).
``python -m taumesh.domains.real_estate.build`` regenerates ``data/``.
"""

from __future__ import annotations

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.real_estate.agent_tools import AGENT_TOOLS
from taumesh.domains.real_estate.draft import IDENTITY_TOOLS
from taumesh.domains.real_estate.hashing import AgencyHasher
from taumesh.domains.real_estate.layout import DATA, SPLITS
from taumesh.domains.real_estate.models import RealEstateDatabase
from taumesh.domains.real_estate.user_tools import USER_TOOLS

RELEASE = "real-estate-1"
"""What results record as the data release; bump it whenever ``data/`` changes."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The agency's own: a gold outcome takes up to 14 actions, some of them the client's in their portal, beside the
conversation, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool errors end an episode;
each trial gets its own seed; task ids are the domain's own text; and re-grading replays the client's portal calls
too (the timeline), since their uploads and signatures reach the agency's tables, which are graded."""

plugin = FactoryPlugin(
    name="real-estate",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=RealEstateDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=AgencyHasher,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``real-estate = "taumesh.domains.real_estate:plugin"``)."""
