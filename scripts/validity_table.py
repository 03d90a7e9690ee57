"""Regenerate docs/validity.md's audit table: ``taumesh domain audit`` of every built-in domain, flag counts and floors.

Usage (from the repository, after ``source scripts/bootstrap.sh dev``)::

    python scripts/validity_table.py [--v1-data DIR] [--write]

``--v1-data`` is a folder holding τ-bench v1's ``airline/`` and ``retail/`` (default ``$TAUMESH_SHARED/taubench_v1``,
else ``../shared/taubench_v1``); τ² domains use the fetched data (``taumesh data fetch tau2``); healthcare carries
its own, both releases (``healthcare`` is release 2, ``healthcare:v1`` release 1). Prints the table and each audit's
wall time (the speed measurement: τ² retail's 114 tasks); ``--write`` puts the table between the markers of
docs/validity.md. Domains whose data is missing are left out, and say so.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from taumesh.audit import FLAG_KINDS, FLOOR_NAMES, AuditReport
from taumesh.data import taubench_v1_dir
from taumesh.domains import DataError
from taumesh.orchestrator.audit import AuditError, audit_domain

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "validity.md"
BEGIN, END = "<!-- audit-table:begin -->", "<!-- audit-table:end -->"
SHARED = Path(os.environ.get("TAUMESH_SHARED", ROOT.parent / "shared"))


def audits(v1_data: Path) -> list[tuple[str, str | None, Path]]:
    """(domain, split, data dir) of every built-in domain the table shows."""
    cache = taubench_v1_dir()
    return [
        ("airline", "test", v1_data),
        ("retail", "test", v1_data),
        ("tau2-retail", None, cache),
        ("tau2-airline", None, cache),
        ("tau2-telecom", None, cache),
        ("healthcare", None, cache),
        ("healthcare:v1", None, cache),  # release 1, beside release 2: what the factory fixed
    ]


def _share(count: int, of: int) -> str:
    return f"{count} ({count / of:.0%})" if of else "-"


def table(reports: list[AuditReport]) -> str:
    """The Markdown table: a row per audit, a column per flag kind and per floor (tasks, share of the split)."""
    header = ["domain", "release", "split", "tasks", *FLAG_KINDS, *(f"floor {name}" for name in FLOOR_NAMES)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for report in reports:
        of = len(report.tasks)
        counts = report.flag_counts()
        floors = []
        for name in FLOOR_NAMES:
            result = report.floors[name]
            floors.append("unknown" if result.note else _share(len(result.passed), of))
        release = report.data_release or "-"
        flags = [_share(counts[kind], of) for kind in FLAG_KINDS]
        cells = [f"`{report.domain}`", release, report.split, str(of), *flags, *floors]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    """Audit every built-in domain, print the table and the timings; with --write, update docs/validity.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--v1-data", type=Path, default=SHARED / "taubench_v1")
    parser.add_argument("--write", action="store_true", help="replace the table in docs/validity.md")
    args = parser.parse_args()
    reports = []
    for name, split, data_dir in audits(args.v1_data):
        started = time.perf_counter()
        try:
            report = asyncio.run(audit_domain(name, split, data_dir))
        except (AuditError, DataError) as exc:
            print(f"{name}: left out ({exc})", file=sys.stderr)
            continue
        seconds = time.perf_counter() - started
        print(f"{name} {report.split}: {len(report.tasks)} tasks audited in {seconds:.1f} s", file=sys.stderr)
        reports.append(report)
    text = table(reports)
    print(text)
    if args.write:
        document = DOCS.read_text(encoding="utf-8")
        before, rest = document.split(BEGIN, 1)
        _, after = rest.split(END, 1)
        DOCS.write_text(f"{before}{BEGIN}\n{text}\n{END}{after}", encoding="utf-8")
        print(f"wrote {DOCS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
