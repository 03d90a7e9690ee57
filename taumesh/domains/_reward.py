"""Rewards as named, composable checks.

A domain's reward is a list of components (:class:`RewardComponent`), each named by the basis it
scores (``DB``, ``ENV_ASSERTION``, ``ACTION``, ``COMMUNICATE``, ``NL_ASSERTION``, or a kind of the
domain's own). Every component reports its checks; the reward is the product of the components in
the task's reward basis. NL assertions need a judge model, which a domain never calls: a component
returns them as ``to_judge`` and the scorer service multiplies the judge's verdict in.

τ-bench v1's reward (``calculate_reward``) is :data:`V1_REWARD`: the database must equal the gold one
(DB) and every required output must be said (COMMUNICATE).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import Field

from taumesh.domains._session import Session
from taumesh.domains._task import Task
from taumesh.domains._view import DomainView
from taumesh.models import ChatMessage, RewardBasis, RewardCheck, Score, Termination


@dataclass(frozen=True)
class Episode:
    """A finished episode: the one argument of ``DomainPlugin.score``, and what each reward component sees.

    ``conversation`` is the episode as the orchestrator recorded it, ``final_hash`` the data hash the env reported
    at its end, ``gold_hash`` the one the plugin's ``gold_hash`` hook gives the task. The scorer leaves ``session``
    None; a plugin that replays the episode (τ²'s evaluator does) hands its components the replayed final state
    there, and the hash that replay reached as ``final_hash`` (``dataclasses.replace``).
    """

    domain: DomainView
    task: Task
    conversation: Sequence[ChatMessage]
    termination: Termination
    final_hash: str
    gold_hash: str
    session: Session | None = None

    def responses(self) -> list[str]:
        """The agent's messages to the user (its texts, not its tool calls)."""
        return [m.content for m in self.conversation if m.role == "assistant" and not m.tool_calls]


@dataclass(frozen=True)
class Verdict:
    """One component's outcome: its checks, and its reward (None: nothing to score, left out of the breakdown).

    ``to_judge`` are NL assertions a judge model must still rule on; ``reward`` then leaves them out.
    """

    checks: list[RewardCheck] = field(default_factory=list)
    reward: float | None = 1.0
    to_judge: list[str] = field(default_factory=list)


class RewardComponent(Protocol):
    """A named reward check: ``basis`` names it, :meth:`evaluate` runs it."""

    @property
    def basis(self) -> RewardBasis: ...

    def evaluate(self, episode: Episode) -> Verdict: ...


class EpisodeScore(Score):
    """A domain's score of an episode, with the NL assertions a judge model must still rule on."""

    nl_assertions: list[str] = Field(default_factory=list)
    """Empty when nothing is left to judge; else ``reward`` is that of the other components only."""


@dataclass
class Composed:
    """The reward of components over a basis: the product, the basis members' rewards, every check."""

    reward: float
    breakdown: dict[RewardBasis, float]
    checks: list[RewardCheck]
    to_judge: list[str]


def compose(components: Sequence[RewardComponent], episode: Episode, basis: Sequence[RewardBasis]) -> Composed:
    """Run every component; multiply the rewards of those whose basis is in ``basis``.

    A basis member left to a judge adds its assertions to ``to_judge`` and nothing to the reward; one with
    nothing to judge counts as met.
    """
    reward, breakdown, checks, to_judge = 1.0, {}, [], []
    for component in components:
        verdict = component.evaluate(episode)
        checks.extend(verdict.checks)
        if component.basis not in basis:
            continue
        if verdict.to_judge:
            to_judge.extend(verdict.to_judge)
        elif verdict.reward is not None:
            breakdown[component.basis] = verdict.reward
            reward *= verdict.reward
    return Composed(reward, breakdown, checks, to_judge)


def all_passed(checks: Sequence[RewardCheck]) -> float:
    """1.0 when every check passed (or there is none), else 0.0."""
    return 1.0 if all(check.passed for check in checks) else 0.0


def v1_gold_hash(domain: DomainView, task: Task) -> str:
    """The data hash after the task's gold actions (terminate tools skipped), from the base data."""
    session = Session(domain)
    for action in task.actions:
        if action.name not in domain.spec.terminate_tools:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    return session.data_hash()


def output_found(output: str, responses: Sequence[str]) -> bool:
    """τ-bench's test: the output, lowercased, is a substring of some response lowercased without commas."""
    needle = output.lower()
    return any(needle in response.lower().replace(",", "") for response in responses)


@dataclass(frozen=True)
class DatabaseMatch:
    """DB: the final data hash equals the gold one."""

    basis: RewardBasis = "DB"

    def evaluate(self, episode: Episode) -> Verdict:
        passed = episode.final_hash == episode.gold_hash
        check = RewardCheck(
            basis=self.basis, subject="database", passed=passed, expected=episode.gold_hash, actual=episode.final_hash
        )
        return Verdict([check], 1.0 if passed else 0.0)


@dataclass(frozen=True)
class OutputsSaid:
    """COMMUNICATE: every required output of the task is in some response of the agent (τ-bench v1's test)."""

    basis: RewardBasis = "COMMUNICATE"

    def evaluate(self, episode: Episode) -> Verdict:
        responses = episode.responses()
        checks = [
            RewardCheck(basis=self.basis, subject=output, passed=output_found(output, responses), expected=output)
            for output in episode.task.outputs
        ]
        return Verdict(checks, all_passed(checks))


V1_REWARD: tuple[RewardComponent, ...] = (DatabaseMatch(), OutputsSaid())
"""τ-bench v1's reward components."""


def reward_basis(task: Task) -> list[RewardBasis]:
    """What a v1 task's reward rests on: the database, plus what it requires the agent to say."""
    return ["DB", "COMMUNICATE"] if task.outputs else ["DB"]
