"""Results files: τ-bench v1's JSON list of ``{task_id, reward, info, traj, trial}``, written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from orchestrator.episode import EpisodeOutcome


class EpisodeError(BaseModel):
    """An episode the infrastructure could not finish: never scored, always reported."""

    kind: str = "infrastructure"
    cause: str
    attempts: int


class RunResult(BaseModel):
    """One entry of a τ-bench results file.

    ``reward`` is None for an infrastructure error (``info.error`` says why): such an episode is
    neither a success nor a failure of the agent, and nothing downstream may count it as 0.
    """

    task_id: int
    reward: float | None
    info: dict[str, Any]
    traj: list[dict[str, Any]]
    trial: int

    @property
    def is_error(self) -> bool:
        return self.reward is None or "error" in self.info

    @classmethod
    def from_outcome(cls, outcome: EpisodeOutcome, instruction: str, user_id: str) -> RunResult:
        reward_info = outcome.reward_info
        info: dict[str, Any] = {
            "task": {
                "user_id": user_id,
                "instruction": instruction,
                "actions": reward_info["actions"] if reward_info else [],
                "outputs": outcome.required_outputs,
            },
            "source": outcome.source,
            "user_cost": outcome.user_usage.cost_usd,
            "reward_info": reward_info,
            "termination": outcome.termination,
            "steps": outcome.steps,
            "episode_id": outcome.episode_id,
            "final_data_hash": outcome.final_data_hash,
            "duration_s": round(outcome.duration_s, 4),
            "agent_usage": outcome.agent_usage.model_dump(),
            "user_usage": outcome.user_usage.model_dump(),
        }
        return cls(
            task_id=outcome.task.index,
            reward=outcome.reward,
            info=info,
            traj=[message.openai() for message in outcome.traj],
            trial=outcome.trial,
        )

    @classmethod
    def from_error(cls, task_id: int, trial: int, error: EpisodeError) -> RunResult:
        return cls(task_id=task_id, reward=None, info={"error": error.model_dump()}, traj=[], trial=trial)


def write_json_atomically(path: Path, payload: Any) -> None:
    """Write ``payload`` as JSON to ``path`` so that a reader never sees a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(payload, out, indent=2)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ResultsFile:
    """The run's results, rewritten whole (atomically) each time an episode finishes."""

    def __init__(self, path: Path, existing: list[RunResult] | None = None) -> None:
        self.path = path
        self.results: list[RunResult] = list(existing or [])

    def add(self, result: RunResult) -> None:
        """Record ``result``, replacing an earlier entry of the same task and trial."""
        self.results = [r for r in self.results if (r.task_id, r.trial) != (result.task_id, result.trial)]
        self.results.append(result)
        write_json_atomically(self.path, [r.model_dump() for r in self.results])


def load_results(path: Path) -> list[RunResult]:
    """Read a results file written by taumesh or by τ-bench's run.py."""
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    if not isinstance(raw, list):
        raise ValueError(f"{path}: a results file is a JSON list, found {type(raw).__name__}")
    return [RunResult.model_validate(item) for item in raw]
