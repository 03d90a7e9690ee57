"""What the viewer and the report compute from a run: pass^k, costs, the task grid, divergences, comparisons.

pass^k and the success test are the scorer's own (:mod:`taumesh.stats`), so every number shown equals the
one ``taumesh run`` prints. Infrastructure errors are counted apart and never enter pass^k or the averages.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from taumesh.orchestrator.results.validity import RunValidity, validity_of
from taumesh.stats import Interval, TrialOutcome, is_success, pass_hat_k
from taumesh.viewer.runs import Episode, Run
from taumesh.viewer.statistics import PairedReport, paired_reports, uncertainty

TaskStatus = Literal["passed", "failed", "inconsistent", "error"]
TaskFilter = Literal["all", "failed", "inconsistent", "errors"]
REWARD_BINS = 10
"""The reward histogram's bins over [0, 1]."""


class RunSummary(BaseModel):
    """A run's headline numbers."""

    run_id: str
    name: str
    domain: str
    model: str
    strategy: str
    user: str
    user_sim_version: str
    """The user-simulator version that played (``info.user_sim_version``; ``unrecorded`` for τ-bench's and τ²'s own
    files; several, comma-separated, when the file mixes them): scores of different simulators are not comparable."""
    episodes: int
    scored: int
    errors: int
    successes: int
    tasks: int
    trials: int
    average_reward: float | None
    pass_hat_k: dict[int, float]
    pass_hat_k_intervals: dict[int, Interval] = {}
    """pass^k with its 95 % bootstrap interval over tasks (docs/statistics.md)."""
    average_reward_interval: Interval | None = None
    flipping: list[str] = []
    """Tasks whose verdict flips between trials (some succeeded, some failed)."""
    reward_histogram: list[int]
    """Scored episodes per reward bin: [0, 0.1), …, [0.9, 1.0]."""
    terminations: dict[str, int]
    agent_cost: float
    user_cost: float
    judge_cost: float = 0.0
    total_cost: float = 0.0
    """Agent, user simulator and judge, interrupted attempts (of scored and unscored episodes) included."""
    interrupted_cost: float = 0.0
    """Of the total, what attempts cut short by the infrastructure spent."""
    agent_tokens: int
    user_tokens: int
    cost_per_task: float | None
    """Total cost over scored episodes: what one attempt at a task costs on average (interrupted attempts included)."""
    cost_per_solved_task: float | None
    """Total cost over successful episodes; None when none succeeded."""
    validity: RunValidity | None = None
    """Beside the score: the stored audit's certified score, null floor, flagged tasks and bounds, or the line saying
    no audit is stored (docs/validity.md); None for a file that names no domain and split (τ-bench's own)."""


def scored(episodes: Sequence[Episode]) -> list[Episode]:
    """The episodes that have a reward (infrastructure errors left out)."""
    return [episode for episode in episodes if episode.reward is not None and not episode.error]


def run_pass_hat_k(run: Run) -> dict[int, float]:
    """pass^k for k = 1..trials over the run's scored episodes (empty when none is scored)."""
    outcomes = [TrialOutcome(e.task_id, e.trial, e.reward or 0.0) for e in scored(run.episodes)]
    return pass_hat_k(outcomes).values if outcomes else {}


def reward_histogram(rewards: Sequence[float]) -> list[int]:
    """How many rewards fall in each tenth of [0, 1] (1.0 in the last)."""
    bins = [0] * REWARD_BINS
    for reward in rewards:
        bins[min(REWARD_BINS - 1, max(0, int(reward * REWARD_BINS)))] += 1
    return bins


def summarize(run: Run) -> RunSummary:
    """The headline numbers of ``run``."""
    done = scored(run.episodes)
    rewards = [e.reward or 0.0 for e in done]
    successes = sum(is_success(reward) for reward in rewards)
    total_cost = sum(e.cost for e in run.episodes)  # errors too: their interrupted attempts were paid for
    figures = uncertainty(run)
    return RunSummary(
        run_id=run.id,
        name=run.name,
        domain=run.domain,
        model=run.model,
        strategy=run.strategy,
        user=run.user,
        user_sim_version=", ".join(run.user_sim_versions),
        episodes=len(run.episodes),
        scored=len(done),
        errors=len(run.episodes) - len(done),
        successes=successes,
        tasks=len({e.task_id for e in run.episodes}),
        trials=len({e.trial for e in done}),
        average_reward=sum(rewards) / len(rewards) if rewards else None,
        pass_hat_k=run_pass_hat_k(run),
        pass_hat_k_intervals=figures.pass_hat_k if figures else {},
        average_reward_interval=figures.average_reward if figures else None,
        flipping=figures.flipping if figures else [],
        reward_histogram=reward_histogram(rewards),
        terminations=dict(Counter(e.termination or "unknown" for e in done).most_common()),
        agent_cost=sum(e.agent_cost for e in run.episodes),
        user_cost=sum(e.user_cost for e in run.episodes),
        judge_cost=sum(e.judge_cost for e in run.episodes),
        total_cost=total_cost,
        interrupted_cost=sum(e.interrupted_cost for e in run.episodes),
        agent_tokens=sum(e.agent_tokens for e in done),
        user_tokens=sum(e.user_tokens for e in done),
        cost_per_task=total_cost / len(done) if done else None,
        cost_per_solved_task=total_cost / successes if successes else None,
        validity=run_validity(run),
    )


