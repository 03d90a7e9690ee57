"""Results files: τ-bench v1's JSON list of ``{task_id, reward, info, traj, trial}``, written atomically."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.orchestrator.episode import EpisodeOutcome


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

    task_id: int | str
    """τ-bench's integer task index for its domains; a domain's own string id otherwise."""
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
        if outcome.gave_up:
            info["agent_gave_up"] = outcome.gave_up
        return cls(
            task_id=results_task_id(outcome.task.task_id),
            reward=outcome.reward,
            info=info,
            traj=[message.openai() for message in outcome.traj],
            trial=outcome.trial,
        )

    @classmethod
    def from_error(cls, task_id: int | str, trial: int, error: EpisodeError) -> RunResult:
        return cls(task_id=task_id, reward=None, info={"error": error.model_dump()}, traj=[], trial=trial)


def results_task_id(task_id: str) -> int | str:
    """A task's id as results files write it: τ-bench's integer index when the id is one, else the id itself."""
    return int(task_id) if task_id.isdecimal() else task_id


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader never sees a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json_atomically(path: Path, payload: Any) -> None:
    """Write ``payload`` as indented JSON to ``path``, atomically."""
    write_text_atomically(path, json.dumps(payload, indent=2))


class ResultsFile:
    """The run's results, kept on disk as τ-bench's JSON list while episodes finish.

    Each result is serialized once; the file is rewritten (atomically) at most every
    ``min_interval`` seconds and by :meth:`flush`, so a long run does not spend its time rewriting
    an ever larger file. A run killed in between loses at most that interval: ``--resume`` reruns it.
    """

    def __init__(self, path: Path, existing: list[RunResult] | None = None, min_interval: float = 2.0) -> None:
        self.path = path
        self.min_interval = min_interval
        self._entries: dict[tuple[int | str, int], tuple[RunResult, str]] = {}
        self._last_write = float("-inf")
        self._dirty = False
        for result in existing or []:
            self._put(result)

    @property
    def results(self) -> list[RunResult]:
        return [result for result, _ in self._entries.values()]

    def _put(self, result: RunResult) -> None:
        key = (result.task_id, result.trial)
        self._entries.pop(key, None)  # a rerun goes to the end, as it finished last
        self._entries[key] = (result, json.dumps(result.model_dump(), indent=2))
        self._dirty = True

    def add(self, result: RunResult) -> None:
        """Record ``result``, replacing an earlier entry of the same task and trial."""
        self._put(result)
        if time.monotonic() - self._last_write >= self.min_interval:
            self.flush()

    def flush(self) -> None:
        """Write every result recorded so far."""
        if not self._dirty and self.path.exists():
            return
        text = "[\n" + ",\n".join(serialized for _, serialized in self._entries.values()) + "\n]\n"
        write_text_atomically(self.path, text)
        self._last_write = time.monotonic()
        self._dirty = False


def load_results(path: Path) -> list[RunResult]:
    """Read a results file written by taumesh or by τ-bench's run.py."""
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    if not isinstance(raw, list):
        raise ValueError(f"{path}: a results file is a JSON list, found {type(raw).__name__}")
    return [RunResult.model_validate(item) for item in raw]
