"""The viewer's web app: a JSON API over the runs of a :class:`RunLibrary`, and the static pages calling it (no CDN).

It answers only the names it is reached by: loopback's, and those the operator allows (``taumesh view
--allowed-host``); pages of other sites are refused (:mod:`taumesh.rpc.http_guard`), so that a page the machine's
browser shows cannot read runs through DNS rebinding. ``/healthz`` answers any name: it reads nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from taumesh.rpc.http_guard import HostGuard, HostPolicy
from taumesh.stats import SUCCESS_TOLERANCE
from taumesh.telemetry import jaeger_url
from taumesh.viewer.labels import label_matches
from taumesh.viewer.library import LoadedRun, RunLibrary, UnreadableFile
from taumesh.viewer.metrics import (
    Comparison,
    Divergence,
    RunSummary,
    TaskFilter,
    TaskRow,
    compare,
    first_divergence,
    matches,
    run_validity,
)
from taumesh.viewer.runs import Episode, Run

STATIC = Path(__file__).parent / "static"
MAX_PAGE = 500
"""The most task rows one page holds: a 2,285-task telecom run is never sent whole."""
HEALTH_PATH = "/healthz"
"""Answers 200 while the app serves: the probe of the container and of Kubernetes."""


class RunDetail(BaseModel):
    """A run page's data: its numbers, its configuration, its fault analysis."""

    summary: RunSummary
    path: str
    format: str
    config: dict[str, Any]
    faults: dict[str, Any] | None


class TaskPage(BaseModel):
    """One page of a run's task grid."""

    total: int
    offset: int
    limit: int
    trials: list[int]
    rows: list[TaskRow]
    labels: dict[str, list[str]] = Field(default_factory=dict)
    """Every label of the run's tasks and its values, to filter by (``label=name=value``)."""
    success_tolerance: float
    """The success test's tolerance (:data:`taumesh.stats.SUCCESS_TOLERANCE`): the page marks a reward within it of 1
    as passed, so its colours follow the test the filters and pass^k use, from the server that applies it."""


class EpisodeDetail(BaseModel):
    """A trajectory page's data."""

    run_id: str
    run_name: str
    episode: Episode
    divergence: Divergence
    jaeger_url: str | None


class Health(BaseModel):
    """What ``/healthz`` answers while the app serves (it reads no file: a probe stays cheap)."""

    status: Literal["ok"] = "ok"


def create_app(runs: RunLibrary | Sequence[Run], policy: HostPolicy | None = None) -> FastAPI:
    """The viewer over a :class:`RunLibrary` (kept current as files come, change and go).

    It answers the host names and pages ``policy`` allows (default: loopback's). Runs loaded already are served from
    a library over their files: changes and removals show, new files do not.
    """
    library = runs if isinstance(runs, RunLibrary) else RunLibrary([Path(run.path) for run in runs])
    library.refresh()
    app = FastAPI(title="taumesh viewer", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")

    def loaded(run_id: str) -> LoadedRun:
        found = library.get(run_id)
        if found is None:
            raise HTTPException(404, f"no run {run_id}")
        return found

    @app.get(HEALTH_PATH)
    def health() -> Health:
        return Health()

    @app.get("/api/runs")
    def list_runs() -> list[RunSummary]:
        library.refresh()
        return [found.summary for found in library.runs()]

    @app.get("/api/unreadable")
    def unreadable() -> list[UnreadableFile]:
        """The results files that do not read (half-written, or not results), each with the reason."""
        library.refresh()
        return library.unreadable()

    @app.get("/api/runs/{run_id}")
    def run_detail(run_id: str) -> RunDetail:
        found = loaded(run_id)
        run = found.run
        summary = found.summary.model_copy(update={"validity": run_validity(run)})  # an audit stored since
        return RunDetail(summary=summary, path=run.path, format=run.format, config=run.config, faults=run.faults)

    @app.get("/api/runs/{run_id}/tasks")
    def tasks(
        run_id: str,
        filter: TaskFilter = "all",
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
        label: Annotated[str, Query(description="Only tasks with this label: name=value (intent=refill).")] = "",
    ) -> TaskPage:
        found = loaded(run_id)
        rows = [row for row in found.rows if matches(row, filter) and label_matches(row.labels, label)]
        trials = sorted({e.trial for e in found.run.episodes})
        values: dict[str, set[str]] = {}
        for row in found.rows:
            for name, value in row.labels.items():
                values.setdefault(name, set()).add(value)
        page = rows[offset : offset + limit]
        labels = {name: sorted(found) for name, found in values.items()}
        return TaskPage(
            total=len(rows),
            offset=offset,
            limit=limit,
            trials=trials,
            rows=page,
            labels=labels,
            success_tolerance=SUCCESS_TOLERANCE,
        )

    @app.get("/api/runs/{run_id}/episodes/{task_id}/{trial}")
    def episode(run_id: str, task_id: str, trial: int) -> EpisodeDetail:
        run = loaded(run_id).run
        found = next((e for e in run.episodes if e.task_id == task_id and e.trial == trial), None)
        if found is None:
            raise HTTPException(404, f"run {run_id} has no task {task_id} trial {trial}")
        return EpisodeDetail(
            run_id=run.id,
            run_name=run.name,
            episode=found,
            divergence=first_divergence(found.messages, found.gold_actions, found.history_messages),
            jaeger_url=jaeger_url(found.trace_id) if found.trace_id else None,
        )

    @app.get("/api/compare")
    def comparison(runs: Annotated[str, Query(description="Run ids, comma-separated (2 to 5).")]) -> Comparison:
        chosen = [loaded(run_id).run for run_id in runs.split(",") if run_id]
        try:
            return compare(chosen)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from exc

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(HostGuard, policy=policy or HostPolicy(), exempt={HEALTH_PATH})
    return app
