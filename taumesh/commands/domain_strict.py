"""``taumesh domain check --strict``'s verdict: the check, then the audit, on every split.

Strict fails on any problem of the check and any flag of the audit (through the env and scorer services), the flags
the domain raises itself among them (``DomainPlugin.task_flags``: a factory domain's ``non_unique``, ``trap_cue``,
``output_spec``), and, last, anything the domain shares with another domain that loads here (a task's instruction,
policy sentences, its tools, a table: :func:`~taumesh.commands.domain_distinct.distinct_from_others`), so that no
domain passes as a renamed copy of another. ``domain check NAME --strict`` prints :func:`strict_findings` and exits 1
when it is not empty.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pydantic import BaseModel

from taumesh.commands.domain_distinct import distinct_from_others
from taumesh.domains import Catalog, check_domain
from taumesh.orchestrator.audit import audit_domain


class Finding(BaseModel):
    """One reason strict fails: where, which kind, and the sentence saying what was found."""

    split: str
    task_id: str
    kind: str
    """``check`` for a problem of the check, else the flag's kind, or what another domain shares with this one."""
    detail: str


def strict_findings(name: str, data_dir: Path, splits: list[str] | None = None) -> list[Finding]:
    """Every problem and flag of ``name``'s ``splits`` (default: every split with tasks); empty: strict passes."""
    domain = Catalog(data_dir).get(name)
    chosen = splits or [split for split in domain.spec.splits if domain.has_split_file(split)]
    found = [
        Finding(split=task.split, task_id=task.task_id, kind="check", detail=problem)
        for task in check_domain(domain, chosen).tasks
        for problem in task.problems
    ]
    for split in chosen:
        report = asyncio.run(audit_domain(name, split, data_dir))
        found += [  # the audit's flags hold the domain's own (DomainPlugin.task_flags)
            Finding(split=split, task_id=str(task.task_id), kind=flag.kind, detail=flag.detail)
            for task in report.tasks
            for flag in task.flags
        ]
    found += [  # split "-": the domain as a whole, compared with the others
        Finding(split="-", task_id=overlap.subject, kind=overlap.kind, detail=f"{overlap.other}: {overlap.detail}")
        for overlap in distinct_from_others(name, data_dir)
    ]
    return found
