"""The strict user (issue 47, item 5): each message checked against the instruction by a second model call, redrawn
once when the check fails, the check's cost kept apart, and an unreadable verdict an infrastructure error.

Everything goes through the user-sim service over gRPC (or a whole run) and litellm over HTTP to the fake model,
whose script tells the check's requests (system prompt :data:`CHECK_SYSTEM`) from the user's own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from tenacity import wait_fixed

from taumesh.convert import message_to_proto
from taumesh.data import USER_PROMPTS_FILE
from taumesh.models import ChatMessage, ModelSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.run import runner
from taumesh.services.user_sim.strategies.prompts import CHECK_REQUEST, CHECK_SYSTEM, REDRAW, persona_prompt
from taumesh.services.user_sim.strategies.strict import MalformedVerdict, read_verdict
from taumesh.simulators import SIMULATORS, simulator_version
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
from tests.helpers.fake_model import FakeOpenAI, Reply, text
from tests.helpers.llm import run_config, user_config, user_sim_stub
from tests.llm.scripts import STOP, USER_MODEL, GoldAgent, Router, TaskIndex

INSTRUCTION = "You are Mia Li (zip 10001). You want to return order #W123 because the lamp arrived broken."
LEAK = f"Hi. {INSTRUCTION}"
CLEAN = "Hi, I'd like to return something from a recent order."
REDRAWN = "Hello, one of my orders arrived damaged and I'd like to send it back."
PASS = json.dumps({"verdict": "pass", "problems": [], "reason": ""})
USER_TOKENS, CHECK_TOKENS = (100, 7), (40, 3)
"""(prompt, completion) tokens the fake bills for each user call and each check call: told apart in the usage."""
ATTEMPTS = 2
TIMEOUT = 60.0


def fail(*problems: str) -> str:
    return json.dumps({"verdict": "fail", "problems": list(problems), "reason": "it repeats its instructions"})


def is_check(request: dict[str, Any]) -> bool:
    return bool(request["messages"][0]["content"] == CHECK_SYSTEM)


def candidate_of(request: dict[str, Any]) -> str:
    """The message a check request asks about."""
    return str(request["messages"][1]["content"]).split("# The customer's next message, to check\n", 1)[1]


def is_redraw(request: dict[str, Any]) -> bool:
    return str(request["messages"][-1]["content"]).startswith(REDRAW.split("(", 1)[0])


@dataclass
class StrictScript:
    """The user's model says ``first``, and ``again`` when asked to redraw; the check answers ``verdict(candidate)``."""

    first: str
    again: str
    verdict: Callable[[str], str]
    seen: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        self.seen.append(request)
        if is_check(request):
            return text(self.verdict(candidate_of(request)), *CHECK_TOKENS)
        return text(self.again if is_redraw(request) else self.first, *USER_TOKENS)

    @property
    def checks(self) -> list[dict[str, Any]]:
        return [r for r in self.seen if is_check(r)]


def leaks(candidate: str) -> str:
    return fail("leaked_goal") if INSTRUCTION in candidate else PASS


@pytest.fixture(autouse=True)
def quick_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "EPISODE_RETRY_WAIT", wait_fixed(0.05))
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", str(ATTEMPTS))
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_INITIAL", "0")


@pytest.fixture
def prompts_dir(tmp_path: Path) -> Path:
    """A v1 folder holding τ-bench-shaped user prompts (test texts: τ-bench's own are not shipped)."""
    path = tmp_path / "v1" / USER_PROMPTS_FILE
    path.parent.mkdir(parents=True)
    prompts = {
        "greeting": "Hi! How can I help you today?",
        "instruction_display": "Instruction: {instruction}",
        "system": {"llm": "You are a user.\n{instruction_display}\nRules: be brief.", "react": "{instruction_display}"},
        "verify": "{transcript} {response}",
        "reflect": "{transcript} {response}",
        "role_labels": {"user": "Agent", "assistant": "Customer"},
    }
    path.write_text(json.dumps(prompts), encoding="utf-8")
    return path.parent.parent


@pytest.fixture
async def stub(prompts_dir: Path) -> AsyncIterator[user_sim_pb2_grpc.UserSimServiceStub]:
    async with user_sim_stub(prompts_dir) as connected:
        yield connected


def config(strategy: str, fake: FakeOpenAI) -> user_sim_pb2.UserConfig:
    return user_config(strategy, fake, USER_MODEL)


async def opening(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI, strategy: str = "strict-taumesh"
) -> user_sim_pb2.StartConversationResponse:
    request = user_sim_pb2.StartConversationRequest(config=config(strategy, fake), instruction=INSTRUCTION)
    response: user_sim_pb2.StartConversationResponse = await stub.StartConversation(request, timeout=TIMEOUT)
    return response


