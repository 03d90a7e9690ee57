"""The agriculture domain: a growers' co-op farm-operations desk, with dual control (issue 45).

Growers and farm managers ask an agent to book and cancel spray jobs, log finished sprays, issue field entry
permits, book irrigation, move water allocation between fields, correct yield records and register next season's
plantings, under weather windows, re-entry and pre-harvest intervals, refill points, district water licences and
crop rotation. The grower holds the FieldLink app, which the agent cannot see: they sync their soil probes and
confirm their applicators' spray logs there. Built on the domain factory from three seeded worlds (w3 is the test
split); ``python -m taumesh.domains.agriculture.build`` regenerates ``data/`` (docs/domains/agriculture.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.agriculture.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.agriculture.hashing import DeskHasher
from taumesh.domains.agriculture.models import AgricultureDatabase
from taumesh.domains.agriculture.user_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose growers train never meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a gold outcome takes up to ten actions, some of them the grower's in their field app (signing in,
syncing the probes, confirming a spray log), besides the conversation and a confirmation before each change, so
τ-bench v1's 30 steps leave an agent little room; 50 still bound a loop. Ten tool errors end an episode, as in τ²'s
dual-control runs; each trial gets its own seed; task ids are the desk's own text; and re-grading replays the
grower's tool calls too (the timeline), without which a synced probe reading would be missing from the replay."""

plugin = FactoryPlugin(
    name="agriculture",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=AgricultureDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="agriculture-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``agriculture = "taumesh.domains.agriculture:plugin"``)."""
