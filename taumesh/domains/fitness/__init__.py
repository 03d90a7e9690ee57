"""The fitness domain: member services of a gym chain, built on the domain factory (docs/domains/fitness.md).

Members ask an agent to book classes and trainers, add routines from the club's library, import workouts from their
own watch (dual control: only the member can read the share code), set goals, freeze, end their membership and bring
guests. Safety rules tie classes, routines and trainers to the conditions a member has declared: the trap the issue
names is a routine or class the policy forbids for such a condition, which the agent refuses with the reason before
offering one the rules allow. ``python -m taumesh.domains.fitness.build`` regenerates ``data/``.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.fitness.agent_tools import AGENT_TOOLS
from taumesh.domains.fitness.draft import IDENTITY_TOOLS
from taumesh.domains.fitness.models import FitnessDatabase
from taumesh.domains.fitness.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
RELEASE = "fitness-1"

RUN_DEFAULTS = RunDefaults(seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id")
"""The club's own: a gold outcome is up to 6 calls (identity, reads, a write, the member's watch) beside the
conversation, and a safety refusal adds turns of explanation and an offer, so 30 steps (τ-bench v1's) leave an
agent little room; 50 bound a loop. Ten tool errors end an episode, as τ²'s dual-control runs do; each trial gets its
own seed; task ids are the domain's own text. The member's watch tool only reads, so the default replay (the
agent's calls) regrades an episode fully."""

plugin = FactoryPlugin(
    name="fitness",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=FitnessDatabase,
    splits=("base", "train", "test"),
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``fitness = "taumesh.domains.fitness:plugin"``)."""
