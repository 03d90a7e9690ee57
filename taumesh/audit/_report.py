"""The audit's JSON: per task its flags, per floor the tasks it passes. Stable: fields are added, never renamed."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

AUDIT_VERSION = "2"
"""Bumped whenever a flag's or a floor's rule changes, so that verdicts stored under one are never read as another's.

2: a domain's own flags (``DomainPlugin.task_flags``: ``non_unique``, ``trap_cue``, ``output_spec``) join the audit's.
"""

FlagKind = Literal[
    "gold_replay_error",
    "null_passable",
    "guessable_output",
    "basis_lint",
    "order_sensitive",
    "duplicate",
    "unscorable",
    "non_unique",
    "trap_cue",
    "output_spec",
]
"""The kinds of flag the audit raises (docs/validity.md says what each means); the last three a domain raises itself
(``DomainPlugin.task_flags``), as a factory domain does."""
FLAG_KINDS: tuple[FlagKind, ...] = get_args(FlagKind)
"""The same kinds, in order, as values (declared once, by the Literal)."""

FloorName = Literal["null", "read_only", "identity_then_refuse", "outputs_spam", "gold_without_outputs"]
FLOOR_NAMES: tuple[FloorName, ...] = get_args(FloorName)
"""The floors: trajectories built from the task alone, which a valid task should fail."""

TaskId = int | str
"""A task id as the domain spells it: τ-bench v1's position in the split (an int), else the domain's own string."""


class Flag(BaseModel):
    """One finding about a task: its kind and one sentence saying what was found."""

    model_config = ConfigDict(frozen=True)

    kind: FlagKind
    detail: str


class TaskAudit(BaseModel):
    """What the audit found about one task."""

    task_id: TaskId
    intent: str | None = None
    """What the task tests, where the domain says (healthcare's intent); None elsewhere."""
    flags: list[Flag] = Field(default_factory=list)


class FloorResult(BaseModel):
    """The tasks one floor's trajectory passes, out of the tasks audited."""

    passed: list[TaskId] = Field(default_factory=list)
    of: int
    unscored: list[TaskId] = Field(default_factory=list)
    """Tasks the scorer could not grade: a judge model needed (NL assertions), or the scorer broke (flag
    ``unscorable``). Neither passed nor failed."""
    note: str | None = None
    """Why the floor could not be played as designed (no identity tools declared): it then reads "unknown"."""


class AuditReport(BaseModel):
    """``taumesh domain audit``'s answer for one domain and split (``--json`` writes it)."""

    domain: str
    split: str
    data_release: str | None
    audit_version: str = AUDIT_VERSION
    tasks: list[TaskAudit]
    floors: dict[FloorName, FloorResult]

    def flag_counts(self) -> dict[FlagKind, int]:
        """How many tasks carry each kind of flag (a task counted once per kind)."""
        return {kind: sum(1 for t in self.tasks if any(f.kind == kind for f in t.flags)) for kind in FLAG_KINDS}

    def flagged(self) -> list[TaskAudit]:
        """The tasks with at least one flag."""
        return [task for task in self.tasks if task.flags]
