"""Write the generated world and tasks to ``data/`` (``python -m taumesh.domains.healthcare.build [--check]``).

The files are what the package ships; ``--check`` exits 1 when they differ from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import build_main, json_text
from taumesh.domains.healthcare.tasks import generate_tasks, split_of
from taumesh.domains.healthcare.world import build_world

DATA = Path(__file__).resolve().parent / "data"


def generated_files() -> dict[str, str]:
    """Every generated file's name and text: one per table, and the tasks of each split."""
    world = build_world()
    tasks = generate_tasks(world)
    files = {f"{table}.json": json_text(records) for table, records in world.items()}
    files["tasks_base.json"] = json_text(tasks)
    for split in ("train", "test"):
        files[f"tasks_{split}.json"] = json_text([task for task in tasks if split_of(task) == split])
    return files


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
