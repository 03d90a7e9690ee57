"""The lender's worlds: borrowers with their loans, fees, payments, applications and banking app, one world a seed.

Every id but the products' carries the world's tag. :data:`INVARIANTS` states what a servicing system keeps true
(a level payment that repays the principal, a past-due loan with an amount past due and a late fee, dates in the
past where they record the past) and :func:`worlds` checks it on each world it builds.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.loans.catalogue import BANKS, EMPLOYERS, FIRST, LAST, PRODUCTS
from taumesh.domains.loans.clock import AUTOPAY_DISCOUNT, TODAY, days_after, monthly_payment, tier
from taumesh.domains.loans.due_dates import first_on_or_after, months_later

SEEDS = {"w1": 43_101, "w2": 43_102, "w3": 43_103}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
BORROWERS = 45
"""Borrowers per world."""
PAST_DUE_DAYS = (12, 21, 34, 47, 66, 95)
"""How far behind a delinquent loan is; 60 days or more is collections' (policy 8.5)."""

Record = dict[str, Any]


def late_fee(payment: float) -> float:
    """The late fee of a missed payment: 5 % of it, at least $25 and at most $40 (policy 6.1)."""
    return round(min(max(payment * 0.05, 25.0), 40.0), 2)


def _remaining(principal: float, apr: float, term: int, paid: int) -> float:
    """The balance after ``paid`` level payments."""
    rate = apr / 100 / 12
    payment = monthly_payment(principal, apr, term)
    return round(max(principal * (1 + rate) ** paid - payment * ((1 + rate) ** paid - 1) / rate, 0.0), 2)


def _past(field: str) -> Callable[[Record], str | None]:
    """A rule: ``field`` (a date, or None) is before today."""

    def rule(record: Record) -> str | None:
        value = record[field]
        return None if value is None or value < TODAY.isoformat() else f"{field} {value} is not past"

    return rule


def _level_payment(loan: Record) -> str | None:
    apr = loan["apr"] + (AUTOPAY_DISCOUNT if loan["autopay"] else 0.0)
    expected = monthly_payment(loan["principal"], round(apr, 2), loan["term_months"])
    if abs(expected - loan["monthly_payment"]) > 0.005:
        return f"payment {loan['monthly_payment']} is not the level payment {expected}"
    if not 0 < loan["balance"] <= loan["principal"]:
        return f"balance {loan['balance']} is outside (0, principal]"
    return None


def _delinquency(loan: Record) -> str | None:
    behind = loan["days_past_due"] > 0
    if behind != (loan["past_due_amount"] > 0) or behind != (loan["status"] == "delinquent"):
        return "days past due, amount past due and status disagree"
    return None


def _past_due_loans_have_fees(world: World) -> list[str]:
    charged = {fee["loan_id"] for fee in world["fees"].values() if fee["status"] == "open"}
    return [key for key, loan in world["loans"].items() if loan["status"] == "delinquent" and key not in charged]


def _accounts(world: World) -> list[str]:
    problems = []
    for key, borrower in world["borrowers"].items():
        if not any(a["status"] == "verified" for a in borrower["linked_accounts"]):
            problems.append(f"borrower {key} has no verified account")
    for key, loan in world["loans"].items():
        owner = world["borrowers"][loan["borrower_id"]]
        verified = {a["account_last_four"] for a in owner["linked_accounts"] if a["status"] == "verified"}
        if loan["autopay"] and loan["autopay"]["account_last_four"] not in verified:
            problems.append(f"loan {key} pays automatically from an unverified account")
    return problems


def _one_loan_per_product(world: World) -> list[str]:
    seen: set[tuple[str, str]] = set()
    problems = []
    for key, loan in world["loans"].items():
        pair = (loan["borrower_id"], loan["product_id"])
        if pair in seen:
            problems.append(f"loan {key}: a second {loan['product_id']} loan for {pair[0]}")
        seen.add(pair)
    return problems


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table != "products"
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


def _scheduled_ahead(payment: Record) -> str | None:
    if payment["status"] == "scheduled":
        return None if payment["date"] >= TODAY.isoformat() else "is scheduled in the past"
    return _past("date")(payment)


