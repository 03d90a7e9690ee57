"""Model failures as gRPC statuses, for the servicers whose strategies call models."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from taumesh.llm.errors import ContextWindowExceeded, ModelRequestError, ModelUnavailable, is_missing_credentials
from taumesh.rpc.errors import FailedPrecondition, OutOfRange, Unavailable


@contextmanager
def model_errors_as_status() -> Iterator[None]:
    """Turn model errors into statuses, the cause in the details.

    An exhausted model is UNAVAILABLE (the orchestrator retries, then records an infrastructure error); a
    conversation too long for the model is OUT_OF_RANGE (the agent cannot go on: the episode ends, scored); any
    other request the provider refuses is FAILED_PRECONDITION (reason ``MODEL_CREDENTIALS_MISSING`` when the
    service has no API key for the provider, else ``MODEL_REQUEST_REFUSED``): not retried.
    """
    try:
        yield
    except ContextWindowExceeded as exc:
        raise OutOfRange(f"the conversation exceeds the model's context window: {exc.cause}") from exc
    except ModelUnavailable as exc:
        raise Unavailable(f"model unavailable after {exc.attempts} attempt(s): {exc.cause}") from exc
    except ModelRequestError as exc:
        if is_missing_credentials(exc):
            raise FailedPrecondition(
                f"the model's credentials are not set where this service runs: {exc.cause}",
                reason="MODEL_CREDENTIALS_MISSING",
            ) from exc
        raise FailedPrecondition(f"model refused the request: {exc.cause}", reason="MODEL_REQUEST_REFUSED") from exc
