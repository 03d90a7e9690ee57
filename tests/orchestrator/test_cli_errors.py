"""Bad input at ``taumesh run``: a clear message and no traceback, and never an episode scored 0 for it.

Two cases run the real ``taumesh`` process; the rest invoke the same command in-process (typer's runner), where
"no traceback" means no exception other than a deliberate exit escaped the command (see ``invoke``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result

from tests.helpers.cli import assert_no_traceback, invoke, load_json, results_path, taumesh
from tests.helpers.paths import V1_DATA

ORACLE_TASK_0 = (
    "--env", "retail", "--task-split", "test", "--task-ids", "0", "--agent-strategy", "oracle",
    "--user-strategy", "scripted", "--quiet", "--data-dir", str(V1_DATA),
)  # fmt: skip


def run_process(tmp_path: Path, *args: str | Path) -> tuple[int, str, str]:
    """The real ``taumesh run`` on retail test task 0 with the oracle, ``args`` overriding."""
    proc = taumesh("run", *ORACLE_TASK_0, "--log-dir", tmp_path / "logs", *args, timeout=60)
    assert_no_traceback(proc)
    return proc.returncode, proc.stdout, proc.stderr


def run_in_process(tmp_path: Path, *args: str | Path) -> Result:
    """``taumesh run`` in this process, same defaults as :func:`run_process`."""
    return invoke("run", *ORACLE_TASK_0, "--log-dir", tmp_path / "logs", *args)


def no_results_written(tmp_path: Path) -> bool:
    logs = tmp_path / "logs"
    return not logs.exists() or not any(logs.iterdir())


def test_unknown_task_id(v1_data_dir: Path, tmp_path: Path) -> None:
    code, _, stderr = run_process(tmp_path, "--task-ids", "9999")
    assert code != 0
    assert "task ids [9999] are outside 0..114" in stderr
    assert no_results_written(tmp_path)


def test_unknown_domain(v1_data_dir: Path, tmp_path: Path) -> None:
    code, _, stderr = run_process(tmp_path, "--env", "nope")
    assert code != 0
    assert "'nope'" in stderr
    assert no_results_written(tmp_path)


def test_unknown_split(v1_data_dir: Path, tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "--env", "airline", "--task-split", "train")
    assert result.exit_code != 0
    assert "'train'" in result.stderr


def test_task_range_outside_the_split(v1_data_dir: Path, tmp_path: Path) -> None:
    base = ("run", "--env", "airline", "--agent-strategy", "oracle", "--user-strategy", "scripted", "--quiet")
    result = invoke(*base, "--data-dir", V1_DATA, "--log-dir", tmp_path / "logs", "--start-index", "50")
    assert result.exit_code != 0
    assert "start index 50 is outside 0..49" in result.stderr
    result = invoke(*base, "--data-dir", V1_DATA, "--log-dir", tmp_path / "logs", "--task-ids", "-1")
    assert result.exit_code != 0
    assert "task ids [-1] are outside 0..49" in result.stderr
    assert no_results_written(tmp_path)


@pytest.mark.parametrize("strategy", ["agent", "user"])
def test_unknown_strategy_is_reported_and_never_scored(v1_data_dir: Path, tmp_path: Path, strategy: str) -> None:
    result = run_in_process(tmp_path, f"--{strategy}-strategy", "no-such-strategy", "--model", "m")
    message = f"unknown {strategy} strategy 'no-such-strategy'"
    if result.exit_code != 0:  # refused up front
        assert message in result.output
        return
    # or run, with every episode recorded as an error that names the cause
    results = load_json(results_path(tmp_path / "logs"))
    assert [r["task_id"] for r in results] == [0]
    for entry in results:
        assert entry["reward"] is None, "a configuration mistake is not the agent's failure"
        assert message in entry["info"]["error"]["cause"]
        assert entry["info"]["error"]["attempts"] == 1, "a refused request is not retried"
    assert "scored episodes: 0" in result.stdout
    assert message in result.stdout


def test_llm_strategy_without_model_names_the_strategy(v1_data_dir: Path, tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "--agent-strategy", "no-such-strategy")
    assert result.exit_code != 0
    assert "no-such-strategy" in result.stderr
    assert no_results_written(tmp_path)


def test_resume_and_retry_errors_together_are_refused(v1_data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("[]", encoding="utf-8")
    result = run_in_process(tmp_path, "--resume", path, "--retry-errors", path)
    assert result.exit_code == 2
    assert "pick one" in result.stderr


def test_zero_trials_is_a_usage_error(v1_data_dir: Path, tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "--num-trials", "0")
    assert result.exit_code == 2
    assert "--num-trials" in result.stderr


def test_resume_of_a_missing_file(v1_data_dir: Path, tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "--resume", tmp_path / "missing.json")
    assert result.exit_code != 0
    assert "missing.json" in result.stderr


def test_data_dir_without_data(tmp_path: Path) -> None:
    result = run_in_process(tmp_path, "--data-dir", tmp_path / "nothing-here")
    assert result.exit_code != 0
    # one line naming the folder: no domain at all has data, or (τ²'s data fetched into the cache) retail has none
    assert "nothing-here" in result.stderr and "retail" in result.stderr
    assert "Traceback" not in result.stderr


def test_rescore_of_a_file_that_is_not_a_results_list(v1_data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"not": "a list"}), encoding="utf-8")
    result = invoke("rescore", path, "--env", "retail", "--data-dir", V1_DATA)
    assert result.exit_code not in (0, 1), "0 and 1 mean the rewards agree or not"
    assert "a results file is a JSON list" in result.output
