"""Results files: τ-bench v1's JSON list of ``{task_id, reward, info, traj, trial}``, written atomically."""

from __future__ import annotations

import itertools
import json
import os
import re
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter

from taumesh.models import ChatMessage
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode import EpisodeOutcome

ErrorKind = Literal["infrastructure", "refused_request", "internal"]
"""Why an episode has no score: the services kept failing, a service refused a request, or taumesh itself broke
(an unexpected exception, contained in its episode)."""


class EpisodeError(BaseModel):
    """An episode the infrastructure could not finish: never scored, always reported, rerun by --retry-errors."""

    kind: ErrorKind = "infrastructure"
    cause: str
    attempts: int


USER_TOOL_TURNS = "user_tool_turns"
"""The ``info`` key of the user's own tool calls (τ²'s telecom); absent when the user called none."""


HISTORY_MESSAGES = "history_messages"
"""The ``info`` key of how many messages of the task's message history (τ²) the episode continued from: the first
messages of the timeline (:meth:`RunResult.timeline`) after the system prompt; absent when the task has none."""


class UserToolTurn(BaseModel):
    """The user's own tool calls at one place of the conversation, with their results: what the agent never saw.

    ``traj`` stays what the agent saw (τ-bench's trajectory); these turns, kept in ``info.user_tool_turns``, put the
    rest of the timeline back (:meth:`RunResult.timeline`), as τ²'s layout records it.
    """

    at: int
    """How many messages of ``traj`` (its system prompt included) came before them."""
    messages: list[dict[str, Any]]
    """The user's messages calling its tools, each followed by its calls' results (``requestor: "user"``), in
    OpenAI chat form."""


_USER_TOOL_TURNS = TypeAdapter(list[UserToolTurn])


def user_tool_turns(scored: list[ChatMessage]) -> list[UserToolTurn]:
    """The user's own tool use in an episode's scored timeline, each placed by the ``traj`` messages before it.

    A message is part of it when it is the user's and calls tools, or is a tool result answering such a message (τ²'s
    rule: a message's results follow it). Every other message of the timeline is in ``traj``, after the system prompt.
    """
    turns: list[UserToolTurn] = []
    in_traj, users = 1, False
    for message in scored:
        if message.role != "tool":
            users = message.role == "user" and bool(message.tool_calls)
        if not users:
            in_traj += 1
            continue
        raw = message.openai() | ({"requestor": "user"} if message.role == "tool" else {})
        if turns and turns[-1].at == in_traj:
            turns[-1].messages.append(raw)
        else:
            turns.append(UserToolTurn(at=in_traj, messages=[raw]))
    return turns


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

    def user_tool_turns(self) -> list[UserToolTurn]:
        """The user's own tool calls and their results, where the episode recorded any (``info.user_tool_turns``)."""
        return _USER_TOOL_TURNS.validate_python(self.info.get(USER_TOOL_TURNS) or [])

    def timeline(self) -> list[dict[str, Any]]:
        """The whole conversation in time order: ``traj`` with the user's own tool calls and results in their places.

        Results written before the user's tool calls were recorded, and episodes where the user called none, give
        ``traj`` itself.
        """
        places: dict[int, list[dict[str, Any]]] = {}
        for turn in self.user_tool_turns():
            places.setdefault(turn.at, []).extend(turn.messages)
        if not places:
            return self.traj
        timeline: list[dict[str, Any]] = []
        for at, message in enumerate(self.traj):
            timeline += places.pop(at, [])
            timeline.append(message)
        for at in sorted(places):  # after the last message of traj
            timeline += places[at]
        return timeline

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
            "reward_basis": list(outcome.reward_basis),
            "reward_checks": [check.model_dump() for check in outcome.checks],
            "termination": outcome.termination,
            "steps": outcome.steps,
            "tool_errors": outcome.tool_errors,
            "episode_id": outcome.episode_id,
            "final_data_hash": outcome.final_data_hash,
            "duration_s": round(outcome.duration_s, 4),
            "agent_usage": outcome.agent_usage.model_dump(),
            "user_usage": outcome.user_usage.model_dump(),
        }
        if outcome.gave_up:
            info["agent_gave_up"] = outcome.gave_up
        if outcome.judge_usage.calls:
            info["judge_usage"] = outcome.judge_usage.model_dump()
        if turns := user_tool_turns(outcome.scored):
            info[USER_TOOL_TURNS] = [turn.model_dump() for turn in turns]
        if outcome.history_messages:
            info[HISTORY_MESSAGES] = outcome.history_messages
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


