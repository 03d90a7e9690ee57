"""The insurer's worlds: policyholders, their policies and invoices, their claims, and the phones they hold.

One world per seed, each id carrying the world's tag (products are shared reference data). The rules every world
keeps are :data:`INVARIANTS`, checked on each as it is built: a claim's incident falls inside its policy's life and
is reported after it happens, an approved amount is the loss above the deductible within the limit, a premium is the
base rate times the deductible's factor, a lapsed policy owes an overdue invoice, and a claim awaiting documents
lacks one.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record, within
from taumesh.domains.insurance.catalog import DENIAL_REASONS, REQUIRED_DOCUMENTS, products
from taumesh.domains.insurance.clock import (
    APPEAL_WINDOW_DAYS,
    DEDUCTIBLE_FACTORS,
    GRACE_DAYS,
    REPORTING_WINDOW_DAYS,
    REVIEW_DAYS,
    TODAY,
    day,
    iso,
    plus_days,
    premium,
)
from taumesh.domains.insurance.people import (
    CAPTIONS,
    CARS,
    FIRST_NAMES,
    LAST_NAMES,
    OTHER_PHOTOS,
    PETS,
    STREETS,
)

SEEDS = {"w1": 43_101, "w2": 43_202, "w3": 43_303}
"""One world per tag; the tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
HOLDERS = 48
"""Policyholders per world."""
MISSING_PHOTO_SHARE = 0.5
"""Of the claims awaiting two documents, the share whose policyholder has a photo of only one of them."""

Record = dict[str, Any]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the products' carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {
        "products": products(),
        "policyholders": {},
        "policies": {},
        "invoices": {},
        "claims": {},
        "devices": {},
        "verifications": {},
        "coverage_letters": {},
        "appeals": {},
        "handoffs": {},
    }
    names = rng.sample([(f, last) for f in FIRST_NAMES for last in LAST_NAMES], HOLDERS)
    for number, (first, last) in enumerate(names, 1):
        _holder(rng, tables, tag, number, first, last)
    return tables


def _holder(rng: random.Random, tables: World, tag: str, number: int, first: str, last: str) -> None:
    holder_id = f"ph-{tag}-{number:03d}"
    bank = {"routing_number": f"0{rng.randint(10**7, 10**8 - 1)}", "account_last4": f"{rng.randint(0, 9999):04d}"}
    tables["policyholders"][holder_id] = {
        "policyholder_id": holder_id,
        "first_name": first,
        "last_name": last,
        "date_of_birth": iso(TODAY - timedelta(days=rng.randint(22 * 365, 75 * 365))),
        "zip_code": f"{rng.randint(10000, 99999)}",
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}",
        "email": f"{first.lower()}.{last.lower()}.{tag}@example.com",
        "bank_account": bank if rng.random() < 0.7 else None,
        "card_last4": f"{rng.randint(0, 9999):04d}",
    }
    device: Record = {
        "policyholder_id": holder_id,
        "passcode": f"{rng.randint(100000, 999999)}",
        "unlocked": False,
        "text_messages": [{"sender": "Harborline Mutual", "text": "Thanks for being a Harborline policyholder."}],
        "photos": [],
    }
    tables["devices"][holder_id] = device
    lines = rng.sample(["auto", "home", "pet", "auto"], rng.randint(1, 2))  # cars are the commonest line
    if "home" in lines and rng.random() < 0.4:
        lines[lines.index("home")] = "renters"
    for line in dict.fromkeys(lines):
        policy = _policy(rng, tables, tag, holder_id, line)
        for _ in range(rng.choice([0, 1, 1, 2, 2])):
            _claim(rng, tables, policy, device)
    for caption in rng.sample(OTHER_PHOTOS, rng.randint(1, 3)):
        _photo(device, caption, "other")


def _item(rng: random.Random, line: str) -> str:
    if line == "auto":
        return f"{rng.randint(2012, 2024)} {rng.choice(CARS)}"
    if line == "pet":
        species, name = rng.choice(PETS)
        return f"{species} {name}"
    street = f"{rng.randint(2, 480)} {rng.choice(STREETS)}"
    return f"house at {street}" if line == "home" else f"apartment at {street}, unit {rng.randint(1, 40)}"


