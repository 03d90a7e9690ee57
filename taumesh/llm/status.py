"""Model failures as gRPC statuses, for the servicers whose strategies call models."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from taumesh.llm.errors import (
    ContextWindowExceeded,
    MalformedOutput,
    ModelRateLimited,
    ModelRequestError,
    ModelUnavailable,
    is_missing_credentials,
)
from taumesh.llm.retry import rate_limits_to_caller
from taumesh.rpc.errors import Context, FailedPrecondition, OutOfRange, Unavailable

RATE_LIMITED_REASON = "MODEL_RATE_LIMITED"
"""The ``ErrorInfo.reason`` of an UNAVAILABLE whose cause is the provider's 429 (its Retry-After in RetryInfo)."""


@contextmanager
def model_errors_as_status(context: Context | None = None, *, malformed_is_callers: bool = False) -> Iterator[None]:
    """Turn model errors into statuses, the cause in the details.

    Given the call's ``context``, a caller that asked for rate limits back (``RATE_LIMITS_METADATA``) gets a 429
    at once, as UNAVAILABLE with reason :data:`RATE_LIMITED_REASON` and the provider's Retry-After.

    An exhausted model is UNAVAILABLE (the orchestrator retries, then records an infrastructure error); a
    conversation too long for the model is OUT_OF_RANGE (the agent cannot go on: the episode ends, scored); any
    other request the provider refuses is FAILED_PRECONDITION (reason ``MODEL_CREDENTIALS_MISSING`` when the
    service has no API key for the provider, else ``MODEL_REQUEST_REFUSED``): not retried.

    Output the server could not parse (:class:`MalformedOutput`) is UNAVAILABLE too, unless
    ``malformed_is_callers`` (the agent's service): then it is the agent's malformed call, OUT_OF_RANGE with reason
    ``MALFORMED_TOOL_CALL``, and the episode ends scored.
    """
    try:
        with rate_limits_to_caller(context.invocation_metadata() if context is not None else None):
            yield
    except MalformedOutput as exc:
        if not malformed_is_callers:
            raise Unavailable(f"model output unreadable after {exc.attempts} attempt(s): {exc.cause}") from exc
        raise OutOfRange(
            f"malformed tool call: the model's output could not be parsed as a reply or a tool call after "
            f"{exc.attempts} attempt(s): {exc.cause}",
            reason="MALFORMED_TOOL_CALL",
        ) from exc
    except ContextWindowExceeded as exc:
        raise OutOfRange(f"the conversation exceeds the model's context window: {exc.cause}") from exc
    except ModelRateLimited as exc:
        raise Unavailable(
            f"model unavailable after {exc.attempts} attempt(s): {exc.cause}",
            reason=RATE_LIMITED_REASON,
            retry_after=exc.retry_after,
        ) from exc
    except ModelUnavailable as exc:
        raise Unavailable(f"model unavailable after {exc.attempts} attempt(s): {exc.cause}") from exc
    except ModelRequestError as exc:
        if is_missing_credentials(exc):
            raise FailedPrecondition(
                f"the model's credentials are not set where this service runs: {exc.cause}",
                reason="MODEL_CREDENTIALS_MISSING",
            ) from exc
        raise FailedPrecondition(f"model refused the request: {exc.cause}", reason="MODEL_REQUEST_REFUSED") from exc