class AgentIdentity(BaseModel):
    """An external agent (``--agent-addr``) as it describes itself (``AgentService.Describe``)."""

    address: str
    name: str = ""
    """Empty when the agent does not implement Describe."""
    version: str = ""
    description: str = ""

    @property
    def label(self) -> str:
        """The agent's name for file names: its reported name, else its address, reduced to safe characters."""
        return safe_name(self.name) or safe_name(self.address) or "external"


def safe_name(text: str, limit: int = 64) -> str:
    """``text`` with every character other than letters, digits, '.', '_' and '-' made '_' (at most ``limit``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)[:limit].lstrip(".")


def results_filename(config: RunConfig, agent: AgentIdentity | None, time_str: str) -> str:
    """τ-bench v1's checkpoint file name, with ``--end-index`` as given (``-1`` included, as τ-bench writes it).

    ``{agent}-{model}-{temperature}_range_{start}-{end}_user-{user model}-{user strategy}_{time}.json``.
    An external agent is named by what it reports (or its address), never by the ``--agent-strategy`` default.
    """
    model = config.agent.model.model.split("/")[-1]
    if agent is None:
        who, model = config.agent.strategy, model or config.agent.strategy
    else:
        who, model = agent.label, model or safe_name(agent.version) or "external"
    user_model = config.user.model.model.split("/")[-1] or "none"
    run = safe_name(
        f"{who}-{model}-{config.agent.model.temperature}_range_{config.start_index}-{config.end_index}"
        f"_user-{user_model}-{config.user.strategy}",
        limit=200,
    )
    return f"{run}_{safe_name(time_str)}.json"


def run_fingerprint(config: RunConfig, agent: AgentIdentity | None) -> dict[str, Any]:
    """What makes two runs' results comparable, recorded in every entry (``info.run``) and checked by --resume."""
    model, user_model = config.agent.model, config.user.model
    return {
        "env": config.env,
        "task_split": config.task_split,
        "max_steps": config.max_steps,
        "agent": {
            "strategy": config.agent.strategy,
            "model": model.model,
            "provider": model.provider,
            "temperature": model.temperature,
            "few_shot_displays_path": config.agent.few_shot_displays_path,
            "address": agent.address if agent else "",
            "name": agent.name if agent else "",
            "version": agent.version if agent else "",
        },
        "user": {
            "strategy": config.user.strategy,
            "model": user_model.model,
            "provider": user_model.provider,
            "temperature": user_model.temperature,
        },
    }


def fingerprint_differences(recorded: dict[str, Any], current: dict[str, Any], prefix: str = "") -> list[str]:
    """Each setting whose value differs between two fingerprints, as ``name: 'file value' in the file, 'now' now``."""
    differences = []
    for key in sorted(set(recorded) | set(current)):
        before, now = recorded.get(key), current.get(key)
        if isinstance(before, dict) and isinstance(now, dict):
            differences += fingerprint_differences(before, now, f"{prefix}{key}.")
        elif before != now:
            differences.append(f"{prefix}{key}: {before!r} in the file, {now!r} now")
    return differences


def results_task_id(task_id: str) -> int | str:
    """A task's id as results files write it: τ-bench's integer index when the id is one, else the id itself."""
    return int(task_id) if task_id.isdecimal() else task_id


