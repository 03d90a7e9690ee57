"""The HR domain: Northwind's People Services desk, with dual control (docs/domains/hr.md).

Employees and people managers call about leave, shift cover, onboarding, their personal record, pay changes and job
openings. The employee holds a self-service portal the desk cannot see: signing forms and confirming a shift
hand-over are theirs to do. Built on the domain factory: three seeded worlds (one site each), test employees never in
train, every allowed outcome accepted, statements checked by predicate, a numbered policy;
``python -m taumesh.domains.hr.build`` regenerates ``data/``.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.hr.agent_tools import AGENT_TOOLS
from taumesh.domains.hr.draft import IDENTITY_TOOLS
from taumesh.domains.hr.models import HrDatabase
from taumesh.domains.hr.portal_tools import PORTAL_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then the tasks of the train worlds (w1, w2) and of the test world (w3)."""
RELEASE = "hr-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a shift hand-over takes up to 10 gold actions, three of them the employee's in their portal,
beside the conversation, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool errors end
an episode; each trial gets its own seed; task ids are the desk's own text; and re-grading replays the employee's
portal calls too (the timeline), without which their signatures and confirmations would be lost."""

plugin = FactoryPlugin(
    name="hr",
    tools=(*AGENT_TOOLS, *PORTAL_TOOLS),
    database=HrDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``hr = "taumesh.domains.hr:plugin"``)."""