async def reply(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI, conversation: list[ChatMessage], strategy: str
) -> user_sim_pb2.ReplyResponse:
    request = user_sim_pb2.ReplyRequest(
        config=config(strategy, fake),
        instruction=INSTRUCTION,
        conversation=[message_to_proto(m) for m in conversation],
    )
    response: user_sim_pb2.ReplyResponse = await stub.Reply(request, timeout=TIMEOUT)
    return response


async def test_a_clean_message_passes_with_one_check(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI
) -> None:
    script = StrictScript(CLEAN, REDRAWN, leaks)
    fake.reset(script)
    started = await opening(stub, fake)
    assert started.message.content == CLEAN
    assert started.HasField("check")
    assert (started.check.checks, started.check.redrawn, started.check.sent_failing) == (1, False, False)
    assert list(started.check.problems) == [] and list(started.check.reasons) == []
    (checked,) = script.checks
    assert INSTRUCTION in checked["messages"][1]["content"] and candidate_of(checked) == CLEAN
    assert checked["temperature"] == 0.0  # a classifier: the run's user temperature, 0 by default
    # the user's call and the check's, each in its own usage
    assert (started.usage.calls, started.usage.prompt_tokens, started.usage.completion_tokens) == (1, *USER_TOKENS)
    check = started.check.usage
    assert (check.calls, check.prompt_tokens, check.completion_tokens) == (1, *CHECK_TOKENS)


async def test_a_message_leaking_the_goal_is_redrawn_and_checked_again(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI
) -> None:
    script = StrictScript(LEAK, REDRAWN, leaks)
    fake.reset(script)
    conversation = [
        ChatMessage(role="user", content=CLEAN),
        ChatMessage(role="assistant", content="Sure. Can I have your name and zip code?"),
    ]
    replied = await reply(stub, fake, conversation, "strict-taumesh")
    assert replied.message.content == REDRAWN and not replied.stop
    check = replied.check
    assert (check.checks, check.redrawn, check.sent_failing) == (2, True, False)
    assert list(check.problems) == [user_sim_pb2.TURN_PROBLEM_LEAKED_GOAL]
    assert list(check.reasons) == ["it repeats its instructions"]
    assert [candidate_of(r) for r in script.checks] == [LEAK, REDRAWN]
    assert "Agent: Sure. Can I have your name and zip code?" in script.checks[0]["messages"][1]["content"]
    # the redraw's prompt: the failed message as the model's own turn, then what the check found
    (redraw,) = [r for r in script.seen if is_redraw(r)]
    assert redraw["messages"][-2] == {"role": "assistant", "content": LEAK}
    assert "(leaked_goal): it repeats its instructions" in redraw["messages"][-1]["content"]
    assert (replied.usage.calls, replied.usage.prompt_tokens) == (2, 2 * USER_TOKENS[0])  # draft and redraw
    assert (check.usage.calls, check.usage.prompt_tokens) == (2, 2 * CHECK_TOKENS[0])  # two checks, apart


async def test_a_redraw_that_fails_too_is_sent_marked(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI
) -> None:
    script = StrictScript(STOP, STOP, lambda candidate: fail("stopped_early"))
    fake.reset(script)
    conversation = [ChatMessage(role="user", content=CLEAN), ChatMessage(role="assistant", content="Which order?")]
    replied = await reply(stub, fake, conversation, "strict-taumesh")
    assert replied.message.content == STOP and replied.stop  # sent anyway: no third draft
    assert (replied.check.checks, replied.check.redrawn, replied.check.sent_failing) == (2, True, True)
    assert list(replied.check.problems) == [user_sim_pb2.TURN_PROBLEM_STOPPED_EARLY] * 2
    assert len(script.checks) == 2 and len(script.seen) == 4


async def test_strict_redraws_taubench_users_turn_in_its_own_history(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI
) -> None:
    script = StrictScript(LEAK, REDRAWN, leaks)
    fake.reset(script)
    conversation = [ChatMessage(role="user", content=CLEAN), ChatMessage(role="assistant", content="Which order?")]
    replied = await reply(stub, fake, conversation, "strict")
    assert replied.message.content == REDRAWN
    assert (replied.check.checks, replied.check.redrawn) == (2, True)
    draft, redraw = [r for r in script.seen if not is_check(r)]
    assert "temperature" not in draft and "temperature" not in redraw  # τ-bench's user requests, as `llm` sends
    assert draft["messages"][0]["content"] == f"You are a user.\nInstruction: {INSTRUCTION}\nRules: be brief."
    assert redraw["messages"][: len(draft["messages"])] == draft["messages"]
    assert redraw["messages"][len(draft["messages"])] == {"role": "assistant", "content": LEAK}


