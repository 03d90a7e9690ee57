"""The engineering domain: a code host's developer-support desk, with dual control (issue 46).

Developers ask an agent to fix a branch whose tests fail, open a pull request, ask for a review, merge (the owner
reads a code from their authenticator app), re-run CI, close or assign an issue, and change a repository's approval
rule. The repositories are small real Python projects whose files live in the world; a code fix is graded by what it
does: the branch's tests run in the bubblewrap sandbox (``taumesh.sandbox``) and the generated files must be
untouched. Built on the domain factory from three seeded worlds (w3 is the test split);
``python -m taumesh.domains.engineering.build`` regenerates ``data/`` (docs/domains/engineering.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.engineering.hashing import HostHasher
from taumesh.domains.engineering.models import EngineeringDatabase
from taumesh.domains.engineering.plugin import EngineeringPlugin
from taumesh.domains.engineering.read_tools import READ_TOOLS
from taumesh.domains.engineering.user_tools import USER_TOOLS
from taumesh.domains.engineering.write_tools import WRITE_TOOLS
from taumesh.domains.factory import FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose records train never meets."""
IDENTITY_TOOLS = frozenset({"find_developer", "verify_developer"})

RUN_DEFAULTS = RunDefaults(
    seed=46, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a fix reads CI runs and files before editing, and a merge waits for the owner's phone, so
τ-bench v1's 30 steps leave little room; 50 bound a loop. Ten tool errors end an episode; each trial gets its own
seed; task ids are the domain's own text; and re-grading replays the developer's own calls too (the timeline)."""

plugin = EngineeringPlugin(
    name="engineering",
    tools=(*READ_TOOLS, *WRITE_TOOLS, *USER_TOOLS),
    database=EngineeringDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=HostHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="engineering-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``engineering = "taumesh.domains.engineering:plugin"``)."""
