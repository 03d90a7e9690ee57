"""The REST fork's one-call helpers: ``quick_validate`` and ``validate_with_comparison`` (a side-by-side table)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import httpx
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from taumesh.client.errors import ApiError, InvalidRequestError, NotFoundError, TaumeshError
from taumesh.client.models import QuickValidateOptions, Run, RunScope, ValidateTasksResponse
from taumesh.client.sync_client import TaumeshClient


class ModelSpec(BaseModel):
    """One contestant of a comparison: an agent model (and its strategy; the server's default when None)."""

    model: str
    model_provider: str = "openai"
    agent_strategy: str | None = None

    @classmethod
    def parse(cls, spec: str | Mapping[str, str] | ModelSpec) -> ModelSpec:
        """``"provider/model"``, ``"model"``, the fork's ``{"provider", "model"}`` or a :class:`ModelSpec`."""
        if isinstance(spec, ModelSpec):
            return spec
        if isinstance(spec, str):
            provider, _, model = spec.rpartition("/")
            return cls(model=model, model_provider=provider or "openai")
        fields = dict(spec)
        if "provider" in fields:
            fields["model_provider"] = fields.pop("provider")
        return cls.model_validate(fields)

    @property
    def label(self) -> str:
        """How the table names it."""
        name = f"{self.model_provider}/{self.model}"
        return f"{name} ({self.agent_strategy})" if self.agent_strategy else name


class ComparisonRow(BaseModel):
    """One model's line of the comparison."""

    model: str
    run_id: str | None
    status: str
    success_rate: float | None = None
    average_reward: float | None = None
    pass_hat_k: dict[str, float] = {}
    total_tasks: int = 0
    successful_tasks: int = 0
    cost_usd: float = 0.0
    execution_time_seconds: float | None = None
    error: str | None = None

    @classmethod
    def of_run(cls, label: str, run: Run) -> ComparisonRow:
        """The line of a finished run."""
        seconds = (run.finished_at - run.started_at).total_seconds() if run.finished_at and run.started_at else None
        metrics = run.metrics
        return cls(
            model=label,
            run_id=run.id,
            status=run.status,
            success_rate=metrics.success_rate if metrics else None,
            average_reward=metrics.average_reward if metrics else None,
            pass_hat_k=metrics.pass_hat_k if metrics else {},
            total_tasks=metrics.total_tasks if metrics else 0,
            successful_tasks=metrics.successful_tasks if metrics else 0,
            cost_usd=metrics.cost_usd if metrics else 0.0,
            execution_time_seconds=seconds,
            error=run.error,
        )


class ModelComparison(BaseModel):
    """Several models on the same tasks, side by side: print it, or take :meth:`to_dict`."""

    env: str
    num_trials: int
    rows: list[ComparisonRow]

    def columns(self) -> list[str]:
        """Column names, pass^k for every k up to ``num_trials``."""
        ks = [f"pass^{k}" for k in range(1, self.num_trials + 1)]
        return ["model", "status", "success_rate", "average_reward", *ks, "tasks", "cost_usd", "seconds", "run_id"]

    def to_dict(self) -> dict[str, list[Any]]:
        """Column name → one value per model (what ``pandas.DataFrame(...)`` takes, without needing pandas)."""
        table: dict[str, list[Any]] = {name: [] for name in [*self.columns(), "error"]}
        for row in self.rows:
            values: dict[str, Any] = {
                "model": row.model,
                "status": row.status,
                "success_rate": row.success_rate,
                "average_reward": row.average_reward,
                "tasks": row.total_tasks,
                "cost_usd": row.cost_usd,
                "seconds": row.execution_time_seconds,
                "run_id": row.run_id,
                "error": row.error,
            }
            for k in range(1, self.num_trials + 1):
                values[f"pass^{k}"] = row.pass_hat_k.get(str(k))
            for name, column in table.items():
                column.append(values[name])
        return table

    def to_table(self) -> Table:
        """A rich table (``rich.print(comparison)`` shows it)."""
        table = Table(title=f"{self.env}, {self.num_trials} trial(s) per task")
        for name in self.columns():
            table.add_column(name, justify="left" if name in ("model", "status", "run_id") else "right")
        for values in zip(*(self.to_dict()[name] for name in self.columns()), strict=True):
            table.add_row(*(_cell(v) for v in values))
        return table

    def __rich__(self) -> Table:
        return self.to_table()

    def __str__(self) -> str:
        """The table as plain text."""
        buffer = io.StringIO()
        Console(file=buffer, width=160, color_system=None, legacy_windows=False).print(self.to_table())
        return buffer.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def quick_validate(
    model_provider: str = "openai",
    model: str = "gpt-4o",
    env: str = "retail",
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    **options: Unpack[QuickValidateOptions],
) -> ValidateTasksResponse:
    """Run one benchmark synchronously and return its results (the REST fork's ``quick_validate``)."""
    with TaumeshClient(base_url, api_key) as client:
        return client.validate_tasks(model_provider=model_provider, model=model, env=env, **options)


def validate_with_comparison(
    models: Sequence[str | Mapping[str, str] | ModelSpec],
    env: str = "retail",
    num_trials: int = 1,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    client: TaumeshClient | None = None,
    **options: Unpack[RunScope],
) -> ModelComparison:
    """Run the same tasks with each model, side by side.

    Every model's request is checked by the server before any runs (``runs.check``): when one is refused, the
    :class:`ComparisonRefused` raised names each refused model and why, and nothing has run. The runs are then
    queued together, so the server plays them concurrently; a run that cannot be followed to its end (the server
    went away, say) gets an ``error`` line, and the finished models' lines are kept.
    """
    specs = [ModelSpec.parse(spec) for spec in models]
    owned = client is None
    api = client if client is not None else TaumeshClient(base_url, api_key)
    try:
        requests = [{**spec.model_dump(exclude_none=True), "env": env, "num_trials": num_trials} for spec in specs]
        refused: list[tuple[ModelSpec, ApiError]] = []
        for spec, fields in zip(specs, requests, strict=True):
            try:
                api.runs.check(**fields, **options)
            except (InvalidRequestError, NotFoundError) as exc:
                refused.append((spec, exc))
        if refused:
            raise ComparisonRefused(refused)
        queued = [
            (spec, api.runs.create(**fields, **options).run_id) for spec, fields in zip(specs, requests, strict=True)
        ]
        rows = [_finished_row(api, spec, run_id) for spec, run_id in queued]
    finally:
        if owned:
            api.close()
    return ModelComparison(env=env, num_trials=num_trials, rows=rows)


def _finished_row(api: TaumeshClient, spec: ModelSpec, run_id: str) -> ComparisonRow:
    """The model's line once its run ended; an ``error`` line when the run could not be followed to its end."""
    try:
        return ComparisonRow.of_run(spec.label, api.wait_for_run(run_id))
    except (TaumeshError, httpx.HTTPError) as exc:
        return ComparisonRow(model=spec.label, run_id=run_id, status="error", error=str(exc))


class ComparisonRefused(InvalidRequestError):
    """The server refused one or more of a comparison's models before any ran: each is named with its reason."""

    def __init__(self, refused: Sequence[tuple[ModelSpec, ApiError]]) -> None:
        first = refused[0][1]
        reasons = "; ".join(f"{spec.label}: {error.explain()}" for spec, error in refused)
        super().__init__(first.status_code, first.error_type, f"refused before any model ran: {reasons}", first.details)
        self.refused = {spec.label: error for spec, error in refused}
