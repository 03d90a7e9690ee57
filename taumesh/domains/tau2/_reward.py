"""τ²'s reward (``evaluate_simulation`` with ``EvaluationType.ALL``) as taumesh :class:`RewardCheck` records.

Each component is computed as τ² computes it; its checks are reported whether or not its basis
counts, and the reward is the product of the components in the task's ``reward_basis``. NL
assertions need a judge model, which this library never calls: when ``NL_ASSERTION`` is in the
basis, :func:`evaluate` returns the other components and the assertions still to judge
(:attr:`Tau2Reward.nl_assertions`), and the scorer service multiplies the judge's verdict in. An
empty list of assertions is met without a judge, as at τ²'s HEAD.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from taumesh.domains._arguments import parse_arguments
from taumesh.domains._domain import Domain
from taumesh.domains._errors import EpisodeMismatch
from taumesh.domains._hashing import Swaps
from taumesh.domains._session import Session
from taumesh.domains.tau2._hash import Tau2Hasher
from taumesh.domains.tau2._state import call_tool, open_session, run_function, run_tool
from taumesh.domains.tau2._tasks import Tau2Task
from taumesh.models import (
    EVALUATED_TERMINATIONS,
    ChatMessage,
    GoldAction,
    RewardBasis,
    RewardCheck,
    Score,
    Termination,
)

_ENV_BASES: frozenset[RewardBasis] = frozenset({"DB", "ENV_ASSERTION"})


@dataclass
class Tau2Reward:
    """The reward, τ²'s ``reward_breakdown`` (basis members only) and every check computed."""

    reward: float
    breakdown: dict[RewardBasis, float] = field(default_factory=dict)
    checks: list[RewardCheck] = field(default_factory=list)
    reward_basis: list[RewardBasis] = field(default_factory=list)
    note: str = ""
    nl_assertions: list[str] = field(default_factory=list)
    """NL assertions of the basis still to judge: ``reward`` and ``breakdown`` leave them out."""

    def score(self) -> Tau2Score:
        return Tau2Score(
            reward=self.reward, checks=self.checks, reward_basis=self.reward_basis, nl_assertions=self.nl_assertions
        )


class Tau2Score(Score):
    """A τ² episode's score, with the NL assertions a judge model must still rule on (see :mod:`._reward`)."""

    nl_assertions: list[str] = Field(default_factory=list)
    """Empty when nothing is left to judge; else ``reward`` is that of the other components only."""


class GoldState(str):
    """A task's gold hash that also holds the gold state: how the gold session's texts differ from the base's.

    A ``str`` so that it travels where the gold hash does (``DomainPlugin.gold_hash``, the scorer's
    cache, ``DomainPlugin.score``) and compares, prints and serialises as the hash itself.
    """

    hasher: Tau2Hasher
    swaps: tuple[Swaps, Swaps]

    def __new__(cls, hash_: str, hasher: Tau2Hasher, swaps: tuple[Swaps, Swaps]) -> GoldState:
        gold = super().__new__(cls, hash_)
        gold.hasher, gold.swaps = hasher, swaps
        return gold


def gold_hash(domain: Domain, task: Tau2Task) -> str:
    """The evaluator's gold state: initial state, then every gold action, errors ignored, no sync between.

    A :class:`GoldState` when the domain's hasher can describe the session by its swaps (every τ² domain's).
    """
    session = open_session(domain, task)
    for action in task.gold_actions:
        run_tool(session, action.name, action.arguments, action.requestor)
    hasher = domain.hasher
    if isinstance(hasher, Tau2Hasher) and (swaps := hasher.swaps(session.data)) is not None:
        return GoldState(hasher.swapped_hash(swaps), hasher, swaps)
    return session.data_hash()


