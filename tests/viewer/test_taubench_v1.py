"""The viewer opens a results file in τ-bench v1's own format (``run.py``'s ``EnvRunResult`` list).

The file is built from the v1 vectors as τ-bench's tool-calling agent writes it: ``info`` holds only ``task``,
``source``, ``user_cost`` and ``reward_info`` (``{reward, info: {r_actions, gt_data_hash}, actions}``), and the
trajectory is litellm's message dicts.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import read_jsonl
from tests.helpers.viewer import ServedViewer


def _trajectory(instruction: str, actions: list[dict[str, Any]], outputs: list[str]) -> list[dict[str, Any]]:
    traj: list[dict[str, Any]] = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": instruction},
    ]
    for i, action in enumerate(actions):
        call_id = f"call_{i}"
        call = {"function": {"arguments": json.dumps(action["kwargs"]), "name": action["name"]}, "id": call_id}
        traj.append({"content": None, "role": "assistant", "tool_calls": [{**call, "type": "function"}]})
        traj.append({"role": "tool", "tool_call_id": call_id, "name": action["name"], "content": outputs[i]})
    traj.append({"role": "assistant", "content": "Is there anything else I can help you with?"})
    return traj


def _entry(
    task: dict[str, Any], task_id: int, trial: int, actions: list[dict[str, Any]], reward: float, info: Any
) -> Any:
    return {
        "task_id": task_id,
        "reward": reward,
        "info": {
            "task": task,
            "source": "user",
            "user_cost": 0.0123,
            "reward_info": {"reward": reward, "info": info, "actions": task["actions"]},
        },
        "traj": _trajectory(task["instruction"], actions, ["..."] * len(actions)),
        "trial": trial,
    }


def _value(field: Any) -> Any:
    """A vector field: some files hold Python literals as text, others JSON values."""
    return ast.literal_eval(field) if isinstance(field, str) else field


@pytest.fixture
def taubench_file(v1_data_dir: Path, tmp_path: Path) -> Path:
    """Trial 0: the gold replay of retail test tasks 0-2 (reward 1); trial 1: the retail reward cases' actions."""
    tasks = json.loads((v1_data_dir / "retail" / "tasks_test.json").read_text(encoding="utf-8"))
    gold = {int(v["task_id"]): v for v in read_jsonl(v1_data_dir / "vectors" / "retail_test.jsonl")}
    cases = [c for c in read_jsonl(v1_data_dir / "vectors" / "reward_cases.jsonl") if c["env"] == "retail"]
    by_task: dict[int, dict[str, Any]] = {}
    for case in cases:
        by_task.setdefault(int(case["task_id"]), case)  # the first case of each task
    entries = []
    for task_id in sorted(by_task)[:3]:
        vector = gold[task_id]
        entries.append(
            _entry(
                tasks[task_id],
                task_id,
                0,
                _value(vector["actions"]),
                float(vector["reward"]),
                _value(vector["reward_info"]),
            )
        )
    for task_id in sorted(by_task)[:3]:
        case = by_task[task_id]
        entries.append(
            _entry(
                tasks[task_id],
                task_id,
                1,
                _value(case["actions"]),
                float(case["reward"]),
                _value(case["reward_info"]),
            )
        )
    path = tmp_path / "tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0101000000.json"
    path.write_text(json.dumps(entries, indent=2), encoding="utf-8")
    return path


def test_viewer_opens_a_taubench_v1_results_file(taubench_file: Path) -> None:
    entries = json.loads(taubench_file.read_text(encoding="utf-8"))
    failed = [e for e in entries if e["reward"] < 1]
    assert failed, "the reward cases should hold a failing episode"
    served = ServedViewer([taubench_file])
    try:
        (run,) = served.get("/api/runs")
        assert run["average_reward"] == pytest.approx(sum(e["reward"] for e in entries) / len(entries))
        assert run["user_cost"] == pytest.approx(0.0123 * len(entries))
        detail = served.get(f"/api/runs/{run['run_id']}")
        assert detail["format"] == "tau-bench"
        assert run["user_sim_version"] == "unrecorded"  # τ-bench's run.py records no simulator version
        grid = served.get(f"/api/runs/{run['run_id']}/tasks?filter=failed")["rows"]
        assert {row["task_id"] for row in grid} == {str(e["task_id"]) for e in failed}
        bad = failed[0]
        episode = served.get(f"/api/runs/{run['run_id']}/episodes/{bad['task_id']}/{bad['trial']}")
    finally:
        served.close()
    db_check = next(c for c in episode["episode"]["reward_checks"] if c["basis"] == "DB")
    assert db_check["passed"] is False
    assert db_check["expected"] == bad["info"]["reward_info"]["info"]["gt_data_hash"]
    assert episode["episode"]["gold_actions"] == bad["info"]["task"]["actions"]
    assert episode["divergence"]["index"] is not None
