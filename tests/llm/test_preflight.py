"""The placeholder key of a local server: computed once per environment, never stale after it changes."""

from __future__ import annotations

import os
from collections.abc import Iterator, MutableMapping

import pytest

from taumesh.llm import complete
from taumesh.llm.preflight import LOCAL_PLACEHOLDER_KEY, litellm_route, local_api_key
from taumesh.models import ModelSettings
from tests.helpers.fake_model import FakeOpenAI, text

LOCAL = "http://127.0.0.1:9/v1"


class Unscannable(MutableMapping[str, str]):
    """The process environment, read by name only: a scan of it fails the test."""

    def __init__(self, real: MutableMapping[str, str]) -> None:
        self.real = real

    def __getitem__(self, name: str) -> str:
        return self.real[name]

    def __setitem__(self, name: str, value: str) -> None:
        self.real[name] = value

    def __delitem__(self, name: str) -> None:
        del self.real[name]

    def __contains__(self, name: object) -> bool:
        return name in self.real

    def __len__(self) -> int:
        return len(self.real)

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the environment was scanned")


def test_the_placeholder_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = ModelSettings(model="gpt-4o", provider="openai", api_base=LOCAL)
    assert local_api_key(settings) == LOCAL_PLACEHOLDER_KEY
    monkeypatch.setenv("OPENAI_API_KEY", "sk-taumesh-test-not-a-real-key")
    assert local_api_key(settings) is None  # the key set: litellm sends it, on the very next call
    monkeypatch.delenv("OPENAI_API_KEY")
    assert local_api_key(settings) == LOCAL_PLACEHOLDER_KEY
    assert local_api_key(settings.model_copy(update={"api_base": "https://api.openai.com/v1"})) is None


def test_a_name_litellm_did_not_report_missing_is_seen_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """litellm asks for ANTHROPIC_API_KEY but takes ANTHROPIC_AUTH_TOKEN as well."""
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    settings = ModelSettings(model="claude-3-5-sonnet-20240620", provider="anthropic", api_base=LOCAL)
    assert local_api_key(settings) == LOCAL_PLACEHOLDER_KEY
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "taumesh-test-token")
    assert local_api_key(settings) is None


def test_an_unchanged_environment_is_not_scanned_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = ModelSettings(model="gpt-4o-mini", provider="openai", api_base="http://localhost:8000/v1")
    assert local_api_key(settings) == LOCAL_PLACEHOLDER_KEY  # computed: may scan
    monkeypatch.setattr(os, "environ", Unscannable(os.environ))
    for _ in range(3):
        assert local_api_key(settings) == LOCAL_PLACEHOLDER_KEY  # served by name lookups alone


async def test_a_local_server_gets_the_placeholder_until_a_key_is_set(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through litellm's real HTTP path: the Authorization header the server receives."""
    fake.reset(text("hello"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = ModelSettings(model="gpt-4o", provider="openai", api_base=fake.url)
    await complete(settings, [{"role": "user", "content": "hi"}])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-taumesh-test-set-later")
    await complete(settings, [{"role": "user", "content": "hi"}])
    sent = [served.headers.get("authorization") for served in fake.served]
    assert sent == [f"Bearer {LOCAL_PLACEHOLDER_KEY}", "Bearer sk-taumesh-test-set-later"]


def test_one_route_lookup_for_preflight_and_the_client() -> None:
    assert litellm_route("gpt-4o") == "openai"
    assert litellm_route("x", "openai", LOCAL) == "openai"
    assert litellm_route("anthropic/some-claude") == "anthropic"
    assert litellm_route("no-such-model-anywhere") == ""  # unknown: litellm refuses it at the call
