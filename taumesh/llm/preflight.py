"""Checks of a model configuration before any model is called: a known provider, and its credentials present.

``taumesh run`` uses them to refuse a bad configuration up front, in one line, instead of failing every episode.
litellm (seconds of CPU to import) is imported only when a question needs it: a missing key of a provider in
:data:`PROVIDER_KEYS` is said without it.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TypeVar
from urllib.parse import urlsplit

from taumesh.models import ModelSettings

_NOT_A_CREDENTIAL = re.compile(r"_(API_BASE|BASE_URL|URL|ENDPOINT|REGION(_NAME)?|VERSION|PROJECT|LOCATION)$")
"""Variables ``validate_environment`` may ask for that say where a model is, not who may call it."""

T = TypeVar("T")

PROVIDER_KEYS: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "deepinfra": "DEEPINFRA_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "fireworks_ai": "FIREWORKS_AI_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "xai": "XAI_API_KEY",
    "cohere": "COHERE_API_KEY",
}
"""Providers whose one credential litellm's ``validate_environment`` asks for, by name, to say it is missing without
importing litellm. Only the answer "missing" is taken from here; with the key set, litellm is asked as before.
tests/llm/test_preflight_without_litellm.py checks each against litellm's own answer."""

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


def _litellm() -> ModuleType:
    """litellm, configured by taumesh.llm._litellm, imported at the first question only it can answer."""
    from taumesh.llm._litellm import litellm

    return litellm


def known_providers() -> list[str]:
    """The provider names litellm knows, sorted."""
    return sorted(str(getattr(p, "value", p)) for p in _litellm().provider_list)


def provider_problem(provider: str, flag: str) -> str | None:
    """Why ``provider`` is not one litellm knows, or None (an empty provider lets litellm infer it)."""
    if not provider or provider in PROVIDER_KEYS or provider in known_providers():
        return None
    return f"{flag} {provider!r} is not a litellm provider (for example: openai, anthropic, hosted_vllm, ollama)"


def litellm_model_name(settings: ModelSettings) -> str:
    """The model as litellm routes it: ``provider/model`` when a provider is given."""
    if settings.provider and not settings.model.startswith(f"{settings.provider}/"):
        return f"{settings.provider}/{settings.model}"
    return settings.model


def _quietly(call: Callable[[], T]) -> T:
    """``call()`` with stdout swallowed: litellm prints its provider list for a model it does not know."""
    with contextlib.redirect_stdout(io.StringIO()):
        return call()


@lru_cache(maxsize=64)
def litellm_route(model: str, provider: str = "", api_base: str = "") -> str:
    """The provider litellm sends ``model`` to (``openai``, ``anthropic``, …); empty when it knows none.

    Looked up once per model, provider and base: the lookup is quiet (stdout redirected, for every thread at once).
    """
    try:
        route = _quietly(
            lambda: _litellm().get_llm_provider(model, custom_llm_provider=provider or None, api_base=api_base or None)
        )
    except Exception:  # noqa: BLE001 - an unknown provider is litellm's to refuse, at the call
        return ""
    return str(route[1])


def missing_credentials(settings: ModelSettings) -> list[str]:
    """The environment variables holding credentials that ``settings``' provider needs and that are unset."""
    model = litellm_model_name(settings)
    litellm = _litellm()
    report = _quietly(lambda: litellm.validate_environment(model=model, api_base=settings.api_base or None))
    return [str(name) for name in report.get("missing_keys", []) if not _NOT_A_CREDENTIAL.search(str(name))]


@lru_cache(maxsize=256)
def _is_local(api_base: str) -> bool:
    return is_local_api_base(api_base)


def _key_like(name: str) -> bool:
    return "KEY" in name or "TOKEN" in name


@dataclass(frozen=True)
class _Placeholder:
    """One model's answer of :func:`local_api_key` and the environment it was computed in."""

    watched: tuple[str, ...]
    """The variables whose presence decided it: those litellm found missing, and the key-like ones set then."""
    seen: tuple[int, tuple[bool, ...]]
    """The environment's size and which of ``watched`` were set."""
    key: str | None


def _seen(watched: tuple[str, ...]) -> tuple[int, tuple[bool, ...]]:
    return len(os.environ), tuple(name in os.environ for name in watched)


_PLACEHOLDERS: dict[tuple[str, str, str], _Placeholder] = {}
_MAX_PLACEHOLDERS = 256
"""Models remembered at most (an API server may see many): past it, the memory starts again."""


def local_api_key(settings: ModelSettings) -> str | None:
    """The placeholder key for a local ``api_base`` whose provider's key is unset; None: send what litellm finds.

    Computed again only when the environment changed in a way that may change it: a watched variable set or unset,
    or the number of variables changed (litellm may take a name it did not report missing, such as
    ``ANTHROPIC_AUTH_TOKEN`` for ``ANTHROPIC_API_KEY``). The check is a few lookups by name, not a scan of the
    environment on every model call.
    """
    if not settings.api_base or not _is_local(settings.api_base):
        return None
    model = (settings.model, settings.provider, settings.api_base)
    known = _PLACEHOLDERS.get(model)
    if known is not None and _seen(known.watched) == known.seen:
        return known.key
    set_now = {name for name, value in os.environ.items() if value and _key_like(name)}
    missing = missing_credentials(settings)
    watched = tuple(sorted(set_now | set(missing)))
    if len(_PLACEHOLDERS) >= _MAX_PLACEHOLDERS:
        _PLACEHOLDERS.clear()
    _PLACEHOLDERS[model] = _Placeholder(watched, _seen(watched), LOCAL_PLACEHOLDER_KEY if missing else None)
    return _PLACEHOLDERS[model].key


def credentials_problem(settings: ModelSettings, flag: str) -> str | None:
    """Why ``settings`` cannot authenticate from this environment, or None (a local ``api_base`` needs no key)."""
    if settings.api_base and is_local_api_base(settings.api_base):
        return None
    key = PROVIDER_KEYS.get(settings.provider) if not settings.api_base else None
    missing = [key] if key and key not in os.environ else missing_credentials(settings)
    if not missing:
        return None
    return f"{flag} {settings.model!r} needs {' and '.join(missing)} in the environment, and it is not set"
