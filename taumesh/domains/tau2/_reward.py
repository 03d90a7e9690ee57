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

from taumesh.domains import (
    DomainView,
    Episode,
    EpisodeMismatch,
    EpisodeScore,
    RewardComponent,
    Session,
    Swaps,
    Verdict,
    all_passed,
    compose,
    replayed_calls,
)
from taumesh.domains.tau2._hash import Tau2Hasher
from taumesh.domains.tau2._state import call_tool, open_session, run_function, run_tool
from taumesh.domains.tau2._tasks import EvaluationCriteria, Tau2Task
from taumesh.models import (
    EVALUATED_TERMINATIONS,
    ChatMessage,
    GoldAction,
    RewardBasis,
    RewardCheck,
    Termination,
)

Tau2Score = EpisodeScore
"""A τ² episode's score: the contract's, with the NL assertions a judge model must still rule on."""


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


def gold_hash(domain: DomainView, task: Tau2Task) -> str:
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


def _criteria(task: Tau2Task) -> EvaluationCriteria:
    criteria = task.evaluation_criteria
    assert criteria is not None
    return criteria


def _env_checked(task: Tau2Task) -> bool:
    """τ²'s environment evaluator runs only for gold actions or env assertions (else: 1.0, no breakdown)."""
    criteria = _criteria(task)
    return not (criteria.actions is None and criteria.env_assertions is None)


def _tau2(episode: Episode) -> Tau2Task:
    if not isinstance(episode.task, Tau2Task):
        raise TypeError(f"{episode.domain.name} needs a τ² task, got {type(episode.task).__name__}")
    return episode.task


def _session(episode: Episode) -> Session:
    if episode.session is None:
        raise ValueError(f"{episode.domain.name}: τ²'s reward is computed on the replayed session")
    return episode.session


@dataclass(frozen=True)
class DatabaseCheck:
    """DB: the replayed state's hash (agent and user databases) equals the gold state's."""

    basis: RewardBasis = "DB"

    def evaluate(self, episode: Episode) -> Verdict:
        task = _tau2(episode)
        if not _env_checked(task):
            return Verdict(reward=None)
        expected = str(episode.gold_hash or gold_hash(episode.domain, task))
        actual = episode.final_hash or _session(episode).data_hash()
        passed = expected == actual
        user = getattr(episode.domain.hasher, "user_table", None)
        subject = "agent and user databases" if user else "agent database"
        check = RewardCheck(basis=self.basis, subject=subject, passed=passed, expected=expected, actual=actual)
        return Verdict([check], 1.0 if passed else 0.0)


@dataclass(frozen=True)
class EnvAssertionCheck:
    """ENV_ASSERTION: each of the task's env assertions, a toolkit function run on the replayed state."""

    basis: RewardBasis = "ENV_ASSERTION"

    def evaluate(self, episode: Episode) -> Verdict:
        task = _tau2(episode)
        if not _env_checked(task):
            return Verdict(reward=None)
        checks = []
        for assertion in _criteria(task).env_assertions or []:
            result = run_function(_session(episode), assertion)
            if not isinstance(result, bool):
                raise ValueError(f"Function {assertion.func_name} returned {type(result)} instead of bool")
            checks.append(
                RewardCheck(
                    basis=self.basis,
                    subject=f"{assertion.env_type}.{assertion.func_name}({json.dumps(assertion.arguments)})",
                    passed=result == assertion.assert_value,
                    expected=str(assertion.assert_value),
                    actual=str(result),
                    explanation=assertion.message or "",
                )
            )
        return Verdict(checks, all_passed(checks))


@dataclass(frozen=True)
class ActionCheck:
    """ACTION: each gold action appears among the trajectory's tool calls (τ²'s comparison of arguments)."""

    basis: RewardBasis = "ACTION"

    def evaluate(self, episode: Episode) -> Verdict:
        checks = _action_checks(_tau2(episode), episode.conversation)
        return Verdict(checks, all_passed(checks))


@dataclass(frozen=True)
class CommunicateCheck:
    """COMMUNICATE: each ``communicate_info`` is in some message of the agent (lowercased, commas dropped)."""

    basis: RewardBasis = "COMMUNICATE"

    def evaluate(self, episode: Episode) -> Verdict:
        checks = _communicate_checks(_tau2(episode), episode.conversation)
        return Verdict(checks, all_passed(checks))


@dataclass(frozen=True)
class NlAssertionCheck:
    """NL_ASSERTION: the task's assertions, left to the scorer's judge model; none to judge is met."""

    basis: RewardBasis = "NL_ASSERTION"

    def evaluate(self, episode: Episode) -> Verdict:
        return Verdict(to_judge=list(_criteria(_tau2(episode)).nl_assertions or []))


TAU2_REWARD: tuple[RewardComponent, ...] = (
    DatabaseCheck(),
    EnvAssertionCheck(),
    ActionCheck(),
    CommunicateCheck(),
    NlAssertionCheck(),
)
"""τ²'s reward components (``EvaluationType.ALL``), in the order τ² reports them."""


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
    domain: DomainView,
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
    episode = Episode(domain, task, trajectory, termination, known_hash or "", known_gold_hash or "", session)
    composed = compose(TAU2_REWARD, episode, criteria.reward_basis)
    return Tau2Reward(
        composed.reward,
        composed.breakdown,
        composed.checks,
        list(criteria.reward_basis),
        nl_assertions=composed.to_judge,
    )


def replay(domain: DomainView, task: Tau2Task, conversation: Sequence[ChatMessage]) -> Session:
    """τ²'s predicted env: the task's initial state, then every tool call the episode ran, in order.

    A call is replayed as the orchestrator ran it: not when its id is empty or was already used, nor
    when its arguments are not a JSON object (the env answered those without running anything). The
    message history's calls, which the conversation starts with, ran when the session opened: their ids
    count as used.
    """
    session = open_session(domain, task)
    for call, arguments in replayed_calls(task.history(), conversation):
        call_tool(session, call.name, arguments, call.requestor)
    return session


def score_episode(
    domain: DomainView,
    task: Tau2Task,
    conversation: Sequence[ChatMessage],
    termination: Termination,
    final_hash: str,
    gold: str,
) -> EpisodeScore:
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
