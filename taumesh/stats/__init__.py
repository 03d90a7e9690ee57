"""Statistics of runs: the success test, pass^k, intervals on pass^k and rewards, paired comparisons, planning.

See docs/statistics.md.

A library module: it takes scored trials (:class:`TrialOutcome`) and knows nothing of files, services or commands.
"""

from taumesh.stats.compat import RunIdentity, differences, simulator_note
from taumesh.stats.intervals import Interval, average_reward_interval, pass_hat_k_intervals
from taumesh.stats.paired import DrivingTask, PairedComparison, compare_paired
from taumesh.stats.passk import MAX_OUTCOMES, PassHatK, pass_hat_k
from taumesh.stats.plan import Plan, plan_from_pilot, plan_from_rate
from taumesh.stats.summary import RunStatistics, run_statistics
from taumesh.stats.trials import SUCCESS_TOLERANCE, TaskRecord, TrialOutcome, TrialTable, is_success

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
