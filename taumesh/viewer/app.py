"""The viewer's web app: a small JSON API over the loaded runs, and the static pages that call it (no CDN)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from taumesh.telemetry import jaeger_url
from taumesh.viewer.metrics import (
    Comparison,
    Divergence,
    RunSummary,
    TaskFilter,
    TaskRow,
    compare,
    first_divergence,
    matches,
    summarize,
    task_rows,
)
from taumesh.viewer.runs import Episode, Run

STATIC = Path(__file__).parent / "static"
MAX_PAGE = 500
"""The most task rows one page holds: a 2,285-task telecom run is never sent whole."""


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


class EpisodeDetail(BaseModel):
    """A trajectory page's data."""

    run_id: str
    run_name: str
    episode: Episode
    divergence: Divergence
    jaeger_url: str | None


class Viewer:
    """The loaded runs, and what is computed from them (each once)."""

    def __init__(self, runs: list[Run]) -> None:
        self.runs = {run.id: run for run in runs}
        self.summary = cache(self._summary)
        self.rows = cache(self._rows)

    def run(self, run_id: str) -> Run:
        try:
            return self.runs[run_id]
        except KeyError:
            raise HTTPException(404, f"no run {run_id}") from None

    def _summary(self, run_id: str) -> RunSummary:
        return summarize(self.run(run_id))

    def _rows(self, run_id: str) -> list[TaskRow]:
        return task_rows(self.run(run_id))


def create_app(runs: list[Run]) -> FastAPI:
    """The viewer over ``runs``."""
    viewer = Viewer(runs)
    app = FastAPI(title="taumesh viewer", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")

    @app.get("/api/runs")
    def list_runs() -> list[RunSummary]:
        return [viewer.summary(run_id) for run_id in viewer.runs]

    @app.get("/api/runs/{run_id}")
    def run_detail(run_id: str) -> RunDetail:
        run = viewer.run(run_id)
        return RunDetail(
            summary=viewer.summary(run_id), path=run.path, format=run.format, config=run.config, faults=run.faults
        )

    @app.get("/api/runs/{run_id}/tasks")
    def tasks(
        run_id: str,
        filter: TaskFilter = "all",
        offset: Annotated[int, Query(ge=0)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> TaskPage:
        rows = [row for row in viewer.rows(run_id) if matches(row, filter)]
        trials = sorted({e.trial for e in viewer.run(run_id).episodes})
        return TaskPage(total=len(rows), offset=offset, limit=limit, trials=trials, rows=rows[offset : offset + limit])

    @app.get("/api/runs/{run_id}/episodes/{task_id}/{trial}")
    def episode(run_id: str, task_id: str, trial: int) -> EpisodeDetail:
        run = viewer.run(run_id)
        found = next((e for e in run.episodes if e.task_id == task_id and e.trial == trial), None)
        if found is None:
            raise HTTPException(404, f"run {run_id} has no task {task_id} trial {trial}")
        return EpisodeDetail(
            run_id=run.id,
            run_name=run.name,
            episode=found,
            divergence=first_divergence(found.messages, found.gold_actions),
            jaeger_url=jaeger_url(found.trace_id) if found.trace_id else None,
        )

    @app.get("/api/compare")
    def comparison(runs: Annotated[str, Query(description="Run ids, comma-separated (2 to 5).")]) -> Comparison:
        chosen = [viewer.run(run_id) for run_id in runs.split(",") if run_id]
        try:
            return compare(chosen)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from exc

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