def _policy(rng: random.Random, tables: World, tag: str, holder_id: str, line: str) -> Record:
    policy_id = f"pol-{tag}-{len(tables['policies']) + 1:04d}"
    product = rng.choice([p for p in tables["products"].values() if p["line"] == line])
    age = rng.randint(5, 45) if rng.random() < 0.3 else rng.randint(46, 900)
    start = TODAY - timedelta(days=age)
    end = start + timedelta(days=365 * (age // 365 + 1))
    deductible = rng.choice(product["deductible_options"])
    base_rate = round(rng.uniform(280, 2400), 2)
    lapsed = age > 60 and rng.random() < 0.22
    lapse_date = None
    if lapsed:
        lapse_age = rng.choice([d for d in range(4, 58) if d != GRACE_DAYS])
        lapse_date = iso(TODAY - timedelta(days=lapse_age))
    policy = {
        "policy_id": policy_id,
        "policyholder_id": holder_id,
        "product_id": product["product_id"],
        "insured_item": _item(rng, line),
        "status": "lapsed" if lapsed else "active",
        "start_date": iso(start),
        "end_date": iso(end),
        "deductible": deductible,
        "base_rate": base_rate,
        "annual_premium": premium(base_rate, deductible),
        "lapse_date": lapse_date,
        "cancellation": None,
    }
    tables["policies"][policy_id] = policy
    _invoices(rng, tables, policy)
    return policy


def _invoices(rng: random.Random, tables: World, policy: Record) -> None:
    monthly = round(policy["annual_premium"] / 12, 2)
    invoices = tables["invoices"]

    def add(due: str, status: str, paid_on: str | None) -> None:
        invoice_id = f"inv-{policy['policy_id'].removeprefix('pol-')}-{len(invoices) + 1}"
        invoices[invoice_id] = {
            "invoice_id": invoice_id,
            "policy_id": policy["policy_id"],
            "amount": monthly,
            "due_date": due,
            "status": status,
            "paid_on": paid_on,
        }

    if policy["status"] == "lapsed":
        missed = rng.randint(1, 2)
        for month in range(missed, 0, -1):
            add(plus_days(policy["lapse_date"], -10 - 30 * (month - 1)), "overdue", None)
    else:
        due = iso(TODAY - timedelta(days=rng.randint(12, 35)))
        add(due, "paid", plus_days(due, -rng.randint(0, 3)))
        add(iso(TODAY + timedelta(days=rng.randint(5, 25))), "open", None)


def _claim(rng: random.Random, tables: World, policy: Record, device: Record) -> None:
    product = tables["products"][policy["product_id"]]
    status = rng.choice(
        ["awaiting_documents", "awaiting_documents", "under_review", "approved", "paid", "denied", "denied"]
    )
    holder = policy["policyholder_id"]
    if status == "awaiting_documents" and any(
        c["policyholder_id"] == holder and c["status"] == status for c in tables["claims"].values()
    ):
        status = "under_review"  # one claim awaiting documents per policyholder: each photo is that claim's
    reason = rng.choice(DENIAL_REASONS) if status == "denied" else None
    covered = [
        p
        for p in product["coverages"]
        if day(policy["start_date"]) + timedelta(product["waiting_days"].get(p, 0) + 3) < TODAY
    ]
    pool = product["exclusions"] if reason == "excluded_peril" else covered
    if not pool:
        return
    peril = rng.choice(pool)
    earliest = day(policy["start_date"]) + timedelta(product["waiting_days"].get(peril, 0) + 1)
    reported_age = rng.randint(2, 25) if status in ("awaiting_documents", "under_review") else rng.randint(12, 160)
    reported = TODAY - timedelta(days=reported_age)
    delay = rng.randint(REPORTING_WINDOW_DAYS + 1, 90) if reason == "late_report" else rng.randint(0, 9)
    incident = reported - timedelta(days=delay)
    if incident < earliest or (policy["lapse_date"] is not None and iso(incident) >= policy["lapse_date"]):
        return  # a policy covers only what happens while it is in force
    limit = product["coverages"].get(peril, 0.0)
    loss = float(rng.randint(int(policy["deductible"]) + 150, int(min(limit, 24000.0)) if limit else 9000))
    required = list(REQUIRED_DOCUMENTS.get(peril, ["photos_of_damage"]))
    claims = [c for c in tables["claims"].values() if c["policy_id"] == policy["policy_id"]]
    claim_id = f"clm-{policy['policy_id'].removeprefix('pol-')}-{len(claims) + 1}"
    claim: Record = {
        "claim_id": claim_id,
        "policy_id": policy["policy_id"],
        "policyholder_id": policy["policyholder_id"],
        "peril": peril,
        "incident_date": iso(incident),
        "reported_date": iso(reported),
        "estimated_loss": loss,
        "status": status,
        "required_documents": required,
        "documents_received": list(required),
        "upload_link_sent": False,
        "review_due": plus_days(iso(reported), REVIEW_DAYS),
        "approved_amount": None,
        "decision_date": None,
        "denial_reason": reason,
        "payout_account": None,
        "payout": None,
    }
    if status == "awaiting_documents":
        _awaiting(rng, claim, device)
    elif status in ("approved", "paid"):
        claim["approved_amount"] = round(min(loss, limit) - policy["deductible"], 2)
        claim["decision_date"] = iso(TODAY - timedelta(days=rng.randint(1, min(reported_age, 10))))
        if status == "paid":
            method = "direct_deposit" if tables["policyholders"][policy["policyholder_id"]]["bank_account"] else "check"
            paid_on = plus_days(claim["decision_date"], rng.randint(0, 3))
            paid_on = min(paid_on, iso(TODAY - timedelta(days=1)))
            claim["payout"] = {"method": method, "amount": claim["approved_amount"], "paid_on": paid_on}
    elif status == "denied":
        decided = rng.choice([d for d in range(3, reported_age + 1) if d != APPEAL_WINDOW_DAYS] or [reported_age])
        claim["decision_date"] = iso(TODAY - timedelta(days=decided))
        if reason == "missing_documents":
            claim["documents_received"] = required[1:]
    tables["claims"][claim_id] = claim


def _awaiting(rng: random.Random, claim: Record, device: Record) -> None:
    """Some documents still missing; the phone holds photos of them, sometimes of all but one (never of none)."""
    required = claim["required_documents"]
    have = rng.sample(required, rng.choice([0, 0, len(required) - 1]))
    claim["documents_received"] = sorted(have)
    missing = [d for d in required if d not in have]
    photographed = missing[1:] if len(missing) > 1 and rng.random() < MISSING_PHOTO_SHARE else missing
    for document in photographed:
        caption = CAPTIONS[document].format(n=rng.randint(1000, 9999), date=claim["incident_date"])
        _photo(device, caption, document)


def _photo(device: Record, caption: str, document_type: str) -> None:
    number = len(device["photos"]) + 1
    device["photos"].append(
        {"photo_id": f"img-{device['policyholder_id']}-{number}", "caption": caption, "document_type": document_type}
    )


def _claim_fits(claim: Record) -> str | None:
    if not claim["incident_date"] <= claim["reported_date"] <= iso(TODAY):
        return f"incident {claim['incident_date']} or report {claim['reported_date']} out of order"
    if claim["status"] == "awaiting_documents" and set(claim["required_documents"]) <= set(claim["documents_received"]):
        return "awaits no document"
    late = (day(claim["reported_date"]) - day(claim["incident_date"])).days > REPORTING_WINDOW_DAYS
    if late != (claim["denial_reason"] == "late_report"):
        return "its report delay and its denial reason disagree on whether it was reported late"
    return None


def _within_policy(world: World) -> list[str]:
    found = []
    for key, claim in world["claims"].items():
        policy = world["policies"][claim["policy_id"]]
        product = world["products"][policy["product_id"]]
        if claim["incident_date"] < policy["start_date"]:
            found.append(f"claims[{key}] happened before its policy started")
        if policy["lapse_date"] is not None and claim["incident_date"] >= policy["lapse_date"]:
            found.append(f"claims[{key}] happened after its policy lapsed")
        if claim["approved_amount"] is not None:
            expected = round(
                min(claim["estimated_loss"], product["coverages"][claim["peril"]]) - policy["deductible"], 2
            )
            if claim["approved_amount"] != expected or expected <= 0:
                found.append(f"claims[{key}] approved {claim['approved_amount']}, not the loss above the deductible")
    return found


def _premium_fits(policy: Record) -> str | None:
    if policy["deductible"] not in DEDUCTIBLE_FACTORS:
        return f"deductible {policy['deductible']} has no factor"
    if policy["annual_premium"] != premium(policy["base_rate"], policy["deductible"]):
        return "premium is not the base rate times the deductible's factor"
    return within(policy["base_rate"], 100, 5000, "base rate")


def _one_claim_awaits(world: World) -> list[str]:
    waiting = [c["policyholder_id"] for c in world["claims"].values() if c["status"] == "awaiting_documents"]
    return [
        f"policyholders[{holder}] has two claims awaiting documents"
        for holder in set(waiting)
        if waiting.count(holder) > 1
    ]


def _lapse_owes(world: World) -> list[str]:
    overdue = {i["policy_id"] for i in world["invoices"].values() if i["status"] == "overdue"}
    return [
        f"policies[{key}] is lapsed and owes nothing"
        for key, policy in world["policies"].items()
        if (policy["status"] == "lapsed") != (key in overdue)
        or (policy["status"] == "lapsed") != bool(policy["lapse_date"])
    ]


INVARIANTS = (
    per_record(
        "claims",
        "a claim is reported after its incident, by today, late only when denied for it; one awaiting documents lacks"
        " one",
        _claim_fits,
    ),
    per_record("policies", "premiums follow the deductible's factor", _premium_fits),
    Invariant("claims fall inside their policy and approved amounts are the loss above the deductible", _within_policy),
    Invariant("a policy is lapsed exactly when it owes an overdue invoice", _lapse_owes),
    Invariant(
        "a policyholder has at most one claim awaiting documents (the phone's documents are its)", _one_claim_awaits
    ),
    Invariant(
        "every id carries its world's tag",
        lambda world: [
            f"{table}[{key}]"
            for table, records in world.items()
            if table != "products"
            for key in records
            if key.split("-")[1] not in SEEDS
        ],
    ),
)
