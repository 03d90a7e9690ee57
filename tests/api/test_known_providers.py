"""The providers the API accepts without importing litellm are providers litellm knows."""

from __future__ import annotations

from taumesh.api.model_names import HEALTH_PROVIDERS, known_provider, providers


def test_documented_providers_are_litellm_providers() -> None:
    assert set(HEALTH_PROVIDERS) <= providers()
    assert all(known_provider(name) for name in HEALTH_PROVIDERS)
    assert known_provider("hosted_vllm") and not known_provider("no-such-provider")
