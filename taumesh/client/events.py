"""The typed events of ``GET /api/v1/runs/{id}/events`` (Server-Sent Events), one class per event name."""

from __future__ import annotations

import json
from typing import Any, Literal

from httpx_sse import ServerSentEvent
from pydantic import BaseModel

from taumesh.client.models import Metrics, RunStatus


class EpisodeDone(BaseModel):
    """An episode was stored: its reward and the run's progress so far."""

    event: Literal["episode_done"] = "episode_done"
    id: int
    task_id: str
    trial: int
    reward: float | None
    done: int
    total: int | None
    pass_rate: float | None
    cost_usd: float


class RunEnded(BaseModel):
    """The run's last event: ``run_completed`` (with metrics), ``run_failed`` (with error) or ``run_cancelled``."""

    event: Literal["run_completed", "run_failed", "run_cancelled"]
    id: int
    status: RunStatus
    metrics: Metrics | None = None
    error: str | None = None


class OtherEvent(BaseModel):
    """An event this client version does not know, passed on as it came."""

    event: str
    id: int
    data: dict[str, Any]


RunEvent = EpisodeDone | RunEnded | OtherEvent


def parse_event(sse: ServerSentEvent) -> RunEvent:
    """The typed form of one server-sent event."""
    data: dict[str, Any] = json.loads(sse.data) if sse.data else {}
    event_id = int(sse.id) if sse.id and sse.id.isdigit() else 0
    if sse.event == "episode_done":
        return EpisodeDone.model_validate({**data, "id": event_id})
    if sse.event in ("run_completed", "run_failed", "run_cancelled"):
        return RunEnded.model_validate({**data, "event": sse.event, "id": event_id})
    return OtherEvent(event=sse.event, id=event_id, data=data)