INVARIANTS = (
    per_record("loans", "a level payment repays the principal; the balance is within it", _level_payment),
    per_record("loans", "a loan is delinquent exactly when an amount is past due", _delinquency),
    per_record("loans", "loans were originated in the past", _past("originated")),
    per_record("loans", "interest was paid through a past date", _past("paid_through")),
    per_record("loans", "fee waivers are past", _past("last_fee_waiver")),
    per_record("loans", "due-day changes are past", _past("last_due_date_change")),
    per_record("loans", "hardship plans are past", _past("last_hardship_plan")),
    per_record("fees", "fees were assessed in the past", _past("assessed")),
    per_record("payments", "posted payments are past, scheduled ones ahead", _scheduled_ahead),
    per_record(
        "borrowers", "credit scores are FICO scores", lambda b: None if 300 <= b["credit_score"] <= 850 else "x"
    ),
    per_record("portals", "pay slips are dated in the past", lambda p: _past("pay_date")(p["pay_slip"])),
    Invariant("every past-due loan carries an open late fee", _past_due_loans_have_fees),
    Invariant("every borrower has a verified account; autopay debits one", _accounts),
    Invariant("a borrower holds one loan per product", _one_loan_per_product),
    Invariant("every id but the products' carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the products' carries ``tag``."""
    rng = random.Random(seed)
    tables: World = {
        "borrowers": {},
        "products": copy.deepcopy(PRODUCTS),
        "loans": {},
        "fees": {},
        "payments": {},
        "applications": {},
        "hardship_plans": {},
        "payoff_quotes": {},
        "verifications": {},
        "handoffs": {},
        "portals": {},
    }
    names = rng.sample([(f, last) for f in FIRST for last in LAST], BORROWERS)
    for number, (first, last) in enumerate(names, 1):
        borrower = _borrower(rng, tag, number, first, last)
        tables["borrowers"][borrower["borrower_id"]] = borrower
        tables["portals"][borrower["borrower_id"]] = _portal(rng, borrower)
        for product_id in rng.sample(sorted(PRODUCTS), rng.choice([1, 1, 2, 2, 3])):
            _loan(rng, tables, tag, borrower, product_id)
        if rng.random() < 0.45:
            _application(rng, tables, tag, borrower)
    return tables


def _next(tables: World, table: str, prefix: str, tag: str) -> str:
    return f"{prefix}-{tag}-{len(tables[table]) + 1:03d}"


def _borrower(rng: random.Random, tag: str, number: int, first: str, last: str) -> Record:
    accounts = [{"account_last_four": f"{rng.randint(1000, 9999)}", "bank": rng.choice(BANKS), "status": "verified"}]
    if rng.random() < 0.55:
        status = "pending_verification" if rng.random() < 0.6 else "verified"
        last_four = f"{(int(accounts[0]['account_last_four']) + rng.randint(101, 4000)) % 9000 + 1000}"
        accounts.append({"account_last_four": last_four, "bank": rng.choice(BANKS), "status": status})
    income = rng.randrange(3000, 13000, 50)
    return {
        "borrower_id": f"bor-{tag}-{number:03d}",
        "first_name": first,
        "last_name": last,
        "date_of_birth": f"{rng.randint(1956, 2003)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "ssn_last_four": f"{rng.randint(0, 9999):04d}",
        "postal_code": f"{rng.randint(10000, 99899):05d}",
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999):04d}",
        "email": f"{first.lower()}.{last.lower()}.{tag}{number}@example.net",
        "employer": rng.choice(EMPLOYERS),
        "gross_monthly_income": float(income),
        "monthly_debt_payments": float(round(income * rng.uniform(0.1, 0.42), -1)),
        "credit_score": rng.choice([rng.randint(560, 639), *[rng.randint(640, 819) for _ in range(4)]]),
        "linked_accounts": accounts,
    }


def _portal(rng: random.Random, borrower: Record) -> Record:
    old = rng.random() < 0.35
    return {
        "borrower_id": borrower["borrower_id"],
        "username": f"{borrower['first_name'][0].lower()}{borrower['last_name'].lower()}{rng.randint(10, 99)}",
        "pin": f"{rng.randint(1000, 9999)}",
        "signed_in": False,
        "messages": ["Welcome to your lender's app. Your statements are under Documents."],
        "pay_slip": {
            "reference": f"PS-{rng.randint(100000, 999999)}",
            "employer": borrower["employer"],
            "pay_date": days_after(TODAY, -rng.randint(75, 160) if old else -rng.randint(3, 40)),
            "gross_monthly_pay": float(borrower["gross_monthly_income"] + rng.randrange(-300, 301, 25)),
        },
        "approvals": [],
    }


