"""A healthcare task: τ-bench's task plus what it tests (intent, difficulty tier, whether it is a trap)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from taumesh.domains import Action, Task

Tier = Literal["easy", "medium", "hard"]


class HealthcareTask(Task):
    """A task with its intent, whether the right outcome is a refusal, transfer or smaller action, and its tier."""

    LABELS: ClassVar[tuple[str, ...]] = ("intent", "tier", "trap", "dual_control")
    """The fields the viewer shows and filters by."""

    intent: str
    trap: bool = False
    dual_control: bool = False
    tier: Tier = "easy"
    forbidden: list[Action] = Field(default_factory=list)
    """A write the policy forbids here (for a trap: what the patient asks for); the discrimination test adds it."""


def tier(writes: int, trap: bool, patient_steps: int) -> Tier:
    """Difficulty from the number of agent writes, a trap, and the patient's own steps."""
    points = max(writes - 1, 0) + (2 if trap else 0) + min(patient_steps, 2)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"
