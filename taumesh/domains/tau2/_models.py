"""Base classes of τ²'s data models as written in this project (``taumesh.domains.tau2_*.models``).

τ²'s records come in two kinds: plain pydantic models, which ignore unknown keys, and models that
refuse them (τ²'s ``BaseModelNoExtra``, the base of every database and of telecom's records). The
models carry no texts an agent sees: tool schemas take model and field descriptions from the fetched
data (:mod:`._texts`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record that ignores keys it does not declare."""


class StrictRecord(BaseModel):
    """A record that refuses keys it does not declare."""

    model_config = ConfigDict(extra="forbid")


class Database(StrictRecord):
    """A domain's whole database: one field per table."""
