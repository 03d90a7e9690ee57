"""Model faults are infrastructure errors (reward null, info.error.cause), never an agent's reward 0."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tenacity import wait_fixed

from taumesh.models import Usage
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.episode.model_calls import MODEL_RPC_ATTEMPTS
from taumesh.orchestrator.results.figures import run_usage
from taumesh.orchestrator.results.results_file import load_results
from taumesh.orchestrator.run import runner
from tests.helpers.fake_model import FakeOpenAI, Reply, Served, context_window_exceeded, rate_limited, server_error
from tests.helpers.llm import run_config, warm_up
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, Faulty, GoldAgent, Router, ScriptedLlmUser, TaskIndex


@pytest.fixture(autouse=True)
def quick_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """An episode the infrastructure failed is replayed after 0.05 s, not τ-bench's 5 s: what these tests show
    (the replay, its count, what it spent) does not depend on the wait."""
    monkeypatch.setattr(runner, "EPISODE_RETRY_WAIT", wait_fixed(0.05))


async def test_exhausted_model_is_an_infrastructure_error(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "2")
    gold = Router(GoldAgent(task_index), ScriptedLlmUser(task_index))

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        if request["model"] == AGENT_MODEL and task_index.of_agent_request(request) == 5:
            return server_error(500)  # task 5's agent model is down for good
        return gold(request, ordinal)

    fake.reset(script)
    config = run_config(fake, v1_data_dir, tmp_path, [0, 5])
    config.max_episode_attempts = 2
    summary = await run_benchmark(config)
    by_task = {r.task_id: r for r in summary.results}
    assert by_task[0].reward == 1.0 and not by_task[0].is_error
    failed = by_task[5]
    assert failed.reward is None and failed.traj == []
    error = failed.info["error"]
    assert error["kind"] == "infrastructure" and error["attempts"] == 2
    assert error["cause"].startswith("UNAVAILABLE: model unavailable after 2 attempt(s): InternalServerError")
    assert summary.pass_hat_k == {1: 1.0}  # the error is left out of pass^k, not counted as a failure
    assert [r.task_id for r in summary.errors] == [5]
    # every agent call of task 5 was tried twice by the model client, twice by the orchestrator (which leaves
    # model retries to the service), per episode attempt
    task5 = [
        s for s in fake.served if s.request["model"] == AGENT_MODEL and task_index.of_agent_request(s.request) == 5
    ]
    assert len(task5) == 2 * MODEL_RPC_ATTEMPTS * 2
    # the results file says the same, and --retry-errors picks the episode up once the model is back
    on_disk = {r.task_id: r for r in load_results(summary.results_path)}
    assert on_disk[5].reward is None and on_disk[5].info["error"]["cause"] == error["cause"]
    fake.reset(gold)
    rerun = await run_benchmark(config, resume=summary.results_path, only_errors=True)
    assert {r.task_id: r.reward for r in rerun.results} == {0: 1.0, 5: 1.0}


async def test_recovered_faults_are_scored_normally(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "1")  # no model-level retry: the orchestrator's retry recovers
    gold = Router(GoldAgent(task_index), ScriptedLlmUser(task_index))
    faults = iter([rate_limited("0"), server_error(502)])

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        if ordinal in (0, 3):
            return next(faults)
        return gold(request, ordinal)

    fake.reset(script)
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], concurrency=1))
    [result] = summary.results
    assert result.reward == 1.0 and not result.is_error and result.info["termination"] == "user_stop"
    assert [s.reply.status for s in fake.served[:4]] == [429, 200, 200, 502]


def _task_of(index: TaskIndex, served: Served) -> int:
    return index.of_request(served.request)


@pytest.mark.slow
async def test_twenty_tasks_with_a_fifth_of_calls_failing(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 % of calls fail at random (429, 500, slow past the timeout, empty); three tasks' models are down for good."""
    await warm_up(fake)
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "3")
    monkeypatch.setenv("TAUMESH_LLM_TIMEOUT", "3")  # a reply on time must arrive on time on a loaded CI machine
    # ten episodes at once: the timeouts that slow replies cost are waited out side by side
    down = {4, 11, 17}
    faulty = Faulty(
        Router(GoldAgent(task_index), ScriptedLlmUser(task_index)),
        task_index,
        rate=0.2,
        seed=20,
        slow_seconds=10.0,  # far past the timeout: a loaded event loop cannot read a slow reply as on time
        down=down,
    )
    fake.reset(faulty)
    config = run_config(fake, v1_data_dir, tmp_path, list(range(20)), concurrency=10)
    config.max_episode_attempts = 2
    summary = await run_benchmark(config)

    assert sorted(r.task_id for r in summary.results) == list(range(20))  # every episode finished
    errors = {r.task_id: r for r in summary.errors}
    assert set(errors) == down
    for result in errors.values():
        assert result.reward is None
        assert result.info["error"]["cause"].startswith("UNAVAILABLE: model unavailable")
        assert "ServiceUnavailableError" in result.info["error"]["cause"]
    scored = summary.scored
    assert len(scored) == 17 and all(r.reward == 1.0 for r in scored)  # none silently reward 0
    assert summary.average_reward == 1.0
    injected = Counter(faulty.injected)
    assert set(injected) == {"429", "500", "slow", "empty"}
    assert sum(injected.values()) >= 20

    # usage of the scored episodes: one call per reply the client got; tokens include billed empty replies
    for result in scored:
        for role, model in (("agent_usage", AGENT_MODEL), ("user_usage", USER_MODEL)):
            served = [s for s in fake.completions(model) if _task_of(task_index, s) == result.task_id]
            received = [s for s in served if s.reply.delay == 0]  # slow ones timed out before they arrived
            useful = [s for s in received if s.reply.content or s.reply.tool_calls]
            usage = Usage.model_validate(result.info[role])
            assert usage.calls == len(useful)
            assert sum(s.reply.prompt_tokens for s in useful) <= usage.prompt_tokens
            assert usage.prompt_tokens <= sum(s.reply.prompt_tokens for s in received)
            assert usage.completion_tokens == sum(s.reply.completion_tokens for s in received)