def _file_mode() -> int:
    """Mode of a file this process creates (0666 less the umask), read without changing the umask for long."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_IOV_MAX = os.sysconf("SC_IOV_MAX") if hasattr(os, "sysconf") else 1024


def _write_all(handle: int, chunks: Sequence[bytes]) -> None:
    """Write ``chunks`` in order: a few ``writev`` calls, each without the GIL, instead of joining them first."""
    for first in range(0, len(chunks), _IOV_MAX):
        batch = chunks[first : first + _IOV_MAX]
        written = os.writev(handle, batch)
        for chunk in batch:  # a short write (a full disk, a signal): finish it piece by piece
            if written >= len(chunk):
                written -= len(chunk)
                continue
            rest = memoryview(chunk)[written:]
            written = 0
            while rest:
                rest = rest[os.write(handle, rest) :]


def write_chunks_atomically(path: Path, chunks: Sequence[bytes], mode: int | None = None) -> None:
    """Write ``chunks`` one after the other to ``path`` so that a reader never sees a half-written file.

    ``mode``: the file's permissions (default: an ordinary file's under this process's umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            _write_all(handle, chunks)
        finally:
            os.close(handle)
        os.chmod(tmp, _file_mode() if mode is None else mode)  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader never sees a half-written file."""
    write_chunks_atomically(path, [text.encode("utf-8")])


def write_json_atomically(path: Path, payload: Any) -> None:
    """Write ``payload`` as indented JSON to ``path``, atomically."""
    write_text_atomically(path, json.dumps(payload, indent=2))


ERRORS_SUFFIX = ".errors.json"
"""A results file ``X.json`` keeps its infrastructure errors beside it, in ``X.errors.json`` (docs/results.md)."""


def errors_path(results_path: Path) -> Path:
    """Where the errors of the results file ``results_path`` live."""
    return results_path.with_name(results_path.name.removesuffix(".json") + ERRORS_SUFFIX)


def faults_path(results_path: Path) -> Path:
    """Where ``taumesh analyze`` writes the fault report of ``results_path`` (``X_faults.json`` beside ``X.json``)."""
    return results_path.with_name(f"{results_path.stem}_faults.json")


def claim_results_path(log_dir: Path, name: str) -> Path:
    """Create an empty results file named ``name`` in ``log_dir`` that no other run holds, and return it.

    The file is created exclusively (``O_EXCL``): when another run took that name first, a suffix ``_2``,
    ``_3``, … is added, so two runs started in the same second never share a file.
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    stem = name.removesuffix(".json")
    for n in itertools.count(1):
        candidate = log_dir / (f"{stem}.json" if n == 1 else f"{stem}_{n}.json")
        if errors_path(candidate).exists():
            continue  # the errors of a file someone deleted: not ours to overwrite
        try:
            handle = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("[]\n")
        return candidate
    raise AssertionError("unreachable")


EpisodeKey = tuple[int | str, int]
"""(task id, trial): one episode of a run."""


_REWRITE_BUDGET = 20
"""Seconds between rewrites per second a rewrite takes: rewriting costs at most 1/20 of the run's time."""


