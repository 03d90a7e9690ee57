"""What one rollout returns to a trainer: :class:`RolloutEpisode`, read from a run's result entry."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from taumesh.gateway.records import ModelCallTrace
from taumesh.models import RewardBasis, RewardCheck
from taumesh.orchestrator.results.records import EpisodeError, RunResult


class RolloutCheck(BaseModel):
    """One named check of the episode's reward basis, as the scorer judged it (``info.reward_checks``)."""

    basis: RewardBasis
    """The kind of check (τ²'s DB, ACTION, COMMUNICATE, ENV_ASSERTION, NL_ASSERTION, or a domain's own)."""
    subject: str
    """What it checked: the database, one action, one output…"""
    passed: bool
    expected: str = ""
    actual: str = ""
    credit: float
    """Its share of credit in [0, 1]. No domain defines partial credit yet, so it is 1.0 when passed, else 0.0."""

    @classmethod
    def from_check(cls, check: RewardCheck) -> RolloutCheck:
        return cls(
            basis=check.basis,
            subject=check.subject,
            passed=check.passed,
            expected=check.expected,
            actual=check.actual,
            credit=1.0 if check.passed else 0.0,
        )


class RolloutEpisode(BaseModel):
    """One played (task, trial): its trajectory, binary reward and reward vector, or why the infrastructure failed it.

    An infrastructure failure is retried by the run, then reported in ``error`` with ``reward`` None: it is never a
    reward of 0, which a trainer would learn from.
    """

    task_id: str
    trial: int
    seed: int
    """The seed the episode played with (both models got it): :func:`taumesh.rollout.seed_for` of the run's seed."""
    trajectory: list[dict[str, Any]]
    """The conversation in time order, OpenAI chat messages (the user's own tool calls in their places)."""
    reward: float | None
    """The task's binary reward (τ-bench's, τ²'s); None when ``error`` is set."""
    reward_basis: list[RewardBasis]
    """Which kinds of checks the reward is the conjunction of."""
    reward_vector: list[RolloutCheck]
    """Every named check and how it went; empty when ``error`` is set."""
    error: EpisodeError | None = None
    info: dict[str, Any]
    """The result entry's whole ``info`` (termination, steps, usage, the run's fingerprint…)."""
    rollout_id: str = ""
    """The id the model gateway filed this episode's agent calls under (``info.rollout_id``); empty without one."""
    traces: list[ModelCallTrace] = Field(default_factory=list)
    """The agent's model calls through the gateway, in order: token ids, log-probabilities, loss mask (empty
    without a gateway; docs/gateway.md). The user simulator's calls are not the policy's and are not here."""

    @property
    def is_error(self) -> bool:
        return self.error is not None

    @classmethod
    def from_result(cls, result: RunResult) -> RolloutEpisode:
        """The episode a run's result entry records."""
        error = result.info.get("error")
        checks = [RewardCheck.model_validate(check) for check in result.info.get("reward_checks") or []]
        return cls(
            task_id=str(result.task_id),
            trial=result.trial,
            seed=result.info["seed"],
            trajectory=result.timeline(),
            reward=None if error else result.reward,
            reward_basis=list(result.info.get("reward_basis") or []),
            reward_vector=[RolloutCheck.from_check(check) for check in checks],
            error=EpisodeError.model_validate(error) if error else None,
            info=result.info,
            rollout_id=str(result.info.get("rollout_id") or ""),
        )
