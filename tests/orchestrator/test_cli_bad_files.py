"""Bad files at ``taumesh run``, ``rescore`` and ``analyze`` (issue 22, item 4): one clear line and exit 2, never a
traceback; a corrupt data file is named with the position JSON stopped at; a run that cannot load its data writes
nothing (no errors file suggesting --retry-errors); an output path equal to an input is refused, the input intact.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import Result

from tests.helpers.cli import ORACLE, assert_no_traceback, explain, invoke, oracle_invoke, taumesh
from tests.helpers.paths import V1_DATA

ORACLE_TASK_0 = ("--env", "retail", "--task-split", "test", "--task-ids", "0", *ORACLE)


def one_error_line(text: str) -> str:
    """The single line ``text`` holds, which must be an error."""
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert lines[0].startswith("error: "), text
    return lines[0]


def retail_copy(tmp_path: Path) -> Path:
    """A data folder holding a copy of τ-bench's retail data, to spoil."""
    data = tmp_path / "data"
    shutil.copytree(V1_DATA / "retail", data / "retail")
    return data


def truncate(path: Path) -> None:
    """Cut the file in the middle, as an interrupted copy leaves it."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file of one oracle episode of retail test (task 0)."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    log_dir = tmp_path_factory.mktemp("one_episode")
    oracle_invoke(log_dir, "retail", "test", "--task-ids", "0")
    (path,) = [p for p in log_dir.glob("*.json") if not p.name.endswith(".tau2.json")]
    return path


def test_run_with_a_truncated_data_file_names_it_and_writes_nothing(v1_data_dir: Path, tmp_path: Path) -> None:
    data = retail_copy(tmp_path)
    truncate(data / "retail" / "orders.json")
    log_dir = tmp_path / "logs"
    proc = taumesh("run", *ORACLE_TASK_0, "--data-dir", data, "--log-dir", log_dir, timeout=120)
    assert_no_traceback(proc)
    assert proc.returncode == 2, explain(proc)
    line = one_error_line(proc.stderr)
    assert str(data / "retail" / "orders.json") in line, line
    assert "line " in line and "column " in line, line
    assert "--retry-errors" not in proc.stdout + proc.stderr
    assert not log_dir.exists() or not any(log_dir.iterdir()), "no results, no errors file"


def test_run_with_truncated_tasks_names_the_file(v1_data_dir: Path, tmp_path: Path) -> None:
    data = retail_copy(tmp_path)
    truncate(data / "retail" / "tasks_test.json")
    result = invoke("run", *ORACLE_TASK_0, "--data-dir", data, "--log-dir", tmp_path / "logs")
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert "tasks_test.json" in line and "line " in line and "column " in line, line
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def test_run_resume_of_a_directory(v1_data_dir: Path, tmp_path: Path) -> None:
    result = invoke("run", *ORACLE_TASK_0, "--data-dir", V1_DATA, "--log-dir", tmp_path / "logs", "--resume", tmp_path)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert str(tmp_path) in line and "directory" in line, line


def rescore(results: Path, *args: str | Path) -> Result:
    return invoke("rescore", results, *args)


@pytest.mark.parametrize("spoil", ["truncated", "wrong shape"])
def test_rescore_with_bad_tasks(results_file: Path, tmp_path: Path, spoil: str) -> None:
    data = retail_copy(tmp_path)
    tasks = data / "retail" / "tasks_test.json"
    if spoil == "truncated":
        truncate(tasks)
    else:
        tasks.write_text(json.dumps([1, 2, 3]), encoding="utf-8")
    result = rescore(results_file, "--env", "retail", "--data-dir", data)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert str(tasks) in line, line
    if spoil == "truncated":
        assert "line " in line and "column " in line, line


def test_rescore_with_a_truncated_data_file(results_file: Path, tmp_path: Path) -> None:
    data = retail_copy(tmp_path)
    truncate(data / "retail" / "users.json")
    result = rescore(results_file, "--env", "retail", "--data-dir", data)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert "users.json" in line and "line " in line, line


def test_rescore_of_an_unknown_domain(results_file: Path) -> None:
    result = rescore(results_file, "--env", "nosuch", "--data-dir", V1_DATA)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert "'nosuch'" in line, line


def test_rescore_without_its_data(results_file: Path, tmp_path: Path) -> None:
    result = rescore(results_file, "--env", "retail", "--data-dir", tmp_path / "nothing-here")
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert "nothing-here" in line, line


def test_rescore_of_a_directory(tmp_path: Path) -> None:
    result = rescore(tmp_path, "--env", "retail", "--data-dir", V1_DATA)
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert "directory" in line, line


@pytest.mark.parametrize("env", ["retail", "nosuch"])
def test_rescore_refuses_to_write_over_its_input(results_file: Path, tmp_path: Path, env: str) -> None:
    copy = tmp_path / "R.json"
    shutil.copy(results_file, copy)
    before = copy.read_bytes()
    for out in (copy, tmp_path / "." / "R.json"):
        result = rescore(copy, "--env", env, "--data-dir", V1_DATA, "--out", out)
        assert result.exit_code == 2, result.output
        line = one_error_line(result.stderr)
        assert "--out" in line and "R.json" in line, line
        assert copy.read_bytes() == before


def test_analyze_refuses_to_write_over_its_input(results_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "R.json"
    shutil.copy(results_file, copy)
    before = copy.read_bytes()
    for flag in ("--out", "--output-path"):
        result = invoke("analyze", "--results-path", copy, "--model", "gpt-4o", flag, copy)
        assert result.exit_code == 2, result.output
        line = one_error_line(result.stderr)
        assert "R.json" in line, line
        assert copy.read_bytes() == before
