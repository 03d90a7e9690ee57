"""``--tasks certified``: the selected tasks the stored audit of the run's data flags nothing on (docs/validity.md)."""

from __future__ import annotations

from collections.abc import Sequence

from taumesh.audit import AUDIT_VERSION, read_audit, tasks_digest
from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.config import RunConfig


class NothingCertified(Exception):
    """The stored audit flags every task the run selected: a certified run would play nothing."""


def split_digest(tasks: Sequence[env_pb2.TaskSummary]) -> str:
    """The digest of the split's tasks as the env lists them, as ``domain audit --write`` stores it."""
    return tasks_digest((t.task_id, t.instruction, t.gold_action_count, t.output_count) for t in tasks)


def certified_indices(
    config: RunConfig, tasks: Sequence[env_pb2.TaskSummary], indices: Sequence[int], release: str
) -> list[int]:
    """The ``indices`` (into ``tasks``) of tasks the stored audit certifies, in order.

    Raises :class:`taumesh.audit.NoStoredAudit` (naming ``domain audit --write``) when no audit of this data and
    audit version is stored, :class:`NothingCertified` when it flags every selected task.
    """
    assert config.task_split is not None, "the run resolves its split before choosing tasks"
    stored = read_audit(config.env, config.task_split, release or None, split_digest(tasks), AUDIT_VERSION)
    certified = stored.unflagged()
    kept = [index for index in indices if tasks[index].task_id in certified]
    if not kept:
        raise NothingCertified(
            f"the stored audit of {config.env} {config.task_split} flags all {len(indices)} selected tasks: "
            "--tasks certified has nothing to run"
        )
    return kept
