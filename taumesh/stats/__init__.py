"""Statistics of runs: the success test, pass^k, intervals on pass^k and rewards, paired comparisons, planning.

See docs/statistics.md.

A library package: it takes scored trials (:class:`TrialOutcome`) and knows nothing of files, services or commands.
"""

import importlib
from typing import TYPE_CHECKING

from taumesh.stats.compat import RunIdentity, differences, simulator_note
from taumesh.stats.passk import MAX_OUTCOMES, PassHatK, pass_hat_k
from taumesh.stats.success import SUCCESS_TOLERANCE, TrialOutcome, is_success

if TYPE_CHECKING:
    from taumesh.stats.intervals import Interval, average_reward_interval, pass_hat_k_intervals
    from taumesh.stats.paired import DrivingTask, PairedComparison, compare_paired
    from taumesh.stats.plan import Plan, plan_from_pilot, plan_from_rate
    from taumesh.stats.summary import RunStatistics, run_statistics
    from taumesh.stats.trials import TaskRecord, TrialTable

_NUMPY_BACKED = {
    "Interval": "intervals",
    "average_reward_interval": "intervals",
    "pass_hat_k_intervals": "intervals",
    "DrivingTask": "paired",
    "PairedComparison": "paired",
    "compare_paired": "paired",
    "Plan": "plan",
    "plan_from_pilot": "plan",
    "plan_from_rate": "plan",
    "RunStatistics": "summary",
    "run_statistics": "summary",
    "TaskRecord": "trials",
    "TrialTable": "trials",
}
"""Names whose modules import numpy (~0.1 s): imported on first use (PEP 562), so a process that only tests a
reward or computes pass^k (every service, a worker) loads none of it."""


def __getattr__(name: str) -> object:
    """A numpy-backed name of :data:`_NUMPY_BACKED`, its module imported now."""
    module = _NUMPY_BACKED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_OUTCOMES",
    "SUCCESS_TOLERANCE",
    "DrivingTask",
    "Interval",
    "PairedComparison",
    "PassHatK",
    "Plan",
    "RunIdentity",
    "RunStatistics",
    "TaskRecord",
    "TrialOutcome",
    "TrialTable",
    "average_reward_interval",
    "compare_paired",
    "differences",
    "is_success",
    "pass_hat_k",
    "pass_hat_k_intervals",
    "plan_from_pilot",
    "plan_from_rate",
    "run_statistics",
    "simulator_note",
]
