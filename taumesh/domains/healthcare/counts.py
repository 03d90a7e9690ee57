"""Print the domain's counts as Markdown: tools by side and tag, tasks by intent and tier, traps, dual control.

``python -m taumesh.domains.healthcare.counts`` (docs/domains/healthcare.md records its output): release 2's, or
release 1's with ``--v1``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from taumesh.domains.healthcare import DATA, DATA_V2, SPLITS, plugin

TIERS = ("easy", "medium", "hard")


def counts_markdown(data: Path = DATA_V2) -> str:
    """The tables, from the shipped tasks files of ``data`` (a release's folder) and the plugin's tools."""
    tools: Counter[tuple[str, str]] = Counter((t.side, "write" if t.writes else "read") for t in plugin.tools)
    lines = ["| tools | read | write | total |", "|---|---:|---:|---:|"]
    for side, name in (("assistant", "agent"), ("user", "patient")):
        read, write = tools[(side, "read")], tools[(side, "write")]
        lines.append(f"| {name} | {read} | {write} | {read + write} |")
    tasks: list[dict[str, Any]] = json.loads((data / "tasks_base.json").read_text(encoding="utf-8"))
    splits = {s: {t["id"] for t in json.loads((data / f"tasks_{s}.json").read_text(encoding="utf-8"))} for s in SPLITS}
    lines += ["", "| intent | tasks | " + " | ".join(TIERS) + " | traps | dual control | train | test |"]
    lines.append("|---|" + "---:|" * (len(TIERS) + 5))
    intents = list(dict.fromkeys(t["intent"] for t in tasks))
    for intent in [*intents, None]:
        chosen = [t for t in tasks if intent is None or t["intent"] == intent]
        tiers = Counter(t["tier"] for t in chosen)
        cells = [
            len(chosen),
            *(tiers[tier] for tier in TIERS),
            sum(t["trap"] for t in chosen),
            sum(t["dual_control"] for t in chosen),
            *(sum(t["id"] in splits[s] for t in chosen) for s in ("train", "test")),
        ]
        name = f"`{intent}`" if intent is not None else "**all**"
        lines.append(f"| {name} | " + " | ".join(str(c) for c in cells) + " |")
    traps = sum(t["trap"] for t in tasks)
    lines += ["", f"{len(tasks)} tasks over {len(intents)} intents; {traps} traps ({traps / len(tasks):.0%})."]
    return "\n".join(lines)


if __name__ == "__main__":
    print(counts_markdown(DATA if "--v1" in sys.argv[1:] else DATA_V2))
