"""The healthcare domain: a clinic's patient services, with dual control. Public API of ``taumesh.domains`` only.

The patient holds a phone, an insurance card, a home monitor and apps the agent cannot see.

Two data releases ship in ``data/``:

- ``healthcare`` is release 2 (``data/v2/``), built on the domain factory (``taumesh.domains.factory``): three seeded
  worlds, test patients never in train, every allowed outcome accepted, statements checked by predicate, a numbered
  policy (docs/domains/healthcare.md); ``python -m taumesh.domains.healthcare.v2.build`` regenerates it.
- ``healthcare:v1`` is release 1 (``data/``), the faithful first release, kept so that its results stay comparable;
  ``python -m taumesh.domains.healthcare.build`` regenerates it, byte for byte.

Results record the release, and ``rescore`` refuses to grade one release's results against the other unless told
(``--allow-release-change``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path

from taumesh.domains import DomainPlugin, DomainView, RunDefaults, Session, Task
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.healthcare.agent_tools import AGENT_TOOLS
from taumesh.domains.healthcare.hashing import ClinicHasher
from taumesh.domains.healthcare.models import HealthcareDatabase
from taumesh.domains.healthcare.patient_tools import PATIENT_TOOLS
from taumesh.domains.healthcare.task import HealthcareTask

DATA = Path(__file__).resolve().parent / "data"
"""Release 1's files (``healthcare:v1``)."""
DATA_V2 = DATA / "v2"
"""Release 2's files (``healthcare``)."""
SPLITS = ("base", "train", "test")
RELEASES = {"v1": "healthcare-1", "v2": "healthcare-2"}
"""What results record as each release's ``data_release``."""


IDENTITY_TOOLS = frozenset(
    {"find_patient", "verify_identity", "send_verification_code", "verify_one_time_code", "verify_proxy"}
)
"""The clinic's identity checks: finding the patient, then verifying them (or their proxy)."""
UNORDERED_ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {"create_records_request": (("record_types",),)}
"""The kinds of record requested are a set (the only list an agent passes)."""


RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The clinic's own: a gold outcome takes up to 9 actions, some the patient's own (dual control), beside identity
checks and the conversation, so 30 steps (τ-bench v1's) left an agent little room; 50 bound a loop. Ten tool errors
end an episode, as τ²'s dual-control runs; each trial gets its own seed; task ids are the clinic's own text; and
re-grading replays the patient's tool calls too (the timeline), without which their writes would be lost."""


class HealthcareV1Plugin(DomainPlugin):
    """Release 1: the contract's defaults, but a transfer is a write (it files a hand-off), so the gold replays it."""

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The clinic's state after every gold action, the transfer included, from the base data."""
        session = Session(domain)
        for action in task.actions:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        return session.data_hash()

    def data_release(self, root: Path) -> str | None:
        return RELEASES["v1"]

    def task_intent(self, task: Task) -> str | None:
        """The task's ``intent`` (what it tests)."""
        intent = getattr(task, "intent", None)  # HealthcareTask's; the contract takes any Task
        return intent if isinstance(intent, str) else None


class HealthcarePlugin(FactoryPlugin):
    """Release 2 on the factory; it offers release 1 as the variant ``healthcare:v1``."""

    def variants(self) -> Mapping[str, Callable[[], DomainPlugin]]:
        return {"v1": lambda: v1_plugin}


plugin = HealthcarePlugin(
    name="healthcare",
    tools=(*AGENT_TOOLS, *PATIENT_TOOLS),
    database=HealthcareDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA_V2,
    task_model=FactoryTask,
    hasher=ClinicHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments=UNORDERED_ARGUMENTS,
    release=RELEASES["v2"],
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``healthcare = "taumesh.domains.healthcare:plugin"``): release 2."""

v1_plugin = HealthcareV1Plugin(
    name="healthcare:v1",
    tools=(*AGENT_TOOLS, *PATIENT_TOOLS),
    database=HealthcareDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=HealthcareTask,
    hasher=ClinicHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments=UNORDERED_ARGUMENTS,
    run_defaults=RUN_DEFAULTS,
)
"""Release 1, the faithful first release: ``--env healthcare:v1``."""
