"""taumesh.llm.complete over litellm's real HTTP path against the scripted server: replies, usage, faults."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from taumesh.llm import ModelCall, ModelRequestError, ModelUnavailable, add_model_call_hook, complete
from taumesh.llm._litellm import litellm
from taumesh.llm.retry import RetryPolicy, redact
from taumesh.models import ChatMessage, ModelSettings, ToolSchema
from tests.helpers.fake_model import (
    FAKE_KEY,
    FakeOpenAI,
    Reply,
    empty,
    in_turn,
    rate_limited,
    server_error,
    slow,
    text,
    tool_call,
)
from tests.helpers.llm import warm_up

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]


def settings(fake: FakeOpenAI, **overrides: Any) -> ModelSettings:
    values: dict[str, Any] = {"model": "gpt-4o", "provider": "openai", "api_base": fake.url, "seed": 42}
    values.update(overrides)
    return ModelSettings(**values)


async def test_text_reply_usage_cost_and_request(fake: FakeOpenAI) -> None:
    fake.reset(text("Hello there", prompt_tokens=1200, completion_tokens=340))
    done = await complete(settings(fake, temperature=0.25, send_seed=True), MESSAGES)
    assert done.message == ChatMessage(role="assistant", content="Hello there")
    assert done.finish_reason == "stop" and done.model == "gpt-4o"
    assert (done.usage.prompt_tokens, done.usage.completion_tokens, done.usage.calls) == (1200, 340, 1)
    expected = sum(litellm.cost_per_token(model="gpt-4o", prompt_tokens=1200, completion_tokens=340))
    assert done.usage.cost_usd == pytest.approx(expected) and expected > 0
    [served] = fake.served
    assert served.path == "/v1/chat/completions"
    assert served.request["model"] == "gpt-4o"
    assert served.request["messages"] == MESSAGES
    assert served.request["temperature"] == 0.25 and served.request["seed"] == 42
    assert "tools" not in served.request
    assert served.headers["authorization"] == f"Bearer {FAKE_KEY}"  # from the environment only


async def test_the_seed_goes_only_where_the_domain_sends_one(fake: FakeOpenAI) -> None:
    """τ-bench v1's run.py sends no seed (the parity bench found taumesh's did); τ²'s participants send theirs."""
    fake.reset(text("Hello"))
    await complete(settings(fake), MESSAGES)  # send_seed defaults to False: τ-bench v1's request
    await complete(settings(fake, send_seed=True), MESSAGES)
    unseeded, seeded = (served.request for served in fake.served)
    assert "seed" not in unseeded and unseeded["temperature"] == 0.0
    assert seeded["seed"] == 42


async def test_tool_call_reply_and_tools_sent(fake: FakeOpenAI) -> None:
    fake.reset(tool_call("get_order_details", {"order_id": "#W1"}))
    schema = ToolSchema(name="get_order_details", description="d", parameters={"type": "object", "properties": {}})
    done = await complete(settings(fake), MESSAGES, [schema])
    [call] = done.message.tool_calls
    assert call.name == "get_order_details" and call.arguments == '{"order_id": "#W1"}' and call.id
    assert done.finish_reason == "tool_calls"
    assert fake.served[0].request["tools"] == [schema.openai()]


async def test_429_retry_after_is_honoured(fake: FakeOpenAI) -> None:
    fake.reset(in_turn(rate_limited("1"), text("ok")))
    done = await complete(settings(fake), MESSAGES)
    assert done.message.content == "ok" and done.usage.calls == 1
    first, second = fake.served
    assert second.received_at - first.received_at >= 0.95  # backoff alone would be ~0.01 s


async def test_5xx_timeout_and_empty_replies_are_retried(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    await warm_up(fake)
    monkeypatch.setenv("TAUMESH_LLM_TIMEOUT", "1.0")
    fake.reset(in_turn(server_error(500), server_error(503), slow(1.5), empty(prompt_tokens=7), text("finally", 20, 3)))
    done = await complete(settings(fake), MESSAGES)
    assert done.message.content == "finally"
    assert len(fake.served) == 5
    # the empty reply was billed: its tokens count, but it is not a successful call
    assert (done.usage.prompt_tokens, done.usage.completion_tokens, done.usage.calls) == (27, 3, 1)


async def test_exhausted_retries_raise_model_unavailable_with_cause(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "3")
    fake.reset(server_error(500))
    with pytest.raises(ModelUnavailable) as raised:
        await complete(settings(fake), MESSAGES)
    assert raised.value.attempts == 3 and len(fake.served) == 3
    assert "InternalServerError" in raised.value.cause and "500" in raised.value.cause


async def test_refused_request_is_not_retried(fake: FakeOpenAI) -> None:
    fake.reset(Reply(status=401))
    with pytest.raises(ModelRequestError) as raised:
        await complete(settings(fake), MESSAGES)
    assert len(fake.served) == 1 and "Authentication" in raised.value.cause
    assert FAKE_KEY not in raised.value.cause


async def test_hooks_wrap_every_attempt(fake: FakeOpenAI) -> None:
    seen: list[tuple[str, int, Any]] = []

    def hook(call: ModelCall) -> Any:
        @contextmanager
        def around() -> Iterator[None]:
            seen.append(("enter", call.attempt, call.span_name))
            try:
                yield
            except Exception as exc:
                seen.append(("error", call.attempt, type(exc).__name__))
                raise
            seen.append(("exit", call.attempt, call.usage.prompt_tokens if call.usage else None))

        return around()

    remove = add_model_call_hook(hook)
    try:
        fake.reset(in_turn(server_error(500), text("ok", prompt_tokens=5)))
        await complete(settings(fake), MESSAGES)
    finally:
        remove()
    assert seen == [
        ("enter", 1, "chat gpt-4o"),
        ("error", 1, "InternalServerError"),
        ("enter", 2, "chat gpt-4o"),
        ("exit", 2, 5),
    ]


def test_policy_from_env_and_redaction() -> None:
    policy = RetryPolicy.from_env({"TAUMESH_LLM_MAX_ATTEMPTS": "2", "TAUMESH_LLM_TIMEOUT": "3.5"})
    assert (policy.max_attempts, policy.timeout, policy.max_wait) == (2, 3.5, 60.0)
    assert redact("bad key abcdefgh123 here", {"MY_API_KEY": "abcdefgh123"}) == "bad key *** here"
    assert redact("Incorrect API key provided: sk-proj-ABCDEFGHIJKLMNOP", {}) == "Incorrect API key provided: ***"
