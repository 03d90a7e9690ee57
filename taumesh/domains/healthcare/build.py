"""Write the generated world and tasks to ``data/`` (``python -m taumesh.domains.healthcare.build [--check]``).

The files are what the package ships; ``--check`` exits 1 when they differ from what the generator makes now.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from taumesh.domains.healthcare.tasks import generate_tasks, split_of
from taumesh.domains.healthcare.world import build_world

DATA = Path(__file__).resolve().parent / "data"


def _text(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def generated_files() -> dict[str, str]:
    """Every generated file's name and text: one per table, and the tasks of each split."""
    world = build_world()
    tasks = generate_tasks(world)
    files = {f"{table}.json": _text(records) for table, records in world.items()}
    files["tasks_base.json"] = _text(tasks)
    for split in ("train", "test"):
        files[f"tasks_{split}.json"] = _text([task for task in tasks if split_of(task) == split])
    return files


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for name, text in generated_files().items():
        path = DATA / name
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"stale or missing in {DATA}: {', '.join(stale)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
