"""Typed failures of model calls: transient (retried, then ``ModelUnavailable``) or refused (not retried)."""

from __future__ import annotations

import re

_MISSING_CREDENTIALS = re.compile(r"missing credentials|api_key client option must be set|missing \w+ api key", re.I)
"""How provider clients say they found no API key (litellm reports OpenAI's as a 500: it is no server fault)."""


def is_missing_credentials(exc: BaseException) -> bool:
    """True when the provider's client found no credentials: a refusal that no retry cures."""
    return bool(_MISSING_CREDENTIALS.search(str(exc)))


class ModelError(Exception):
    """Base of the errors :func:`taumesh.llm.complete` raises."""

    def __init__(self, cause: str, attempts: int = 1) -> None:
        super().__init__(cause)
        self.cause = cause
        """What went wrong, for the results file and logs (never contains an API key)."""
        self.attempts = attempts
        """How many HTTP calls were made before giving up."""


class ModelUnavailable(ModelError):
    """The model could not answer after every retry (rate limits, 5xx, timeouts, connection errors, empty replies).

    An infrastructure fault: services report it as UNAVAILABLE, and the orchestrator records the episode as an
    error, never as a failure of the agent.
    """


class ModelRateLimited(ModelUnavailable):
    """The provider answered 429: at once when the caller retries rate limits, or on every attempt.

    See :data:`taumesh.llm.retry.RATE_LIMITS_METADATA`.
    """

    def __init__(self, cause: str, attempts: int = 1, retry_after: float | None = None) -> None:
        super().__init__(cause, attempts)
        self.retry_after = retry_after
        """Seconds the provider asked to wait (its Retry-After), when it said."""


class ModelRequestError(ModelError):
    """The provider refused the request itself (bad credentials, unknown model, malformed request): not retried."""


class ContextWindowExceeded(ModelRequestError):
    """The conversation no longer fits the model's context window: the agent cannot go on (its failure, scored)."""


class EmptyReply(Exception):
    """The model answered with neither text nor tool calls (retried like a transient fault)."""