async def test_spend_of_interrupted_attempts_is_kept(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attempt cut short after some model calls keeps its tokens: run totals equal what the server billed."""
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "1")
    gold = Router(GoldAgent(task_index), ScriptedLlmUser(task_index))
    agent_requests = Counter[int]()

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        if request["model"] == AGENT_MODEL:
            agent_requests[0] += 1
            if agent_requests[0] in (3, 4):  # the 3rd agent call fails, and so does the orchestrator's retry of it
                return server_error(500)
        return gold(request, ordinal)

    fake.reset(script)
    config = run_config(fake, v1_data_dir, tmp_path, [0], concurrency=1)
    summary = await run_benchmark(config)
    [result] = summary.results
    assert result.reward == 1.0 and not result.is_error  # the second attempt played the task through
    assert result.info["attempts"] == 2  # and the result says it took two
    lost = result.info["interrupted_attempts_usage"]
    assert lost["agent"]["calls"] == 2  # the first attempt's two answered agent calls
    assert lost["user"]["calls"] >= 1  # and the user's opening

    agent, user = run_usage(summary.results)
    for usage, model in ((agent, AGENT_MODEL), (user, USER_MODEL)):
        billed = [s for s in fake.completions(model) if s.reply.status == 200]
        assert usage.calls == len(billed)
        assert usage.prompt_tokens == sum(s.reply.prompt_tokens for s in billed)
        assert usage.completion_tokens == sum(s.reply.completion_tokens for s in billed)


async def test_context_window_exceeded_is_the_agents_failure(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    """A conversation that outgrows the agent's model ends the episode, scored as it stands: not an error."""
    gold = Router(GoldAgent(task_index), ScriptedLlmUser(task_index))
    agent_requests = Counter[int]()

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        if request["model"] == AGENT_MODEL:
            agent_requests[0] += 1
            if agent_requests[0] == 3:
                return context_window_exceeded()
        return gold(request, ordinal)

    fake.reset(script)
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], concurrency=1))
    [result] = summary.results
    assert not result.is_error and result.reward == 0.0  # the agent's failure, scored
    assert result.info["termination"] == "agent_gave_up"
    assert "context window" in result.info["agent_gave_up"]
    assert summary.pass_hat_k == {1: 0.0}
    assert agent_requests[0] == 3  # neither the model client nor the orchestrator retried a hopeless request
