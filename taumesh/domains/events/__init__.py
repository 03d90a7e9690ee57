"""The events domain: Harborline Box Office's attendees and organisers, with dual control (docs/domains/events.md).

Attendees hold ticket orders and a ticket app the agent cannot see (sign-in and release codes, transfer offers they
accept themselves); organisers hold venues, speaker sessions and ticket allocations. Built on the domain factory:
three seeded worlds, test callers never in train, every allowed outcome accepted, statements checked by predicate,
a numbered policy. ``python -m taumesh.domains.events.build`` regenerates ``data/``.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.events.agent_tools import AGENT_TOOLS
from taumesh.domains.events.drafts import IDENTITY
from taumesh.domains.events.models import EventsDatabase
from taumesh.domains.events.user_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base: every task; train: worlds w1 and w2; test: world w3, whose callers and records train never touches."""
RELEASE = "events-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The box office's own: a transfer takes up to 9 gold actions, some the attendee's own in their app, beside the
conversation, so 30 steps (τ-bench v1's) leave an agent little room and 50 still bound a loop; ten tool errors end an
episode; each trial gets its own seed; task ids are the box office's text; and re-grading replays the attendee's app
calls too (the timeline), since accepting a transfer in the app is a write."""

plugin = FactoryPlugin(
    name="events",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=EventsDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY,
    unordered_arguments={},
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``events = "taumesh.domains.events:plugin"``)."""
