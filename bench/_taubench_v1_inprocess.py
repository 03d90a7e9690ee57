"""τ-bench v1's own per-task time, in-process: run by ``bench/tau2_replay.py --taubench-v1 PATH``.

Runs under the Python of the bench's τ² venv, which already holds everything v1's env and reward path imports
(``litellm``, ``pydantic``); the checkout's folder goes first on ``sys.path``, nothing is installed. Reads
``{"checkout": PATH, "domain": "retail"|"airline", "split": "test", "task_ids": [0, ...], "repeats": N}`` on
stdin and prints one JSON line on stdout: per task the median of its ``repeats`` runs (the baseline took 3), each
measure apart.

Per task, timed as ``shared/taubench_v1/baseline_timing_retail_test.json`` timed the original (wall:
``perf_counter``; CPU: ``process_time``):

1. ``env.reset(task_index)``: re-reads the domain's JSON files and resets the user;
2. every gold action through ``env.step`` (its kwargs deep-copied beforehand, outside the timing, as an agent's
   JSON-parsed kwargs would be);
3. the terminating step, which runs ``calculate_reward`` (reload, replay of the gold actions, two full-data
   hashes): the last gold action when it is a terminate tool (``transfer_to_human_agents``), else
   ``respond`` with the task's outputs joined by spaces (or a neutral sentence), which the user answers
   ``###STOP###``.

The user: the env is built by v1's own ``get_env`` with the ``human`` strategy (its constructor does nothing; its
``input()`` would only run in ``reset``/``step``), then ``env.user`` is replaced by a subclass of v1's
``BaseUserSimulationEnv`` that makes no model call: ``reset`` returns the task's instruction as the first
message and ``step`` returns ``###STOP###``, at no cost. That is the only part of v1 bypassed: an LLM user's model
calls, which would dominate any timing. v1's import and the env's construction are measured apart, not per task.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import time
from copy import deepcopy
from typing import Any

NEUTRAL_RESPONSE = "Is there anything else I can help you with?"
STOP = "###STOP###"


def main() -> None:
    request = json.load(sys.stdin)
    checkout, domain, split = request["checkout"], request["domain"], request["split"]
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    sys.path.insert(0, os.path.abspath(checkout))

    started = time.perf_counter()
    from tau_bench.envs import get_env  # type: ignore[import-not-found]  # the user's checkout, not installed here
    from tau_bench.envs.user import BaseUserSimulationEnv  # type: ignore[import-not-found]
    from tau_bench.types import RESPOND_ACTION_NAME, Action  # type: ignore[import-not-found]

    import_s = time.perf_counter() - started

    class ScriptedUser(BaseUserSimulationEnv):  # type: ignore[misc]  # v1's base class, untyped
        """A user without a model: says its instruction first, then stops at the agent's first reply."""

        def reset(self, instruction: str | None = None) -> str:
            return instruction or ""

        def step(self, content: str) -> str:
            return STOP

        def get_total_cost(self) -> float:
            return 0.0

    started = time.perf_counter()
    env = get_env(domain, user_strategy="human", user_model="gpt-4o", task_split=split, task_index=0)
    env.user = ScriptedUser()
    construct_s = time.perf_counter() - started

    def one_task(task_index: int) -> dict[str, Any]:
        """v1's per-task work for ``task_index``: its reward and the time of each phase."""
        task = env.tasks[task_index]
        gold = [Action(name=a.name, kwargs=deepcopy(a.kwargs)) for a in task.actions]
        terminated_by_tool = bool(gold) and gold[-1].name in env.terminate_tools
        replayed, last = (gold[:-1], gold[-1]) if terminated_by_tool else (gold, None)
        if last is None:
            last = Action(name=RESPOND_ACTION_NAME, kwargs={"content": " ".join(task.outputs) or NEUTRAL_RESPONSE})

        wall0, cpu0 = time.perf_counter(), time.process_time()
        env.reset(task_index=task_index)
        wall1 = time.perf_counter()
        for action in replayed:
            if env.step(action).done:
                raise SystemExit(f"{domain} task {task_index}: gold action {action.name} ended the episode early")
        wall2 = time.perf_counter()
        ended = env.step(last)
        wall3, cpu3 = time.perf_counter(), time.process_time()
        if not ended.done:
            raise SystemExit(f"{domain} task {task_index}: the terminating step ({last.name}) did not end it")
        return {
            "task_id": str(task_index),
            "wall_ms": (wall3 - wall0) * 1000,
            "cpu_ms": (cpu3 - cpu0) * 1000,
            "reset_ms": (wall1 - wall0) * 1000,
            "replay_ms": (wall2 - wall1) * 1000,
            "reward_ms": (wall3 - wall2) * 1000,
            "terminated_by": "tool" if terminated_by_tool else "user_stop",
            "reward": float(ended.reward),
        }

    def median_of_runs(task_id: str) -> dict[str, Any]:
        """``one_task`` run ``repeats`` times: each time's median; the reward must not change between runs."""
        runs = [one_task(int(task_id)) for _ in range(repeats)]
        if len({run["reward"] for run in runs}) != 1:
            raise SystemExit(f"{domain} task {task_id}: the reward changed between runs")
        timed = {key: statistics.median(run[key] for run in runs) for key in runs[0] if key.endswith("_ms")}
        return {**runs[0], **timed}

    repeats = int(request.get("repeats", 1))
    per_task = [median_of_runs(task_id) for task_id in request["task_ids"]]
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "domain": domain,
                "split": split,
                "repeats": repeats,
                "import_s": import_s,
                "construct_s": construct_s,
                "peak_rss_mb": peak_rss_mb,
                "per_task": per_task,
            }
        )
    )


if __name__ == "__main__":
    main()
