"""The desk's seeded worlds: one book of clients per seed, every id tagged with its world, invariants declared.

A world has about three dozen clients, each with a general account and often an ISA and a pension; some accounts
follow a model portfolio (and have drifted from it more or less), others hold funds and shares picked by the client,
a few of them shares from an employer's plan still locked up. Some profiles are more than a year old, some pensions
belong to clients too young to draw on them, and some ISAs have little of this year's allowance left.
:data:`INVARIANTS` states what every world keeps; :func:`worlds` checks them as it builds.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.finance.catalogue import MODEL_FUNDS, MODELS, OTHER_FUNDS, SHARES, model_portfolios, securities
from taumesh.domains.finance.clock import ISA_ALLOWANCE, PROFILE_BANDS, TODAY, cents, day, price, profile_for

SEEDS = {"w1": 44_501, "w2": 44_502, "w3": 44_503}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
CLIENTS = 36
SHARED = ("securities", "model_portfolios")
"""Reference data every world shares."""
BOUGHT_AT = "2025-12-31"
"""The price date holdings were sized at: prices have moved since, so weights have drifted on their own."""
MAIL = {"w1": "fernmail.example", "w2": "quaypost.example", "w3": "larkmail.example"}
"""The email provider the clients of each world use (so no two worlds share an address)."""
Record = dict[str, Any]

FIRST = [
    "Adaeze", "Barnaby", "Clementine", "Dario", "Eilidh", "Fintan", "Gwendolyn", "Hamish", "Imogen", "Jasper",
    "Kerensa", "Lachlan", "Marisol", "Niamh", "Oswin", "Philippa", "Rafferty", "Saoirse", "Tobias", "Una",
    "Valentin", "Winifred", "Xander", "Yasmin", "Zachary", "Araminta", "Benedikt", "Cressida", "Dorian", "Elowen",
]  # fmt: skip
LAST = [
    "Ashdown", "Blackwood", "Carrington", "Drummond", "Ellwood", "Fenwick-Hale", "Greaves", "Haverford", "Inglis",
    "Jarrow", "Kettering", "Lockhart", "Mountjoy", "Norcross", "Ormsby", "Pennington", "Quayle", "Radcliffe",
    "Sallow", "Trelawney", "Underhill", "Verity", "Wetherby", "Yardley", "Ainsworth", "Beaumont", "Colquhoun",
]  # fmt: skip
TOWNS = ["LS", "YO", "BS", "EX", "NE", "CB", "OX", "BA", "GL", "HG", "TR", "CA"]
PROFILES = ["cautious", "balanced", "balanced", "growth", "growth", "adventurous"]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


TABLES = (
    "securities",
    "model_portfolios",
    "clients",
    "accounts",
    "holdings",
    "tickets",
    "rebalances",
    "withdrawals",
    "cash_transfers",
    "reports",
    "alerts",
    "identity_checks",
    "referrals",
)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the shared reference data's carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {name: {} for name in TABLES}
    tables["securities"] = securities()
    tables["model_portfolios"] = model_portfolios()
    names = [(f, s) for f in FIRST for s in LAST]
    rng.shuffle(names)
    for number, (first, last) in enumerate(names[:CLIENTS], start=1):
        _client(rng, tables, tag, number, first, last)
    return tables


def _ago(rng: random.Random, low: int, high: int) -> str:
    return (TODAY - timedelta(days=rng.randint(low, high))).isoformat()


def _client(rng: random.Random, tables: World, tag: str, number: int, first: str, last: str) -> None:
    client_id = f"cl-{tag}-{number:03d}"
    reviewed = _ago(rng, 15, 520)
    profile = rng.choice(PROFILES)
    born = (TODAY - timedelta(days=rng.randint(31 * 365, 74 * 365))).isoformat()
    tables["clients"][client_id] = {
        "client_id": client_id,
        "first_name": first,
        "last_name": last,
        "email": f"{first.lower()}.{last.lower()}@{MAIL[tag]}",
        "date_of_birth": born,
        "postcode": f"{rng.choice(TOWNS)}{rng.randint(1, 29)} {rng.randint(1, 9)}{rng.choice('ABDEFGHJLNPQRSTUWXY')}"
        f"{rng.choice('ABDEFGHJLNPQRSTUWXY')}",
        "risk_profile": profile,
        "profile_reviewed": reviewed,
        "profile_history": [{"profile": profile, "recorded_on": reviewed, "score": _score_for(profile, number)}],
        "questionnaire_score": None,
        "bank_last4": f"{rng.randint(0, 9999):04d}",
    }
    kinds = ["general", *(["isa"] if rng.random() < 0.75 else []), *(["pension"] if rng.random() < 0.6 else [])]
    for kind in kinds:
        _account(rng, tables, tag, client_id, kind)
    for _ in range(rng.choice([0, 0, 1, 2])):
        ticker = rng.choice([*SHARES, *OTHER_FUNDS])
        now = price(tables["securities"][ticker])
        alert_id = f"al-{tag}-{len(tables['alerts']) + 1:03d}"
        above = rng.random() < 0.5
        level = cents(now * (1 + rng.uniform(0.05, 0.2)) if above else now * (1 - rng.uniform(0.05, 0.2)))
        tables["alerts"][alert_id] = {
            "alert_id": alert_id,
            "client_id": client_id,
            "ticker": ticker,
            "direction": "above" if above else "below",
            "level": level,
        }


def _score_for(profile: str, number: int) -> int:
    """A questionnaire score that gives ``profile`` (a client's earlier review), spread over its band by ``number``."""
    low = 0
    for high, band in PROFILE_BANDS:
        if band == profile:
            return low + (number * 7) % (high - low + 1)
        low = high + 1
    raise ValueError(profile)


def _account(rng: random.Random, tables: World, tag: str, client_id: str, kind: str) -> None:
    account_id = f"ac-{tag}-{len(tables['accounts']) + 1:03d}"
    opened = _ago(rng, 60, 2400) if rng.random() < 0.75 else _ago(rng, 30, 150)
    follows = kind != "general" and rng.random() < 0.55
    model = rng.choice(MODELS) if follows else None
    account = {
        "account_id": account_id,
        "client_id": client_id,
        "kind": kind,
        "opened": opened,
        "cash": float(rng.randint(4, 120) * 500) if kind == "general" else float(rng.randint(1, 30) * 100),
        "model_id": model["model_id"] if model else None,
        "model_changes": rng.choice([0, 0, 1]) if model else 0,
        "isa_paid_in": float(rng.choice([0, 2500, 6000, 9000, 12500, 15000, 18000, 19500])) if kind == "isa" else 0.0,
        "last_rebalanced": _rebalanced(rng, opened) if model else None,
    }
    tables["accounts"][account_id] = account
    budget = float(rng.randint(8, 90) * 1000)
    if model:
        drift = rng.choice([1.5, 3.0, 4.0, 7.0, 9.0, 12.0])
        weights = dict(model["weights"])
        largest = max((t for t in MODEL_FUNDS if t != "HGEQ"), key=lambda t: weights[t])
        source, target = ("HGEQ", "HSTB") if weights["HGEQ"] >= 50 else (largest, "HGEQ")
        weights[source] -= drift
        weights[target] += drift
        for ticker in MODEL_FUNDS:
            _holding(tables, tag, account_id, ticker, budget * weights[ticker] / 100, 0, None)
        return
    picks = rng.sample([*OTHER_FUNDS, *MODEL_FUNDS, *SHARES], rng.randint(2, 5))
    for ticker in picks:
        share = ticker in SHARES
        locked = kind == "general" and share and rng.random() < 0.35
        amount = budget * rng.uniform(0.08, 0.3)
        _holding(tables, tag, account_id, ticker, amount, locked, rng.randint(20, 300) if locked else None)


def _rebalanced(rng: random.Random, opened: str) -> str | None:
    """When a model account was last rebalanced: after it opened, or never (three in ten)."""
    since = (TODAY - day(opened)).days
    return _ago(rng, 10, min(400, since - 1)) if rng.random() < 0.7 and since > 11 else None


def _holding(
    tables: World, tag: str, account_id: str, ticker: str, amount: float, locked: bool | int, lock_days: int | None
) -> None:
    holding_id = f"hd-{tag}-{len(tables['holdings']) + 1:04d}"
    unit_price = price(tables["securities"][ticker], BOUGHT_AT)
    units = (
        round(amount / unit_price, 4)
        if tables["securities"][ticker]["instrument"] == "fund"
        else float(max(10, round(amount / unit_price)))
    )
    tables["holdings"][holding_id] = {
        "holding_id": holding_id,
        "account_id": account_id,
        "ticker": ticker,
        "units": units,
        "locked_units": int(units * 0.6) if locked else 0,
        "lock_ends": (TODAY + timedelta(days=lock_days)).isoformat() if lock_days else None,
    }


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table not in SHARED
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


def _owned(world: World) -> list[str]:
    problems = [
        f"accounts[{k}] has no client" for k, a in world["accounts"].items() if a["client_id"] not in world["clients"]
    ]
    problems += [
        f"holdings[{k}] has no account"
        for k, h in world["holdings"].items()
        if h["account_id"] not in world["accounts"]
    ]
    return problems


def _model_accounts_hold_model_funds(world: World) -> list[str]:
    return [
        f"holdings[{k}] of model account {h['account_id']} is {h['ticker']}"
        for k, h in world["holdings"].items()
        if world["accounts"][h["account_id"]]["model_id"] and h["ticker"] not in MODEL_FUNDS
    ]


def _weights_add_up(model: Record) -> str | None:
    total = sum(model["weights"].values())
    return None if total == 100 else f"weights add up to {total}"


def _past(account: Record) -> str | None:
    for field in ("opened", "last_rebalanced"):
        if account[field] and day(account[field]) >= TODAY:
            return f"{field} {account[field]} is not before today"
    if account["last_rebalanced"] and account["last_rebalanced"] <= account["opened"]:
        return f"rebalanced on {account['last_rebalanced']}, before it opened on {account['opened']}"
    if account["kind"] != "isa" and account["isa_paid_in"]:
        return "a non-ISA account has ISA payments"
    if account["isa_paid_in"] > ISA_ALLOWANCE:
        return f"ISA payments {account['isa_paid_in']} exceed the allowance"
    return None


def _locks(holding: Record) -> str | None:
    if holding["locked_units"] > holding["units"]:
        return "more units locked than held"
    if bool(holding["locked_units"]) != bool(holding["lock_ends"]):
        return "locked units and a lock end go together"
    if holding["lock_ends"] and day(holding["lock_ends"]) <= TODAY:
        return f"a lock ending on {holding['lock_ends']} has already ended"
    return None


def _profile_history(client: Record) -> str | None:
    last = client["profile_history"][-1]
    if (last["profile"], last["recorded_on"]) != (client["risk_profile"], client["profile_reviewed"]):
        return "the profile is not the last one its history records"
    if any(
        change["score"] is not None and profile_for(change["score"]) != change["profile"]
        for change in client["profile_history"]
    ):
        return "a recorded profile is not the one its score gives"
    return None


INVARIANTS = (
    Invariant("every id carries its world's tag", _tagged),
    Invariant("accounts belong to clients and holdings to accounts", _owned),
    Invariant("a model account holds only the model funds", _model_accounts_hold_model_funds),
    per_record("model_portfolios", "target weights add up to 100", _weights_add_up),
    per_record("accounts", "opened, then rebalanced, before today; ISA payments within the allowance", _past),
    per_record("holdings", "locked units are held and locked until a future day", _locks),
    per_record("clients", "the profile is the last its history records, each given by its score", _profile_history),
)
