"""The CRM's seeded worlds: one sales organisation per seed, every id tagged with its world, invariants declared.

A world has three territories, each with a manager, three reps and one rep who has left (whose accounts wait for a
new owner); about fifty accounts with their contacts, opportunities at every stage, quotes, pending discount
requests, e-signature envelopes, logged activities, open follow-ups, and the users' own calendars and inboxes.
:data:`INVARIANTS` states what every world keeps; :func:`worlds` checks them as it builds.
"""

from __future__ import annotations

import itertools
import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.sales.clock import DISCOUNT_AUTHORITY, TODAY, day, quote_total, unit_price, weekday_on_or_after
from taumesh.domains.sales.vocabulary import (
    COMPANY_HEAD,
    COMPANY_TAIL,
    FIRST,
    INDUSTRIES,
    LAST,
    PRODUCTS,
    QUANTITIES,
    REGION_DOMAINS,
    TERRITORIES,
    TITLES,
)

SEEDS = {"w1": 44_101, "w2": 44_102, "w3": 44_103}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
ACCOUNTS = 48
"""Accounts per world."""
SHARED = ("products",)
"""Reference data every world shares: the price book."""
Record = dict[str, Any]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def _company_names(tag: str) -> list[str]:
    """Company names of world ``tag``: a slice of every name, shuffled once, so no two worlds share one."""
    names = [f"{head} {tail}" for head, tail in itertools.product(COMPANY_HEAD, COMPANY_TAIL)]
    random.Random(44).shuffle(names)
    start = (int(tag[1:]) - 1) * ACCOUNTS
    return names[start : start + ACCOUNTS]


class _People:
    """Distinct full names within a world."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[tuple[str, str]] = set()

    def name(self) -> tuple[str, str]:
        while True:
            pair = (self.rng.choice(FIRST), self.rng.choice(LAST))
            if pair not in self.used:
                self.used.add(pair)
                return pair


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the price book's carries ``tag``."""
    rng = random.Random(seed)
    people = _People(rng)
    tables: World = {name: {} for name in _TABLES}
    tables["products"] = {p["product_id"]: dict(p) for p in PRODUCTS}
    _reps(rng, people, tables, tag)
    for number, name in enumerate(_company_names(tag), start=1):
        _account(rng, people, tables, tag, number, name)
    _calendars(rng, tables)
    return tables


_TABLES = (
    "products",
    "reps",
    "accounts",
    "contacts",
    "opportunities",
    "quotes",
    "approvals",
    "envelopes",
    "activities",
    "follow_ups",
    "calendars",
    "mailboxes",
    "verifications",
    "handoffs",
)


def _reps(rng: random.Random, people: _People, tables: World, tag: str) -> None:
    roles = ["sales_manager", "account_executive", "senior_account_executive", "account_executive", "account_executive"]
    number = 0
    for territory in TERRITORIES:
        manager_id = None
        for position, role in enumerate(roles):
            number += 1
            rep_id = f"rep-{tag}-{number:02d}"
            first, last = people.name()
            tables["reps"][rep_id] = {
                "rep_id": rep_id,
                "first_name": first,
                "last_name": last,
                "email": f"{first.lower()}.{last.lower()}@{REGION_DOMAINS[tag]}.northpeak.example",
                "employee_number": f"{rng.randint(100000, 999999)}",
                "role": role,
                "manager_id": manager_id,
                "territory": territory,
                "status": "departed" if position == len(roles) - 1 else "active",
            }
            manager_id = manager_id or rep_id


def _sellers(tables: World, territory: str, status: str) -> list[str]:
    return sorted(
        r["rep_id"]
        for r in tables["reps"].values()
        if r["territory"] == territory and r["status"] == status and r["role"] != "sales_manager"
    )


