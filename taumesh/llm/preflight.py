"""Checks of a model configuration before any model is called: a known provider, and its credentials present.

``taumesh run`` uses them to refuse a bad configuration up front, in one line, instead of failing every episode.
"""

from __future__ import annotations

import contextlib
import io
import re

from taumesh.llm._litellm import litellm
from taumesh.models import ModelSettings

_NOT_A_CREDENTIAL = re.compile(r"_(API_BASE|BASE_URL|URL|ENDPOINT|REGION(_NAME)?|VERSION|PROJECT|LOCATION)$")
"""Variables ``validate_environment`` may ask for that say where a model is, not who may call it."""


def known_providers() -> list[str]:
    """The provider names litellm knows, sorted."""
    return sorted(str(getattr(p, "value", p)) for p in litellm.provider_list)


def provider_problem(provider: str, flag: str) -> str | None:
    """Why ``provider`` is not one litellm knows, or None (an empty provider lets litellm infer it)."""
    if not provider or provider in known_providers():
        return None
    return f"{flag} {provider!r} is not a litellm provider (for example: openai, anthropic, hosted_vllm, ollama)"


def litellm_model_name(settings: ModelSettings) -> str:
    """The model as litellm routes it: ``provider/model`` when a provider is given."""
    if settings.provider and not settings.model.startswith(f"{settings.provider}/"):
        return f"{settings.provider}/{settings.model}"
    return settings.model


def missing_credentials(settings: ModelSettings) -> list[str]:
    """The environment variables holding credentials that ``settings``' provider needs and that are unset."""
    with contextlib.redirect_stdout(io.StringIO()):  # litellm prints its provider list for unknown models
        report = litellm.validate_environment(model=litellm_model_name(settings), api_base=settings.api_base or None)
    return [str(name) for name in report.get("missing_keys", []) if not _NOT_A_CREDENTIAL.search(str(name))]


def credentials_problem(settings: ModelSettings, flag: str) -> str | None:
    """Why ``settings`` cannot authenticate from this environment, or None."""
    missing = missing_credentials(settings)
    if not missing:
        return None
    return f"{flag} {settings.model!r} needs {' and '.join(missing)} in the environment, and it is not set"
