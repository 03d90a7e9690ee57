"""The MT-bench fork's scores lines (``task-id, prompt, result, truth, score, duration``) from stored results.

One function, so that the orchestrator's MT layout writer can take its place once it exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from taumesh.orchestrator.results import RunResult


def call_text(name: str, arguments: Any) -> str:
    """``name({json})`` as the fork writes a call."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return f"{name}({arguments})"
    return f"{name}({json.dumps(arguments, ensure_ascii=False)})"


def agent_calls(traj: list[dict[str, Any]]) -> str:
    """The agent's tool calls in order, comma-joined."""
    calls = []
    for message in traj:
        if message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            function = call.get("function", {})
            calls.append(call_text(str(function.get("name", "")), function.get("arguments", "{}")))
    return ",".join(calls)


def gold_calls(info: dict[str, Any]) -> str:
    """The task's gold actions the same way."""
    actions = info.get("task", {}).get("actions", [])
    return ",".join(call_text(str(a.get("name", "")), a.get("kwargs", a.get("arguments", {}))) for a in actions)


def scores_lines(results: Iterable[RunResult], task_id: str | None = None) -> list[dict[str, Any]]:
    """One scores line per scored episode (of ``task_id`` only, when given)."""
    lines = []
    for result in results:
        if result.is_error or (task_id is not None and str(result.task_id) != task_id):
            continue
        lines.append(
            {
                "task-id": str(result.task_id),
                "prompt": result.info.get("task", {}).get("instruction", ""),
                "result": agent_calls(result.traj),
                "truth": gold_calls(result.info),
                "score": result.reward,
                "duration": result.info.get("duration_s"),
            }
        )
    return lines
