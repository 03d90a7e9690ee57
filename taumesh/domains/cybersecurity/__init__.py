"""The cybersecurity domain: Ashgrove Holdings' security operations desk, with dual control (issue 46).

It uses the public API of ``taumesh.domains`` only. Employees call to report phishing, to move their authenticator to
a new phone, to have a contained device reconnected, and to schedule a fix for (or accept the risk of) a
vulnerability on an asset they own; security analysts call to isolate hosts, close incidents and obtain a business
unit's patch-compliance audit report. The employee's work phone is theirs: they open its authenticator and endpoint
apps and read the codes out, and it stays outside the graded state. Built on the domain factory from three seeded
worlds (w3 is the test split); ``python -m taumesh.domains.cybersecurity.build`` regenerates ``data/``
(docs/domains/cybersecurity.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.cybersecurity.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.cybersecurity.hashing import DeskHasher
from taumesh.domains.cybersecurity.models import SecurityDatabase
from taumesh.domains.cybersecurity.phone_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose people and records train never
meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a phishing report takes seven actions, one of them on the employee's phone, beside the
conversation and a confirmation before each change, so τ-bench v1's 30 steps leave little room; 50 bound a loop. Ten
tool errors end an episode; each trial gets its own seed; task ids are the domain's own text; and re-grading replays
the employee's phone calls too (the timeline), without which a check code would be missing from the replay."""

plugin = FactoryPlugin(
    name="cybersecurity",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=SecurityDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=DeskHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="cybersecurity-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``cybersecurity = "taumesh.domains.cybersecurity:plugin"``)."""
