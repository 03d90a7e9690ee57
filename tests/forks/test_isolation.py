"""A fork tool that raises, one that sleeps past the deadline and one that calls ``os._exit``, in real runs.

Each run plays three counter tasks twice over the real services (``taumesh run`` in this process, as typer's test
runner calls it: no interpreter start-up; oracle agent, scripted user), two episodes at a time: the bad task costs
its own episodes (a raise only its tool call), every other episode, before and after the worker was lost, scores
1.0, and the run completes. A tool that leaks past the memory bound costs its own episode too (each session is
its own process: the others never shared it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.forks._plugin import ForkPlugin
from taumesh.forks._record import ForkRecord
from tests.forks.tinyfork import EXITS, HANGS, RAISES
from tests.helpers.cli import ORACLE, explain_result, invoke


def _run(tmp_path: Path, bad: str) -> list[dict[str, Any]]:
    ids = ["0", bad, "2"]
    done = invoke(
        "run", "--env", "fork:tiny/counter", *ORACLE, "--num-trials", "2", "--max-concurrency", "2",
        *[arg for task in ids for arg in ("--task-ids", task)], "--log-dir", tmp_path,
    )  # fmt: skip
    assert done.exit_code == 0, explain_result(done)
    [results] = [path for path in tmp_path.glob("*.json") if not path.name.endswith(".manifest")]
    rows: list[dict[str, Any]] = json.loads(results.read_text())
    assert sorted(str(row["task_id"]) for row in rows) == sorted(ids * 2)
    others = [row for row in rows if str(row["task_id"]) != bad]
    assert [row["reward"] for row in others] == [1.0] * 4
    return [row for row in rows if str(row["task_id"]) == bad]


@pytest.mark.slow  # a whole run of six episodes
def test_a_raising_tool_costs_one_tool_call(fork_env: ForkRecord, tmp_path: Path) -> None:
    for row in _run(tmp_path, RAISES):
        assert row["reward"] == 1.0  # the gold replay raises the same: v1's Error observation, nothing more
        tool_messages = [m["content"] for m in row["traj"] if m["role"] == "tool"]
        assert "Error: the boom tool always raises" in tool_messages


@pytest.mark.slow  # a whole run of six episodes
def test_a_tool_past_the_deadline_costs_one_episode(fork_env: ForkRecord, tmp_path: Path) -> None:
    for row in _run(tmp_path, HANGS):
        assert row["reward"] == 0.0
        assert row["info"]["termination"] == "env_abort", row["info"]["termination"]


@pytest.mark.slow  # a whole run of six episodes
def test_a_tool_that_exits_its_worker_costs_one_episode(fork_env: ForkRecord, tmp_path: Path) -> None:
    for row in _run(tmp_path, EXITS):
        assert row["reward"] == 0.0
        assert row["info"]["termination"] == "env_abort", row["info"]["termination"]


def test_a_leaking_tool_costs_one_episode(fork_env: ForkRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    from taumesh.domains import Catalog, ToolCrash

    domain = Catalog(Path("/nonexistent")).get("fork:tiny/counter")
    task = domain.find_task("test", "0")
    bystander, leaker = domain.open_session(task), domain.open_session(task)
    domain.call_tool(bystander, "increment", {"counter_id": "a", "amount": 4})
    plugin = domain.spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    domain.call_tool(leaker, "get_counter", {"counter_id": "a"})
    handle = leaker.data["worker"]["session"]
    restarts = plugin.worker.restarts
    monkeypatch.setenv("TAUMESH_FORK_WORKER_MAX_RSS_MB", str((plugin.worker.memory(handle).rss >> 20) + 120))
    with pytest.raises(ToolCrash, match="grew past"):
        for _ in range(10):  # 50 MB a call
            domain.call_tool(leaker, "leak", {})
    assert domain.call_tool(bystander, "get_counter", {"counter_id": "a"}).observation == '{"value": 5}'
    assert plugin.worker.restarts == restarts  # only the leaking session's process was ended
