"""The review sheet: the audit for human reviewers, task by task (``domain audit --sheet PATH``), as Markdown or HTML.

The file's suffix chooses the format (:data:`SHEET_FORMATS`); both show the same entries (:func:`sheet_entries`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from taumesh.audit._report import AuditReport
from taumesh.audit._sheet_entries import ClauseTexts, gold_call, sheet_entries
from taumesh.audit._sheet_html import review_sheet_html
from taumesh.domains import Task


def _quoted(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.strip().splitlines()] or [">"]


def _clauses(clauses: Sequence[str] | None) -> list[str]:
    if clauses is None:
        return ["Policy clauses: not declared"]
    return ["Policy clauses:", "", *(f"- {clause}" for clause in clauses)] if clauses else ["Policy clauses: none"]


def review_sheet(report: AuditReport, tasks: Sequence[Task], clauses: ClauseTexts | None = None) -> str:
    """Markdown: the floors, then per task its instruction, gold actions, outputs, floors, flags and policy clauses.

    ``tasks`` are the audited split's tasks; ``clauses`` the policy clauses each tests, where the domain says
    (``DomainPlugin.policy_clauses``). Tasks with a flag or passed by a floor other than ``gold_without_outputs``
    (which passes most tasks by design) come first, so a reviewer starts where the audit found something.
    """
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
    for entry in sheet_entries(report, tasks, clauses):
        audited, task = entry.audit, entry.task
        intent = f" ({audited.intent})" if audited.intent else ""
        lines += [f"## Task {audited.task_id}{intent}", "", "Instruction:", "", *_quoted(task.instruction), ""]
        lines += ["Gold actions:", ""]
        actions = [
            f"{n}. `{gold_call(action)}`" + (" (the user's)" if action.requestor == "user" else "")
            for n, action in enumerate(task.actions, 1)
        ]
        lines += [*(actions or ["none"]), ""]
        outputs = ", ".join(f"`{output}`" for output in task.outputs) or "none"
        lines += [f"Required outputs: {outputs}", ""]
        lines += [f"Floors that pass it: {', '.join(entry.floors) or 'none'}", ""]
        flags = [f"- **{flag.kind}**: {flag.detail}" for flag in audited.flags]
        lines += ["Flags:", "", *(flags or ["none"]), ""]
        lines += [*_clauses(entry.clauses), ""]
    return "\n".join(lines)


SheetRenderer = Callable[[AuditReport, Sequence[Task], ClauseTexts | None], str]

SHEET_FORMATS: dict[str, SheetRenderer] = {".md": review_sheet, ".html": review_sheet_html}
"""The sheet's format by its file's suffix."""


class SheetFormatError(ValueError):
    """The sheet's path has a suffix no format is written for."""


def sheet_renderer(path: Path) -> SheetRenderer:
    """The renderer :data:`SHEET_FORMATS` gives ``path``'s suffix; SheetFormatError naming the suffixes otherwise."""
    renderer = SHEET_FORMATS.get(path.suffix.lower())
    if renderer is None:
        known = " or ".join(SHEET_FORMATS)
        raise SheetFormatError(f"--sheet {path}: a review sheet is written as {known} (Markdown or HTML), by suffix")
    return renderer
