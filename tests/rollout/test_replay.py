"""Provider-side nondeterminism recorded apart, through the real path: litellm's HTTP calls from the tool-calling agent
and the LLM user to the fake OpenAI-compatible server on 127.0.0.1 (which reports a ``system_fingerprint``), the
embedded gRPC services, ``info.provider`` per role, and :func:`taumesh.rollout.divergences` over two plays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.domains import load_domain
from taumesh.gateway import ROLLOUT_HEADER, sign_rollout
from taumesh.rollout import RolloutEpisode, agroup_rollouts, divergences, group_rollouts, seed_for
from taumesh.rollout.replay import compare_episodes, read_episodes
from tests.gateway.servers import running_gateway
from tests.helpers.fake_model import FakeOpenAI, Reply, Script

ENV, SPLIT, SEED = "hospitality", "base", 5
AGENT_FP, USER_FP = "fp-agent-a", "fp-user"


def task_ids(count: int) -> list[str]:
    return [task.id for task in load_domain(ENV, Path()).tasks(SPLIT)[:count]]


def backend(agent_fingerprint: str, answer: str) -> Script:
    """A deterministic provider: the agent calls the first tool offered after a user's message and then says
    ``answer``; the user opens with one line and stops at its next turn. Each role's replies carry a fingerprint."""

    def script(request: dict[str, Any], ordinal: int) -> Reply:
        messages = request["messages"]
        if request["model"] == "user":  # the user simulator: its own earlier lines are its "assistant" messages
            said = any(message["role"] == "assistant" for message in messages)
            return Reply(content="###STOP###" if said else "Hi, I need help.", system_fingerprint=USER_FP)
        if messages[-1]["role"] == "user":
            name = request["tools"][0]["function"]["name"]
            return Reply(tool_calls=[(name, {})], system_fingerprint=agent_fingerprint)
        return Reply(content=answer, system_fingerprint=agent_fingerprint)

    return script


async def play(fake: FakeOpenAI, tasks: list[str], seed: int = SEED) -> list[RolloutEpisode]:
    return await agroup_rollouts(
        env=ENV,
        task_split=SPLIT,
        task_ids=tasks,
        trials=2,
        agent_strategy="tool-calling",
        user_strategy="llm",
        model="policy",
        model_provider="openai",
        api_base=fake.url,
        user_model="user",
        user_model_provider="openai",
        user_api_base=fake.url,
        seed=seed,
        max_concurrency=4,
    )


async def test_a_deterministic_provider_replays_equal_and_its_fingerprints_are_recorded_per_role(
    fake: FakeOpenAI,
) -> None:
    fake.reset(backend(AGENT_FP, "All done."))
    first = await play(fake, task_ids(2))
    second = await play(fake, task_ids(2))
    assert len(first) == len(second) == 4 and all(e.error is None for e in first + second)
    for episode in first + second:
        provider = episode.info["provider"]
        assert set(provider) == {"agent", "user"}
        agent, user = provider["agent"], provider["user"]
        assert agent["calls"] == episode.info["agent_usage"]["calls"] >= 2  # a tool call, then the answer
        assert user["calls"] == episode.info["user_usage"]["calls"] == 2  # the opening line, then the stop
        assert (agent["fingerprints"], user["fingerprints"]) == ([AGENT_FP], [USER_FP])
        assert agent["served_models"] == ["policy"] and user["served_models"] == ["user"]
        assert agent["seeded_calls"] == agent["calls"] and user["seeded_calls"] == user["calls"]  # rollouts seed all
        assert set(episode.info["agent_usage"]) == {"prompt_tokens", "completion_tokens", "cost_usd", "calls"}
    seeds = {seed_for(SEED, e.task_id, e.trial) for e in first}
    assert {request["seed"] for request in fake.requests} == seeds  # each call carried its episode's seed
    comparison = divergences(first, second)
    assert len(comparison.episodes) == 4 and not comparison.diverged
    assert not comparison.only_in_first and not comparison.only_in_second
    for compared in comparison.episodes:
        assert compared.cause == "equal" and compared.index is None and not compared.provider_changed
        assert compared.seeds[0] == compared.seeds[1] == seed_for(SEED, compared.task_id, compared.trial)


