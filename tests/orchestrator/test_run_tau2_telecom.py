"""``taumesh run --env tau2-telecom`` with the oracle agent and the scripted user, over real gRPC: dual control.

The oracle plays the agent's gold actions and hands over where the user's come next; the scripted
user plays the user's gold actions on its phone (tool calls with requestor USER, run by the env
before the agent hears anything). Every task of the split scores 1.0 (τ²'s vectors say so for all
2,285), each with its ENV_ASSERTION (and ACTION) checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import _registry
from taumesh.domains.tau2 import Tau2Task
from taumesh.domains.tau2_telecom import plugin, workflow_plugin
from taumesh.orchestrator.results.records import results_task_id
from tests.helpers.cli import ORACLE, invoke, load_json, results_path
from tests.helpers.tau2 import tau2_domain
from tests.orchestrator.test_run_tau2 import tau2_vectors

__all__ = ["tau2_vectors"]


@pytest.fixture(autouse=True)
def telecom_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The telecom plugins, until pyproject.toml declares their entry points (a no-op once it does)."""
    original = _registry._from_entry_points

    def with_telecom() -> Iterable[tuple[str, Any]]:
        found = list(original())
        names = {name for name, _ in found}
        for candidate in (plugin, workflow_plugin):
            if candidate.name not in names:
                found.append((candidate.name, _registry._Found(candidate, "tests")))
        return found

    monkeypatch.setattr(_registry, "_from_entry_points", with_telecom)
    yield


def _run(log_dir: Path, env: str, split: str) -> list[dict[str, Any]]:
    result = invoke(
        "run", "--env", env, "--task-split", split, *ORACLE, "--max-concurrency", "4", "--log-dir", log_dir,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results: list[dict[str, Any]] = load_json(results_path(log_dir))
    return results


def _check_run(results: list[dict[str, Any]], split: str) -> None:
    domain = tau2_domain("telecom")
    tasks = {results_task_id(task.id): task for task in domain.tasks(split)}
    assert sorted(map(str, (r["task_id"] for r in results))) == sorted(map(str, tasks)), "every task once"
    assert {r["task_id"]: r["reward"] for r in results} == dict.fromkeys(tasks, 1.0)
    for result in results:
        task = tasks[result["task_id"]]
        assert isinstance(task, Tau2Task) and task.evaluation_criteria is not None
        criteria = task.evaluation_criteria
        checks = result["info"]["reward_checks"]
        assert result["info"]["reward_basis"] == criteria.reward_basis
        assertions = [check for check in checks if check["basis"] == "ENV_ASSERTION"]
        assert len(assertions) == len(criteria.env_assertions or [])
        assert all(check["passed"] for check in assertions)
        gold_ids = {gold.action_id for gold in task.gold_actions}
        assert {c["subject"] for c in checks if c["basis"] == "ACTION" and c["passed"]} == gold_ids


@pytest.mark.parametrize("env", ["tau2-telecom", "tau2-telecom-workflow"])
def test_oracle_and_scripted_user_score_every_small_task(tau2_vectors: Path, tmp_path: Path, env: str) -> None:
    _check_run(_run(tmp_path, env, "small"), "small")


def test_oracle_and_scripted_user_score_every_base_task(tau2_vectors: Path, tmp_path: Path) -> None:
    _check_run(_run(tmp_path, "tau2-telecom", "base"), "base")