def run_validity(run: Run) -> RunValidity | None:
    """``run``'s validity by the stored audit of its domain and split (:mod:`taumesh.orchestrator.results.validity`)."""
    return validity_of(run.config, run.validity, [(e.task_id, e.reward or 0.0) for e in scored(run.episodes)])


class TaskRow(BaseModel):
    """One task across the run's trials."""

    task_id: str
    rewards: dict[int, float | None]
    """Trial → reward (None: an infrastructure error)."""
    status: TaskStatus
    labels: dict[str, str] = Field(default_factory=dict)
    """What the domain's task records about it beyond τ-bench's fields (healthcare: intent, tier, trap)."""


def task_status(rewards: Sequence[float | None]) -> TaskStatus:
    """A task's status from its trials' rewards (None: an infrastructure error)."""
    if any(reward is None for reward in rewards):
        return "error"
    passed = [is_success(reward) for reward in rewards if reward is not None]
    if all(passed):
        return "passed"
    return "inconsistent" if any(passed) else "failed"


def _task_order(task_id: str) -> tuple[int, int | str]:
    return (0, int(task_id)) if task_id.isdigit() else (1, task_id)


def task_rows(run: Run, labels: dict[str, dict[str, str]] | None = None) -> list[TaskRow]:
    """Every task of ``run`` with its reward per trial (and its ``labels``, by task id), in task order."""
    rewards: dict[str, dict[int, float | None]] = {}
    for e in run.episodes:
        rewards.setdefault(e.task_id, {})[e.trial] = None if e.error else e.reward
    return [
        TaskRow(
            task_id=task_id,
            rewards=dict(sorted(by_trial.items())),
            status=task_status(list(by_trial.values())),
            labels=(labels or {}).get(task_id, {}),
        )
        for task_id, by_trial in sorted(rewards.items(), key=lambda item: _task_order(item[0]))
    ]


def matches(row: TaskRow, wanted: TaskFilter) -> bool:
    """``failed``: some trial failed; ``inconsistent``: some passed and some failed; ``errors``: some errored."""
    if wanted == "failed":
        return any(reward is not None and not is_success(reward) for reward in row.rewards.values())
    if wanted == "inconsistent":
        return row.status == "inconsistent"
    if wanted == "errors":
        return row.status == "error"
    return True


class ActionStep(BaseModel):
    """One tool call the agent (or the user) made, and where it is in the conversation."""

    message_index: int
    name: str
    kwargs: dict[str, Any] | str
    """The parsed arguments; the text itself when they are not a JSON object."""


class SideDivergence(BaseModel):
    """The user's own tool calls (τ²'s telecom) beside the user's gold actions, and the first step where they part."""

    actions: list[ActionStep]
    gold_actions: list[dict[str, Any]]
    index: int | None
    """The first step that differs (or that one side lacks); None when the two sequences are equal."""
    message_index: int | None
    """The conversation message holding the user's diverging call (None when the user made no call there)."""


class Divergence(BaseModel):
    """The agent's actions beside its gold ones, and the first step where they part; the user's beside its own."""

    agent_actions: list[ActionStep]
    gold_actions: list[dict[str, Any]]
    """The gold actions of the agent (all of a τ-bench task's)."""
    index: int | None
    """The first action step that differs (or that one side lacks); None when the two sequences are equal."""
    message_index: int | None
    """The conversation message holding the agent's diverging call (None when the agent made no call there)."""
    user: SideDivergence | None = None
    """The user's side, compared apart (τ²'s gold actions say whose they are); None when the user has neither tool
    calls nor gold actions."""


_TEXT_ACTION = re.compile(r"Action:\s*(\{.*\})\s*$", re.DOTALL)
"""A ReAct/Act agent's action written as text (τ-bench's act and react strategies)."""


def _kwargs(arguments: Any) -> dict[str, Any] | str:
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments or "{}")
    except (TypeError, ValueError):
        return str(arguments)
    return value if isinstance(value, dict) else str(arguments)


def _requestor(message: dict[str, Any], call: dict[str, Any]) -> str:
    """Who made ``call``: as recorded, else the side of the message holding it."""
    return str(call.get("requestor") or ("user" if message.get("role") == "user" else "assistant"))


def _step(index: int, call: dict[str, Any]) -> ActionStep:
    function = call.get("function") or {}
    return ActionStep(message_index=index, name=function.get("name", ""), kwargs=_kwargs(function.get("arguments")))