async def test_a_provider_that_answers_otherwise_on_replay_is_blamed_with_its_changed_fingerprint(
    fake: FakeOpenAI, tmp_path: Path
) -> None:
    fake.reset(backend(AGENT_FP, "All done."))
    first = await play(fake, task_ids(1))
    fake.reset(backend("fp-agent-b", "Everything is settled now."))
    second = await play(fake, task_ids(1))
    # as `taumesh rollout --out` files, read back
    for name, episodes in (("a.jsonl", first), ("b.jsonl", second)):
        (tmp_path / name).write_text("".join(e.model_dump_json() + "\n" for e in episodes))
    comparison = divergences(read_episodes(tmp_path / "a.jsonl"), read_episodes(tmp_path / "b.jsonl"))
    assert len(comparison.diverged) == 2
    for compared, episode in zip(comparison.diverged, first, strict=True):
        assert compared.cause == "provider" and compared.speaker == "agent" and compared.index is not None
        assert compared.first_message is not None and compared.second_message is not None
        assert (compared.first_message["content"], compared.second_message["content"]) == (
            "All done.",
            "Everything is settled now.",
        )
        # what came before is equal: the tool call (whose ids the provider names anew) and its result
        assert episode.trajectory[compared.index - 1]["role"] == "tool"
        assert [change.role for change in compared.provider_changes] == ["agent"]  # the user's backend is unchanged
        (change,) = compared.provider_changes
        assert change.first is not None and change.second is not None
        assert (change.first.fingerprints, change.second.fingerprints) == ([AGENT_FP], ["fp-agent-b"])


@pytest.fixture(scope="module")
def unmodelled() -> list[RolloutEpisode]:
    return group_rollouts(
        env=ENV, task_split=SPLIT, task_ids=task_ids(2), trials=1, agent_strategy="oracle", user_strategy="scripted"
    )


async def test_without_model_calls_no_provider_is_recorded_and_replays_are_equal(
    unmodelled: list[RolloutEpisode],
) -> None:
    again = await agroup_rollouts(
        env=ENV, task_split=SPLIT, task_ids=task_ids(2), trials=1, agent_strategy="oracle", user_strategy="scripted"
    )
    assert all("provider" not in episode.info for episode in unmodelled + again)
    assert all(compared.cause == "equal" for compared in divergences(unmodelled, again).episodes)


def test_a_tool_result_that_differs_after_equal_calls_is_taumeshs_own_and_other_seeds_are_no_replay(
    unmodelled: list[RolloutEpisode],
) -> None:
    episode = unmodelled[0]
    at = next(i for i, message in enumerate(episode.trajectory) if message["role"] == "tool")
    changed = [dict(message) for message in episode.trajectory]
    changed[at]["content"] = json.dumps({"changed": True})
    compared = compare_episodes(episode, episode.model_copy(update={"trajectory": changed}))
    assert (compared.cause, compared.index, compared.speaker) == ("taumesh", at, "env")
    # an oracle's (no model's) message that differs is taumesh's own too: no provider spoke
    said = next(i for i, message in enumerate(episode.trajectory) if message["role"] == "assistant")
    changed = [dict(message) for message in episode.trajectory]
    changed[said]["content"] = "something else"
    assert compare_episodes(episode, episode.model_copy(update={"trajectory": changed})).cause == "taumesh"
    reseeded = episode.model_copy(update={"seed": episode.seed + 1})
    assert compare_episodes(episode, reseeded).cause == "not_a_replay"
    assert divergences(unmodelled[:1], unmodelled[1:]).only_in_first == [(episode.task_id, episode.trial)]


def test_the_gateway_keeps_the_backends_fingerprint(fake: FakeOpenAI, tmp_path: Path) -> None:
    key = "test-gateway-key-0123456789abcdef"
    fake.reset(Reply(content="hello", system_fingerprint="fp-gw"))
    with running_gateway(fake.url, tmp_path, key) as gateway:
        headers = {ROLLOUT_HEADER: sign_rollout(key.encode(), "fp-probe")}
        body = {"model": "policy", "messages": [{"role": "user", "content": "hi"}]}
        assert httpx.post(f"{gateway}/chat/completions", json=body, headers=headers).status_code == 200
        (trace,) = httpx.get(f"{gateway}/rollouts/fp-probe/traces", headers=headers).json()["traces"]
    assert trace["system_fingerprint"] == "fp-gw"
