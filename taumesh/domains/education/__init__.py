"""The education domain: Kestrel Vale University's student-services desk, with dual control (issue 46).

It uses the public API of ``taumesh.domains`` only. Students ask an agent to enrol on a course (or join its waiting
list), leave one (a drop with a refund, or a withdrawal with a fee), extend an assignment's due date, hand in overdue
work, book tutoring, order a course pack and hear their average in a course; instructors ask for a final grade to
be changed, which is filed for the head of department's approval. A student confirms a tutoring offer and uploads
late work in their own learning portal. Built on the domain factory from three seeded worlds (w3 is the test split);
``python -m taumesh.domains.education.build`` regenerates ``data/`` (docs/domains/education.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.education.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.education.hashing import DeskHasher
from taumesh.domains.education.models import EducationDatabase
from taumesh.domains.education.portal_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose people and records train never
meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The student desk's own: a tutoring booking takes nine gold actions, two of them in the student's portal, beside
the conversation and a confirmation before each change, so τ-bench v1's 30 steps leave little room; 50 bound a loop.
Ten tool errors end an episode, as τ²'s dual-control runs do; each trial gets its own seed; task ids are the domain's
own text; and re-grading replays the student's portal calls too (the timeline), without which a late upload would
be missing from the replay."""

plugin = FactoryPlugin(
    name="education",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=EducationDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="education-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``education = "taumesh.domains.education:plugin"``)."""
