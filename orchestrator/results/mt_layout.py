"""The MT-bench fork's layout of a run's results: per-task trajectory JSONL and a scores JSONL.

The fork of τ-bench "modified for MT Benchmark integration" reformats τ-bench's results file after each run
(its ``run.py``, ``format_results``); other evaluators and its ``/scores`` endpoint read what it writes. Matched here:

* the folder ``data/{dataset_name}_{timestamp}/``, timestamp ``%Y%m%d_%H%M%S``, placed under the run's log dir.
  The fork's folder's dataset is ``tau_bench_{env}`` (``tau_bench_retail_20261123_120000``), and its ``/scores``
  globs ``tau_bench_{subset}_*``; so is taumesh's, ``{RunConfig.dataset_name}_{env}`` with ``tau_bench`` the
  default (the fork's YAML ``dataset_name``). With ``RunConfig.mt_fork_folder`` (``--mt-fork-folder``) the folder
  is where the fork's README puts it, ``./data/{dataset_name}_{timestamp}/`` in the working directory, the name
  as given (the fork's code writes ``./data/tau_bench_{env}_…``: ``--dataset-name tau_bench_retail`` matches it);
* ``{model}_task{id}_trajectory.jsonl``: the trajectory exactly as the agent saw it (τ-bench's OpenAI-form
  messages, system prompt first), one ``json.dumps`` per line;
* ``{model}_scores.jsonl``: one line per episode, keys in the fork's order ``task-id`` (``task-{id}``), ``prompt``
  (the task's instruction), ``result`` and ``truth`` (``name({json})`` of each call, comma-joined, the arguments
  re-encoded with ``json.dumps``' defaults; ``result`` is ``No actions executed`` when the agent called no tool,
  ``truth`` empty when the task has no gold action), ``score`` (the reward) and ``duration``;
* ``{model}``: the agent's model as litellm names it (``provider/model``) with ``/`` made ``-``
  (``openai-gpt-4o``).

Where taumesh departs, and why:

* ``duration`` is the episode's wall time in seconds (``info.duration_s``); the fork reads an ``info.duration``
  that τ-bench never writes, so its value is always 0.
* episodes that could not be scored (``X.errors.json``) get no line and no trajectory: τ-bench would have written
  them as 0, which taumesh never does.
* a run with several trials keeps each one: trial 0 has the fork's file name, trial ``n`` > 0 writes
  ``{model}_task{id}_trial{n}_trajectory.jsonl`` (the fork overwrote one with the next); score lines come trial
  after trial. A model without a model name (the oracle) is named by its strategy.
* a folder that already exists (two runs in the same second) is not reused: ``_2``, ``_3``, … is appended.
* filtering by task (``/scores?taskID=``) matches the id exactly (``5`` or ``task-5``), where the fork's
  suffix match also returned ``task-15``.
* ``{model}_statistics.jsonl`` is taumesh's own (the scores lines have no room: the fork's keys in its order): one
  line per figure, ``pass^k`` and ``average_reward`` with their intervals, ``cost``, then one ``task`` line per
  task (its success rate over trials and whether its verdict flips). The fork's readers pass it by: its
  ``/scores`` globs ``{dataset}_{subset}_*/{model}_scores.jsonl``, and the files it documents are
  ``*_trajectory.jsonl`` and ``*_scores.jsonl``; ``.jsonl`` keeps it out of the ``*.json`` results globs.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.atomic_files import write_text_atomically
from taumesh.orchestrator.results.layout_statistics import LayoutStatistics, layout_statistics
from taumesh.orchestrator.results.names import safe_name
from taumesh.orchestrator.results.records import RunResult

MT_FOLDER = "data"
"""The fork writes under ``./data``; taumesh under the run's log dir."""
TIMESTAMP_FORMAT = "%Y%m%d_%H%M%S"
NO_ACTIONS = "No actions executed"
"""The fork's ``result`` when the agent called no tool."""
TASK_ID_PREFIX = "task-"
STATISTICS_SUFFIX = "_statistics.jsonl"
"""``{model}_statistics.jsonl``: taumesh's figures of the run, which the fork's readers do not look for."""


def folder_prefix(config: RunConfig) -> str:
    """The folder's name before its timestamp: ``{dataset_name}_{env}``, as the fork writes ``tau_bench_retail``."""
    return f"{config.dataset_name}_{config.env}"


def model_name(config: RunConfig) -> str:
    """The agent's model in file names: ``provider/model`` with ``/`` made ``-``; the strategy when no model."""
    model, provider = config.agent.model.model, config.agent.model.provider
    if not model:
        return safe_name(config.agent.strategy) or "agent"
    if provider and not model.startswith(f"{provider}/"):
        model = f"{provider}/{model}"
    return safe_name(model.replace("/", "-"), limit=120)


