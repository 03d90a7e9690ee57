"""The space domain: a satellite operations desk, with dual control (issue 45).

It uses the public API of ``taumesh.domains`` only. Customers' contacts (payload owners) ask an agent to book and
release ground-station passes, task their spacecraft to image a target, and be briefed on conjunction warnings;
Halcyon Orbital's mission operators ask it to approve collision-avoidance burns, queue commands for a pass, bring a
spacecraft out of safe mode and acknowledge telemetry alarms. Every change to what a spacecraft does needs the
operator's second approval, a code they display on their own authenticator console and read out. Built on the
domain factory from three seeded worlds (w3 is the test split); ``python -m taumesh.domains.space.build``
regenerates ``data/`` (docs/domains/space.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.space.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.space.console_tools import USER_TOOLS
from taumesh.domains.space.hashing import DeskHasher
from taumesh.domains.space.models import SpaceDatabase

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose callers and records train never
meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The operations desk's own: an operator's task takes up to 8 actions, two of them on their console (dual control),
beside the conversation and a confirmation before each change, so τ-bench v1's 30 steps leave little room; 50 bound
a loop. Ten tool errors end an episode, as τ²'s dual-control runs do; each trial gets its own seed; task ids are the
domain's own text; and re-grading replays the operator's console calls too (the timeline), without which an
approval code would be missing from the replay."""

plugin = FactoryPlugin(
    name="space",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=SpaceDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="space-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``space = "taumesh.domains.space:plugin"``)."""
