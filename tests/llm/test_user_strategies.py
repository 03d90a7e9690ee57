"""Every LLM user strategy plays whole episodes through the gRPC services and litellm's HTTP path."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from taumesh.models import STOP_TOKEN, ChatMessage
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.services.user_sim.strategies.base import UserTurn
from taumesh.services.user_sim.strategies.human import HumanUser, LineReader
from taumesh.services.user_sim.strategies.verify import read_verdict
from tests.helpers.fake_model import FakeOpenAI, Reply, text
from tests.helpers.llm import run_config
from tests.llm.scripts import (
    AGENT_MODEL,
    BAD_DRAFT,
    USER_MODEL,
    GoldAgent,
    ReviewedUser,
    Router,
    ScriptedLlmUser,
    TaskIndex,
    is_reflection,
    is_review,
    own_turns,
    prompt_tokens,
    tokens,
)

TASKS = [0, 19]


def user_requests(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [s.request for s in fake.completions(USER_MODEL)]


def agent_prompts(fake: FakeOpenAI) -> str:
    return json.dumps([s.request for s in fake.completions(AGENT_MODEL)])


async def test_llm_user(fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path) -> None:
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, user="llm-taumesh"))
    assert {r.task_id: r.reward for r in summary.results} == {0: 1.0, 19: 1.0}
    assert all(r.info["termination"] == "user_stop" for r in summary.results)
    requests = user_requests(fake)
    assert len(requests) == 4  # opening and stop, per episode
    task = task_index.tasks[0]
    opening, stop = (r for r in requests if task.instruction in r["messages"][0]["content"])
    assert opening["messages"][0]["role"] == "system"
    assert [m["role"] for m in opening["messages"]] == ["system", "user"]  # the agent's greeting as "user"
    # later calls: the user's own turns are "assistant", the agent's are "user"
    assert [m["role"] for m in stop["messages"]] == ["system", "user", "assistant", "user"]
    assert stop["messages"][2]["content"] == task.instruction
    assert stop["messages"][3]["content"] == "Is there anything else I can help you with?"
    assert "tools" not in opening


@dataclass
class ReactScriptedUser:
    """A ReAct user model whose texts τ-bench reads as the instruction, then as ###STOP###."""

    index: TaskIndex

    def __call__(self, request: dict[str, Any]) -> Reply:
        task = self.index.tasks[self.index.of_user_request(request)]
        if own_turns(request) == 0:
            said = f"User Response:\n{task.instruction}"  # no Thought: τ-bench would send the thought too
        else:
            said = f"Thought:\n{PRIVATE_THOUGHT}\nUser Response:\n{STOP_TOKEN}"
        return text(said, prompt_tokens=prompt_tokens(request), completion_tokens=tokens(said))


PRIVATE_THOUGHT = "My request is handled; I end the chat."


async def test_react_user_replies_as_tau_bench_parses_them(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ReactScriptedUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, user="react-taumesh"))
    assert {r.task_id: r.reward for r in summary.results} == {0: 1.0, 19: 1.0}
    for result in summary.results:
        user_said = [m["content"] for m in result.traj if m["role"] == "user"]
        assert user_said == [task_index.tasks[result.task_id].instruction, STOP_TOKEN]
    assert PRIVATE_THOUGHT not in agent_prompts(fake)  # ###STOP### anywhere: the message is ###STOP### alone
    # the model's whole text came back in the next call as the user's own (assistant) turn, as τ-bench keeps it
    openings = {f"User Response:\n{task_index.tasks[i].instruction}" for i in TASKS}
    later = [r for r in user_requests(fake) if len(r["messages"]) > 2]
    assert len(later) == 2
    for request in later:
        own = request["messages"][2]
        assert own["role"] == "assistant" and own["content"] in openings


async def test_verify_user_regenerates_rejected_drafts(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ReviewedUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, user="verify-taumesh"))
    assert {r.task_id: r.reward for r in summary.results} == {0: 1.0, 19: 1.0}
    assert BAD_DRAFT not in agent_prompts(fake)
    requests = user_requests(fake)
    # per turn: draft, review (reject), regenerate, review (accept); two turns per episode
    assert sum(1 for r in requests if is_review(r)) == 8 and len(requests) == 16
    assert not any(is_reflection(r) for r in requests)
    for result in summary.results:
        usage = result.info["user_usage"]
        assert usage["calls"] == 8


