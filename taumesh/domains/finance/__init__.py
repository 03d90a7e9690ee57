"""The finance domain: Harrowgate Wealth's client-service desk, built with the domain factory (docs/domains/finance.md).

Private clients ask the desk to deal in their general account, ISA or pension, to rebalance or change the model
portfolio an account follows, to review their risk profile, to withdraw cash or pay into their ISA, and to report
how their investments have done, all on a fixed clock and prices. Suitability, concentration, lock-up, pension-age
and allowance rules bound what the desk may do; orders and rebalances need the client's own approval in their app
(dual control). ``python -m taumesh.domains.finance.build`` regenerates ``data/`` from three seeded worlds.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.finance.agent_tools import AGENT_TOOLS
from taumesh.domains.finance.drafts import IDENTITY
from taumesh.domains.finance.models import FinanceDatabase
from taumesh.domains.finance.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""Every task, then train (worlds w1 and w2) and test (world w3), which touch no common entity."""
RELEASE = "finance-1"

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a gold outcome takes up to 11 actions, some of them the client's in their own app, beside the
conversation, so τ-bench v1's 30 steps leave an agent little room; 50 bound a loop. Ten tool errors end an episode;
each trial gets its own seed; task ids are the desk's own text; and re-grading replays the client's tool calls too
(the timeline), without which an approval given in the app would be lost."""

plugin = FactoryPlugin(
    name="finance",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=FinanceDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    identity_tools=IDENTITY,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``finance = "taumesh.domains.finance:plugin"``)."""
