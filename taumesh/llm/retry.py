"""When and how long to retry a model call: transient faults only, exponential backoff, Retry-After honoured.

Tuned by the environment, ``TAUMESH_LLM_`` plus a field of :class:`RetryPolicy` in capitals
(``TAUMESH_LLM_MAX_ATTEMPTS=3``), read at each call so a process can be reconfigured without a restart.
"""

from __future__ import annotations

import asyncio
import contextvars
import email.utils
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from tenacity import RetryCallState
from tenacity.wait import wait_base, wait_exponential_jitter

from taumesh.llm.errors import EmptyReply, is_missing_credentials

TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
"""HTTP statuses below 500 that a retry may cure (any 5xx may too)."""


class RetryPolicy(BaseSettings):
    """Bounds of the retries of one completion; each field unset here comes from ``TAUMESH_LLM_<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix="TAUMESH_LLM_", env_ignore_empty=True, use_attribute_docstrings=True)

    max_attempts: int = Field(default=5, ge=1)
    """HTTP attempts per completion, the first one included."""
    backoff_initial: float = Field(default=1.0, ge=0)
    """Seconds of the first backoff between attempts (and the most random jitter added to each)."""
    backoff_max: float = Field(default=30.0, ge=0)
    """Seconds the exponential backoff grows to at most."""
    max_wait: float = Field(default=60.0, ge=0)
    """No single wait is longer, whatever a Retry-After header asks."""
    timeout: float = Field(default=120.0, gt=0)
    """Deadline of one HTTP attempt, in seconds."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> RetryPolicy:
        """The policy the ``TAUMESH_LLM_*`` variables describe (defaults for those unset or empty).

        ``environ``: variables to read instead of the process's environment (nothing else is read then).
        """
        if environ is None:
            return cls()
        prefix = cls.model_config.get("env_prefix", "")
        values: dict[str, Any] = {
            name: environ.get(f"{prefix}{name}".upper()) or field.default for name, field in cls.model_fields.items()
        }
        return cls(**values)  # every field given: the process's environment cannot fill one in


def status_of(exc: BaseException) -> int | None:
    """The HTTP status behind a provider error, when it has one."""
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


_TRANSIENT_LITELLM_ERRORS = (
    "Timeout",
    "APIConnectionError",
    "RateLimitError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
)
"""litellm's exception classes for transient faults, by name."""


def _is_litellm_error(exc: BaseException, names: tuple[str, ...]) -> bool:
    """Whether ``exc`` is one of litellm's exceptions ``names``.

    litellm is not imported for it (seconds at a service's start): its exceptions exist only once it is loaded.
    """
    exceptions = sys.modules.get("litellm.exceptions")
    return exceptions is not None and isinstance(exc, tuple(getattr(exceptions, name) for name in names))


def is_transient(exc: BaseException) -> bool:
    """True for faults of the provider or the network, which a later attempt may not meet."""
    if is_missing_credentials(exc):
        return False
    if isinstance(exc, EmptyReply | TimeoutError | asyncio.TimeoutError | ConnectionError):
        return True
    if _is_litellm_error(exc, _TRANSIENT_LITELLM_ERRORS):
        return True
    status = status_of(exc)
    if status is not None:
        return status >= 500 or status in TRANSIENT_STATUS
    import httpx  # here, on a fault only: importing it costs every process that might call a model ~60 ms

    return isinstance(exc, httpx.TransportError)


RATE_LIMITS_METADATA = ("taumesh-rate-limits", "caller")
"""gRPC metadata of a call whose caller retries 429s itself: the service answers a rate limit at once."""

_CALLER_RETRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("taumesh_caller_retries_429", default=False)


@contextmanager
def rate_limits_to_caller(metadata: Iterable[tuple[str, str | bytes]] | None) -> Iterator[None]:
    """Within the block, 429s go back to the caller at once when ``metadata`` (a call's) asks for it."""
    asked = any((key, value) == RATE_LIMITS_METADATA for key, value in metadata or ())
    token = _CALLER_RETRIES.set(asked)
    try:
        yield
    finally:
        _CALLER_RETRIES.reset(token)


def caller_retries_rate_limits() -> bool:
    """Whether the call being served asked for its 429s back (:func:`rate_limits_to_caller`)."""
    return _CALLER_RETRIES.get()


def is_rate_limit(exc: BaseException) -> bool:
    """True for a provider's 429 (Too Many Requests)."""
    return _is_litellm_error(exc, ("RateLimitError",)) or status_of(exc) == 429


def retried_here(exc: BaseException) -> bool:
    """Whether :func:`taumesh.llm.complete` retries ``exc``: a transient fault, unless a 429 the caller retries."""
    return is_transient(exc) and not (_CALLER_RETRIES.get() and is_rate_limit(exc))


def _headers(exc: BaseException) -> Mapping[str, str]:
    """Response headers carried by a provider error (litellm keeps them in ``litellm_response_headers``)."""
    for candidate in (
        getattr(exc, "litellm_response_headers", None),
        getattr(exc, "headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        if candidate:
            return {str(k).lower(): str(v) for k, v in dict(candidate).items()}
    return {}


def retry_after(exc: BaseException, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, or ``Retry-After`` as seconds or an HTTP date)."""
    headers = _headers(exc)
    if "retry-after-ms" in headers:
        try:
            return max(0.0, float(headers["retry-after-ms"]) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class wait_retry_after(wait_base):
    """Exponential backoff with jitter, stretched to what Retry-After asks, capped at ``max_wait``."""

    def __init__(self, policy: RetryPolicy) -> None:
        self.backoff = wait_exponential_jitter(
            multiplier=policy.backoff_initial, max=policy.backoff_max, jitter=policy.backoff_initial
        )
        self.max_wait = policy.max_wait

    def __call__(self, retry_state: RetryCallState) -> float:
        wait = float(self.backoff(retry_state))
        outcome = retry_state.outcome
        exc = outcome.exception() if outcome is not None and outcome.failed else None
        asked = retry_after(exc) if exc is not None else None
        if asked is not None:
            wait = max(wait, asked)
        return min(wait, self.max_wait)


_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET)$")
_KEY_LIKE = re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_\-]{8,}")


def redact(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` without the values of secret-looking environment variables or key-shaped tokens."""
    env = os.environ if environ is None else environ
    for name, value in env.items():
        if len(value) >= 8 and _SECRET_NAME.search(name.upper()) and value in text:
            text = text.replace(value, "***")
    return _KEY_LIKE.sub("***", text)


def describe(exc: BaseException) -> str:
    """A one-line cause: the error's type and message, secrets redacted."""
    message = " ".join(str(exc).split()) or repr(exc)
    return redact(f"{type(exc).__name__}: {message}")[:500]
