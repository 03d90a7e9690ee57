"""Validity beside a score: what the stored audit says of the tasks a run played (docs/validity.md).

Next to the raw score: the score over certified tasks, the null floor of the tasks run, how many of them are flagged,
and the evidence bounds (flagged tasks counted as failed, and as passed). Scores are averages over scored episodes,
as the raw average reward is; the floor and the flag count are over distinct tasks.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from taumesh.audit._store import UNRECORDED_RELEASE, StoredAudit, audit_command


class Validity(BaseModel):
    """How far to trust a run's score, by its domain's stored audit."""

    audit_version: str
    data_release: str | None
    tasks_run: int = Field(description="Distinct tasks with a scored episode.")
    flagged_tasks: int = Field(description="Of the tasks run, those the audit flags.")
    null_floor_tasks: int = Field(description="Of the tasks run, those the null floor (one refusal) passes.")
    certified_score: float | None = Field(description="Average reward over the episodes of unflagged tasks.")
    certified_episodes: int
    lower_bound: float = Field(description="Average reward with every flagged task's episodes counted as failed.")
    upper_bound: float = Field(description="Average reward with every flagged task's episodes counted as passed.")

    @property
    def null_floor(self) -> float:
        """The share of the tasks run that the null floor passes."""
        return self.null_floor_tasks / self.tasks_run if self.tasks_run else 0.0

    def line(self) -> str:
        """One line for a console or a report."""
        certified = (
            f"{self.certified_score:.4f} over {self.certified_episodes} episodes of unflagged tasks"
            if self.certified_score is not None
            else "n/a (every task run is flagged)"
        )
        return (
            f"validity (audit v{self.audit_version}): certified score {certified}; "
            f"null floor {self.null_floor:.1%} ({self.null_floor_tasks}/{self.tasks_run} tasks); "
            f"flagged {self.flagged_tasks}/{self.tasks_run} tasks; "
            f"bounds {self.lower_bound:.4f} (flagged as failed) to {self.upper_bound:.4f} (as passed)"
        )


def validity(stored: StoredAudit, outcomes: Iterable[tuple[str, float]]) -> Validity:
    """The validity of scored episodes ``(task id as text, reward)`` by ``stored``."""
    flagged, null_passed = stored.flagged(), stored.null_floor()
    episodes = list(outcomes)
    tasks = {task_id for task_id, _ in episodes}
    certified = [reward for task_id, reward in episodes if task_id not in flagged]
    doubtful = sum(1 for task_id, _ in episodes if task_id in flagged)
    count = len(episodes)
    return Validity(
        audit_version=stored.report.audit_version,
        data_release=stored.report.data_release,
        tasks_run=len(tasks),
        flagged_tasks=len(tasks & flagged),
        null_floor_tasks=len(tasks & null_passed),
        certified_score=sum(certified) / len(certified) if certified else None,
        certified_episodes=len(certified),
        lower_bound=sum(certified) / count if count else 0.0,
        upper_bound=(sum(certified) + doubtful) / count if count else 0.0,
    )


def missing_line(domain: str, split: str, release: str | None, version: str) -> str:
    """The one line said where no stored audit exists: what is missing and how to make it."""
    where = f"{domain} {split} (data release {release or UNRECORDED_RELEASE}, audit version {version})"
    return f"validity: no stored audit of {where}; `{audit_command(domain, split)}` makes one"
