"""What the task solvers read from a world: who is on a matter, what is still open, what the corpus holds."""

from __future__ import annotations

from typing import Any

from taumesh.domains.factory import World

Record = dict[str, Any]


def active(world: World, attorney_id: str) -> bool:
    """Whether the lawyer is still at the firm."""
    return bool(world["attorneys"][attorney_id]["status"] == "active")


def team_members(world: World, matter: Record, partners: bool = True) -> list[Record]:
    """The matter's active team members, by id (without its partners when ``partners`` is False)."""
    members = [world["attorneys"][a] for a in sorted(matter["team"]) if active(world, a)]
    return [m for m in members if partners or m["role"] != "partner"]


def open_deadlines(world: World, matter_id: str) -> list[Record]:
    """The matter's open deadlines, earliest first."""
    found = [d for d in world["deadlines"].values() if d["matter_id"] == matter_id and d["status"] == "open"]
    return sorted(found, key=lambda d: (d["due_on"], d["deadline_id"]))


def contacts_of(world: World, client_id: str) -> list[Record]:
    """The people who speak for a client, by id."""
    return sorted((c for c in world["contacts"].values() if c["client_id"] == client_id), key=lambda c: c["contact_id"])


def live_matters_of(world: World, client_id: str) -> list[str]:
    """The ids of a client's matters at intake or open, sorted."""
    return sorted(
        m["matter_id"] for m in world["matters"].values() if m["client_id"] == client_id and m["status"] != "closed"
    )
