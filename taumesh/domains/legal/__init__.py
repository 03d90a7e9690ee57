"""The legal domain: Larkspur & Vane's matter-management desk, built with the domain factory (docs/domains/legal.md).

The firm's lawyers ask the desk to open matters after a conflict check, staff them within ethical screens, move the
firm's own deadlines, draft from templates, cite good law from the research corpus, and produce documents in
disclosure (logging privileged ones instead) and close files; client contacts ask it to engage the firm, signing the
letter in their own portal, and to send documents, which they upload there (dual control).
``python -m taumesh.domains.legal.build`` regenerates ``data/`` from three seeded worlds.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.legal.agent_tools import AGENT_TOOLS
from taumesh.domains.legal.drafts import IDENTITY
from taumesh.domains.legal.models import LegalDatabase
from taumesh.domains.legal.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then train (worlds w1 and w2) and test (world w3), which touch no common entity."""
RELEASE = "legal-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: an engagement takes seven gold actions, two of them the client's in their portal, beside the
conversation, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool errors end an episode;
each trial gets its own seed; task ids are the desk's own text; and re-grading replays the user's tool calls too (the
timeline), without which a client's signature or upload would be lost."""

plugin = FactoryPlugin(
    name="legal",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=LegalDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``legal = "taumesh.domains.legal:plugin"``)."""
