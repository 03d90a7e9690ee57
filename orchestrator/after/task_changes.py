"""What changed in a task between the results file that graded it and the data now imported (``rescore --fresh-tasks``).

A results file records each task as it was graded: taumesh's and τ-bench's ``info.task`` (gold ``actions``,
``outputs``) and ``info.reward_basis``; τ²'s ``Results`` its ``tasks`` (``evaluation_criteria``). The current task is
what the scorer reports with the new reward: its gold actions, required outputs and reward basis.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from taumesh.convert import gold_action_from_proto
from taumesh.models import GoldAction
from taumesh.scorer.v1 import scorer_pb2


class GradedTask(BaseModel):
    """A task as far as grading goes: gold actions, the outputs to say, and what the reward multiplies."""

    actions: list[GoldAction] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    reward_basis: list[str] | None = None
    """None: the file does not record it (τ-bench's run.py)."""

    @classmethod
    def from_score(cls, score: scorer_pb2.ScoreEpisodeResponse) -> GradedTask:
        basis = [scorer_pb2.RewardBasis.Name(kind).removeprefix("REWARD_BASIS_") for kind in score.reward_basis]
        return cls(
            actions=[gold_action_from_proto(action) for action in score.gold_actions],
            outputs=list(score.required_outputs),
            reward_basis=basis,
        )


def _tau2_task(task: dict[str, Any]) -> GradedTask:
    criteria = task.get("evaluation_criteria") or {}
    actions = [
        GoldAction(
            name=str(action.get("name")),
            kwargs=action.get("arguments") or {},
            requestor="user" if action.get("requestor") == "user" else "assistant",
        )
        for action in criteria.get("actions") or []
    ]
    outputs = [str(info) for info in criteria.get("communicate_info") or []]
    basis = criteria.get("reward_basis")
    return GradedTask(actions=actions, outputs=outputs, reward_basis=list(basis) if basis is not None else None)


def recorded_tasks(path: Path) -> dict[str, GradedTask]:
    """The tasks a results file was graded with, by task id (as text); empty when it records none."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if isinstance(raw, dict):
        return {str(task.get("id")): _tau2_task(task) for task in raw.get("tasks") or [] if isinstance(task, dict)}
    found: dict[str, GradedTask] = {}
    for entry in raw if isinstance(raw, list) else []:
        info = entry.get("info") if isinstance(entry, dict) else None
        task = info.get("task") if isinstance(info, dict) else None
        if not isinstance(task, dict) or "actions" not in task:
            continue
        basis = info.get("reward_basis") if isinstance(info, dict) else None
        found.setdefault(
            str(entry.get("task_id")),
            GradedTask(
                actions=[GoldAction.model_validate(action) for action in task.get("actions") or []],
                outputs=[str(output) for output in task.get("outputs") or []],
                reward_basis=list(basis) if isinstance(basis, list) else None,
            ),
        )
    return found


def _call(action: GoldAction) -> str:
    by = "user: " if action.requestor == "user" else ""
    return f"{by}{action.name}({json.dumps(action.kwargs, sort_keys=True)})"


def _same(one: GoldAction, other: GoldAction) -> bool:
    return (one.name, one.requestor) == (other.name, other.requestor) and json.dumps(
        one.kwargs, sort_keys=True
    ) == json.dumps(other.kwargs, sort_keys=True)


def task_changes(before: GradedTask, now: GradedTask) -> list[str]:
    """Each difference that can change a verdict: a changed, added or removed gold action, outputs, reward basis."""
    changes = []
    for number, (old, new) in enumerate(zip(before.actions, now.actions, strict=False), start=1):
        if not _same(old, new):
            changes.append(f"gold action {number} changed: {_call(old)} -> {_call(new)}")
    for number, action in enumerate(now.actions[len(before.actions) :], start=len(before.actions) + 1):
        changes.append(f"gold action {number} added: {_call(action)}")
    for number, action in enumerate(before.actions[len(now.actions) :], start=len(now.actions) + 1):
        changes.append(f"gold action {number} removed: {_call(action)}")
    if before.outputs != now.outputs:
        changes.append(f"required outputs changed: {before.outputs} -> {now.outputs}")
    if before.reward_basis is not None and sorted(before.reward_basis) != sorted(now.reward_basis or []):
        changes.append(f"reward basis changed: {before.reward_basis} -> {now.reward_basis}")
    return changes
