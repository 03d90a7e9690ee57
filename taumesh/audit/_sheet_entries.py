"""What the review sheet shows of each task, whichever format writes it (Markdown or HTML)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taumesh.audit._report import AuditReport, TaskAudit
from taumesh.domains import Action, Task

ClauseTexts = Mapping[str, Sequence[str] | None]
"""Per task id (as text), the policy clauses the task tests (``DomainPlugin.policy_clauses``); None: not declared."""

OPEN_FLOOR = "gold_without_outputs"
"""The floor that passes most tasks by design, so passing it alone does not put a task first."""


@dataclass(frozen=True)
class SheetEntry:
    """One task of the sheet: its audit, its record, the floors that pass it and the clauses it tests."""

    audit: TaskAudit
    task: Task
    floors: list[str]
    clauses: Sequence[str] | None
    """None: the domain does not say which clauses its tasks test."""

    @property
    def found(self) -> bool:
        """The audit found something here: a flag, or a floor other than :data:`OPEN_FLOOR` passes it."""
        return bool(self.audit.flags) or any(floor != OPEN_FLOOR for floor in self.floors)


def gold_call(action: Action) -> str:
    """A gold action as a reviewer reads it: ``name({"argument": value})``."""
    return f"{action.name}({json.dumps(action.kwargs, ensure_ascii=False)})"


def sheet_entries(report: AuditReport, tasks: Sequence[Task], clauses: ClauseTexts | None = None) -> list[SheetEntry]:
    """The audited tasks, those the audit found something on first (then in the report's order)."""
    by_id = {str(task.id): task for task in tasks}
    entries = [
        SheetEntry(
            audit=audited,
            task=by_id[str(audited.task_id)],
            floors=[name for name, result in report.floors.items() if audited.task_id in result.passed],
            clauses=(clauses or {}).get(str(audited.task_id)),
        )
        for audited in report.tasks
    ]
    return sorted(entries, key=lambda entry: not entry.found)
