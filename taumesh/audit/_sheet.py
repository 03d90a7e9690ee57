"""The review sheet: the audit as Markdown for human reviewers, task by task (``domain audit --sheet PATH``)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from taumesh.audit._report import AuditReport
from taumesh.domains import Task


def _quoted(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.strip().splitlines()] or [">"]


def review_sheet(report: AuditReport, tasks: Sequence[Task]) -> str:
    """Markdown: the floors, then per task its instruction, gold actions, required outputs, floors and flags.

    ``tasks`` are the audited split's tasks. Tasks with a flag or passed by a floor other than
    ``gold_without_outputs`` (which passes most tasks by design) come first, so a reviewer starts where the audit
    found something. The policy clauses a task tests are not listed yet: no domain declares them.
    """
    by_id = {str(task.id): task for task in tasks}
    lines = [
        f"# Review sheet: {report.domain} {report.split}",
        "",
        f"Data release {report.data_release or 'not recorded'}, audit version {report.audit_version}, "
        f"{len(report.tasks)} tasks, {len(report.flagged())} flagged.",
        "",
        "| floor | passes |",
        "|---|---|",
        *(f"| {name} | {len(result.passed)}/{result.of} |" for name, result in report.floors.items()),
        "",
    ]
    suspect = {
        task_id for name, result in report.floors.items() if name != "gold_without_outputs" for task_id in result.passed
    }
    ordered = sorted(report.tasks, key=lambda audited: not (audited.flags or audited.task_id in suspect))
    for audited in ordered:
        task = by_id[str(audited.task_id)]
        intent = f" ({audited.intent})" if audited.intent else ""
        lines += [f"## Task {audited.task_id}{intent}", "", "Instruction:", "", *_quoted(task.instruction), ""]
        lines += ["Gold actions:", ""]
        actions = [
            f"{n}. `{action.name}({json.dumps(action.kwargs, ensure_ascii=False)})`"
            + (" (the user's)" if action.requestor == "user" else "")
            for n, action in enumerate(task.actions, 1)
        ]
        lines += [*(actions or ["none"]), ""]
        outputs = ", ".join(f"`{output}`" for output in task.outputs) or "none"
        lines += [f"Required outputs: {outputs}", ""]
        floors = [name for name, result in report.floors.items() if audited.task_id in result.passed]
        lines += [f"Floors that pass it: {', '.join(floors) or 'none'}", ""]
        flags = [f"- **{flag.kind}**: {flag.detail}" for flag in audited.flags]
        lines += ["Flags:", "", *(flags or ["none"]), ""]
    return "\n".join(lines)
