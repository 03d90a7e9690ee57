"""Results viewer and report: ``taumesh view`` (a local web app) and ``taumesh report`` (tables and plots).

An application-level package, beside ``taumesh.commands``: it reads results files (taumesh's, τ-bench's own and τ²'s
documents) and computes what both tools show in one place (:mod:`taumesh.viewer.metrics`).
"""

from taumesh.viewer.library import RunLibrary, UnreadableFile
from taumesh.viewer.metrics import RunSummary, first_divergence, summarize
from taumesh.viewer.runs import Episode, Run, load_run, load_runs

__all__ = [
    "Episode",
    "Run",
    "RunLibrary",
    "RunSummary",
    "UnreadableFile",
    "first_divergence",
    "load_run",
    "load_runs",
    "summarize",
]
