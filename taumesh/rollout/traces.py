"""The model gateway's traces joined to rollout episodes: each episode's agent calls, read from its gateway.

A run with a gateway (``gateway=URL``, :attr:`RunConfig.gateway`) records each episode's rollout id
(``info.rollout_id``, the episode's id); the gateway filed that episode's agent model calls under it. This module
reads them back (``GET /v1/rollouts/{id}/traces``, with the id signed by ``TAUMESH_GATEWAY_KEY`` as the gateway
asks) into :attr:`RolloutEpisode.traces`. Without a gateway, episodes keep no traces.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from taumesh.gateway import ROLLOUT_HEADER, ModelCallTrace, gateway_key, sign_rollout
from taumesh.orchestrator.config import RunConfig
from taumesh.rollout.episodes import RolloutEpisode

TRACES_TIMEOUT = 30.0
"""Seconds one read of a rollout's traces may take."""


class TracesUnavailable(RuntimeError):
    """The gateway did not hand over a rollout's traces."""


async def read_traces(client: httpx.AsyncClient, gateway: str, key: bytes, rollout_id: str) -> list[ModelCallTrace]:
    """The calls the gateway at ``gateway`` (its ``/v1`` base URL) recorded for ``rollout_id``, in order."""
    url = f"{gateway.rstrip('/')}/rollouts/{rollout_id}/traces"
    try:
        answer = await client.get(url, headers={ROLLOUT_HEADER: sign_rollout(key, rollout_id)})
    except httpx.HTTPError as exc:
        raise TracesUnavailable(f"the gateway at {gateway} did not answer: {type(exc).__name__}") from exc
    if answer.status_code != 200:
        raise TracesUnavailable(f"the gateway refused rollout {rollout_id}'s traces: {answer.status_code}")
    return [ModelCallTrace.model_validate(trace) for trace in answer.json()["traces"]]


async def with_traces(episodes: Sequence[RolloutEpisode], config: RunConfig) -> list[RolloutEpisode]:
    """``episodes`` with their gateway traces filled in (as they are when the run had no gateway)."""
    if not config.gateway:
        return list(episodes)
    key = gateway_key()
    assert key is not None  # required: GatewayKeyError otherwise
    joined = []
    async with httpx.AsyncClient(timeout=TRACES_TIMEOUT, trust_env=False, follow_redirects=False) as client:
        for episode in episodes:
            if episode.rollout_id:
                traces = await read_traces(client, config.gateway, key, episode.rollout_id)
                episode = episode.model_copy(update={"traces": traces})
            joined.append(episode)
    return joined


async def with_trace(episode: RolloutEpisode, config: RunConfig) -> RolloutEpisode:
    """One episode with its gateway traces filled in (for episodes streamed as they end)."""
    return (await with_traces([episode], config))[0]
