"""``python -m taumesh.run``: τ-bench's ``python run.py …`` lines with only their first words changed (issue 40)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers.cli import child_env
from tests.helpers.paths import PROJECT_ROOT, V1_DATA

TAUBENCH_LINE = [
    "--agent-strategy", "tool-calling", "--env", "retail", "--model", "gpt-4o", "--model-provider", "openai",
    "--user-model", "gpt-4o", "--user-model-provider", "openai", "--user-strategy", "llm", "--max-concurrency", "10",
]  # fmt: skip


def run_py(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taumesh.run", *map(str, args)],
        capture_output=True,
        text=True,
        env=env or child_env(),
        cwd=PROJECT_ROOT,
        timeout=120,
    )


def test_taubench_line_stops_as_taumesh_run_does() -> None:
    env = {k: v for k, v in child_env().items() if k != "OPENAI_API_KEY"}
    proc = run_py(*TAUBENCH_LINE, env=env)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert "needs OPENAI_API_KEY in the environment" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_a_run_py_line_plays_and_writes_taubench_results(v1_data_dir: Path, tmp_path: Path) -> None:
    proc = run_py(
        "--env", "retail", "--task-split", "test", "--start-index", "0", "--end-index", "2", "--agent-strategy",
        "oracle", "--user-strategy", "scripted", "--data-dir", V1_DATA, "--log-dir", tmp_path, "--quiet",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = [p for p in tmp_path.glob("*.json") if "_range_0-2_" in p.name]  # τ-bench's run.py file name
    assert sorted(entry["task_id"] for entry in json.loads(results.read_text())) == [0, 1]
