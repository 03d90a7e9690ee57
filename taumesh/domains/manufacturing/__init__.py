"""The manufacturing domain: a plant operations desk, with dual control (issue 45).

It uses the public API of ``taumesh.domains`` only. Plant operators, production planners and customers' buyers ask
an agent to hold and release lots, disposition non-conformance reports, book preventive maintenance, take a broken
machine down under lock-out, publish shift efficiency reports, and change, rush or cancel work orders. An operator
holds a shop-floor handheld the desk cannot see: lot label scans and lock-out confirmations are theirs to make there
and read out. Built on the domain factory from three seeded worlds (w3 is the test split); ``python -m
taumesh.domains.manufacturing.build`` regenerates ``data/`` (docs/domains/manufacturing.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.manufacturing.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.manufacturing.hashing import PlantHasher
from taumesh.domains.manufacturing.models import ManufacturingDatabase
from taumesh.domains.manufacturing.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose callers and records train never
meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The plant desk's own: an allowed outcome takes up to 8 actions, two of them the operator's on the handheld (dual
control), beside the conversation and a confirmation before each change, so 30 steps (τ-bench v1's) leave little
room; 50 bound a loop. Ten tool errors end an episode, as τ²'s dual-control runs do; each trial gets its own seed;
task ids are the domain's own text; and re-grading replays the operator's handheld calls too (the timeline), without
which a scan or a lock-out tag would be missing from the replay."""

plugin = FactoryPlugin(
    name="manufacturing",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=ManufacturingDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=PlantHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="manufacturing-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``manufacturing = "taumesh.domains.manufacturing:plugin"``)."""