@pytest.mark.parametrize(
    "answer",
    [
        "The message looks fine.",
        '{"verdict": "accept", "problems": [], "reason": ""}',
        '{"verdict": "pass", "problems": []}',
        '{"verdict": "fail", "problems": [], "reason": "bad"}',
        '{"verdict": "pass", "problems": ["leaked_goal"], "reason": ""}',
        '{"verdict": "fail", "problems": ["rude"], "reason": "bad"}',
        f"Sure! {PASS}",
    ],
)
async def test_an_unreadable_verdict_is_asked_again_then_unavailable(
    stub: user_sim_pb2_grpc.UserSimServiceAsyncStub, fake: FakeOpenAI, answer: str
) -> None:
    script = StrictScript(CLEAN, REDRAWN, lambda candidate: answer)
    fake.reset(script)
    with pytest.raises(grpc.aio.AioRpcError) as raised:
        await opening(stub, fake)
    assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "no verdict of the strict user's check read" in str(raised.value.details())
    assert len(script.checks) == ATTEMPTS  # asked again under the retry policy, never taken as a pass


def test_a_fenced_verdict_reads() -> None:
    assert read_verdict(f"```json\n{PASS}\n```").passed
    assert read_verdict(f"  {fail('invented_facts', 'leaked_goal')}\n").problems == ["invented_facts", "leaked_goal"]
    with pytest.raises(MalformedVerdict):
        read_verdict(f"```json\n{PASS}\n``` and more")


class FirstTask(TaskIndex):
    """Retail's first test task alone, whatever the user opened with (the gold agent looks for the instruction)."""

    def of_agent_request(self, request: dict[str, Any]) -> int:
        return 0


@dataclass
class StrictRetailUser:
    """The retail user: opens with its instruction verbatim (a leak), redraws it as a plain request, then stops."""

    index: TaskIndex

    def __call__(self, request: dict[str, Any]) -> Reply:
        if is_check(request):
            instructions = str(request["messages"][1]["content"]).split("\n\n# The conversation so far")[0]
            return text(fail("leaked_goal") if candidate_of(request) in instructions else PASS, *CHECK_TOKENS)
        if is_redraw(request):
            return text(CLEAN, *USER_TOKENS)
        own = sum(1 for m in request["messages"] if m["role"] == "assistant")
        said = self.index.tasks[self.index.of_user_request(request)].instruction if own == 0 else STOP
        return text(said, *USER_TOKENS)


async def test_a_strict_run_sends_the_redraw_and_keeps_the_users_cost_apart(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    index = FirstTask(task_index.tasks[:1])
    fake.reset(Router(GoldAgent(index), StrictRetailUser(index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], user="strict-taumesh"))
    (result,) = summary.results
    assert result.reward == 1.0 and result.info["termination"] == "user_stop"
    assert [m["content"] for m in result.traj if m["role"] == "user"] == [CLEAN, STOP]
    assert task_index.tasks[0].instruction not in json.dumps(result.traj)  # the leak never reached the agent
    # the user's usage counts its three calls (opening, redraw, stop), none of the three checks
    usage = result.info["user_usage"]
    assert (usage["calls"], usage["prompt_tokens"]) == (3, 3 * USER_TOKENS[0])
    assert sum(1 for s in fake.completions(USER_MODEL) if is_check(s.request)) == 3
    # the results file keeps the checks' spend apart, and how they went: three checks, one turn redrawn
    assert result.info["user_check_usage"]["calls"] == 3
    assert result.info["user_checks"] == {"checks": 3, "redrawn": 1, "sent_failing": 0}
    assert result.info["user_sim_version"] == f"custom:strict-taumesh/{USER_MODEL}"


async def test_an_unreadable_verdict_in_a_run_is_an_infrastructure_error(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    index = FirstTask(task_index.tasks[:1])
    user = StrictRetailUser(index)

    def unreadable_checks(request: dict[str, Any]) -> Reply:
        return text("pass", *CHECK_TOKENS) if is_check(request) else user(request)

    fake.reset(Router(GoldAgent(index), unreadable_checks))
    config = run_config(fake, v1_data_dir, tmp_path, [0], user="strict-taumesh")
    config.max_episode_attempts = 1
    summary = await run_benchmark(config)
    (result,) = summary.results
    assert result.reward is None and result.traj == []
    assert result.info["error"]["kind"] == "infrastructure"
    assert "no verdict of the strict user's check read" in result.info["error"]["cause"]


def test_taumesh_strict_v1_is_registered_with_its_prompts_hash() -> None:
    version = SIMULATORS["taumesh-strict-v1"]
    prompt = "\n\n".join([persona_prompt("{instruction}"), CHECK_SYSTEM, CHECK_REQUEST, REDRAW])
    assert version.prompt_hash == hashlib.sha256(prompt.encode()).hexdigest()
    played = UserSettings(strategy="strict-taumesh", model=ModelSettings(model="gpt-4o", provider="openai"))
    assert simulator_version(played) == "taumesh-strict-v1"
    tau_bench_checked = UserSettings(strategy="strict", model=ModelSettings(model="gpt-4o", provider="openai"))
    assert simulator_version(tau_bench_checked) == "custom:strict/gpt-4o"
