"""The pharmaceuticals domain: a trial sponsor's operations desk, with dual control (docs/domains/pharmaceuticals.md).

Research coordinators call to book visits inside their windows, randomise screened participants, submit adverse-event
reports on time, break the blind in an emergency and book couriers for laboratory samples; participants call to sign
a new consent version, reopen a locked e-diary and claim travel costs. Each participant holds a study app the desk
cannot see: signing, reading a one-time code and sending a receipt are theirs to do. Built on the domain factory from
three seeded worlds (w3 is the test split); ``python -m taumesh.domains.pharmaceuticals.build`` regenerates ``data/``.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.pharmaceuticals.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.pharmaceuticals.hashing import TrialDeskHasher
from taumesh.domains.pharmaceuticals.models import PharmaceuticalsDatabase
from taumesh.domains.pharmaceuticals.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then the tasks of worlds w1 and w2 (train) and of world w3 (test), which share no entity."""
RELEASE = "pharmaceuticals-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a re-consent takes ten gold actions, three of them the participant's in their app, beside a
confirmation before each write, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool
errors end an episode; each trial gets its own seed; task ids are the desk's own text; and re-grading replays the
participant's app calls too (the timeline), without which a signature or a sent receipt would be lost."""

plugin = FactoryPlugin(
    name="pharmaceuticals",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=PharmaceuticalsDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=TrialDeskHasher,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``pharmaceuticals = "taumesh.domains.pharmaceuticals:plugin"``)."""
