"""The logistics domain: a parcel network's operations desk, with dual control (issue 45). Public API only.

Shippers, consignees and depot operators ask an agent to move delivery windows, redirect parcels to depots, record
safe places, file damage claims, book pickups and carriers, cancel shipments, arrange redeliveries, correct stock
counts and log incidents. Clients hold the network's tracking app on their phone, which the agent cannot see:
passcodes, safe-place choices and damage photos are theirs to read out. Built on the domain factory from three
seeded worlds (w3 is the test split); ``python -m taumesh.domains.logistics.build`` regenerates ``data/``
(docs/domains/logistics.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.logistics.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.logistics.hashing import DeskHasher
from taumesh.domains.logistics.models import LogisticsDatabase
from taumesh.domains.logistics.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose callers train never meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: an allowed outcome takes up to nine actions, some the client's in their tracking app (dual
control), beside the conversation and a confirmation before each change, so 30 steps (τ-bench v1's) leave an agent
little room while 50 still bound a loop. Ten tool errors end an episode; each trial gets its own seed; task ids are
the domain's own text; and re-grading replays the client's app calls too (the timeline), without which the app's
passcodes and references would be missing from the replay."""

plugin = FactoryPlugin(
    name="logistics",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=LogisticsDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="logistics-3",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``logistics = "taumesh.domains.logistics:plugin"``)."""
