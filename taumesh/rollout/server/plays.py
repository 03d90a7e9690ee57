"""A rollout request checked as the REST API checks a run, then played by :func:`taumesh.rollout.stream_rollouts`.

The request names what to play; everything else is the operator's (:class:`RolloutOperator`): the data folder, the
services' addresses, the model endpoints, which models may be named and how many episodes may be in flight.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from taumesh.api.errors import ApiError
from taumesh.api.runs import preflight
from taumesh.api.schemas import RolloutsRequest
from taumesh.api.settings import ApiSettings
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.rollout.episodes import RolloutEpisode
from taumesh.rollout.runs import stream_rollouts

DEFAULT_MAX_CONCURRENCY = 16


class RolloutRefused(ValueError):
    """A request refused before any episode played: ``not_found`` (env, split) or ``invalid`` (anything else)."""

    def __init__(self, kind: Literal["not_found", "invalid"], message: str, field: str = "body") -> None:
        super().__init__(message)
        self.kind: Literal["not_found", "invalid"] = kind
        self.message = message
        self.field = field
        """The request's field at fault (``body``: the request as a whole)."""


class RolloutOperator(BaseModel):
    """What the server decides for every request: never a request's to choose."""

    data_dir: Path
    """τ-bench's and τ²'s data for the services (the domains built into taumesh ship theirs)."""
    addresses: ServiceAddresses = Field(default_factory=ServiceAddresses)
    """The four services; None: started in this process on loopback."""
    api_base: str = ""
    """Endpoint of the agent's model (a trainer's vLLM or SGLang server); empty: the provider's own."""
    user_api_base: str = ""
    """Endpoint of the simulated user's model; empty: the provider's own."""
    allowed_models: list[str] = Field(default_factory=list)
    """Models a request may name (agent's and user's, as given); empty: any model the REST API allows."""
    max_concurrency: int = Field(default=DEFAULT_MAX_CONCURRENCY, ge=1)
    """Upper bound of a request's ``max_concurrency``."""
    log_dir: Path | None = None
    """Where each call's results file is kept (τ-bench's list, as ``taumesh run`` writes it); None: not kept."""

    def api_settings(self) -> ApiSettings:
        """The REST API's settings these stand for in its checks (:func:`taumesh.api.runs.preflight`).

        Built without reading ``TAUMESH_API_*``: this server's configuration is its own.
        """
        return ApiSettings.model_construct(
            data_dir=self.data_dir,
            allowed_api_bases=[base for base in (self.api_base, self.user_api_base) if base],
            allowed_agent_addresses=[],
            max_run_concurrency=self.max_concurrency,
            env_addr=self.addresses.env,
            user_addr=self.addresses.user,
            agent_addr=self.addresses.agent,
            scorer_addr=self.addresses.scorer,
        )


def _refused(error: ApiError) -> RolloutRefused:
    return RolloutRefused("not_found" if error.status == 404 else "invalid", error.message)


async def check_rollouts(
    body: RolloutsRequest, operator: RolloutOperator, clients: ServiceClients, settings: ApiSettings | None = None
) -> None:
    """Refuse (:class:`RolloutRefused`) what the REST API refuses in a run request, and models not allowed.

    The env's split and tasks are asked of ``clients``' env; nothing is played. ``settings``: the REST API's own
    (its worker's); None: the operator's as such.
    """
    for field, model in (("model", body.model), ("user_model", body.user_model)):
        if operator.allowed_models and model not in operator.allowed_models:
            raise RolloutRefused("invalid", f"{field} {model!r} is not one this server allows", field)
    try:
        await preflight(
            clients,
            body.as_run_request(operator.api_base, operator.user_api_base),
            settings or operator.api_settings(),
        )
    except ApiError as exc:
        raise _refused(exc) from exc


def play_rollouts(body: RolloutsRequest, operator: RolloutOperator, buffer: int = 2) -> AsyncGenerator[RolloutEpisode]:
    """The group's episodes as they end (:func:`~taumesh.rollout.stream_rollouts`), on the operator's services.

    ``buffer``: ended episodes waiting for the reader; beyond it the run waits (back-pressure). Close the stream to
    cancel the run.
    """
    return stream_rollouts(
        env=body.env,
        task_ids=body.task_ids,
        trials=body.trials,
        agent_strategy=body.agent_strategy,
        user_strategy=body.user_strategy,
        data_dir=operator.data_dir,
        seed=body.seed,
        task_split=body.task_split,
        model=body.model,
        max_concurrency=body.max_concurrency,
        buffer=buffer,
        model_provider=body.model_provider,
        user_model=body.user_model,
        user_model_provider=body.user_model_provider,
        api_base=operator.api_base,
        user_api_base=operator.user_api_base,
        env_addr=operator.addresses.env,
        user_addr=operator.addresses.user,
        agent_addr=operator.addresses.agent,
        scorer_addr=operator.addresses.scorer,
        embedded_processes=operator.addresses.processes,
        log_dir=operator.log_dir,
    )
