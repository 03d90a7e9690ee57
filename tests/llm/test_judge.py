"""NL assertions judged through litellm by the scripted OpenAI-compatible server, over the real services.

The data is upstream τ² HEAD's retail (``--data-dir`` laid out like ``../shared/tau2/head_data``), whose reward basis
is ``[DB, NL_ASSERTION]``. The oracle agent and the scripted user call no model; the judge is the only one.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import grpc
import pytest
from click.testing import Result

from taumesh.common.v1 import common_pb2
from taumesh.convert import message_to_proto, task_ref_to_proto, termination_to_proto
from taumesh.domains import Catalog
from taumesh.llm.retry import RATE_LIMITS_METADATA
from taumesh.llm.status import RATE_LIMITED_REASON
from taumesh.models import ChatMessage, TaskRef
from taumesh.rpc.errors import error_details, error_reason
from taumesh.rpc.server import start_server
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.services.scorer import scorer_service
from taumesh.services.scorer.nl_judge import read_verdicts
from tests.helpers.cli import invoke
from tests.helpers.fake_model import FakeOpenAI, Reply, rate_limited, server_error, text
from tests.helpers.paths import SHARED
from tests.llm.scripts import CountingScript

HEAD_DATA = SHARED / "tau2" / "head_data"
ALL_MET, ONE_MISSED = 36, 70
"""HEAD retail tasks: 36 has two assertions (the judge finds both met), 70 one (the judge finds it not met)."""


@pytest.fixture(scope="module")
def head_data(tau2_fetched: Path) -> Path:
    if not HEAD_DATA.is_dir():
        pytest.skip(f"HEAD data not found at {HEAD_DATA}")
    return HEAD_DATA


@pytest.fixture(scope="module")
def head_catalog(head_data: Path) -> Catalog:
    """The HEAD data's catalog, its retail database loaded once for this module's scorers and requests."""
    return Catalog(head_data)


@pytest.fixture(scope="module")
def task_70(head_catalog: Catalog) -> scorer_pb2.ScoreEpisodeRequest:
    """:func:`score_request` for the HEAD data, built once; :func:`judged_by` gives each test its copy."""
    return score_request(head_catalog, "")


@pytest.fixture(scope="session")
def tau2_fetched() -> Path:
    from taumesh.domains.tau2 import DatasetMissing, require

    try:
        return require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


def verdicts(request: dict[str, Any]) -> list[tuple[str, bool]]:
    """The scripted judge: every expectation met, except the $22.55 price difference."""
    asked = request["messages"][1]["content"]
    expectations = asked.split("# Expectations\n", 1)[1].splitlines()
    return [(line.split(". ", 1)[1], "$22.55" not in line) for line in expectations]


def judge(request: dict[str, Any], ordinal: int) -> Reply:
    results = [
        {"expectedOutcome": said, "reasoning": f"{'Said' if met else 'Never said'}: {said}", "metExpectation": met}
        for said, met in verdicts(request)
    ]
    return text("```json\n" + json.dumps({"results": results}) + "\n```")


def run(data_dir: Path, log_dir: Path, *extra: str) -> Result:
    return invoke(
        "run", "--env", "tau2-retail", "--data-dir", data_dir, "--task-ids", str(ALL_MET), "--task-ids",
        str(ONE_MISSED), "--agent-strategy", "oracle", "--user-strategy", "scripted", "--log-dir", log_dir,
        "--output-format", "both", "--max-concurrency", "2", *extra,
    )  # fmt: skip


def results_file(log_dir: Path, kind: str = "") -> Any:
    """The run's results file: τ-bench's (``kind`` empty), ``.tau2`` or ``.errors``."""
    names = (".tau2.json", ".errors.json")
    (path,) = [
        p for p in log_dir.glob("*.json") if (p.name.endswith(f"{kind}.json") if kind else not p.name.endswith(names))
    ]
    return json.loads(path.read_text())


def test_nl_assertions_are_judged_through_litellm(fake: FakeOpenAI, head_data: Path, tmp_path: Path) -> None:
    fake.reset(judge)
    result = run(head_data, tmp_path, "--judge-model", "openai/x", "--judge-api-base", fake.url)
    assert result.exit_code == 0, result.output

    entries = {entry["task_id"]: entry for entry in results_file(tmp_path)}
    assert {task: entry["reward"] for task, entry in entries.items()} == {ALL_MET: 1.0, ONE_MISSED: 0.0}
    for task, entry in entries.items():
        assert entry["info"]["reward_basis"] == ["DB", "NL_ASSERTION"]
        assert entry["info"]["judge_usage"]["calls"] == 1  # the judge's spend is the run's too
        checks = entry["info"]["reward_checks"]
        assert [c["passed"] for c in checks if c["basis"] == "DB"] == [True]  # the judge alone fails task 70
        judged = [(c["subject"], c["passed"], c["explanation"]) for c in checks if c["basis"] == "NL_ASSERTION"]
        assertions = Catalog(head_data).get("tau2-retail").find_task("base", str(task))
        expected = assertions.evaluation_criteria.nl_assertions  # type: ignore[attr-defined]
        assert [subject for subject, _, _ in judged] == expected
        for subject, passed, explanation in judged:
            assert passed == ("$22.55" not in subject)
            assert explanation == f"{'Said' if passed else 'Never said'}: {subject}"

    # one call per episode, all the task's assertions in it, to the judge model given
    requests = fake.requests
    assert len(requests) == 2 and {r["model"] for r in requests} == {"x"}
    assert sorted(len(verdicts(r)) for r in requests) == [1, 2]

    # τ²'s results layout: each assertion met or not, with the judge's justification
    tau2 = results_file(tmp_path, ".tau2")
    by_task = {sim["task_id"]: sim["reward_info"] for sim in tau2["simulations"]}
    missed = by_task[str(ONE_MISSED)]
    assert missed["reward"] == 0.0 and missed["reward_breakdown"] == {"DB": 1.0, "NL_ASSERTION": 0.0}
    assert [(a["met"], a["justification"].startswith("Never said")) for a in missed["nl_assertions"]] == [(False, True)]
    assert [a["met"] for a in by_task[str(ALL_MET)]["nl_assertions"]] == [True, True]

    # rescoring the τ² document asks the judge again and agrees
    tau2_path = next(tmp_path.glob("*.tau2.json"))
    rescored = invoke(
        "rescore", tau2_path, "--env", "tau2-retail", "--data-dir", head_data, "--judge-model", "openai/x",
        "--judge-api-base", fake.url,
    )  # fmt: skip
    assert rescored.exit_code == 0, rescored.output
    assert "2 agree, 0 differ" in rescored.output
    assert len(fake.requests) == 4


@pytest.mark.slow  # 40 episodes judged, a third of the judge's answers 429s
def test_the_judges_calls_keep_to_the_provider_limit(fake: FakeOpenAI, head_data: Path, tmp_path: Path) -> None:
    """``--provider-limit`` holds for the judge: each ScoreEpisode holds a permit of the judge model's provider, and
    the scorer hands each 429 back at once for the run's limiter to count, wait out and ask again."""
    script = CountingScript(judge, refusals=0.3, latency=0.05, retry_after="0.01")
    fake.reset(script)
    result = run(
        head_data, tmp_path, "--judge-model", "openai/x", "--judge-api-base", fake.url, "--num-trials", "20",
        "--max-concurrency", "40", "--provider-limit", "openai=3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rewards = [(entry["task_id"], entry["reward"]) for entry in results_file(tmp_path)]
    assert sorted(rewards) == [(ALL_MET, 1.0)] * 20 + [(ONE_MISSED, 0.0)] * 20  # every episode judged
    assert not list(tmp_path.glob("*.errors.json")), "no episode is an infrastructure error"
    assert script.refused >= 5  # the judge's provider refused often
    assert 2 <= script.peak <= 3, f"{script.peak} judge calls were in flight at once"
    shown = re.findall(r"openai calls in flight 0/\d+, 429s (\d+)", result.output)
    assert shown and int(shown[-1]) == script.refused, result.output[-2000:]  # each 429 reached the run's limiter


async def test_a_judges_429_goes_back_at_once_to_a_caller_holding_permits(
    fake: FakeOpenAI, task_70: scorer_pb2.ScoreEpisodeRequest, scorer: Any
) -> None:
    fake.reset(rate_limited("7"))
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await scorer.ScoreEpisode(judged_by(task_70, fake.url), timeout=60, metadata=(RATE_LIMITS_METADATA,))
    assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
    details = error_details(raised.value)
    assert details["reason"] == RATE_LIMITED_REASON and details["retry_after"] == 7.0
    assert len(fake.requests) == 1  # not retried in the scorer


def test_a_task_needing_the_judge_without_one_is_a_configuration_error(
    fake: FakeOpenAI, head_data: Path, tmp_path: Path
) -> None:
    result = invoke(
        "run", "--env", "tau2-retail", "--data-dir", head_data, "--task-ids", str(ONE_MISSED), "--agent-strategy",
        "oracle", "--user-strategy", "scripted", "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 1  # no episode scored
    (entry,) = results_file(tmp_path, ".errors")
    assert entry["reward"] is None and entry["info"]["error"]["kind"] == "refused_request"
    assert "FAILED_PRECONDITION" in entry["info"]["error"]["cause"]
    assert "--judge-model" in entry["info"]["error"]["cause"]
    assert fake.requests == []


@pytest.fixture
async def scorer(head_catalog: Catalog) -> Any:
    running = await start_server([scorer_service(head_catalog)])
    channel = grpc.aio.insecure_channel(running.address)
    yield scorer_pb2_grpc.ScorerServiceStub(channel)
    await channel.close(grace=None)
    await running.stop(grace=0.5)


def score_request(catalog: Catalog, judge_url: str) -> scorer_pb2.ScoreEpisodeRequest:
    """Task 70's gold actions and a stop, as the orchestrator would send them (after any message history)."""
    domain = catalog.get("tau2-retail")
    task = domain.find_task("base", str(ONE_MISSED))
    from taumesh.domains.tau2 import Tau2Task, call_tool, open_session
    from taumesh.models import ToolCall

    assert isinstance(task, Tau2Task)
    session = open_session(domain, task)
    conversation = [*task.history(), ChatMessage(role="assistant", content="Hi! How can I help you today?")]
    for index, action in enumerate(task.actions):
        call = ToolCall(id=f"call_{index}", name=action.name, arguments=json.dumps(action.kwargs))
        step = call_tool(session, action.name, action.kwargs)
        conversation += [
            ChatMessage(role="assistant", tool_calls=[call]),
            ChatMessage(role="tool", content=step.observation, tool_call_id=call.id),
        ]
    conversation.append(ChatMessage(role="user", content="###STOP###"))
    return scorer_pb2.ScoreEpisodeRequest(
        task=task_ref_to_proto(TaskRef(domain="tau2-retail", split="base", task_id=str(ONE_MISSED))),
        termination=termination_to_proto("user_stop"),
        final_data_hash=session.data_hash(),
        conversation=[message_to_proto(m) for m in conversation],
        judge=common_pb2.ModelConfig(model="x", provider="openai", api_base=judge_url),
    )


def judged_by(request: scorer_pb2.ScoreEpisodeRequest, judge_url: str) -> scorer_pb2.ScoreEpisodeRequest:
    """A copy of ``request`` whose judge is at ``judge_url``."""
    copy = scorer_pb2.ScoreEpisodeRequest()
    copy.CopyFrom(request)
    copy.judge.api_base = judge_url
    return copy


async def test_the_judge_reads_the_tasks_message_history_before_the_episode(
    fake: FakeOpenAI, head_data: Path, tmp_path: Path
) -> None:
    """τ²'s trajectory starts with a task's message history: the judge sees what was said there, once."""
    data = tmp_path / "data"
    shutil.copytree(head_data, data)
    tasks_file = data / "retail" / "tasks.json"
    tasks = json.loads(tasks_file.read_text(encoding="utf-8"))
    task = next(t for t in tasks if str(t["id"]) == str(ONE_MISSED))
    task["initial_state"] = {
        "message_history": [
            {"role": "user", "content": "Before this chat I asked about my order."},
            {"role": "assistant", "content": "EARLIER: the price difference is $22.55."},
        ]
    }
    tasks_file.write_text(json.dumps(tasks), encoding="utf-8")
    fake.reset(judge)
    catalog = Catalog(data)
    running = await start_server([scorer_service(catalog)])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            stub = scorer_pb2_grpc.ScorerServiceStub(channel)
            await stub.ScoreEpisode(score_request(catalog, fake.url), timeout=60)
    finally:
        await running.stop(grace=0.5)
    (request,) = fake.requests
    conversation = request["messages"][1]["content"].split("# Expectations", 1)[0]
    said_before, _, said_after = conversation.partition("EARLIER: the price difference is $22.55.")
    assert said_after, "the history's message is in the judged conversation"
    assert "EARLIER" not in said_after, "the conversation carries the history: the scorer adds it no second time"
    assert "Before this chat I asked about my order." in said_before
    assert "Hi! How can I help you today?" in said_after  # the episode's own first message comes after it


async def test_a_judge_that_stays_down_is_unavailable_never_a_zero(
    fake: FakeOpenAI, task_70: scorer_pb2.ScoreEpisodeRequest, scorer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "2")
    fake.reset(server_error(503))
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await scorer.ScoreEpisode(judged_by(task_70, fake.url), timeout=60)
    assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
    assert error_reason(raised.value) == "JUDGE_UNAVAILABLE"


async def test_the_judge_is_asked_again_after_an_unreadable_answer_and_its_usage_reported(
    fake: FakeOpenAI, task_70: scorer_pb2.ScoreEpisodeRequest, scorer: Any
) -> None:
    fake.reset(lambda request, ordinal: text("I think so.") if ordinal == 0 else judge(request, ordinal))
    response = await scorer.ScoreEpisode(judged_by(task_70, fake.url), timeout=60)
    assert response.reward == 0.0  # the judge's "not met"
    assert response.judge_usage.calls == 2 and response.judge_usage.prompt_tokens == 20
    assert len(fake.requests[1]["messages"]) == 4  # the question, the unreadable answer, the re-ask


async def test_an_endpoint_the_operator_did_not_allow_is_refused(
    fake: FakeOpenAI, task_70: scorer_pb2.ScoreEpisodeRequest, scorer: Any
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await scorer.ScoreEpisode(judged_by(task_70, "http://127.0.0.1:9/v1"), timeout=60)
    assert raised.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert fake.requests == []


def test_verdicts_must_answer_every_assertion() -> None:
    answer = json.dumps({"results": [{"expectedOutcome": "a", "reasoning": "r", "metExpectation": True}]})
    assert [v.met for v in read_verdicts(answer, 1)] == [True]
    with pytest.raises(ValueError, match="2 expected"):
        read_verdicts(answer, 2)
    with pytest.raises(ValueError, match="malformed"):
        read_verdicts(json.dumps({"results": [{"reasoning": "r"}]}), 1)
