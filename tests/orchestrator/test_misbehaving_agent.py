"""An external agent's mistakes are the agent's: each episode is scored, the others are unaffected, none is lost."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.cli import load_json, oracle_invoke, results_path
from tests.helpers.paths import PROJECT_ROOT, V1_DATA
from tests.helpers.processes import Server, start_server
from tests.orchestrator.test_external_agent import generate_stubs

MISBEHAVING_AGENT = PROJECT_ROOT / "tests" / "external_agent" / "misbehaving_agent.py"
sys.path.insert(0, str(MISBEHAVING_AGENT.parent))
from misbehaving_agent import MISTAKES, SYSTEM_PROMPT_HEAD  # noqa: E402

POLICY = (V1_DATA / "retail" / "wiki.md").read_text(encoding="utf-8") if V1_DATA.is_dir() else ""
TASKS = 2 * len(MISTAKES)  # every mistake twice, all at once


@pytest.fixture(scope="module")
def misbehaving_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    folder = tmp_path_factory.mktemp("misbehaving_agent")
    server = start_server(
        [sys.executable, str(MISBEHAVING_AGENT), "--tasks-dir", str(V1_DATA), "--port", "0"],
        r"agent listening on (?P<address>\S+:\d+)",
        folder / "stderr.log",
        env={"PYTHONPATH": str(generate_stubs(folder / "gen"))},
    )
    try:
        yield server
    finally:
        server.kill()


def tool_answers(traj: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(m["tool_call_id"], m["content"]) for m in traj if m["role"] == "tool"]


def test_each_mistake_is_scored_as_the_agents_and_no_result_is_lost(misbehaving_agent: Server, tmp_path: Path) -> None:
    result, results = oracle_invoke(
        tmp_path, "retail", "test", "--agent-addr", misbehaving_agent.address,
        "--end-index", str(TASKS), "--max-concurrency", str(TASKS),
    )  # fmt: skip
    assert [(r["task_id"], r["trial"]) for r in results] == [(i, 0) for i in range(TASKS)], "all of them, in order"
    assert not list(tmp_path.glob("*.errors.json")), "no episode was an error"
    assert f"scored episodes: {TASKS}   reward 1.0: {TASKS}/{TASKS}" in result.stdout, "the bad calls changed nothing"

    for entry in results:
        mistake, traj = MISTAKES[entry["task_id"] % len(MISTAKES)], entry["traj"]
        answers = tool_answers(traj)
        assert traj[0] == {"role": "system", "content": SYSTEM_PROMPT_HEAD + POLICY}, "the agent's prompt, recorded"
        assert all(m["role"] in ("system", "user", "assistant", "tool") for m in traj)
        if mistake == "role_unset":
            assert [m["role"] for m in traj[:3]] == ["system", "user", "assistant"]
        elif mistake in ("not_json", "deep_nesting", "huge_number"):
            assert answers[0][0] == "bad_0"
            assert str(answers[0][1]).startswith("Error: tool arguments are not valid JSON"), (mistake, answers[0])
        elif mistake == "lone_surrogate":
            assert answers[0][0] == "bad_0" and str(answers[0][1]).startswith("Error"), answers[0]
        elif mistake == "duplicate_ids":
            assert answers[0] == ("dup", "2.0"), "the first call with an id runs"
            assert answers[1][0] == "dup" and "'dup' was already used in this episode" in str(answers[1][1])
        else:
            assert answers[0][0] == "" and "tool call id is empty" in str(answers[0][1])
        # the agent named itself: in every entry and in the file name
        assert entry["info"]["agent"] == {
            "address": misbehaving_agent.address,
            "name": "misbehaving-agent",
            "version": "0.1",
            "description": "gold actions after one mistake per episode",
        }
        assert entry["info"]["run"]["agent"]["name"] == "misbehaving-agent"
    assert results_path(tmp_path).name.startswith("misbehaving-agent-0.1-0.0_range_0-14_user-")
    assert load_json(results_path(tmp_path)) == results
