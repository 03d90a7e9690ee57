"""The data-science domain: Northwind Analytics' service desk, with dual control for restricted data (issue 46).

It uses the public API of ``taumesh.domains`` only. Analysts and business stakeholders of a retail group ask an
agent to clean customer data sets, publish summaries, compare web and store customers, chart figures and train
models; data owners ask it to admit people to restricted data sets or revoke their access. Every outcome is graded
by what it does: cleaned tables, reports, charts (as specifications) and models are records whose fields the desk's
own tools compute, and the figures the agent must say (means, t statistics, test errors) are computed by the same
pure-Python code on a fixed split. Admitting someone needs the owner's code from their own approval app, which stays
outside the graded state. Built on the domain factory from three seeded worlds (w3 is the test split);
``python -m taumesh.domains.data_science.build`` regenerates ``data/`` (docs/domains/data-science.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.data_science.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.data_science.approval_app_tools import USER_TOOLS
from taumesh.domains.data_science.hashing import GradedTablesHasher
from taumesh.domains.data_science.models import DataScienceDatabase
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose people and data train never
meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: an owner's grant takes nine actions, two of them in their approval app (dual control), and a
model on unclean data seven, beside the conversation and a confirmation before each change, so τ-bench v1's 30
steps leave little room; 50 bound a loop. Ten tool errors end an episode; each trial gets its own seed; task ids are
the domain's own text; and re-grading replays the owner's app calls too (the timeline), without which a grant's
code would be missing from the replay."""

plugin = FactoryPlugin(
    name="data-science",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=DataScienceDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=GradedTablesHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="data-science-2",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``data-science = "taumesh.domains.data_science:plugin"``)."""