def agent_actions(messages: Sequence[dict[str, Any]]) -> list[ActionStep]:
    """The agent's tool calls in order: native calls (the user's own, in τ², left out) and act/react text actions."""
    steps: list[ActionStep] = []
    for index, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        calls = message.get("tool_calls") or []
        steps += [_step(index, call) for call in calls if _requestor(message, call) == "assistant"]
        if calls:
            continue
        match = _TEXT_ACTION.search(message.get("content") or "")
        action = _kwargs(match.group(1)) if match else None
        if isinstance(action, dict) and action.get("name") not in (None, "respond"):
            steps.append(
                ActionStep(message_index=index, name=str(action["name"]), kwargs=_kwargs(action.get("arguments")))
            )
    return steps


def user_actions(messages: Sequence[dict[str, Any]]) -> list[ActionStep]:
    """The user's own tool calls in order (τ²'s telecom: the user acts on its phone)."""
    return [
        _step(index, call)
        for index, message in enumerate(messages)
        for call in message.get("tool_calls") or []
        if _requestor(message, call) == "user"
    ]


def _first_difference(actions: Sequence[ActionStep], gold: Sequence[dict[str, Any]]) -> int | None:
    """The first step where ``actions`` and ``gold`` differ by name or arguments, or one of them ends."""
    for step in range(max(len(actions), len(gold))):
        if step >= len(actions) or step >= len(gold):
            return step
        if actions[step].name != gold[step].get("name") or actions[step].kwargs != (gold[step].get("kwargs") or {}):
            return step
    return None


def _message_index(actions: Sequence[ActionStep], index: int | None) -> int | None:
    return actions[index].message_index if index is not None and index < len(actions) else None


def played_from(messages: Sequence[dict[str, Any]], history_messages: int = 0) -> int:
    """The index of the first message the episode played, after the system prompt and the task's message history.

    The system prompt is skipped when the conversation has one (τ²'s messages do not); the history's
    ``history_messages`` messages (``info.history_messages``) were there before the episode began.
    """
    return (1 if messages and messages[0].get("role") == "system" else 0) + history_messages


def first_divergence(
    messages: Sequence[dict[str, Any]], gold: Sequence[dict[str, Any]], history_messages: int = 0
) -> Divergence:
    """Compare each side's calls with its gold actions step by step (name and arguments as JSON values).

    A gold action is the user's when its ``requestor`` says so (τ²), else the agent's; the user's calls are compared
    with the user's gold actions, the agent's with the agent's. The calls of the task's message history (its first
    ``history_messages`` messages after the system prompt) are nobody's in this episode and are left out; message
    indexes stay those of ``messages``.
    """
    start = played_from(messages, history_messages)
    agents = [step for step in agent_actions(messages) if step.message_index >= start]
    agent_gold = [action for action in gold if (action.get("requestor") or "assistant") != "user"]
    index = _first_difference(agents, agent_gold)
    users = [step for step in user_actions(messages) if step.message_index >= start]
    user_gold = [action for action in gold if action.get("requestor") == "user"]
    user = None
    if users or user_gold:
        user_index = _first_difference(users, user_gold)
        user = SideDivergence(
            actions=users,
            gold_actions=user_gold,
            index=user_index,
            message_index=_message_index(users, user_index),
        )
    return Divergence(
        agent_actions=agents,
        gold_actions=agent_gold,
        index=index,
        message_index=_message_index(agents, index),
        user=user,
    )


class Comparison(BaseModel):
    """Runs side by side on the tasks they share."""

    runs: list[RunSummary]
    tasks: list[str]
    """The tasks every run played, in task order."""
    outcomes: dict[str, list[float | None]]
    """Task → each run's success rate over its scored trials (None: no scored trial)."""
    solved_by_only: dict[str, list[str]]
    """Run id → the shared tasks it solved on every trial while some other run never solved them."""
    paired: list[PairedReport] = []
    """Each run after the first against the first, paired on tasks and trials (docs/statistics.md)."""


def success_rate(run: Run) -> dict[str, float | None]:
    """Task → the share of its scored trials that succeeded (None: none scored)."""
    by_task: dict[str, list[bool]] = {}
    for e in run.episodes:
        by_task.setdefault(e.task_id, [])
        if e.reward is not None and not e.error:
            by_task[e.task_id].append(is_success(e.reward))
    return {task: (sum(wins) / len(wins) if wins else None) for task, wins in by_task.items()}


def compare(runs: Sequence[Run]) -> Comparison:
    """Per-task outcomes of 2 to 5 runs, and the tasks one run solves where another does not."""
    if not 2 <= len(runs) <= 5:
        raise ValueError(f"compare 2 to 5 runs, got {len(runs)}")
    rates = [success_rate(run) for run in runs]
    shared = sorted(set.intersection(*(set(rate) for rate in rates)), key=_task_order)
    outcomes = {task: [rate[task] for rate in rates] for task in shared}
    solved_by_only = {
        run.id: [
            task
            for task in shared
            if rates[i][task] == 1.0 and any(other[task] == 0.0 for j, other in enumerate(rates) if j != i)
        ]
        for i, run in enumerate(runs)
    }
    return Comparison(
        runs=[summarize(run) for run in runs],
        tasks=shared,
        outcomes=outcomes,
        solved_by_only=solved_by_only,
        paired=paired_reports(runs, force=True),
    )
