"""Continuing a results file (``--resume``, ``--retry-errors``) and several trials (``--num-trials``, pass^k).

The ``taumesh run`` command runs in-process here (its process start-up is covered elsewhere).
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    explain_result,
    invoke,
    load_json,
    oracle_invoke,
    results_path,
)
from tests.helpers.paths import V1_DATA

SLICE = ("--end-index", "6", "--max-concurrency", "3")
RETAIL_TEST = ("run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", str(V1_DATA), *SLICE)
ERROR = {"error": {"kind": "infrastructure", "cause": "UNAVAILABLE: injected by the test", "attempts": 3}}


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    log_dir = tmp_path_factory.mktemp("first_run")
    oracle_invoke(log_dir, "retail", "test", *SLICE)
    return results_path(log_dir)


def edit(source: Path, target: Path, drop: set[int], errors: set[int]) -> dict[int, str]:
    """Copy ``source`` to ``target`` without the ``drop`` tasks and with ``errors`` turned into errors.

    Returns the episode id of every entry left untouched.
    """
    results: list[dict[str, Any]] = load_json(source)
    kept = []
    for result in results:
        if result["task_id"] in drop:
            continue
        if result["task_id"] in errors:
            result = {"task_id": result["task_id"], "reward": None, "info": ERROR, "traj": [], "trial": 0}
        kept.append(result)
    target.write_text(json.dumps(kept, indent=2), encoding="utf-8")
    return {r["task_id"]: r["info"]["episode_id"] for r in kept if r["task_id"] not in errors}


def episode_ids(path: Path) -> dict[int, str]:
    return {r["task_id"]: r["info"]["episode_id"] for r in load_json(path)}


def test_resume_fills_in_missing_and_errored_episodes(first_run: Path, tmp_path: Path) -> None:
    original = episode_ids(first_run)
    path = tmp_path / "results.json"
    untouched = edit(first_run, path, drop={1, 3}, errors={4})
    assert sorted(untouched) == [0, 2, 5]

    log_dir = tmp_path / "logs"
    result = invoke(*RETAIL_TEST, "--log-dir", log_dir, "--resume", path)
    assert result.exit_code == 0, explain_result(result)
    assert not log_dir.exists() or not list(log_dir.iterdir()), "resuming writes into the resumed file only"

    results = load_json(path)
    check_oracle_results(results, "retail", "test", list(range(6)))
    after = episode_ids(path)
    assert {i: after[i] for i in untouched} == untouched, "entries already scored are kept, not rerun"
    assert all(after[i] != original[i] for i in (1, 3, 4)), "missing and errored entries are rerun"
    assert "scored episodes: 6   reward 1.0: 6/6" in result.stdout


def test_retry_errors_reruns_only_the_errors(first_run: Path, tmp_path: Path) -> None:
    original = episode_ids(first_run)
    path = tmp_path / "results.json"
    untouched = edit(first_run, path, drop={1}, errors={2, 5})
    assert sorted(untouched) == [0, 3, 4]

    result = invoke(*RETAIL_TEST, "--log-dir", tmp_path / "logs", "--retry-errors", path)
    assert result.exit_code == 0, explain_result(result)

    results = load_json(path)
    check_oracle_results(results, "retail", "test", [0, 2, 3, 4, 5])  # task 1 was missing, not an error: still missing
    after = episode_ids(path)
    assert {i: after[i] for i in untouched} == untouched
    assert after[2] != original[2] and after[5] != original[5]


def test_resume_of_a_complete_file_runs_nothing(first_run: Path, tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    shutil.copy(first_run, path)
    before = path.read_text(encoding="utf-8")
    result = invoke(*RETAIL_TEST, "--log-dir", tmp_path / "logs", "--resume", path)
    assert result.exit_code == 0, explain_result(result)
    assert path.read_text(encoding="utf-8") == before, "nothing rerun, nothing rewritten"
    assert "scored episodes: 6   reward 1.0: 6/6" in result.stdout


def test_three_shuffled_trials_and_pass_hat_k(v1_data_dir: Path, tmp_path: Path) -> None:
    result, results = oracle_invoke(
        tmp_path, "retail", "test", "--end-index", "4", "--num-trials", "3", "--shuffle", "1", "--seed", "7",
        "--max-concurrency", "1",
    )  # fmt: skip
    assert sorted((r["task_id"], r["trial"]) for r in results) == [(i, t) for i in range(4) for t in range(3)]
    for trial in range(3):
        check_oracle_results([r for r in results if r["trial"] == trial], "retail", "test", list(range(4)), trial=trial)

    # one episode at a time, the file is in play order: τ-bench's order, random.seed(7) then a shuffle per trial
    rng, expected = random.Random(7), []
    for trial in range(3):
        order = list(range(4))
        rng.shuffle(order)
        expected += [(i, trial) for i in order]
    assert [(r["task_id"], r["trial"]) for r in results] == expected

    table = dict(re.findall(r"^\s*(\d+)\s+│\s+(\d\.\d+)\s*$", result.stdout, re.MULTILINE))
    assert table == {"1": "1.0000", "2": "1.0000", "3": "1.0000"}, result.stdout
    assert "scored episodes: 12   reward 1.0: 12/12" in result.stdout


def test_resume_refuses_a_file_of_another_run(first_run: Path, tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    shutil.copy(first_run, path)
    before = path.read_text(encoding="utf-8")
    other = [arg if arg != "retail" else "airline" for arg in RETAIL_TEST]
    result = invoke(*other, "--max-steps", "12", "--log-dir", tmp_path / "logs", "--resume", path)
    assert result.exit_code == 2, explain_result(result)
    message = " ".join(result.output.split())
    assert f"{path} was written by a different run" in message, message
    assert "env: 'retail' in the file, 'airline' now" in message
    assert "max_steps: 30 in the file, 12 now" in message
    assert path.read_text(encoding="utf-8") == before, "the file is left as it was"

    result = invoke(*RETAIL_TEST, "--log-dir", tmp_path / "logs", "--retry-errors", path, "--user-model", "gpt-4.1")
    assert result.exit_code == 2, explain_result(result)
    assert "user.model: 'gpt-4o' in the file, 'gpt-4.1' now" in " ".join(result.output.split())


def tau_bench_order(task_ids: list[int] | None, start: int, end: int, trials: int, seed: int) -> list[tuple[int, int]]:
    """The order in which τ-bench v1's run.py plays (task, trial) with --shuffle 1: its loop, as it is written."""
    random.seed(seed)
    played = []
    for trial in range(trials):
        # with task ids: the same list every trial, shuffled in place
        idxs = task_ids if task_ids and len(task_ids) > 0 else list(range(start, end))
        random.shuffle(idxs)
        played += [(idx, trial) for idx in idxs]
    return played


def test_shuffled_task_ids_over_several_trials_follow_tau_bench(v1_data_dir: Path, tmp_path: Path) -> None:
    ids = [3, 1, 4, 0, 5, 2]
    _, results = oracle_invoke(
        tmp_path, "retail", "test", *(arg for i in ids for arg in ("--task-ids", str(i))),
        "--num-trials", "3", "--shuffle", "1", "--seed", "11", "--max-concurrency", "4",
    )  # fmt: skip
    expected = tau_bench_order(list(ids), 0, 0, 3, 11)
    assert [(r["task_id"], r["trial"]) for r in results] == expected
    fresh_lists = tau_bench_order(None, 0, 6, 3, 11)
    assert expected != [(ids[i], t) for i, t in fresh_lists], "the in-place shuffle is what this test tells apart"
