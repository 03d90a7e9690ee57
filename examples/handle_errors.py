"""Every API error is a typed exception carrying ``error_type``, ``message``, ``details`` and ``retry_after``.

    TAUMESH_API_URL=http://127.0.0.1:8000 TAUMESH_API_KEY=tmk_… python examples/handle_errors.py

A 429 is retried after the server's ``Retry-After`` (``max_retries`` times, waits up to ``max_retry_wait``); with
``max_retries=0`` it is raised as :class:`RateLimitError` instead.
"""

from taumesh.client import (
    ApiError,
    AuthenticationError,
    InvalidRequestError,
    NotFoundError,
    RateLimitError,
    TaumeshClient,
)


def main() -> None:
    """Provoke a 401, a 404 and a 422 and show what each exception carries."""
    with TaumeshClient(api_key="tmk_000000000000.not-a-key") as stranger:
        try:
            stranger.runs.list()
        except AuthenticationError as exc:
            print(f"{exc.status_code} {exc.error_type}: {exc.message}")
    with TaumeshClient(max_retries=5, max_retry_wait=30) as client:
        try:
            client.runs.get("no-such-run")
        except NotFoundError as exc:
            print(f"{exc.status_code} {exc.error_type}: {exc.details}")
        try:
            client.validate_tasks(env="retail", num_trials=11)
        except InvalidRequestError as exc:
            print(f"{exc.status_code} {exc.error_type}: {exc.explain()}")
        try:
            print(f"{client.runs.list().total} runs listed (a 429 on the way would have been waited out)")
        except RateLimitError as exc:  # only once the retries are spent
            print(f"rate limited: retry after {exc.retry_after} s")
        except ApiError as exc:
            print(f"{exc.error_type}: {exc.message} (request {exc.request_id})")


if __name__ == "__main__":
    main()