def reached_hash(session: Session, gold: str) -> str:
    """``session.data_hash()``; when the session's texts are the gold ones (equal swaps), ``gold`` unhashed.

    The session's swaps are computed once: compared with the gold swaps, then hashed only if they differ.
    """
    hasher = session.domain.hasher
    if not isinstance(hasher, Tau2Hasher) or (swaps := hasher.swaps(session.data)) is None:
        return session.data_hash()
    if isinstance(gold, GoldState) and gold.hasher is hasher and gold.swaps == swaps:
        return str(gold)
    return hasher.swapped_hash(swaps)


def _arguments(text: str) -> dict[str, Any]:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _product(values: Sequence[float]) -> float:
    result = 1.0
    for value in values:
        result *= value
    return result


def _env_component(
    domain: Domain, task: Tau2Task, session: Session, known_gold_hash: str | None, known_hash: str | None = None
) -> tuple[float, dict[RewardBasis, float], list[RewardCheck]]:
    criteria = task.evaluation_criteria
    assert criteria is not None
    if criteria.actions is None and criteria.env_assertions is None:
        return 1.0, {}, []
    expected = str(known_gold_hash or gold_hash(domain, task))
    actual = known_hash or session.data_hash()
    db_reward = 1.0 if expected == actual else 0.0
    subject = "agent and user databases" if getattr(domain.hasher, "user_table", None) else "agent database"
    checks = [RewardCheck(basis="DB", subject=subject, passed=bool(db_reward), expected=expected, actual=actual)]
    assertion_rewards = []
    for assertion in criteria.env_assertions or []:
        result = run_function(session, assertion)
        if not isinstance(result, bool):
            raise ValueError(f"Function {assertion.func_name} returned {type(result)} instead of bool")
        met = result == assertion.assert_value
        assertion_rewards.append(1.0 if met else 0.0)
        checks.append(
            RewardCheck(
                basis="ENV_ASSERTION",
                subject=f"{assertion.env_type}.{assertion.func_name}({json.dumps(assertion.arguments)})",
                passed=met,
                expected=str(assertion.assert_value),
                actual=str(result),
                explanation=assertion.message or "",
            )
        )
    breakdown: dict[RewardBasis, float] = {}
    reward = 1.0
    if "DB" in criteria.reward_basis:
        breakdown["DB"] = db_reward
        reward *= db_reward
    if "ENV_ASSERTION" in criteria.reward_basis:
        breakdown["ENV_ASSERTION"] = _product(assertion_rewards)
        reward *= breakdown["ENV_ASSERTION"]
    return reward, breakdown, checks


def _action_checks(task: Tau2Task, trajectory: Sequence[ChatMessage]) -> list[RewardCheck]:
    calls = [
        (call.name, _arguments(call.arguments))
        for message in trajectory
        if message.role in ("assistant", "user")
        for call in message.tool_calls
    ]
    return [
        RewardCheck(
            basis="ACTION",
            subject=gold.action_id,
            passed=any(gold.matches(name, arguments) for name, arguments in calls),
            expected=f"{gold.name}({json.dumps(gold.arguments)})",
        )
        for gold in task.gold_actions
    ]


def _communicate_checks(task: Tau2Task, trajectory: Sequence[ChatMessage]) -> list[RewardCheck]:
    criteria = task.evaluation_criteria
    said = [
        message.content.lower().replace(",", "")
        for message in trajectory
        if message.role == "assistant" and message.content.strip()
    ]
    return [
        RewardCheck(basis="COMMUNICATE", subject=info, passed=any(info.lower() in text for text in said))
        for info in (criteria.communicate_info or [] if criteria is not None else [])
    ]