def _account(rng: random.Random, people: _People, tables: World, tag: str, number: int, name: str) -> None:
    account_id = f"acc-{tag}-{number:03d}"
    territory = TERRITORIES[number % len(TERRITORIES)]
    draw = rng.random()
    owner = (
        rng.choice(_sellers(tables, territory, "active"))
        if draw < 0.7
        else rng.choice(_sellers(tables, territory, "departed"))
        if draw < 0.85
        else None
    )
    domain = name.lower().replace(" ", "") + ".example"
    tables["accounts"][account_id] = {
        "account_id": account_id,
        "name": name,
        "industry": rng.choice(INDUSTRIES),
        "territory": territory,
        "owner_rep_id": owner,
        "credit_hold": rng.random() < 0.14,
        "email_domain": domain,
    }
    contacts = [_contact(rng, people, tables, tag, account_id, domain, role) for role in _buying_roles(rng)]
    for kind in rng.sample(_DEAL_KINDS, rng.choice([1, 2, 2])):
        _opportunity(rng, tables, tag, tables["accounts"][account_id], contacts, kind)


def _buying_roles(rng: random.Random) -> list[str]:
    return ["decision_maker", *rng.sample(["champion", "influencer", "end_user"], rng.randint(1, 2))]


def _contact(
    rng: random.Random, people: _People, tables: World, tag: str, account_id: str, domain: str, role: str
) -> Record:
    contact_id = f"con-{tag}-{len(tables['contacts']) + 1:03d}"
    first, last = people.name()
    email = f"{first.lower()}.{last.lower()}@{domain}"
    contact = {
        "contact_id": contact_id,
        "account_id": account_id,
        "first_name": first,
        "last_name": last,
        "title": rng.choice(TITLES[role]),
        "email": email,
        "buying_role": role,
        "do_not_email": rng.random() < 0.25,
        "do_not_call": rng.random() < 0.25,
    }
    tables["contacts"][contact_id] = contact
    tables["mailboxes"][contact_id] = {"contact_id": contact_id, "address": email, "messages": []}
    return contact


_DEAL_KINDS = ["expansion", "renewal", "platform rollout", "pilot", "analytics add-on"]
"""What an opportunity is for; an account's opportunities are of different kinds, so each has its own name."""
_STAGES = ["qualification", "proposal", "proposal", "negotiation", "negotiation", "closed_won", "closed_lost"]
_FORECASTS = {
    "qualification": ["pipeline"],
    "proposal": ["pipeline", "best_case"],
    "negotiation": ["best_case", "commit", "commit"],
}
_QUOTE_STATUS = {
    "proposal": ["draft", "approved", "approved", "pending_approval", "pending_approval", "pending_approval"],
    "negotiation": [
        "approved",
        "approved",
        "approved",
        "pending_approval",
        "pending_approval",
        "out_for_signature",
        "signed",
        "draft",
    ],
    "closed_won": ["signed"],
}


def _opportunity(
    rng: random.Random, tables: World, tag: str, account: Record, contacts: list[Record], kind: str
) -> None:
    opportunity_id = f"opp-{tag}-{len(tables['opportunities']) + 1:03d}"
    stage = rng.choice(_STAGES)
    closed = stage.startswith("closed")
    offset = timedelta(days=rng.randint(5, 110))
    activity_days = sorted(rng.sample(range(2, 60), rng.randint(2, 4)))
    opportunity = {
        "opportunity_id": opportunity_id,
        "account_id": account["account_id"],
        "name": f"{account['name']} {kind}",
        "owner_rep_id": account["owner_rep_id"],
        "stage": stage,
        "amount": float(rng.randint(20, 500) * 500),
        "close_date": (TODAY - offset if closed else TODAY + offset).isoformat(),
        "close_date_changes": rng.choice([0, 0, 0, 1, 1, 2]),
        "forecast_category": "closed" if closed else rng.choice(_FORECASTS[stage]),
        "last_activity_date": (TODAY - timedelta(days=activity_days[0])).isoformat(),
        "lost_reason": rng.choice(["price", "competitor", "no_budget", "no_decision", "timing"])
        if stage == "closed_lost"
        else None,
        "won_quote_id": None,
    }
    tables["opportunities"][opportunity_id] = opportunity
    for ago in activity_days:
        activity_id = f"act-{tag}-{len(tables['activities']) + 1:04d}"
        tables["activities"][activity_id] = {
            "activity_id": activity_id,
            "opportunity_id": opportunity_id,
            "contact_id": rng.choice(contacts)["contact_id"],
            "rep_id": account["owner_rep_id"] or "",
            "kind": rng.choice(["meeting", "call", "email"]),
            "date": (TODAY - timedelta(days=ago)).isoformat(),
        }
    if stage in _QUOTE_STATUS:
        _quote(rng, tables, tag, opportunity, contacts)
    if not closed:
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            _follow_up(rng, tables, tag, opportunity, contacts)


