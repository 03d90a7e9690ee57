"""``taumesh run --task-ids``: τ²'s task ids (text) on τ² domains, τ-bench v1's integer indexes on v1's.

Each run is the real command in this process (typer's runner) over the real services, the oracle agent and the
scripted user; an id the split lacks is refused before any episode runs, naming some ids the split has.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.paths import V1_DATA


def _run(log_dir: Path, *args: str | Path) -> list[dict[str, object]]:
    result = invoke("run", *ORACLE, "--log-dir", log_dir, *args)
    assert result.exit_code == 0, explain_result(result)
    results: list[dict[str, object]] = load_json(results_path(log_dir))
    return results


def test_tau2_ids_choose_tasks_by_name(tau2_data: Path, tmp_path: Path) -> None:
    """τ²'s mock split names its tasks (create_task_1 …): they are chosen by id, in the order given."""
    results = _run(tmp_path, "--env", "tau2-mock", "--task-ids", "update_task_1", "create_task_1")
    assert [r["task_id"] for r in results] == ["update_task_1", "create_task_1"]
    assert all(r["reward"] == 1.0 for r in results)


def test_a_number_no_tau2_task_is_named_is_its_index(tau2_data: Path, tmp_path: Path) -> None:
    """Where no id is a number, ``--task-ids 1`` is the split's second task, as taumesh has always read it."""
    results = _run(tmp_path, "--env", "tau2-mock", "--task-ids", "1")
    assert [r["task_id"] for r in results] == ["create_task_1_with_env_assertions"]


def test_v1_ids_stay_integer_indexes(v1_data_dir: Path, tmp_path: Path) -> None:
    """τ-bench v1's ``--task-ids 3 1`` are indexes, recorded as integers (the v1 results' identities)."""
    results = _run(tmp_path, "--env", "retail", "--task-split", "test", "--data-dir", V1_DATA, "--task-ids", "3", "1")
    assert [r["task_id"] for r in results] == [3, 1]


def test_an_unknown_id_is_refused_before_any_episode(tau2_data: Path, tmp_path: Path) -> None:
    result = invoke("run", *ORACLE, "--log-dir", tmp_path, "--env", "tau2-mock", "--task-ids", "create_task_9")
    assert result.exit_code == 2, explain_result(result)
    said = " ".join(result.stderr.split())
    assert "task ids ['create_task_9'] name no task of tau2-mock base" in said
    assert "create_task_1, create_task_1_with_env_assertions" in said
    assert not any(tmp_path.iterdir())


def test_an_id_repeated_under_two_spellings_is_refused(tau2_data: Path, tmp_path: Path) -> None:
    """``create_task_1`` and its index ``0`` are one task: playing it twice a trial is --num-trials' job."""
    result = invoke("run", *ORACLE, "--log-dir", tmp_path, "--env", "tau2-mock", "--task-ids", "create_task_1", "0")
    assert result.exit_code == 2, explain_result(result)
    assert "task ids ['create_task_1'] are given more than once" in " ".join(result.stderr.split())
