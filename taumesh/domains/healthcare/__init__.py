"""The healthcare domain: a clinic's patient services, with dual control. Public API of ``taumesh.domains`` only.

The patient holds a phone, an insurance card, a home monitor and apps the agent cannot see.

World, tasks and policy ship in ``data/``; ``python -m taumesh.domains.healthcare.build`` regenerates the world
and tasks from their seeds, byte for byte.
"""

from __future__ import annotations

import copy
from pathlib import Path

from taumesh.domains import DomainPlugin, DomainView, Session, Task
from taumesh.domains.healthcare.agent_tools import AGENT_TOOLS
from taumesh.domains.healthcare.hashing import ClinicHasher
from taumesh.domains.healthcare.models import HealthcareDatabase
from taumesh.domains.healthcare.patient_tools import PATIENT_TOOLS
from taumesh.domains.healthcare.task import HealthcareTask

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")


IDENTITY_TOOLS = frozenset(
    {"find_patient", "verify_identity", "send_verification_code", "verify_one_time_code", "verify_proxy"}
)
"""The clinic's identity checks: finding the patient, then verifying them (or their proxy)."""
UNORDERED_ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {"create_records_request": (("record_types",),)}
"""The kinds of record requested are a set (the only list an agent passes)."""


class HealthcarePlugin(DomainPlugin):
    """The contract's defaults, but a transfer is a write (it files a hand-off), so the gold replays it too."""

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The clinic's state after every gold action, the transfer included, from the base data."""
        session = Session(domain)
        for action in task.actions:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        return session.data_hash()

    def task_intent(self, task: Task) -> str | None:
        """The task's ``intent`` (what it tests)."""
        intent = getattr(task, "intent", None)  # HealthcareTask's; the contract takes any Task
        return intent if isinstance(intent, str) else None


plugin = HealthcarePlugin(
    name="healthcare",
    tools=(*AGENT_TOOLS, *PATIENT_TOOLS),
    database=HealthcareDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=HealthcareTask,
    hasher=ClinicHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments=UNORDERED_ARGUMENTS,
)
"""What the registry loads (entry point ``healthcare = "taumesh.domains.healthcare:plugin"``)."""
