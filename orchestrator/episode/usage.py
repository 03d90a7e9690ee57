"""What one episode's models spent, kept apart by who spent it."""

from __future__ import annotations

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
