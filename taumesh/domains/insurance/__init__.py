"""The insurance domain: Harborline Mutual's claims desk, built on the domain factory (``taumesh.domains.factory``).

Policyholders call to check what their policies cover, file claims, upload the documents a claim needs, follow a
claim to its payment, appeal a denial, change a deductible, reinstate or cancel a policy. The policyholder holds a
phone the desk cannot see: security codes arrive there, and the claim documents are photos on it that only they
can upload (dual control). ``python -m taumesh.domains.insurance.build`` regenerates ``data/``
(docs/domains/insurance.md).
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.insurance.agent_tools import AGENT_TOOLS
from taumesh.domains.insurance.drafting import IDENTITY
from taumesh.domains.insurance.hashing import InsurerHasher
from taumesh.domains.insurance.models import InsuranceDatabase
from taumesh.domains.insurance.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""``base`` is every task; ``train`` the tasks of worlds w1 and w2, ``test`` those of w3."""
RELEASE = "insurance-1"
IDENTITY_TOOLS = IDENTITY
"""Finding the policyholder, then verifying them by date of birth and ZIP code or by a texted security code."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a document upload takes up to a dozen actions, several the policyholder's own on their phone,
beside the identity checks and the conversation, so τ-bench v1's 30 steps leave an agent little room and 50 bound a
loop; ten tool errors end an episode; each trial gets its own seed; task ids are the desk's own text; and re-grading
replays the policyholder's tool calls too (the timeline), since their uploads write to the claim."""

plugin = FactoryPlugin(
    name="insurance",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=InsuranceDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=InsurerHasher,
    identity_tools=IDENTITY_TOOLS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``insurance = "taumesh.domains.insurance:plugin"``)."""