def evaluate(
    domain: Domain,
    task: Tau2Task,
    session: Session,
    trajectory: Sequence[ChatMessage],
    termination: Termination = "user_stop",
    known_gold_hash: str | None = None,
    known_hash: str | None = None,
) -> Tau2Reward:
    """τ²'s reward of an episode that left ``session`` in its final state after ``trajectory``.

    ``trajectory`` is τ²'s full trajectory: the task's message history first (its tool calls count for
    ACTION, its texts for COMMUNICATE, as in τ²), then the episode; ``known_gold_hash`` saves recomputing
    :func:`gold_hash`, ``known_hash`` the session's own hash.
    """
    if termination not in EVALUATED_TERMINATIONS:
        return Tau2Reward(0.0, note=f"Simulation terminated prematurely. Termination reason: {termination}")
    criteria = task.evaluation_criteria
    if criteria is None:
        return Tau2Reward(1.0, note="No evaluation criteria")
    basis = set(criteria.reward_basis)
    env_reward, breakdown, checks = _env_component(domain, task, session, known_gold_hash, known_hash)
    actions = _action_checks(task, trajectory)
    communicate = _communicate_checks(task, trajectory)
    reward = 1.0
    if basis & _ENV_BASES:
        reward *= env_reward
    if "ACTION" in basis:
        breakdown["ACTION"] = 1.0 if all(check.passed for check in actions) else 0.0
        reward *= breakdown["ACTION"]
    if "COMMUNICATE" in basis:
        breakdown["COMMUNICATE"] = 1.0 if all(check.passed for check in communicate) else 0.0
        reward *= breakdown["COMMUNICATE"]
    to_judge = list(criteria.nl_assertions or []) if "NL_ASSERTION" in basis else []
    if "NL_ASSERTION" in basis and not to_judge:
        breakdown["NL_ASSERTION"] = 1.0  # nothing to assert: met without a judge
    checks = [*checks, *actions, *communicate]
    return Tau2Reward(reward, breakdown, checks, list(criteria.reward_basis), nl_assertions=to_judge)


def replay(domain: Domain, task: Tau2Task, conversation: Sequence[ChatMessage]) -> Session:
    """τ²'s predicted env: the task's initial state, then every tool call the episode ran, in order.

    A call is replayed as the orchestrator ran it: not when its id is empty or was already used, nor
    when its arguments are not a JSON object (the env answered those without running anything). The
    message history's calls, which the conversation starts with, ran when the session opened: their ids
    count as used.
    """
    session = open_session(domain, task)
    seen = {call.id for message in task.history() for call in message.tool_calls}
    for message in conversation:
        if message.role not in ("assistant", "user"):
            continue
        for call in message.tool_calls:
            if not call.id or call.id in seen:
                continue
            seen.add(call.id)
            arguments = parse_arguments(call.arguments)
            if isinstance(arguments, dict):
                call_tool(session, call.name, arguments, call.requestor)
    return session


def score_episode(
    domain: Domain,
    task: Tau2Task,
    conversation: Sequence[ChatMessage],
    termination: Termination,
    final_hash: str,
    gold: str,
) -> Score:
    """τ²'s reward of a recorded episode, evaluated on its replay (as τ²'s evaluator does).

    The replay must reach the env's ``final_hash`` (when given): else :class:`EpisodeMismatch`, as τ²
    raises when a replayed output differs from the recorded one. With ``gold`` a :class:`GoldState`,
    a replay in the gold state is not hashed: its hash is the gold hash (see :func:`reached_hash`).
    """
    gold_actions = [
        GoldAction(name=action.name, kwargs=action.arguments, requestor=action.requestor)
        for action in task.gold_actions
    ]
    outputs = list(task.outputs)
    if termination not in EVALUATED_TERMINATIONS:
        reward = evaluate(domain, task, Session(domain), conversation, termination, known_gold_hash=gold)
    else:
        session = replay(domain, task, conversation)
        reached = reached_hash(session, gold)  # the check below and the DB component both use it
        if final_hash and reached != final_hash:
            raise EpisodeMismatch(
                f"replaying the episode's tool calls on {domain.name} task {task.id!r} does not reach the final state "
                "the env reported"
            )
        reward = evaluate(domain, task, session, conversation, termination, known_gold_hash=gold, known_hash=reached)
    return reward.score().model_copy(update={"gold_actions": gold_actions, "required_outputs": outputs})
