"""The hospitality domain: a hotel group's remote front desk, with dual control, built on the domain factory.

Guests call about their stays: bookings and cancellations under rate plans and their windows, room moves and
late check-outs while in house, standing preferences limited by loyalty tier, disputed charges, compensation for
complaints, missing loyalty points, and mobile keys. The guest holds a phone with the hotel app the desk cannot
see: one-time codes and mobile keys arrive there, and the guest reads and activates them (docs/domains/hospitality.md).

``python -m taumesh.domains.hospitality.build`` regenerates ``data/`` from three seeded worlds, the numbered policy
and the reference solvers.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import RunDefaults
from taumesh.domains.factory import FactoryPlugin, FactoryTask
from taumesh.domains.hospitality.agent_tools import AGENT_TOOLS
from taumesh.domains.hospitality.draft import IDENTITY_TOOLS
from taumesh.domains.hospitality.hashing import HotelHasher
from taumesh.domains.hospitality.models import HospitalityDatabase
from taumesh.domains.hospitality.user_tools import USER_TOOLS

DATA = Path(__file__).resolve().parent / "data"
SPLITS = ("base", "train", "test")
"""``base``: every task; ``train``: worlds w1 and w2; ``test``: world w3, whose guests train never sees."""
RELEASE = "hospitality-1"
UNORDERED_ARGUMENTS: dict[str, tuple[tuple[str, ...], ...]] = {"update_preferences": (("preferences",),)}
"""Standing preferences are a set: the profile keeps them sorted, whatever order the agent passes."""

RUN_DEFAULTS = RunDefaults(
    seed=10, max_steps=50, max_errors=10, per_trial_seeds=True, task_id_style="id", replay="timeline"
)
"""The desk's own: a dual-control task takes up to 12 actions (finding and verifying the guest, a code pushed to the
app and read back, the reads, the device code read from the app, the key, the guest activating it), beside the
conversation, so τ-bench v1's 30 steps leave little room; 50 bound a loop. Ten tool errors end an episode, as in τ²'s
dual-control runs; each trial gets its own seed; task ids are the domain's own text; and re-grading replays the whole
timeline, the guest's app calls with the agent's, in the order they were played."""

plugin = FactoryPlugin(
    name="hospitality",
    tools=(*AGENT_TOOLS, *USER_TOOLS),
    database=HospitalityDatabase,
    splits=SPLITS,
    terminate_tools=frozenset({"transfer_to_human_agents"}),
    own_data=DATA,
    task_model=FactoryTask,
    hasher=HotelHasher,
    identity_tools=IDENTITY_TOOLS,
    unordered_arguments=UNORDERED_ARGUMENTS,
    release=RELEASE,
    run_defaults=RUN_DEFAULTS,
)
"""What the registry loads (entry point ``hospitality = "taumesh.domains.hospitality:plugin"``)."""
