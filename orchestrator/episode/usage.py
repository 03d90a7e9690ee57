"""What one episode's models spent, kept apart by who spent it."""

from __future__ import annotations

from pydantic import BaseModel, Field

from taumesh.models import Usage


class EpisodeUsage(BaseModel):
    """The agent's, the user simulator's and the scorer's judge's spend on one episode.

    The agent's and the user's travel with an infrastructure fault (``EpisodeInterrupted``), so no model cost goes
    unaccounted when the episode is retried.
    """

    agent: Usage = Field(default_factory=Usage)
    user: Usage = Field(default_factory=Usage)
    judge: Usage = Field(default_factory=Usage)
    """What the scorer's judge model spent on the episode's NL assertions (τ²)."""
