"""Typed failures of model calls: transient (retried, then ``ModelUnavailable``) or refused (not retried)."""

from __future__ import annotations

import re

_MALFORMED_OUTPUT = re.compile(r"does not match the expected [\w-]+ format", re.I)
"""How llama.cpp's server says it could not read the model's output as the reply or tool call the template asks for
(it answers 500, the model's text only in its own log): a tool named that was never offered, a call cut short."""

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


def is_malformed_output(exc: BaseException) -> bool:
    """True when the server could not parse what the model wrote (:class:`MalformedOutput`)."""
    return bool(_MALFORMED_OUTPUT.search(str(exc)))


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


class MalformedOutput(ModelUnavailable):
    """Every attempt's output was one the server could not parse as a reply or a tool call.

    See :func:`is_malformed_output`: retried under the policy like any 5xx, since another sample may parse.

    Whose fault depends on who asked: the agent's model wrote a malformed tool call (the episode ends as the agent's
    failure, scored); a user simulator's or a judge's is an infrastructure error, never a verdict.
    """


class ModelRequestError(ModelError):
    """The provider refused the request itself (bad credentials, unknown model, malformed request): not retried."""


class ContextWindowExceeded(ModelRequestError):
    """The conversation no longer fits the model's context window: the agent cannot go on (its failure, scored)."""


class EmptyReply(Exception):
    """The model answered with neither text nor tool calls (retried like a transient fault)."""
