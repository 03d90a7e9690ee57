"""What the task solvers read from a world: who owns what, who may sell, what is still open."""

from __future__ import annotations

from typing import Any

from taumesh.domains.factory import World

Record = dict[str, Any]
OPEN_STAGES = ("qualification", "proposal", "negotiation")


def seller(world: World, rep_id: str | None) -> Record | None:
    """The rep ``rep_id`` when they are an active account executive (senior or not), else None."""
    rep = world["reps"].get(rep_id or "")
    return rep if rep and rep["status"] == "active" and rep["role"] != "sales_manager" else None


def full_name(person: Record) -> str:
    """A rep's or contact's first and last name, as the policy has the agent say it."""
    return f"{person['first_name']} {person['last_name']}"


def is_open(opportunity: Record) -> bool:
    """Whether the opportunity is still being worked (not closed won or lost)."""
    return opportunity["stage"] in OPEN_STAGES


def of_account(world: World, table: str, account_id: str) -> list[Record]:
    """The records of ``table`` (contacts or opportunities) on an account, by id."""
    return sorted(
        (r for r in world[table].values() if r["account_id"] == account_id), key=lambda r: str(r[_KEY[table]])
    )


def of_opportunity(world: World, table: str, opportunity_id: str) -> list[Record]:
    """The records of ``table`` (quotes or follow-ups) on an opportunity, by id."""
    records = (r for r in world[table].values() if r["opportunity_id"] == opportunity_id)
    return sorted(records, key=lambda r: str(r[_KEY[table]]))


def sellers_in(world: World, territory: str) -> list[Record]:
    """The active account executives of a territory, by id."""
    reps = (seller(world, rep_id) for rep_id in sorted(world["reps"]))
    return [rep for rep in reps if rep is not None and rep["territory"] == territory]


_KEY = {
    "contacts": "contact_id",
    "opportunities": "opportunity_id",
    "quotes": "quote_id",
    "follow_ups": "follow_up_id",
}