def _loan(rng: random.Random, tables: World, tag: str, borrower: Record, product_id: str) -> None:
    product = PRODUCTS[product_id]
    loan_id = _next(tables, "loans", "loan", tag)
    term = rng.choice(product["terms_months"])
    principal = float(rng.randrange(product["min_amount"], product["max_amount"] // 2 + 1, 500))
    apr = rng.choice(list(product["apr_by_tier"].values()))
    paid = rng.randint(3, min(30, term - 6))
    due_day = rng.randint(1, 28)
    payment = monthly_payment(principal, apr, term)
    behind = rng.choice(PAST_DUE_DAYS) if rng.random() < 0.3 else 0
    upcoming = first_on_or_after(TODAY if behind == 0 else TODAY.replace(day=1), due_day)
    next_due = days_after(TODAY, -behind) if behind else upcoming.isoformat()
    paid_through = months_later(TODAY if not behind else upcoming, -1 - math.ceil(behind / 31), due_day).isoformat()
    autopay = None
    verified = [a for a in borrower["linked_accounts"] if a["status"] == "verified"]
    if not behind and rng.random() < 0.3:
        account = verified[0]["account_last_four"]
        autopay = {"account_last_four": account, "mandate_reference": f"MD-HIST{rng.randint(1000, 9999)}"}
    loan = {
        "loan_id": loan_id,
        "borrower_id": borrower["borrower_id"],
        "product_id": product_id,
        "principal": principal,
        "balance": _remaining(principal, apr, term, paid),
        "apr": round(apr - AUTOPAY_DISCOUNT, 2) if autopay else apr,
        "term_months": term,
        "monthly_payment": payment,
        "originated": months_later(TODAY, -paid - 1, due_day).isoformat(),
        "paid_through": min(paid_through, days_after(TODAY, -1)),
        "due_day": due_day,
        "next_due_date": next_due,
        "days_past_due": behind,
        "past_due_amount": round(payment * math.ceil(behind / 31), 2) if behind else 0.0,
        "status": "delinquent" if behind else "current",
        "autopay": autopay,
        "last_fee_waiver": days_after(TODAY, -rng.randint(20, 700)) if rng.random() < 0.35 else None,
        "last_due_date_change": days_after(TODAY, -rng.randint(30, 700)) if rng.random() < 0.4 else None,
        "last_hardship_plan": None,
    }
    tables["loans"][loan_id] = loan
    if rng.random() < 0.3:
        _past_hardship(rng, tables, tag, loan)
    if behind or rng.random() < 0.45:
        fee_id = _next(tables, "fees", "fee", tag)
        assessed = days_after(TODAY, -(behind - 10 if behind > 10 else rng.randint(5, 40)))
        tables["fees"][fee_id] = {
            "fee_id": fee_id,
            "loan_id": loan_id,
            "kind": "late_fee",
            "amount": late_fee(payment),
            "assessed": assessed,
            "status": "open",
        }
    _payments(rng, tables, tag, loan, borrower)


def _past_hardship(rng: random.Random, tables: World, tag: str, loan: Record) -> None:
    months = rng.randint(1, 3)
    started = days_after(TODAY, -rng.randint(80, 600))
    plan_id = _next(tables, "hardship_plans", "plan", tag)
    tables["hardship_plans"][plan_id] = {
        "plan_id": plan_id,
        "loan_id": loan["loan_id"],
        "reason": rng.choice(["job_loss", "medical", "reduced_income"]),
        "months": months,
        "starts": started,
        "resumes": days_after(started, 30 * months),
    }
    loan["last_hardship_plan"] = started


def _payments(rng: random.Random, tables: World, tag: str, loan: Record, borrower: Record) -> None:
    for back in (3, 2, 1):
        payment_id = _next(tables, "payments", "pay", tag)
        tables["payments"][payment_id] = {
            "payment_id": payment_id,
            "loan_id": loan["loan_id"],
            "amount": loan["monthly_payment"],
            "date": months_later(TODAY.replace(day=1), -back - math.ceil(loan["days_past_due"] / 31), 1).isoformat(),
            "account_last_four": borrower["linked_accounts"][0]["account_last_four"],
            "status": "posted",
        }
    for ahead in sorted(rng.sample(range(0, 24), rng.choice([0, 1, 1, 2]))):
        payment_id = _next(tables, "payments", "pay", tag)
        tables["payments"][payment_id] = {
            "payment_id": payment_id,
            "loan_id": loan["loan_id"],
            "amount": float(rng.randrange(50, 600, 25)),
            "date": days_after(TODAY, ahead),
            "account_last_four": borrower["linked_accounts"][0]["account_last_four"],
            "status": "scheduled",
        }


def _application(rng: random.Random, tables: World, tag: str, borrower: Record) -> None:
    eligible = [p for p in PRODUCTS.values() if borrower["credit_score"] >= p["min_credit_score"]]
    if not eligible:
        return
    product = rng.choice(eligible)
    amount = rng.randrange(product["min_amount"], product["max_amount"] // 2 + 1, 1000)
    term = rng.choice(product["terms_months"])
    apr = product["apr_by_tier"][tier(borrower["credit_score"]) or "D"]
    application_id = _next(tables, "applications", "app", tag)
    tables["applications"][application_id] = {
        "application_id": application_id,
        "borrower_id": borrower["borrower_id"],
        "product_id": product["product_id"],
        "amount": float(amount),
        "term_months": term,
        "apr": apr,
        "monthly_payment": monthly_payment(amount, apr, term),
        "submitted": days_after(TODAY, -rng.randint(2, 12)),
        "status": "documents_needed",
        "consent_reference": f"CC-HIST{rng.randint(1000, 9999)}",
        "verified_monthly_income": None,
        "income_document": None,
    }