def call_text(name: str, arguments: Any) -> str:
    """``name({json})``: one call as the fork writes it; arguments that are not JSON are kept as written."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return f"{name}({arguments})"
    return f"{name}({json.dumps(arguments)})"


def agent_calls(traj: list[dict[str, Any]]) -> list[str]:
    """The agent's tool calls in the order it made them."""
    return [
        call_text(call["function"]["name"], call["function"].get("arguments", "{}"))
        for message in traj
        if message.get("role") == "assistant"
        for call in message.get("tool_calls") or []
        if call.get("function")
    ]


def gold_calls(result: RunResult) -> list[str]:
    """The task's gold actions (``info.task.actions``)."""
    actions = result.info.get("task", {}).get("actions") or []
    return [call_text(action["name"], action.get("kwargs", {})) for action in actions]


def score_record(result: RunResult) -> dict[str, Any]:
    """The fork's scores entry of one scored episode."""
    calls = agent_calls(result.traj)
    return {
        "task-id": f"{TASK_ID_PREFIX}{result.task_id}",
        "prompt": result.info.get("task", {}).get("instruction", ""),
        "result": ",".join(calls) if calls else NO_ACTIONS,
        "truth": ",".join(gold_calls(result)),
        "score": result.reward,
        "duration": result.info.get("duration_s", 0),
    }


def scores_lines(results: Iterable[RunResult], task_id: str | None = None) -> list[str]:
    """The scores JSONL lines (without newlines) of a run's scored episodes, only ``task_id``'s when given.

    ``task_id`` is the task's id (``5``) or the fork's ``task-5``. Pure: nothing but the results is read, so the
    REST API's ``/scores`` renders a stored run with it. (Nothing in a line depends on the run's configuration.)
    """
    wanted = task_id.removeprefix(TASK_ID_PREFIX) if task_id is not None else None
    return [
        json.dumps(score_record(result))
        for result in results
        if not result.is_error and (wanted is None or str(result.task_id) == wanted)
    ]


def statistics_lines(statistics: LayoutStatistics) -> list[str]:
    """The statistics file's lines: ``pass^k`` …, ``average_reward``, ``cost`` (USD), one ``task`` line per task."""
    records: list[dict[str, Any]] = []
    uncertainty = statistics.uncertainty
    if uncertainty is not None:
        records += [{"figure": f"pass^{k}", **i.model_dump()} for k, i in uncertainty.pass_hat_k.items()]
        records.append({"figure": "average_reward", **uncertainty.average_reward.model_dump()})
    records.append({"figure": "cost", **statistics.cost.model_dump()})
    if uncertainty is not None:
        records += [
            {"figure": "task", "task-id": f"{TASK_ID_PREFIX}{task.task_id}", **task.model_dump(exclude={"task_id"})}
            for task in uncertainty.per_task
        ]
    return [json.dumps(record) for record in records]


def trajectory_filename(model: str, result: RunResult) -> str:
    """``{model}_task{id}_trajectory.jsonl``; a later trial adds ``_trial{n}`` before ``_trajectory``."""
    trial = f"_trial{result.trial}" if result.trial else ""
    return f"{model}_task{safe_name(str(result.task_id))}{trial}_trajectory.jsonl"


def claim_folder(parent: Path, name: str) -> Path:
    """Create the folder ``parent/name`` (``name_2``, … when taken) and return it."""
    parent.mkdir(parents=True, exist_ok=True)
    for n in itertools.count(1):
        candidate = parent / (name if n == 1 else f"{name}_{n}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate
    raise AssertionError("unreachable")


def mt_folder_place(config: RunConfig) -> tuple[Path, str]:
    """Where the MT folder goes and its name before the timestamp.

    taumesh's: ``log_dir/data/`` and ``{dataset_name}_{env}``; with ``mt_fork_folder`` the fork's README's:
    ``./data/`` in the working directory and ``{dataset_name}`` alone.
    """
    if config.mt_fork_folder:
        return Path.cwd() / MT_FOLDER, config.dataset_name
    return config.log_dir / MT_FOLDER, folder_prefix(config)


def write_mt_results(config: RunConfig, results: list[RunResult], now: datetime | None = None) -> Path:
    """Write the run's MT layout (under ``config.log_dir/data/``, or ``./data/``) and return its folder."""
    stamp = (now or datetime.now()).strftime(TIMESTAMP_FORMAT)
    parent, prefix = mt_folder_place(config)
    folder = claim_folder(parent, f"{safe_name(prefix, limit=120)}_{stamp}")
    model = model_name(config)
    scored = [result for result in results if not result.is_error]
    for result in scored:
        lines = "".join(json.dumps(message) + "\n" for message in result.traj)
        write_text_atomically(folder / trajectory_filename(model, result), lines)
    write_text_atomically(folder / f"{model}_scores.jsonl", "".join(line + "\n" for line in scores_lines(scored)))
    figures = statistics_lines(layout_statistics(results))
    write_text_atomically(folder / f"{model}{STATISTICS_SUFFIX}", "".join(line + "\n" for line in figures))
    return folder