def _quote(rng: random.Random, tables: World, tag: str, opportunity: Record, contacts: list[Record]) -> None:
    quote_id = f"qt-{tag}-{len(tables['quotes']) + 1:03d}"
    owner = tables["reps"].get(opportunity["owner_rep_id"] or "")
    status = rng.choice(_QUOTE_STATUS[opportunity["stage"]])
    if status == "pending_approval" and (owner is None or owner["status"] != "active"):
        status = "draft"  # only an active rep's request waits for their manager
    products = rng.sample(PRODUCTS, rng.choice([1, 1, 2]))
    lines = []
    for product in products:
        quantity = rng.choice(QUANTITIES[product["unit"]])
        lines.append(
            {"product_id": product["product_id"], "quantity": quantity, "unit_price": unit_price(product, quantity)}
        )
    discount = rng.choice([0, 0, 5, 8, 10])
    tables["quotes"][quote_id] = {
        "quote_id": quote_id,
        "opportunity_id": opportunity["opportunity_id"],
        "lines": lines,
        "discount_percent": discount,
        "total": quote_total(lines, discount),
        "status": status,
        "valid_until": (TODAY + timedelta(days=rng.choice([-25, -9, -2, 6, 15, 21, 28]))).isoformat(),
    }
    if opportunity["stage"] == "closed_won":
        opportunity.update(won_quote_id=quote_id, amount=tables["quotes"][quote_id]["total"])
    if status == "pending_approval" and owner is not None:
        approval_id = f"apr-{tag}-{len(tables['approvals']) + 1:03d}"
        tables["approvals"][approval_id] = {
            "approval_id": approval_id,
            "quote_id": quote_id,
            "requested_by": owner["rep_id"],
            "approver_id": owner["manager_id"],
            "discount_percent": rng.choice(
                [p for p in (12, 14, 18, 20, 24, 28, 30) if p > DISCOUNT_AUTHORITY[owner["role"]]]
            ),
            "status": "pending",
        }
    if status in ("out_for_signature", "signed"):
        signer = contacts[0]
        envelope_id = f"env-{tag}-{len(tables['envelopes']) + 1:03d}"
        tables["envelopes"][envelope_id] = {
            "envelope_id": envelope_id,
            "quote_id": quote_id,
            "signer_contact_id": signer["contact_id"],
            "signer_email": signer["email"],
            "status": "signed" if status == "signed" else "sent",
        }


def _follow_up(rng: random.Random, tables: World, tag: str, opportunity: Record, contacts: list[Record]) -> None:
    follow_up_id = f"fu-{tag}-{len(tables['follow_ups']) + 1:03d}"
    contact = rng.choice(contacts)
    tables["follow_ups"][follow_up_id] = {
        "follow_up_id": follow_up_id,
        "opportunity_id": opportunity["opportunity_id"],
        "contact_id": contact["contact_id"],
        "rep_id": opportunity["owner_rep_id"] or "",
        "channel": "call" if contact["do_not_email"] else "email",
        "due_date": weekday_on_or_after(TODAY + timedelta(days=rng.randint(1, 25))).isoformat(),
        "status": "open",
    }


