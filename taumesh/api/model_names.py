"""Which providers and model names a request may name: litellm's own lists (read offline, no network).

litellm's bundled cost map lists the models of most hosted providers (``LITELLM_LOCAL_MODEL_COST_MAP=True`` keeps it
the bundled one). A model is checked against its provider's list only when the request names no ``api_base``
(a self-hosted endpoint serves whatever names it likes) and the provider is not one that serves the operator's own
models (vLLM, Ollama, an OpenAI-compatible server …), whose names no list can know.
"""

from __future__ import annotations

import os
from functools import cache

# litellm is imported here directly: never fetch the price list at its import (an offline server waited ~7 s on
# three attempts before /health answered), as taumesh.llm does
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

SELF_HOSTED_PROVIDERS = frozenset(
    {
        "hosted_vllm",
        "vllm",
        "ollama",
        "ollama_chat",
        "openai_like",
        "custom_openai",
        "custom",
        "lm_studio",
        "llamafile",
        "huggingface",
        "openrouter",
        "litellm_proxy",
        "triton",
        "xinference",
    }
)
"""Providers whose model names are the operator's choice: never checked against a list."""
HEALTH_PROVIDERS = ("openai", "anthropic", "gemini", "mistral", "deepinfra", "together_ai")
"""Providers ``/health`` lists ``supported_models`` of (the ones taumesh documents keys for)."""


@cache
def providers() -> frozenset[str]:
    """Every provider name litellm knows."""
    import litellm

    return frozenset(str(getattr(p, "value", p)) for p in litellm.provider_list)


def known_provider(provider: str) -> bool:
    """Whether litellm knows ``provider``: the documented providers without importing litellm (seconds of CPU).

    An oracle run with a scripted user names the default provider and no model any strategy calls: checking it
    needs no list.
    """
    return provider in HEALTH_PROVIDERS or provider in providers()


@cache
def _listed(provider: str) -> frozenset[str]:
    import litellm

    names = litellm.models_by_provider.get(provider) or ()
    return frozenset(str(name).removeprefix(f"{provider}/") for name in names)


def known_model(provider: str, model: str) -> bool:
    """Whether litellm lists ``model`` (with or without the ``provider/`` prefix) for ``provider``.

    True for self-hosted providers and providers litellm lists no model of.
    """
    listed = _listed(provider)
    if provider in SELF_HOSTED_PROVIDERS or not listed:
        return True
    return model.removeprefix(f"{provider}/") in listed


@cache
def supported_models() -> dict[str, list[str]]:
    """``/health``'s ``supported_models``: the chat models litellm lists for each documented provider."""
    import litellm

    return {
        provider: sorted(
            name
            for name in _listed(provider)
            if litellm.model_cost.get(name, litellm.model_cost.get(f"{provider}/{name}", {})).get("mode") == "chat"
        )
        for provider in HEALTH_PROVIDERS
    }


def split_model(spelling: str) -> tuple[str | None, str]:
    """``provider/model`` or the MT fork's ``provider_model`` as (provider, model); (None, spelling) otherwise.

    The underscore form takes the longest provider litellm knows that prefixes the text (``together_ai_x`` is
    ``together_ai``'s ``x``), so ``openai_gpt-4o`` is ``openai``'s ``gpt-4o``.
    """
    head, slash, tail = spelling.partition("/")
    if slash and head in providers() and tail:
        return head, tail
    for provider in sorted(providers(), key=len, reverse=True):
        if spelling.startswith(f"{provider}_") and len(spelling) > len(provider) + 1:
            return provider, spelling[len(provider) + 1 :]
    return None, spelling
