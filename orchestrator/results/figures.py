"""A run's figures for people: pass^k and the average reward with their intervals, flipping tasks, full cost.

Used by the end-of-run summary (:mod:`taumesh.orchestrator.run.console`) and the viewer; the statistics are
:mod:`taumesh.stats`.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from taumesh.models import Usage
from taumesh.orchestrator.results.records import RunResult
from taumesh.stats import TrialOutcome, TrialTable, average_reward_interval, is_success, pass_hat_k_intervals

SHOWN_FLIPS = 10


class RunCost(BaseModel):
    """What a run spent: the agent's, the user simulator's and the judge's models apart, and per task."""

    agent: float
    user: float
    judge: float
    total: float
    interrupted: float
    """Of the total, what attempts the infrastructure cut short spent (counted: they were paid for)."""
    episodes: int
    """Scored episodes."""
    solved: int
    per_task: float | None
    """Total over scored episodes: what one attempt at a task costs, interrupted attempts included."""
    per_solved_task: float | None
    """Total over successful episodes; None when none succeeded."""


def run_usage(results: Iterable[RunResult]) -> tuple[Usage, Usage]:
    """Agent and user usage of a whole run: scored episodes plus every attempt the infrastructure cut short."""
    agent, user = Usage(), Usage()
    for result in results:
        episode_agent, episode_user = result.usage()
        agent += episode_agent
        user += episode_user
    return agent, user


def run_cost(results: Iterable[RunResult]) -> RunCost:
    """The full cost of a run's results (scored episodes, errors' interrupted attempts, the judge's calls)."""
    results = list(results)
    agent, user = run_usage(results)
    judge, interrupted = Usage(), 0.0
    episodes = solved = 0
    for result in results:
        if result.info.get("judge_usage"):
            judge += Usage.model_validate(result.info["judge_usage"])
        lost = result.info.get("interrupted_attempts_usage") or {}
        interrupted += sum(float((lost.get(side) or {}).get("cost_usd") or 0.0) for side in ("agent", "user"))
        if not result.is_error and result.reward is not None:
            episodes += 1
            solved += is_success(result.reward)
    total = agent.cost_usd + user.cost_usd + judge.cost_usd
    return RunCost(
        agent=agent.cost_usd,
        user=user.cost_usd,
        judge=judge.cost_usd,
        total=total,
        interrupted=interrupted,
        episodes=episodes,
        solved=solved,
        per_task=total / episodes if episodes else None,
        per_solved_task=total / solved if solved else None,
    )


def cost_line(cost: RunCost) -> str:
    """``cost: agent $1.2000 + user $0.4000 + judge $0.1000 = $1.7000 …; per task $0.0148, per solved task $0.0239``."""
    line = f"cost: agent ${cost.agent:.4f} + user ${cost.user:.4f} + judge ${cost.judge:.4f} = ${cost.total:.4f}"
    if cost.interrupted:
        line += f" (${cost.interrupted:.4f} of it on interrupted attempts)"
    per_task = f"${cost.per_task:.4f}" if cost.per_task is not None else "n/a"
    per_solved = f"${cost.per_solved_task:.4f}" if cost.per_solved_task is not None else "n/a (none solved)"
    return f"{line}; per task {per_task}, per solved task {per_solved}"


def scored_table(results: Iterable[RunResult]) -> TrialTable | None:
    """The scored trials of ``results`` by task (None when none is scored)."""
    outcomes = [
        TrialOutcome(str(r.task_id), r.trial, r.reward) for r in results if not r.is_error and r.reward is not None
    ]
    return TrialTable(outcomes) if outcomes else None


def uncertainty_lines(results: Iterable[RunResult], n_resamples: int = 9999) -> list[str]:
    """pass^k and the average reward with their 95 % intervals, the method, and the tasks whose verdict flips."""
    table = scored_table(results)
    if table is None:
        return []
    intervals = pass_hat_k_intervals(table, n_resamples=n_resamples)
    average = average_reward_interval(table, n_resamples=n_resamples)
    lines = [f"pass^{k} {interval.text()}" for k, interval in intervals.items()]
    lines += [f"average reward {average.text()}", f"intervals: {average.method}"]
    flips = table.flipping()
    if table.trials > 1:
        shown = ", ".join(flips[:SHOWN_FLIPS]) + (
            f" and {len(flips) - SHOWN_FLIPS} more" if len(flips) > SHOWN_FLIPS else ""
        )
        lines.append(
            f"tasks whose verdict flips between trials: {len(flips)} of {table.tasks}"
            + (f" ({shown})" if flips else "")
        )
    return lines
