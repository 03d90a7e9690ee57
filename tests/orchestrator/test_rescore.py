"""``taumesh rescore``: replay recorded trajectories in fresh sessions and compare rewards."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import explain_result, invoke, load_json, tasks, vectors
from tests.helpers.paths import V1_DATA

GOLD = vectors("retail", "test") if (V1_DATA / "retail").is_dir() else {}


def rescore(results: list[dict[str, Any]], tmp_path: Path, name: str) -> tuple[int, str, dict[int, dict[str, Any]]]:
    """Write ``results``, rescore them (in-process); returns the exit code, stdout and the rows by task id."""
    path, out = tmp_path / f"{name}.json", tmp_path / f"{name}.rescore.json"
    path.write_text(json.dumps(results), encoding="utf-8")
    result = invoke("rescore", path, "--env", "retail", "--task-split", "test", "--data-dir", V1_DATA, "--out", out)
    assert result.exit_code in (0, 1), explain_result(result)
    rows = load_json(out)
    assert len(rows) == len(results)
    return result.exit_code, result.stdout, {row["task_id"]: row for row in rows}


def hash_changing_steps(task_id: int) -> list[int]:
    """Indices of the gold actions that changed the data (write tools that succeeded)."""
    vector = GOLD[task_id]
    previous, changed = vector["initial_hash"], []
    for i, step in enumerate(vector["steps"]):
        if step["hash_after"] != previous:
            changed.append(i)
        previous = step["hash_after"]
    return changed


def drop_tool_call(traj: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The trajectory without its ``n``-th tool call (the assistant message that made it and its answer)."""
    calls = [c["id"] for m in traj if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    victim = calls[n]
    kept = []
    for message in traj:
        if message["role"] == "tool" and message["tool_call_id"] == victim:
            continue
        if message["role"] == "assistant" and [c["id"] for c in message.get("tool_calls") or []] == [victim]:
            continue
        kept.append(message)
    assert len(kept) == len(traj) - 2
    return kept


@pytest.mark.slow  # 115 trajectories re-graded: ~5 s
def test_rescoring_an_oracle_run_agrees_on_every_trajectory(retail_test_results: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    result = invoke(
        "rescore", retail_test_results, "--env", "retail", "--task-split", "test", "--data-dir", V1_DATA, "--out", out
    )
    assert result.exit_code == 0, explain_result(result)
    assert "AioRpcError" not in result.output, explain_result(result)  # invoke fails the test on a traceback
    assert "rescored 115 trajectories: 115 agree, 0 differ" in result.stdout
    rows = load_json(out)
    assert sorted(r["task_id"] for r in rows) == list(range(115))
    assert all(r["reward"] == r["recorded_reward"] == 1.0 and r["error"] is None for r in rows)


# a task whose gold makes several writes: dropping the last one leaves the data short of the gold state
MULTI_WRITE = next((i for i in sorted(GOLD) if len(hash_changing_steps(i)) >= 2 and not GOLD[i]["expected_outputs"]), 0)
OUTPUT_TASK = 37  # outputs "camera", "481.5"


def tamper_drop_last_write(entry: dict[str, Any]) -> None:
    entry["traj"] = drop_tool_call(entry["traj"], hash_changing_steps(entry["task_id"])[-1])


def tamper_respond(entry: dict[str, Any]) -> None:
    (respond,) = [m for m in entry["traj"] if m["role"] == "assistant" and not m.get("tool_calls")]
    assert respond["content"] == " ".join(tasks("retail", "test")[entry["task_id"]]["outputs"])
    respond["content"] = "Your order has been updated."


def test_tampered_trajectories_are_the_only_disagreements(retail_test_results: Path, tmp_path: Path) -> None:
    recorded = {r["task_id"]: r for r in load_json(retail_test_results)}
    keep = sorted({*range(12), MULTI_WRITE, OUTPUT_TASK})
    results = {i: copy.deepcopy(recorded[i]) for i in keep}
    tamper_drop_last_write(results[MULTI_WRITE])  # the data now miss the last gold write
    tamper_respond(results[OUTPUT_TASK])  # the required outputs are never said

    code, stdout, rows = rescore(list(results.values()), tmp_path, "tampered")
    assert code == 1, stdout
    assert f"rescored {len(keep)} trajectories: {len(keep) - 2} agree, 2 differ" in stdout
    for task_id in (MULTI_WRITE, OUTPUT_TASK):
        assert f"task {task_id} trial 0: recorded 1.0, now 0.0" in stdout
        assert rows[task_id]["reward"] == 0.0
    assert {i for i, row in rows.items() if row["reward"] != row["recorded_reward"]} == {MULTI_WRITE, OUTPUT_TASK}


def react_trajectory(task_id: int, *, thoughts: bool = True, respond: str | None = None) -> list[dict[str, Any]]:
    """τ-bench's act/react agents' record of the gold solution: actions as text, observations as user messages."""
    vector, task = GOLD[task_id], tasks("retail", "test")[task_id]

    def say(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        action = json.dumps({"name": name, "arguments": arguments})
        thought = f"Thought:\nI should use {name} now.\n" if thoughts else ""
        return {"role": "assistant", "content": f"{thought}Action:\n{action}"}

    traj: list[dict[str, Any]] = [
        {"role": "system", "content": (V1_DATA / "retail" / "wiki.md").read_text(encoding="utf-8")},
        {"role": "user", "content": task["instruction"]},
    ]
    for action, observation in zip(vector["actions"], vector["action_outputs"], strict=True):
        traj += [say(action["name"], action["kwargs"]), {"role": "user", "content": f"API output: {observation}"}]
    if vector["terminated_by"] != "transfer_to_human_agents":
        content = vector["respond_content"] if respond is None else respond
        traj += [say("respond", {"content": content}), {"role": "user", "content": "###STOP###"}]
    return traj


def test_act_and_react_text_trajectories_rescore(v1_data_dir: Path, tmp_path: Path) -> None:
    transfer = next(i for i in sorted(GOLD) if GOLD[i]["terminated_by"] == "transfer_to_human_agents")
    results = [
        {"task_id": 0, "reward": 1.0, "info": {}, "traj": react_trajectory(0), "trial": 0},
        {"task_id": OUTPUT_TASK, "reward": 1.0, "info": {}, "traj": react_trajectory(OUTPUT_TASK), "trial": 0},
        {
            "task_id": transfer,
            "reward": 1.0,
            "info": {},
            "traj": react_trajectory(transfer, thoughts=False),
            "trial": 0,
        },
        # the same gold actions, but the required outputs never said: τ-bench recorded 0, and so do we
        {"task_id": 2, "reward": 0.0, "info": {}, "traj": react_trajectory(2, respond="Done."), "trial": 0},
    ]
    assert GOLD[2]["expected_outputs"]
    code, stdout, rows = rescore(results, tmp_path, "react")
    assert code == 0, stdout
    assert "rescored 4 trajectories: 4 agree, 0 differ" in stdout
    assert {i: row["reward"] for i, row in rows.items()} == {0: 1.0, OUTPUT_TASK: 1.0, transfer: 1.0, 2: 0.0}
