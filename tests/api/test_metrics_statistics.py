"""The run metrics' intervals and full cost, through a real API run of ``openai/gpt-4o`` on the scripted model server.

Three airline tasks, two trials: task 0 fails its first trial and passes its second (its verdict flips), task 3 passes
both after an attempt cut short by the model server's 500s (spend that counts), task 1 fails both. So pass^1 = 0.5,
pass^2 = 1/3, the average reward is 0.5, and the cost is what the model server billed, every reply priced by litellm.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import litellm
import pytest
from tenacity import wait_fixed

from taumesh.client.models import Metrics as ClientMetrics
from taumesh.domains import Catalog
from taumesh.orchestrator.run import runner
from taumesh.stats import TrialOutcome, TrialTable, average_reward_interval, pass_hat_k_intervals
from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.fake_model import FAKE_KEY, FakeOpenAI, Reply, server_error
from tests.llm.scripts import GoldAgent, ScriptedLlmUser, TaskIndex

pytestmark = pytest.mark.slow  # every test reads the module's API run: seconds

FLIPS, INTERRUPTED, FAILS = 0, 3, 1
"""Airline test tasks: 0 and 1 have one gold action, 3 has two (the attempt is cut after the first)."""
RUN: dict[str, Any] = {
    "env": "airline",
    "model": "gpt-4o",
    "model_provider": "openai",
    "user_strategy": "llm-taumesh",
    "user_model": "gpt-4o",
    "user_model_provider": "openai",
    "task_ids": [FLIPS, INTERRUPTED, FAILS],
    "num_trials": 2,
}


class Script:
    """The agent (its requests carry tools) plays gold, but for the failures above; the user is scripted."""

    def __init__(self, index: TaskIndex) -> None:
        self.index = index
        self.agent, self.user = GoldAgent(index), ScriptedLlmUser(index)
        self.finished: Counter[int] = Counter()
        self.failures = 0

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        if not request.get("tools"):
            return self.user(request)
        task = self.index.of_agent_request(request)
        tool_results = sum(1 for m in request["messages"] if m["role"] == "tool")
        if task == INTERRUPTED and tool_results == 1 and self.failures < 2:
            self.failures += 1  # the call and the orchestrator's retry of it: the attempt is cut short
            return server_error(500)
        self.agent.skip_last_action = {FAILS} | ({FLIPS} if self.finished[FLIPS] == 0 else set())
        reply = self.agent(request)
        if not reply.tool_calls:
            self.finished[task] += 1
        return reply


@pytest.fixture(scope="module")
def models(v1_data_dir: Path) -> Iterator[FakeOpenAI]:
    index = TaskIndex(Catalog(v1_data_dir).get("airline").tasks("test"))
    with FakeOpenAI(Script(index)) as server:
        yield server


@pytest.fixture(scope="module")
def api(models: FakeOpenAI, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("metrics")
    patch = pytest.MonkeyPatch()
    # the attempt cut short is replayed after τ-bench's 5 s; what it spent counts however long the wait
    patch.setattr(runner, "EPISODE_RETRY_WAIT", wait_fixed(0.05))
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}",
        root,
        v1_data_dir,
        OPENAI_API_KEY=FAKE_KEY,
        OPENAI_API_BASE=models.url,
        TAUMESH_LLM_MAX_ATTEMPTS="1",
        TAUMESH_LLM_BACKOFF_INITIAL="0.01",
        TAUMESH_LLM_BACKOFF_MAX="0.05",
    )
    try:
        yield server
    finally:
        server.stop()
        patch.undo()


@pytest.fixture(scope="module")
def answer(api: ApiServer) -> dict[str, Any]:
    made = httpx.post(f"{api.base_url}/api/v1/validate-tasks", json=RUN, headers=api.headers, timeout=600)
    assert made.status_code == 200, made.text
    body: dict[str, Any] = made.json()
    assert body["status"] == "completed", body
    return body


def billed(models: FakeOpenAI) -> float:
    """What the model server's completions cost, each priced by litellm from its tokens."""
    total = 0.0
    for served in models.completions():
        prompt, completion = litellm.cost_per_token(
            model=served.request["model"],
            prompt_tokens=served.reply.prompt_tokens,
            completion_tokens=served.reply.completion_tokens,
        )
        total += prompt + completion
    return total


def test_the_episodes_came_out_as_scripted(answer: dict[str, Any]) -> None:
    rewards = {(r["task_id"], r["trial"]): r["reward"] for r in answer["results"]}
    assert rewards == {
        (FLIPS, 0): 0.0, (FLIPS, 1): 1.0,
        (INTERRUPTED, 0): 1.0, (INTERRUPTED, 1): 1.0,
        (FAILS, 0): 0.0, (FAILS, 1): 0.0,
    }  # fmt: skip
    cut_short = [r for r in answer["results"] if r["info"].get("interrupted_attempts_usage")]
    assert [(r["task_id"], r["trial"]) for r in cut_short] == [(INTERRUPTED, 0)]


