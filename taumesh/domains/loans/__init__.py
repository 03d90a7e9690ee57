"""The loans domain: a lender's servicing desk, with dual control (issue 43). Public API of ``taumesh.domains`` only.

Applicants and borrowers ask an agent to apply for loans, check eligibility, quote payoffs, and manage payments,
fees, due dates, autopay, hardship deferrals and income documents. The borrower holds the lender's banking app on
their phone, which the agent cannot see: sign-in codes, pay slips, autopay mandates and credit-check consents are
theirs to read or approve there. Built on the domain factory from three seeded worlds (w3 is the test split);
``python -m taumesh.domains.loans.build`` regenerates ``data/`` (docs/domains/loans.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.loans.agent_tools import AGENT_TOOLS, IDENTITY_TOOLS
from taumesh.domains.loans.hashing import LenderHasher
from taumesh.domains.loans.models import LoansDatabase
from taumesh.domains.loans.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""base is every task; train the tasks of worlds w1 and w2; test those of w3, whose borrowers train never meets."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The lender's own: an allowed outcome takes up to 12 actions, some the borrower's in their app (dual control), beside
the conversation and a confirmation before each change, so 30 steps (τ-bench v1's) leave an agent little room; 50
bound a loop. Ten tool errors end an episode, as τ²'s dual-control runs do; each trial gets its own seed; task ids
are the domain's own text; and re-grading replays the borrower's tool calls too (the timeline), without which the
app's codes and approvals would be missing from the replay."""

plugin = FactoryPlugin(
    name="loans",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=LoansDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=LenderHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments={},
    release="loans-1",
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``loans = "taumesh.domains.loans:plugin"``)."""
