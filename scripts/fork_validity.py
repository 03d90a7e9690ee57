"""The audit of an imported τ-bench fork, every environment and split: the figures docs/validity.md publishes.

    python scripts/fork_validity.py CHECKOUT --name NAME --out DIR [--markdown FILE]

Imports the checkout as a fork into a cache of its own (``DIR/cache``, never the user's), then runs
``taumesh domain audit fork:NAME/<env> --task-split S --json DIR/<env>.<S>.json`` for every environment the import
registered and every split it declares, one after another (resumable: a JSON already written is kept), and prints a
Markdown table: per environment and split, the tasks, the flagged tasks, each flag kind's count and the floors.
``--markdown FILE`` writes the table there too. apollo-tau-bench's 10,737 tasks take about an hour on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from taumesh.audit import FLAG_KINDS, FLOOR_NAMES

KINDS = FLAG_KINDS
FLOORS = tuple(floor for floor in FLOOR_NAMES if floor != "identity_then_refuse")
"""A fork declares no identity tools, so its identity-then-refuse floor is unknown: left out of the table."""


def _environment(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAUMESH_")}
    return {**env, "TAUMESH_CACHE_DIR": str(cache), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def import_fork(checkout: Path, name: str, cache: Path) -> list[tuple[str, str]]:
    """(domain, split) of every environment the import registered, in name order."""
    cache.mkdir(parents=True, exist_ok=True)
    command = ["taumesh", "domain", "import-fork", str(checkout), "--name", name]
    subprocess.run(command, env=_environment(cache), check=True, capture_output=True, text=True)  # noqa: S603 - taumesh
    os.environ["TAUMESH_CACHE_DIR"] = str(cache)  # the registry reads the index below this process's cache
    from taumesh.domains import Catalog
    from taumesh.forks._index import read_index

    catalog = Catalog(cache)
    return [
        (domain, split)
        for domain, fork in sorted(read_index().items())
        if fork == name
        for split in catalog.describe(domain).spec.splits
        if catalog.describe(domain).has_split_file(split)
    ]


def audit(domain: str, split: str, out: Path, cache: Path) -> dict[str, Any]:
    """The audit's JSON of ``domain``'s ``split``: read when ``out`` holds it already, else made by the CLI."""
    target = out / f"{domain.rsplit('/', 1)[-1]}.{split}.json"
    if not target.is_file():
        command = ["taumesh", "domain", "audit", domain, "--task-split", split, "--json", str(target)]
        done = subprocess.run(command, env=_environment(cache), capture_output=True, text=True)  # noqa: S603 - taumesh
        if done.returncode != 0 or not target.is_file():
            raise SystemExit(f"audit of {domain} ({split}) failed ({done.returncode}):\n{done.stderr[-3000:]}")
    loaded: dict[str, Any] = json.loads(target.read_text(encoding="utf-8"))
    return loaded


def row(report: dict[str, Any]) -> dict[str, Any]:
    """One environment-split: tasks, flagged, count of tasks per flag kind, passes per floor."""
    tasks = report["tasks"]
    kinds: Counter[str] = Counter()
    for task in tasks:
        kinds.update({flag["kind"] for flag in task["flags"]})
    floors = {floor: len(report["floors"][floor]["passed"]) for floor in FLOORS}
    return {
        "environment": report["domain"].rsplit("/", 1)[-1],
        "split": report["split"],
        "tasks": len(tasks),
        "flagged": sum(1 for task in tasks if task["flags"]),
        **{kind: kinds[kind] for kind in KINDS},
        **floors,
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table, with a row of totals."""
    columns = ["environment", "split", "tasks", "flagged", *KINDS, *(f"floor {f}" for f in FLOORS)]
    total: dict[str, Any] = {"environment": f"**all {len(rows)}**", "split": ""}
    for key in ["tasks", "flagged", *KINDS, *FLOORS]:
        total[key] = sum(r[key] for r in rows)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for record in [*rows, total]:
        cells = [record["environment"], record["split"], record["tasks"], record["flagged"]]
        cells += [record[kind] for kind in KINDS] + [record[floor] for floor in FLOORS]
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> None:
    """Import, audit every environment and split, print (and write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="the fork's checkout (its tau_bench package inside)")
    parser.add_argument("--name", required=True, help="the fork's name (its domains are fork:NAME/<env>)")
    parser.add_argument("--out", type=Path, required=True, help="where the audits' JSON and the cache go")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    started = time.monotonic()
    targets = import_fork(args.checkout.resolve(), args.name, args.out / "cache")
    rows = []
    for number, (domain, split) in enumerate(targets, 1):
        rows.append(row(audit(domain, split, args.out, args.out / "cache")))
        print(f"[{number}/{len(targets)}] {domain} ({split})", file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    print(f"{len(targets)} audits in {time.monotonic() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
