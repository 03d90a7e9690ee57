"""A Gym environment's ``provider_limits``: the simulated user's model calls take permits, as in ``taumesh run``.

The user is the scripted LLM user on the fake OpenAI server, which answers every model call's first attempt with a
429: the user-sim service hands each back at once, and the environment's limiter waits out the Retry-After and
makes the call again. The caller plays the agent (the gold actions of retail task 1).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from taumesh.domains import Task
from taumesh.orchestrator.gym import AGENT_ENV_ID
from tests.gym.test_agent_env import play_gold
from tests.llm.fake_openai import FakeOpenAI, rate_limited
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, ScriptedLlmUser, TaskIndex

RETRY_AFTER_S = 0.2


def test_the_users_calls_take_permits_and_their_429s_reach_the_limiter(
    fake: FakeOpenAI, retail: dict[str, Any], retail_tasks: list[Task]
) -> None:
    user = ScriptedLlmUser(TaskIndex(retail_tasks))
    fake.reset(lambda request, ordinal: rate_limited(str(RETRY_AFTER_S)) if ordinal % 2 == 0 else user(request))
    env = gym.make(
        AGENT_ENV_ID,
        **retail,
        user={"strategy": "llm-taumesh", "model": {"model": USER_MODEL, "provider": "openai", "api_base": fake.url}},
        # the seat's side: the caller answers it, so its turns take no permit even when it names a model
        agent={"strategy": "tool-calling", "model": {"model": AGENT_MODEL, "provider": "openai"}},
        provider_limits=["openai=1"],
    )
    try:
        env.reset(options={"task_id": "1"})
        reward, terminated, _, _ = play_gold(env, retail_tasks[1])
        [openai] = env.unwrapped.provider_stats()  # type: ignore[attr-defined]  # gym.make wraps the env
    finally:
        env.close()
    assert (reward, terminated) == (1.0, True)
    served = fake.served
    assert [s.reply.status for s in served] == [429, 200, 429, 200]  # the opening message, then the stop
    # every 429 reached the limiter (none retried inside the service); the seat's turns took no permit
    assert (openai["cap"], openai["rate_limited"], openai["calls"], openai["in_flight"]) == (1, 2, 2, 0)
    for refused, again in zip(served[::2], served[1::2], strict=True):
        assert again.received_at - refused.received_at >= RETRY_AFTER_S  # the Retry-After waited out


def test_without_limits_no_permit_is_taken(fake: FakeOpenAI, retail: dict[str, Any]) -> None:
    env = gym.make(AGENT_ENV_ID, **retail)
    try:
        env.reset(options={"task_id": "1"})
        assert env.unwrapped.provider_stats() == []  # type: ignore[attr-defined]
    finally:
        env.close()
