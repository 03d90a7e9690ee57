"""A model call logs one DEBUG line of taumesh's and nothing at INFO: litellm's own loggers are kept at WARNING."""

from __future__ import annotations

import contextlib
import logging

import pytest

from taumesh.llm import ModelRequestError, complete
from taumesh.models import ModelSettings
from tests.helpers.fake_model import FakeOpenAI, Reply, in_turn, server_error, text
from tests.helpers.llm import warm_up

MESSAGES = [{"role": "user", "content": "Hi"}]


async def call_and_capture(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture, *replies: Reply) -> list[str]:
    """Make one call with ``replies`` served; the taumesh DEBUG lines it logged (and no INFO line at all)."""
    settings = ModelSettings(model="gpt-4o", provider="openai", api_base=fake.url)
    fake.reset(in_turn(*replies))
    caplog.clear()
    # the root at DEBUG, so whatever any logger would emit is recorded; a refused call logs its line too
    with caplog.at_level(logging.DEBUG), contextlib.suppress(ModelRequestError):
        await complete(settings, MESSAGES)
    assert [r.name for r in caplog.records if r.levelno == logging.INFO] == []
    return [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG and r.name.startswith("taumesh")]


async def test_one_debug_line_per_call(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    await warm_up(fake)
    for _ in range(2):
        [line] = await call_and_capture(fake, caplog, text("hello", prompt_tokens=12, completion_tokens=3))
        assert line.startswith("model gpt-4o: finish stop, 12+3 tokens, $") and "(1 attempt, " in line


async def test_a_retried_call_is_still_one_line(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    [line] = await call_and_capture(fake, caplog, server_error(503), text("ok"))
    assert "finish stop" in line and "(2 attempts, " in line
    [retry] = [r for r in caplog.records if r.levelno == logging.WARNING and r.name.startswith("taumesh")]
    assert "attempt 1 failed" in retry.getMessage()  # a retry stays visible at WARNING


async def test_a_refused_call_is_one_line(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    [line] = await call_and_capture(fake, caplog, Reply(status=400))
    assert line.startswith("model gpt-4o: failed: ") and "(1 attempt, " in line


def test_litellm_loggers_are_at_warning() -> None:
    assert all(logging.getLogger(name).level == logging.WARNING for name in ("LiteLLM", "LiteLLM Router"))
