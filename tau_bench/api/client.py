"""The τ-bench API fork's client names and signatures, on taumesh's SDK (:class:`taumesh.client.TaumeshClient`).

``TauBenchAPIClient``, ``quick_validate`` and ``validate_with_comparison`` talk to a taumesh API.

Differences a caller may meet:

* the API needs a key: ``api_key=`` or ``$TAUMESH_API_KEY`` (the fork's server had none);
* answers are taumesh's models (``ValidateTasksResponse``, ``ListTasksResponse``, ``HealthResponse``), which carry
  every field the fork documents (``task_id``, ``metrics.total_tasks``, ``total_tasks``, ``num_actions``,
  ``supported_models``) and more;
* an error answer raises :class:`taumesh.client.ApiError` (its ``status_code``, ``error_type`` and ``details``)
  where the fork raised ``requests.HTTPError``;
* ``few_shot_displays_path`` names a file on the server, which a request may not choose: the server refuses a
  value (422).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from taumesh.client import TaumeshClient
from taumesh.client.models import HealthResponse, ListTasksResponse, ValidateTasksResponse

DEFAULT_BASE_URL = "http://localhost:8000"
"""The fork's default server."""
HEALTH_TIMEOUT = 10.0
"""The fork's shorter timeout for health checks, in seconds."""

__all__ = ["DEFAULT_BASE_URL", "TauBenchAPIClient", "quick_validate", "validate_with_comparison"]


class TauBenchAPIClient:
    """The fork's client: ``health_check``, ``validate_tasks``, ``list_tasks``, ``get_service_info``."""

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        timeout: int = 300,
        max_retries: int = 3,
        api_key: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._client = TaumeshClient(
            self.base_url, api_key or os.environ.get("TAUMESH_API_KEY"), timeout=timeout, max_retries=max_retries
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def validate_tasks(
        self,
        model_provider: str,
        model: str,
        env: str,
        num_trials: int = 1,
        agent_strategy: str = "tool-calling",
        temperature: float = 0.0,
        task_split: str = "test",
        start_index: int = 0,
        end_index: int = -1,
        task_ids: list[int] | None = None,
        max_concurrency: int = 1,
        seed: int = 10,
        shuffle: bool = False,
        user_model_provider: str = "openai",
        user_model: str = "gpt-4o",
        user_strategy: str = "llm",
        few_shot_displays_path: str | None = None,
        **options: Any,
    ) -> ValidateTasksResponse:
        """Run tasks and wait for the results; ``options`` are taumesh's further fields (``api_base``, …)."""
        body: dict[str, Any] = {
            "model_provider": model_provider,
            "model": model,
            "env": env,
            "num_trials": num_trials,
            "agent_strategy": agent_strategy,
            "temperature": temperature,
            "task_split": task_split,
            "start_index": start_index,
            "end_index": end_index,
            "task_ids": task_ids,
            "max_concurrency": max_concurrency,
            "seed": seed,
            "shuffle": shuffle,
            "user_model_provider": user_model_provider,
            "user_model": user_model,
            "user_strategy": user_strategy,
            **options,
        }
        if few_shot_displays_path is not None:
            body["few_shot_displays_path"] = few_shot_displays_path
        return self._client.validate_tasks(**body)

    def list_tasks(self, env: str, task_split: str = "test") -> ListTasksResponse:
        """Every task of a split (one page as large as the API allows; ``total_tasks`` counts them all)."""
        return self._client.list_tasks(env, task_split, page=1, page_size=500)

    def health_check(self) -> HealthResponse:
        """The service's status, version, domains and ``supported_models``."""
        response = self._client.request("GET", "/health", timeout=HEALTH_TIMEOUT)
        return HealthResponse.model_validate(response.json())

    def get_service_info(self) -> dict[str, Any]:
        """The service's root document (``GET /``)."""
        info: dict[str, Any] = self._client.request("GET", "/", timeout=HEALTH_TIMEOUT).json()
        return info


def quick_validate(
    model_provider: str, model: str, env: str, base_url: str = DEFAULT_BASE_URL, **kwargs: Any
) -> ValidateTasksResponse:
    """One synchronous run with ``TauBenchAPIClient.validate_tasks``'s defaults."""
    client = TauBenchAPIClient(base_url=base_url)
    try:
        return client.validate_tasks(model_provider=model_provider, model=model, env=env, **kwargs)
    finally:
        client.close()


def validate_with_comparison(
    models: Sequence[Mapping[str, str]], env: str, base_url: str = DEFAULT_BASE_URL, **kwargs: Any
) -> list[ValidateTasksResponse]:
    """One run per ``{"provider": …, "model": …}``, one after the other, as the fork does; their responses in order.

    (``taumesh.client.validate_with_comparison`` plays them concurrently and returns a comparison table.)
    """
    client = TauBenchAPIClient(base_url=base_url)
    try:
        return [
            client.validate_tasks(model_provider=spec["provider"], model=spec["model"], env=env, **kwargs)
            for spec in models
        ]
    finally:
        client.close()