def test_intervals_with_method_and_level(answer: dict[str, Any]) -> None:
    metrics = answer["metrics"]
    intervals = metrics["pass_hat_k_intervals"]
    assert set(intervals) == {"1", "2"}
    assert intervals["1"]["estimate"] == pytest.approx(0.5) == metrics["pass_hat_k"]["1"]
    assert intervals["2"]["estimate"] == pytest.approx(1 / 3) == metrics["pass_hat_k"]["2"]
    average = metrics["average_reward_interval"]
    assert average["estimate"] == pytest.approx(0.5) == metrics["average_reward"]
    for interval in [*intervals.values(), average]:
        assert interval["level"] == 0.95
        assert interval["method"] == "bootstrap BCa over 3 tasks, trials nested (9999 resamples)"
        assert interval["low"] <= interval["estimate"] <= interval["high"]
    assert intervals["1"]["low"] < intervals["1"]["high"], "tasks differ: the interval has width"
    assert metrics["flipping_tasks"] == [str(FLIPS)]

    # the same as the statistics library makes of the answer's own results
    table = TrialTable(TrialOutcome(str(r["task_id"]), r["trial"], r["reward"]) for r in answer["results"])
    expected = pass_hat_k_intervals(table)
    for k, interval in intervals.items():
        assert (interval["low"], interval["high"]) == pytest.approx((expected[int(k)].low, expected[int(k)].high))
    again = average_reward_interval(table)
    assert (average["low"], average["high"]) == pytest.approx((again.low, again.high))


def test_full_cost_is_what_the_model_server_billed(answer: dict[str, Any], models: FakeOpenAI) -> None:
    cost = answer["metrics"]["cost"]
    assert cost["judge_usd"] == 0.0, "airline v1 has no judge"
    assert cost["agent_usd"] > 0 and cost["user_usd"] > 0
    assert cost["total_usd"] == pytest.approx(cost["agent_usd"] + cost["user_usd"] + cost["judge_usd"])
    assert cost["total_usd"] == pytest.approx(billed(models), rel=1e-9)
    assert cost["total_usd"] == pytest.approx(answer["metrics"]["cost_usd"], abs=1e-6)  # rounded

    # the scored attempts alone fall short of the bill by exactly the attempt cut short
    scored = sum(r["info"][side]["cost_usd"] for r in answer["results"] for side in ("agent_usage", "user_usage"))
    assert cost["interrupted_usd"] > 0
    assert scored + cost["interrupted_usd"] == pytest.approx(cost["total_usd"], rel=1e-9)

    assert (cost["scored_episodes"], cost["solved_episodes"]) == (6, 3)
    assert cost["per_task_usd"] == pytest.approx(cost["total_usd"] / 6)
    assert cost["per_solved_task_usd"] == pytest.approx(cost["total_usd"] / 3)


def test_the_run_its_events_and_the_sdk_carry_the_same(answer: dict[str, Any], api: ApiServer) -> None:
    run = httpx.get(f"{api.base_url}/api/v1/runs/{answer['run_id']}", headers=api.headers).json()
    assert run["metrics"] == answer["metrics"]
    events = httpx.get(f"{api.base_url}/api/v1/runs/{answer['run_id']}/events", headers=api.headers, timeout=30)
    ended = [json.loads(line[len("data:") :]) for line in events.text.splitlines() if line.startswith("data:")][-1]
    assert ended["metrics"] == answer["metrics"]
    metrics = ClientMetrics.model_validate(answer["metrics"])
    assert metrics.cost is not None and metrics.cost.per_solved_task_usd == pytest.approx(
        answer["metrics"]["cost"]["per_solved_task_usd"]
    )
    assert metrics.pass_hat_k_intervals is not None and metrics.pass_hat_k_intervals["2"].level == 0.95


def test_the_schema_documents_the_new_fields(api: ApiServer) -> None:
    schemas = httpx.get(f"{api.base_url}/openapi.json").json()["components"]["schemas"]
    metrics = schemas["Metrics"]["properties"]
    assert {"pass_hat_k_intervals", "average_reward_interval", "flipping_tasks", "cost"} <= set(metrics)
    assert set(schemas["ScoreInterval"]["properties"]) == {"estimate", "low", "high", "level", "method"}
    assert {"agent_usd", "user_usd", "judge_usd", "total_usd", "interrupted_usd", "per_task_usd"} <= set(
        schemas["CostBreakdown"]["properties"]
    )
    from taumesh.client import models as client_models

    for name in ("ScoreInterval", "CostBreakdown"):
        model = getattr(client_models, name)
        assert set(model.model_fields) == set(schemas[name]["properties"]), name
