"""The statistics the output layouts and the REST API carry: intervals and per-task rates, and the full cost.

One record from a run's results, so that τ²'s document, the MT folder and the API's metrics say the same as the
end-of-run summary (:mod:`taumesh.orchestrator.results.figures`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from taumesh.orchestrator.results.figures import RunCost, run_cost, scored_table
from taumesh.orchestrator.results.records import RunResult
from taumesh.stats import RunStatistics, run_statistics
from taumesh.stats.intervals import DEFAULT_RESAMPLES


class LayoutStatistics(BaseModel):
    """A run's uncertainty (None when nothing is scored) and what it spent."""

    uncertainty: RunStatistics | None
    cost: RunCost


def layout_statistics(results: Sequence[RunResult], n_resamples: int = DEFAULT_RESAMPLES) -> LayoutStatistics:
    """The statistics of a run's results (errors count in the cost only)."""
    table = scored_table(results)
    return LayoutStatistics(
        uncertainty=run_statistics(table, n_resamples=n_resamples) if table is not None else None,
        cost=run_cost(results),
    )