def _calendars(rng: random.Random, tables: World) -> None:
    """Each active rep's calendar: meetings and calls with their accounts' contacts, past (some long ago) and ahead."""
    for rep in tables["reps"].values():
        if rep["status"] != "active":
            continue
        owned = {a["account_id"] for a in tables["accounts"].values() if a["owner_rep_id"] == rep["rep_id"]}
        people = sorted(
            (c for c in tables["contacts"].values() if c["account_id"] in owned), key=lambda c: c["contact_id"]
        )
        events = []
        for contact in rng.sample(people, min(len(people), 6)):
            kind = rng.choice(["meeting", "call"])
            when = TODAY + timedelta(days=rng.choice([-38, -27, -19, -12, -9, -6, -3, -1, 4, 11]))
            account = tables["accounts"][contact["account_id"]]["name"]
            events.append(
                {
                    "title": f"{kind.capitalize()} with {contact['first_name']} {contact['last_name']} ({account})",
                    "date": when.isoformat(),
                    "contact_email": contact["email"],
                    "kind": kind,
                }
            )
        events.sort(key=lambda e: e["date"])
        tables["calendars"][rep["rep_id"]] = {"rep_id": rep["rep_id"], "owner_email": rep["email"], "events": events}


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table not in SHARED
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


def _owned_by_account_owner(world: World) -> list[str]:
    return [
        f"opportunities[{key}] is owned by {o['owner_rep_id']}, its account by another"
        for key, o in world["opportunities"].items()
        if o["owner_rep_id"] != world["accounts"][o["account_id"]]["owner_rep_id"]
    ]


def _managers_fit(world: World) -> list[str]:
    reps = world["reps"]
    return [
        f"reps[{key}] reports to {r['manager_id']}, not a sales manager of {r['territory']}"
        for key, r in reps.items()
        if r["manager_id"] is not None
        and (reps[r["manager_id"]]["role"] != "sales_manager" or reps[r["manager_id"]]["territory"] != r["territory"])
    ]


def _approver_is_manager(world: World) -> list[str]:
    reps = world["reps"]
    return [
        f"approvals[{key}] goes to {a['approver_id']}, not the requester's manager"
        for key, a in world["approvals"].items()
        if reps[a["requested_by"]]["manager_id"] != a["approver_id"]
    ]


def _activities_past(world: World) -> list[str]:
    opportunities = world["opportunities"]
    return [
        f"activities[{key}] on {a['date']} is after today or its opportunity's last activity"
        for key, a in world["activities"].items()
        if day(a["date"]) > TODAY or a["date"] > opportunities[a["opportunity_id"]]["last_activity_date"]
    ]


def _close_date_fits(opportunity: Record) -> str | None:
    closed = opportunity["stage"].startswith("closed")
    if closed != (day(opportunity["close_date"]) <= TODAY):
        return f"a {opportunity['stage']} opportunity closes on {opportunity['close_date']}"
    return None


def _quote_adds_up(quote: Record) -> str | None:
    if quote_total(quote["lines"], quote["discount_percent"]) != quote["total"]:
        return f"total {quote['total']} is not its lines less {quote['discount_percent']} %"
    if quote["discount_percent"] > max(DISCOUNT_AUTHORITY.values()):
        return f"discount {quote['discount_percent']} % is beyond any rep's authority"
    return None


def _contact_on_domain(world: World) -> list[str]:
    accounts = world["accounts"]
    return [
        f"contacts[{key}] {c['email']} is not on {accounts[c['account_id']]['email_domain']}"
        for key, c in world["contacts"].items()
        if not c["email"].endswith("@" + accounts[c["account_id"]]["email_domain"])
    ]


INVARIANTS = (
    Invariant("every id carries its world's tag", _tagged),
    Invariant("an opportunity is owned by its account's owner", _owned_by_account_owner),
    Invariant("a rep reports to the sales manager of their territory", _managers_fit),
    Invariant("a discount request goes to the requester's manager", _approver_is_manager),
    Invariant("activities are past, and no later than their opportunity's last activity", _activities_past),
    Invariant("contacts' emails are on their account's domain", _contact_on_domain),
    per_record("opportunities", "open ones close after today, closed ones on or before", _close_date_fits),
    per_record("quotes", "totals are their lines less the discount, within authority", _quote_adds_up),
)