async def test_reflection_user_reflects_then_rewrites(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ReviewedUser(task_index)))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, TASKS, user="reflection-taumesh"))
    assert {r.task_id: r.reward for r in summary.results} == {0: 1.0, 19: 1.0}
    prompts = agent_prompts(fake)
    assert BAD_DRAFT not in prompts and "I drifted" not in prompts  # the reflection stays private
    requests = user_requests(fake)
    assert sum(1 for r in requests if is_reflection(r)) == 4
    for result in summary.results:
        user_said = [m["content"] for m in result.traj if m["role"] == "user"]
        assert user_said == [task_index.tasks[result.task_id].instruction, STOP_TOKEN]


async def test_reviews_are_bounded(fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path) -> None:
    """A reviewer that rejects everything: after three reviews the last draft goes out anyway."""

    def user(request: dict[str, Any]) -> Reply:
        if is_review(request):
            return text('{"verdict": "reject", "reason": "never good enough"}')
        notes = sum(1 for m in request["messages"] if str(m["content"]).startswith("A reviewer rejected"))
        turns = sum(1 for m in request["messages"] if m["role"] == "assistant") - notes  # rejected drafts left out
        return text(task_index.tasks[task_index.of_user_request(request)].instruction if turns == 0 else STOP_TOKEN)

    fake.reset(Router(GoldAgent(task_index), user))
    summary = await run_benchmark(run_config(fake, v1_data_dir, tmp_path, [0], user="verify-taumesh"))
    [result] = summary.results
    assert result.reward == 1.0
    assert result.info["user_usage"]["calls"] == 2 * (1 + 3 + 2)  # per turn: draft, 3 reviews, 2 rewrites


def test_parsers() -> None:
    assert read_verdict('{"verdict": "reject", "reason": "x"}') == (False, "x")
    assert read_verdict('```json\n{"verdict": "accept", "reason": "ok"}\n```') == (True, "ok")
    assert read_verdict("I reject this draft.")[0] is False
    assert read_verdict("Looks fine to me.")[0] is True


@contextmanager
def typed_into_pipe(text_typed: bytes, close: bool = True) -> Iterator[tuple[int, int]]:
    """A pipe holding ``text_typed`` (closed for writing when ``close``, so the reader then meets end of input)."""
    read_end, write_end = os.pipe()
    os.write(write_end, text_typed)
    if close:
        os.close(write_end)
    try:
        yield read_end, write_end
    finally:
        os.close(read_end)
        if not close:
            os.close(write_end)


async def test_line_reader_reads_typed_ahead_lines_then_end_of_input() -> None:
    with typed_into_pipe("first\n\nthé third\nno newline".encode()) as (fd, _):
        reader = LineReader(fd)
        assert [await reader.readline() for _ in range(5)] == ["first", "", "thé third", "no newline", None]


async def test_waiting_for_a_line_is_cancelled_at_once() -> None:
    with typed_into_pipe(b"", close=False) as (fd, _):
        waiting = asyncio.create_task(LineReader(fd).readline())
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(waiting, 1)
        assert not asyncio.get_running_loop().remove_reader(fd)  # nothing left watching stdin


async def test_human_user_shows_the_agent_and_reads_lines() -> None:
    shown: list[str] = []
    with typed_into_pipe(b"I want to exchange my keyboard.\n\n") as (fd, _):
        human = HumanUser(read=LineReader(fd).readline, write=shown.append)
        opening = await human.reply(UserTurn(instruction="You want a new keyboard."))
        assert opening.message.content == "I want to exchange my keyboard." and opening.usage.calls == 0
        assert "You want a new keyboard." in shown[0] and shown[0].endswith("\nYou: ")
        conversation = [opening.message, ChatMessage(role="assistant", content="Which order is it?")]
        stop = await human.reply(UserTurn(instruction="You want a new keyboard.", conversation=conversation))
        assert stop.message.content == STOP_TOKEN  # an empty line ends the conversation
        assert shown[1] == "\nAgent: Which order is it?\nYou: "


@pytest.mark.parametrize("typed", [b"", b"\n", b"###STOP###\n", b"  thanks ###STOP###\n"])
async def test_a_person_who_ends_at_once_is_not_asked_again(typed: bytes) -> None:
    shown: list[str] = []
    with typed_into_pipe(typed) as (fd, _):
        human = HumanUser(read=LineReader(fd).readline, write=shown.append)
        opening = await human.reply(UserTurn(instruction="x"))
        assert STOP_TOKEN in opening.message.content
        conversation = [opening.message, ChatMessage(role="assistant", content="How can I help?")]
        again = await human.reply(UserTurn(instruction="x", conversation=conversation))
    assert again.message.content == STOP_TOKEN
    assert len([s for s in shown if "You: " in s]) == 1  # asked once: the agent's answer is not put to the person
