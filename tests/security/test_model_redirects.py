"""A model endpoint that answers a redirect never gets the key sent on: the call fails, saying why.

An allowed endpoint on 127.0.0.1 answers every request 302 to an "attacker" listener on another port. Through
litellm's real HTTP path (its own handler for OpenAI-style chat, the OpenAI SDK's client, anthropic's handler), the
attacker receives no request at all, and the caller gets a ModelRequestError naming the redirect, after one attempt.
Before taumesh refused redirects, httpx followed them: anthropic's ``x-api-key`` reached the attacker.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from taumesh.llm import complete
from taumesh.llm.errors import ModelRequestError
from taumesh.models import ModelSettings
from tests.security.canary import CANARY, Listener, redirect_to

PROVIDERS = {"openai": ("gpt-4o", "/v1"), "anthropic": ("claude-3-5-sonnet-20241022", "")}


@pytest.mark.parametrize("provider", list(PROVIDERS))
async def test_a_redirecting_endpoint_gets_no_key_sent_on(provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", CANARY)
    monkeypatch.setenv("TAUMESH_LLM_MAX_ATTEMPTS", "3")
    model, path = PROVIDERS[provider]
    with Listener() as attacker, Listener(redirect_to(attacker.url)) as allowed:
        settings = ModelSettings(model=model, provider=provider, api_base=allowed.url + path)
        with pytest.raises(ModelRequestError) as refused:
            await complete(settings, [{"role": "user", "content": "hi"}])
        assert attacker.seen == [], "the redirect was followed"
        assert len(allowed.saw_canary()) == 1, "the allowed endpoint is asked once (a redirect is not retried)"
    assert refused.value.attempts == 1
    assert "answered 302 (redirect to " in str(refused.value) and "never follows a redirect" in str(refused.value)


def test_the_openai_sdk_path_follows_no_redirect_either() -> None:
    """With litellm's HTTP handler off (``EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER=false``), in a fresh process."""
    code = """
import asyncio, os
from taumesh.llm import complete
from taumesh.llm.errors import ModelRequestError
from taumesh.models import ModelSettings
from tests.security.canary import Listener, redirect_to
async def main():
    with Listener() as attacker, Listener(redirect_to(attacker.url)) as allowed:
        try:
            await complete(ModelSettings(model="gpt-4o", provider="openai", api_base=allowed.url + "/v1"),
                           [{"role": "user", "content": "hi"}])
        except ModelRequestError as exc:
            print("refused:", exc)
        print("attacker:", len(attacker.seen))
asyncio.run(main())
"""
    env = {"EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER": "false", "OPENAI_API_KEY": CANARY}
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, timeout=120
    )
    assert "attacker: 0" in done.stdout, done.stdout + done.stderr
    assert "refused: the model endpoint answered 302" in done.stdout, done.stdout + done.stderr
