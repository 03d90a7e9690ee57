"""What one episode's models spent, kept apart by who spent it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from taumesh.models import Usage


class UserChecks(BaseModel):
    """The strict user's checks of its turns over an episode (all 0 for a user that checks nothing).

    How many checks ran, how many turns were redrawn, and how many were sent although their redraw failed too.
    """

    checks: int = 0
    redrawn: int = 0
    sent_failing: int = 0

    def plus(self, other: UserChecks) -> UserChecks:
        return UserChecks(
            checks=self.checks + other.checks,
            redrawn=self.redrawn + other.redrawn,
            sent_failing=self.sent_failing + other.sent_failing,
        )


class EpisodeUsage(BaseModel):
    """The agent's, the user simulator's and the scorer's judge's spend on one episode.

    The agent's and the user's travel with an infrastructure fault (``EpisodeInterrupted``), so no model cost goes
    unaccounted when the episode is retried.
    """

    agent: Usage = Field(default_factory=Usage)
    user: Usage = Field(default_factory=Usage)
    judge: Usage = Field(default_factory=Usage)
    """What the scorer's judge model spent on the episode's NL assertions (τ²)."""
    user_check: Usage = Field(default_factory=Usage)
    """What the strict user's checks of its own turns spent, apart from the user's turns (``TurnCheck.usage``)."""
    user_checks: UserChecks = Field(default_factory=UserChecks)
    """How the strict user's checks went over the episode."""

    def checked(self, check: UserChecks, spent: Usage) -> None:
        """Count one user turn's checks and their spend."""
        self.user_check += spent
        self.user_checks = self.user_checks.plus(check)


PROVIDER = "provider"
"""The ``info`` key of what the providers said about themselves over the scored attempt, by role; absent when no
model was called (docs/results.md)."""


class ProviderAccount(BaseModel):
    """What one role's provider said about itself over an episode's model calls (``info.provider.<role>``).

    A replay with the same seed that differs where this role spoke is the provider's doing; a changed fingerprint or
    served model says the backend itself changed between the two (docs/rollouts.md, "Provider nondeterminism").
    """

    fingerprints: list[str] = Field(default_factory=list)
    """The distinct ``system_fingerprint``s returned, in the order first seen (empty: the provider returned none)."""
    served_models: list[str] = Field(default_factory=list)
    """The distinct model names the provider said it served, in the order first seen."""
    seeded_calls: int = 0
    """How many of the calls' requests carried a ``seed``."""
    calls: int = 0
    """How many model calls the role made."""

    @classmethod
    def of(cls, usage: Usage) -> ProviderAccount:
        return cls(
            fingerprints=list(usage.system_fingerprints),
            served_models=list(usage.served_models),
            seeded_calls=usage.seeded_calls,
            calls=usage.calls,
        )


def provider_record(roles: Mapping[str, Usage]) -> dict[str, Any]:
    """``info.provider``: each role that called a model, with its :class:`ProviderAccount`; empty when none did."""
    return {role: ProviderAccount.of(usage).model_dump() for role, usage in roles.items() if usage.calls}
