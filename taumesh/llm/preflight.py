"""Checks of a model configuration before any model is called: a known provider, and its credentials present.

``taumesh run`` uses them to refuse a bad configuration up front, in one line, instead of failing every episode.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import re
from functools import lru_cache
from urllib.parse import urlsplit

from taumesh.llm._litellm import litellm
from taumesh.models import ModelSettings

_NOT_A_CREDENTIAL = re.compile(r"_(API_BASE|BASE_URL|URL|ENDPOINT|REGION(_NAME)?|VERSION|PROJECT|LOCATION)$")
"""Variables ``validate_environment`` may ask for that say where a model is, not who may call it."""

LOCAL_PLACEHOLDER_KEY = "taumesh-local-server-no-key"
"""The key sent to a local server when the environment has none (the provider's SDK refuses to send no key)."""


def is_local_api_base(api_base: str) -> bool:
    """Whether ``api_base`` is a server on this machine (loopback address or ``localhost``): no key is demanded."""
    try:
        host = urlsplit(api_base if "//" in api_base else f"//{api_base}").hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


@lru_cache(maxsize=64)
def _missing_for(model: str, provider: str, api_base: str, keys_present: frozenset[str]) -> tuple[str, ...]:
    """:func:`missing_credentials`, once per model and set of key variables present (it redirects stdout)."""
    return tuple(missing_credentials(ModelSettings(model=model, provider=provider, api_base=api_base)))


def local_api_key(settings: ModelSettings) -> str | None:
    """The placeholder key for a local ``api_base`` whose provider's key is unset; None: send what litellm finds."""
    if not settings.api_base or not is_local_api_base(settings.api_base):
        return None
    present = frozenset(name for name, value in os.environ.items() if value and ("KEY" in name or "TOKEN" in name))
    missing = _missing_for(settings.model, settings.provider, settings.api_base, present)
    return LOCAL_PLACEHOLDER_KEY if missing else None


def credentials_problem(settings: ModelSettings, flag: str) -> str | None:
    """Why ``settings`` cannot authenticate from this environment, or None (a local ``api_base`` needs no key)."""
    if settings.api_base and is_local_api_base(settings.api_base):
        return None
    missing = missing_credentials(settings)
    if not missing:
        return None
    return f"{flag} {settings.model!r} needs {' and '.join(missing)} in the environment, and it is not set"
