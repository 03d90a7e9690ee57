"""The accounting domain: a shared accounting desk's books, with dual control (issue 44).

Staff (accounts payable clerks, accountants, budget holders) and suppliers' accounts contacts ask an agent to approve
invoices through a three-way match (a held one once it matches), settle invoices early, record credit notes, change
remittance accounts, reconcile supplier statements, correct tax codes, post journals into open periods and move
budget. The caller holds the company's portal on their own device, which the agent cannot see: one-time codes,
issued credit notes and bank change approvals are theirs to read out. Built on the domain factory from three seeded
worlds, one company each (w3 is the test split); ``python -m taumesh.domains.accounting.build`` regenerates ``data/``
(docs/domains/accounting.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.accounting.agent_tools import AGENT_TOOLS, IDENTITY_NAMES
from taumesh.domains.accounting.hashing import BooksHasher
from taumesh.domains.accounting.models import AccountingDatabase
from taumesh.domains.accounting.user_tools import USER_TOOLS
from taumesh.domains.factory import FactoryPlugin, FactoryTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of companies w1 and w2; test those of w3, whose books train never touches."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: an allowed outcome takes up to nine actions, some of them the caller's in their portal, beside the
talk and a confirmation before each change, so τ-bench v1's 30 steps leave an agent little room and 50 bound a loop.
Ten tool errors end an episode, as in τ²'s dual-control runs; each trial has its own seed; task ids are the domain's
text; and re-grading replays the caller's portal calls too (the timeline), without which their codes and approvals
would be missing from the replay."""

plugin = FactoryPlugin(
    name="accounting",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=AccountingDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=BooksHasher,
    identity_tools=IDENTITY_NAMES,
    unordered_arguments={},
    release="accounting-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``accounting = "taumesh.domains.accounting:plugin"``)."""
