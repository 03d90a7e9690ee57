"""The construction domain: a general contractor's project desk, with dual control (docs/domains/construction.md).

Site managers call to book inspections, submit permit applications, clear subcontractors for site and move
milestones; subcontractors to renew their insurance on file, get invoices paid and obtain site passes; project owners
to execute change orders. Owners and subcontractors hold a project portal the desk cannot see: uploading a
certificate or a lien waiver and signing a change order are theirs to do. Built on the domain factory from three
seeded worlds (w3 is the test split); ``python -m taumesh.domains.construction.build`` regenerates ``data/``.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.construction.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.construction.hashing import DeskHasher
from taumesh.domains.construction.models import ConstructionDatabase
from taumesh.domains.construction.user_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then the tasks of worlds w1 and w2 (train) and of world w3 (test), which share no entity."""
RELEASE = "construction-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a payment takes up to 8 gold actions, two of them the subcontractor's in their portal, beside a
confirmation before each write, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool errors
end an episode; each trial gets its own seed; task ids are the desk's own text; and re-grading replays the caller's
portal calls too (the timeline), without which an upload or a signature would be lost."""

plugin = FactoryPlugin(
    name="construction",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=ConstructionDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``construction = "taumesh.domains.construction:plugin"``)."""
