"""Who is asking: an authenticated API key, and whether it may see every run."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Caller(BaseModel):
    """An authenticated key: its public id, and ``admin`` when it sees every run (not only its own)."""

    model_config = ConfigDict(frozen=True)

    key_id: str
    admin: bool = False