class ResultsFile:
    """The run's results, kept on disk while episodes finish, as τ-bench's JSON list and an errors file.

    The results file holds the scored episodes; the errors beside it (:func:`errors_path`) exist only while there
    are errors. Entries are written in ``order`` (τ-bench's: trial after trial, each in the order its tasks were
    played), entries outside it after them. Each result is serialized once. While a run goes, :meth:`add` rewrites
    the files (atomically) in a thread of their own, so the episodes in flight do not wait for the disk: at most
    every ``min_interval`` seconds, or 20 times as long as the last rewrite took if that is longer (however large the
    file grows, rewriting it costs at most 5 % of the run's time). :meth:`flush` writes everything at once. A run
    killed in between loses at most that interval: ``--resume`` reruns it.
    """

    def __init__(
        self,
        path: Path,
        existing: list[RunResult] | None = None,
        order: list[EpisodeKey] | None = None,
        min_interval: float = 2.0,
    ) -> None:
        self.path = path
        self.errors_path = errors_path(path)
        self.min_interval = min_interval
        self._rank = {key: i for i, key in enumerate(order or [])}
        self._entries: dict[EpisodeKey, tuple[RunResult, bytes]] = {}
        self._next_write = float("-inf")
        self._recorded = self._written = 0  # how many results were recorded; how many of them are on disk
        self._mode = _file_mode()  # read here: changing the umask from the writer thread would race other threads
        self._writer: ThreadPoolExecutor | None = None
        self._writing: Future[tuple[int, float]] | None = None
        for result in existing or []:
            self._put(result)

    def _sorted(self) -> list[tuple[RunResult, bytes]]:
        unranked = len(self._rank)
        ranks = {key: self._rank.get(key, unranked + i) for i, key in enumerate(self._entries)}
        return [self._entries[key] for key in sorted(self._entries, key=ranks.__getitem__)]

    @property
    def results(self) -> list[RunResult]:
        """Every result, scored and errors, in the file's order."""
        return [result for result, _ in self._sorted()]

    def _put(self, result: RunResult) -> None:
        key = (result.task_id, result.trial)
        self._entries.pop(key, None)  # a rerun goes to the end of the unordered ones, as it finished last
        text = json.dumps(result.model_dump(), indent=2)  # ASCII: json.dumps escapes the rest
        self._entries[key] = (result, text.encode("ascii"))
        self._recorded += 1

    def add(self, result: RunResult) -> None:
        """Record ``result``, replacing an earlier entry of the same task and trial; rewrite the files when due.

        A rewrite that failed in the writer thread raises here (or from :meth:`flush`).
        """
        self._put(result)
        if self._writing is not None:
            if not self._writing.done():
                return
            self._finish_write()
        if time.monotonic() >= self._next_write:
            self._writer = self._writer or ThreadPoolExecutor(1, thread_name_prefix="taumesh-results")
            self._writing = self._writer.submit(self._write, self._snapshot())

    def wait(self) -> None:
        """Wait for a rewrite in progress (raising its error, if it failed: what it was writing is kept)."""
        if self._writing is not None:
            self._finish_write()

    def flush(self) -> None:
        """Write every result recorded so far: the scored ones to the results file, the errors beside it."""
        self.wait()
        if self._written < self._recorded or not self.path.exists():
            self._finish_write(self._write(self._snapshot()))
        if self._writer is not None:
            self._writer.shutdown()
            self._writer = None

    def _finish_write(self, written: tuple[int, float] | None = None) -> None:
        """Note a rewrite that ended (the writer thread's when ``written`` is None) and when the next is due."""
        if written is None:
            assert self._writing is not None
            writing, self._writing = self._writing, None
            written = writing.result()
        recorded, took = written
        self._written = max(self._written, recorded)
        self._next_write = time.monotonic() + max(self.min_interval, _REWRITE_BUDGET * took)

    def _snapshot(self) -> _Snapshot:
        """What is recorded now: the scored entries' texts and the errors', in the file's order."""
        scored: list[bytes] = []
        errors: list[bytes] = []
        for result, text in self._sorted():
            (errors if result.is_error else scored).append(text)
        return _Snapshot(self._recorded, scored, errors)

    def _write(self, snapshot: _Snapshot) -> tuple[int, float]:
        """Write a snapshot's files (in the writer thread or the caller's): its result count, and the time taken."""
        started = time.monotonic()
        write_chunks_atomically(self.path, _json_list(snapshot.scored), self._mode)
        if snapshot.errors:
            write_chunks_atomically(self.errors_path, _json_list(snapshot.errors), self._mode)
        else:
            self.errors_path.unlink(missing_ok=True)  # every error was rerun and scored
        return snapshot.recorded, time.monotonic() - started


@dataclass(frozen=True)
class _Snapshot:
    """The results file's entries at one moment, serialized: what one rewrite writes."""

    recorded: int
    """How many results had been recorded then."""
    scored: list[bytes]
    errors: list[bytes]


def _json_list(serialized: list[bytes]) -> list[bytes]:
    """The chunks of a JSON list of the already serialized items, one item per line block."""
    if not serialized:
        return [b"[]\n"]
    chunks = [b"[\n"]
    for index, item in enumerate(serialized):
        chunks += (b",\n", item) if index else (item,)
    chunks.append(b"\n]\n")
    return chunks


def load_results(path: Path) -> list[RunResult]:
    """Read a results file written by taumesh (with the errors beside it) or by τ-bench's run.py."""
    results = _load_list(path)
    errors = errors_path(path)
    if errors.exists():
        results += _load_list(errors)
    return results


def _load_list(path: Path) -> list[RunResult]:
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    if not isinstance(raw, list):
        raise ValueError(f"{path}: a results file is a JSON list, found {type(raw).__name__}")
    return [RunResult.model_validate(item) for item in raw]
