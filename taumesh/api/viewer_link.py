"""A run's results file for ``taumesh view``, and the link to the run's page there.

The viewer names a run by a hash of its file's absolute path (:func:`taumesh.viewer.runs.run_id`), so the link is
right when the viewer is given ``results_dir`` (or a folder holding it) at the path this server writes to.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from taumesh.api.settings import ApiSettings
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.results_file import ResultsFile
from taumesh.viewer.runs import run_id as viewer_run_id


def results_path(settings: ApiSettings, run_id: str) -> Path | None:
    """Where the run's results file goes; None when the server writes none."""
    if settings.results_dir is None:
        return None
    return settings.results_dir / f"{run_id}.json"


def write_results(settings: ApiSettings, run_id: str, results: Iterable[RunResult]) -> Path | None:
    """Write a completed run's results as ``taumesh run`` does (errors beside them); None when not configured."""
    path = results_path(settings, run_id)
    if path is None:
        return None
    ResultsFile(path, existing=list(results)).flush()
    return path


def viewer_url(settings: ApiSettings, run_id: str) -> str | None:
    """The run's page in the viewer, once its results file exists; None without a viewer."""
    path = results_path(settings, run_id)
    if not settings.viewer_url or path is None or not path.is_file():
        return None
    return f"{settings.viewer_url.rstrip('/')}/#/run/{viewer_run_id(path)}"
