"""``taumesh run`` on τ²'s mock, airline and retail with the oracle agent and the scripted user, over real gRPC.

The oracle plays each task's gold actions (those whose requestor is the assistant) and then says the
communicate info; the scripted user opens with the task's user scenario and stops. Every task scores
1.0 except those whose gold data cannot: they are listed here, reported rather than hidden.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains.tau2 import DatasetMissing, Tau2Task, require
from taumesh.orchestrator.results import results_task_id
from tests.conftest import read_jsonl
from tests.domains.tau2.conftest import TAU2_EXPECTED, tau2_domain
from tests.orchestrator.conftest import ORACLE, invoke, load_json, results_path

KNOWN_NOT_PERFECT = {
    ("mock", "update_task_with_history_and_env_assertions"): 0.0,
    # its env assertion is not satisfied by its (empty) gold action list (shared README §8)
}
"""Tasks whose gold solution does not score 1.0, with the reward it does score."""


@pytest.fixture(scope="module")
def tau2_vectors() -> Path:
    """The τ² vectors folder; skips when the τ² data is not fetched or the expected values are absent."""
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    if not (TAU2_EXPECTED / "vectors").is_dir():
        pytest.skip(f"τ² expected values not found at {TAU2_EXPECTED}")
    return TAU2_EXPECTED / "vectors"


def _expected_reward(source_name: str, vector: dict[str, Any]) -> float:
    """What the gold run scores: the vectors' reward with the communicate message (or without, when none)."""
    reference = vector["reward_gold_actions_plus_communicate"] or vector["reward_gold_actions_only"]
    reward = float(reference["reward"])
    assert (reward == 1.0) != ((source_name, vector["task_id"]) in KNOWN_NOT_PERFECT), vector["task_id"]
    return reward


def _run(log_dir: Path, source_name: str, split: str | None = "base") -> list[dict[str, Any]]:
    chosen = ["--task-split", split] if split else []
    result = invoke(
        "run", "--env", f"tau2-{source_name}", *chosen, *ORACLE, "--max-concurrency", "4", "--log-dir", log_dir,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results: list[dict[str, Any]] = load_json(results_path(log_dir))
    return results


@pytest.mark.parametrize("source_name", ["mock", "airline", "retail"])
def test_oracle_run_scores_every_task_as_the_vectors_say(tau2_vectors: Path, tmp_path: Path, source_name: str) -> None:
    # results files keep τ-bench v1's spelling: a decimal id is written as an integer, any other id as itself
    vectors = {results_task_id(v["task_id"]): v for v in read_jsonl(tau2_vectors / f"{source_name}.jsonl")}
    results = _run(tmp_path, source_name)
    assert sorted(map(str, (r["task_id"] for r in results))) == sorted(map(str, vectors)), "every task once"
    rewards = {r["task_id"]: r["reward"] for r in results}
    assert rewards == {task_id: _expected_reward(source_name, v) for task_id, v in vectors.items()}
    not_perfect = {(source_name, str(task_id)): reward for task_id, reward in rewards.items() if reward != 1.0}
    assert not_perfect == {key: value for key, value in KNOWN_NOT_PERFECT.items() if key[0] == source_name}
    domain = tau2_domain(source_name)
    for result in results:
        task = domain.find_task("base", str(result["task_id"]))
        assert isinstance(task, Tau2Task)
        traj, info = result["traj"], result["info"]
        assert traj[1] == {"role": "user", "content": task.instruction}
        calls = [
            (call["function"]["name"], json.loads(call["function"]["arguments"]))
            for message in traj
            if message["role"] == "assistant"
            for call in message.get("tool_calls") or []
        ]
        assert calls == [(g.name, g.arguments) for g in task.gold_actions if g.requestor == "assistant"]
        assert info["reward_basis"] == (task.evaluation_criteria.reward_basis if task.evaluation_criteria else [])
        vector = vectors[result["task_id"]]
        actions = {c["subject"]: c["passed"] for c in info["reward_checks"] if c["basis"] == "ACTION"}
        assert actions == {a["action_id"]: True for a in vector["reward_gold_actions_only"]["action_checks"] or []}


def test_the_breakdown_shows_why_a_task_fails(tau2_vectors: Path, tmp_path: Path) -> None:
    results = _run(tmp_path, "mock", split=None)  # no --task-split: the domain's first split, τ²'s base
    assert len(results) == 9
    failing = next(r for r in results if r["task_id"] == "update_task_with_history_and_env_assertions")
    checks = failing["info"]["reward_checks"]
    assert failing["info"]["reward_basis"] == ["ENV_ASSERTION"]
    assert [(c["basis"], c["passed"]) for c in checks] == [("DB", True), ("ENV_ASSERTION", False)]
    assert checks[1]["subject"].startswith("assistant.assert_task_status(")
    assert (checks[1]["expected"], checks[1]["actual"]) == ("True", "False")
