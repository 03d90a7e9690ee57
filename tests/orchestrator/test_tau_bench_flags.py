"""taumesh run takes τ-bench v1's command lines as they are: spellings, list flags, defaults."""

from __future__ import annotations

import json
from pathlib import Path

from taumesh.cli import expand_list_flags
from tests.helpers.cli import taumesh

LIST_FLAGS = {"--task-ids", "--task_ids", "--provider-limit"}


def test_list_flags_expand_like_argparse_nargs_plus() -> None:
    assert expand_list_flags(["--task-ids", "1", "2", "3", "--env", "retail"], LIST_FLAGS) == [
        "--task-ids",
        "1",
        "--task-ids",
        "2",
        "--task-ids",
        "3",
        "--env",
        "retail",
    ]
    repeated = ["--task_ids", "4", "--task_ids", "5"]
    assert expand_list_flags(repeated, LIST_FLAGS) == repeated
    assert expand_list_flags(["--task-ids=7", "--seed", "3"], LIST_FLAGS) == ["--task-ids=7", "--seed", "3"]
    assert expand_list_flags(["--task-ids", "-1", "--quiet"], LIST_FLAGS) == ["--task-ids", "-1", "--quiet"]
    assert expand_list_flags(["--provider-limit", "a=1", "b=2", "-v"], LIST_FLAGS) == [
        "--provider-limit",
        "a=1",
        "--provider-limit",
        "b=2",
        "-v",
    ]
    assert expand_list_flags(["--seed", "1", "2", "--", "--task-ids", "3", "4"], LIST_FLAGS) == [
        "--seed",
        "1",
        "2",
        "--",
        "--task-ids",
        "3",
        "4",
    ]


def test_a_tau_bench_command_line_runs_unchanged(v1_data_dir: Path, tmp_path: Path) -> None:
    """Underscore spellings and ``--task_ids 0 3 5`` as τ-bench's run.py documents them."""
    proc = taumesh(
        "run",
        "--env",
        "retail",
        "--task_split",
        "test",
        "--task_ids",
        "0",
        "3",
        "5",
        "--agent_strategy",
        "oracle",
        "--user_strategy",
        "scripted",
        "--max_concurrency",
        "2",
        "--num_trials",
        "2",
        "--log_dir",
        tmp_path,
        "--data_dir",
        v1_data_dir,
        "--quiet",
    )
    assert proc.returncode == 0, proc.stderr
    (path,) = tmp_path.glob("*.json")
    assert path.name.startswith("oracle-oracle-0.0_range_0--1_user-gpt-4o-scripted_")
    results = json.loads(path.read_text())
    assert sorted((r["task_id"], r["trial"]) for r in results) == [(t, n) for t in (0, 3, 5) for n in (0, 1)]
    assert all(r["reward"] == 1.0 for r in results)
