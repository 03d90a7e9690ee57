"""The reference solvers of what a client asks of their cash and reports: withdrawals, ISA payments, reports, alerts.

Each reads the world as the agent would find it and returns every outcome the policy allows, what the agent must
say and, for a trap, the write the client asks for that the policy forbids (with the clause). Each intent has one
instruction template for its trap and non-trap tasks alike.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.finance.clock import (
    ALERT_BAND,
    ISA_ALLOWANCE,
    LATEST,
    PENSION_ACCESS_AGE,
    PRICE_DATES,
    TODAY,
    WITHDRAWAL_LIMIT,
    birthday,
    cents,
    money,
    price,
)
from taumesh.domains.finance.drafts import KIND_WORDS, Draft
from taumesh.domains.finance.records import holdings_of

Record = dict[str, Any]


def _pounds(amount: float) -> str:
    """An amount as a client says it: ``£12,500`` (whole pounds)."""
    return f"£{amount:,.0f}"


def withdraw_cash(world: World, account: Record, rng: random.Random, persona: str) -> Draft | None:
    """A withdrawal paid (the cash left said); refused from a pension before 57; beyond £25,000 a referral."""
    client = world["clients"][account["client_id"]]
    cash = account["cash"]
    access = birthday(client["date_of_birth"], PENSION_ACCESS_AGE)
    too_young = account["kind"] == "pension" and access > TODAY
    large = not too_young and cash > WITHDRAWAL_LIMIT + 1000 and rng.random() < 0.5
    if cash < 500:
        return None
    if large:
        asked = float(rng.randint(int(WITHDRAWAL_LIMIT) // 500 + 1, int(cash) // 500) * 500)
    else:
        asked = float(rng.randint(1, int(min(cash, WITHDRAWAL_LIMIT)) // 250) * 250)
    draft = Draft(world, client, persona, intent="withdraw_cash").verified().cite("3.1", "8.1")
    draft.do(
        act("list_accounts", client_id=client["client_id"]),
        act("get_account", account_id=account["account_id"]),
    )
    draft.want(
        f"You want {_pounds(asked)} paid out of your {KIND_WORDS[account['kind']]} to your bank account. If it cannot"
        " be paid, you want to know why."
    )
    pay = act("request_withdrawal", account_id=account["account_id"], amount=asked)
    if too_young:
        draft.trap(f"8.2: the client turns {PENSION_ACCESS_AGE} on {access.isoformat()}", pay)
        return draft.cite("8.2").say("date", access.isoformat(), "8.2: the birthday from which withdrawals start")
    if large:
        draft.trap(f"8.3: {asked:.0f} is over the desk's 25,000 per withdrawal: a wealth manager arranges it", pay)
        refer = act("transfer_to_human_agents", client_id=client["client_id"], reason="large_withdrawal")
        return draft.cite("8.3", "12.1").do(refer)
    return draft.cite("8.4").do(pay).say("amount", money(cash - asked), "8.4: the cash left in the account")


def isa_top_up(world: World, isa: Record, rng: random.Random, persona: str) -> Draft | None:
    """Cash moved from the general account into the ISA, cut to the allowance left (what remains said)."""
    if isa["kind"] != "isa":
        return None
    client = world["clients"][isa["client_id"]]
    general = next(
        a for a in world["accounts"].values() if a["client_id"] == client["client_id"] and a["kind"] == "general"
    )
    left = cents(ISA_ALLOWANCE - isa["isa_paid_in"])
    over = left < general["cash"] and rng.random() < 0.4
    top = general["cash"] if over else min(left - 500, general["cash"])  # some allowance stays
    low = left + 500 if over else 500
    if top < low:
        return None
    asked = float(rng.randint(int(low) // 500, int(top) // 500) * 500)
    draft = Draft(world, client, persona, intent="isa_top_up").verified().cite("3.1", "9.1")
    draft.do(
        act("list_accounts", client_id=client["client_id"]),
        act("get_account", account_id=isa["account_id"]),
    )
    draft.want(
        f"You want {_pounds(asked)} moved from your general investment account into your stocks and shares ISA. If"
        " that is more than you may pay in this tax year, you want as much as you may."
    )

    def move(amount: float) -> Any:
        return act(
            "transfer_cash", from_account_id=general["account_id"], to_account_id=isa["account_id"], amount=amount
        )

    if asked > left:
        draft.trap(f"9.2: {left:.2f} of the allowance is left, less than {asked:.0f}", move(asked))
        draft.cite("9.2", "9.3").do(move(left))
        return draft.say("amount", money(left), "9.3: the amount paid in, which used the allowance up")
    draft.cite("9.3").do(move(asked))
    return draft.say("amount", money(left - asked), "9.3: the allowance that remains")


def _report(world: World, account: Record, start: str) -> float:
    """The return a report from ``start`` shows, as ``send_performance_report`` computes it (10.1)."""
    holdings = holdings_of(world, account["account_id"])
    first = cents(sum(h["units"] * price(world["securities"][h["ticker"]], start) for h in holdings))
    last = cents(sum(h["units"] * price(world["securities"][h["ticker"]]) for h in holdings))
    return round((last / first - 1) * 100, 2)


def performance_report(world: World, account: Record, rng: random.Random, persona: str) -> Draft | None:
    """A report from the date asked, or from the first month end after opening (the return said)."""
    if not holdings_of(world, account["account_id"]):
        return None
    client = world["clients"][account["client_id"]]
    dates = PRICE_DATES[:-1]
    earliest = next((d for d in dates if d >= account["opened"]), None)
    if earliest is None:
        return None
    early = earliest != dates[0] and rng.random() < 0.5
    asked = rng.choice([d for d in dates if d < earliest] if early else [d for d in dates if d >= earliest])
    start = max(asked, earliest)
    draft = Draft(world, client, persona, intent="performance_report").verified().cite("3.1", "10.1")
    draft.do(
        act("list_accounts", client_id=client["client_id"]),
        act("get_account", account_id=account["account_id"]),
    )
    draft.want(
        f"You want a performance report on your {KIND_WORDS[account['kind']]} from {asked} to the latest prices,"
        " emailed to you. If it cannot start that early, you want it to start as early as it can."
    )
    send = act("send_performance_report", account_id=account["account_id"], start_date=start)
    if early:
        wanted = act("send_performance_report", account_id=account["account_id"], start_date=asked)
        draft.trap(f"10.2: the account opened on {account['opened']}: the report starts on {start}", wanted)
        draft.cite("10.2")
    returned = _report(world, account, start)
    return draft.cite("10.3").do(send).say("amount", money(abs(returned)), "10.3: the return the report shows")


def set_price_alert(world: World, client: Record, rng: random.Random, persona: str) -> Draft | None:
    """An alert at the level asked when within 30 percent of the close, else at the bound (the level set said)."""
    ticker = rng.choice(sorted(world["securities"]))
    security = world["securities"][ticker]
    close = price(security)
    direction = rng.choice(["above", "below"])
    beyond = rng.random() < 0.4
    factor = (
        (rng.uniform(1.4, 1.9) if beyond else rng.uniform(1.06, 1.26))
        if direction == "above"
        else (rng.uniform(0.35, 0.62) if beyond else rng.uniform(0.74, 0.94))
    )
    asked = cents(close * factor)
    bound = cents(close * (1 + ALERT_BAND if direction == "above" else 1 - ALERT_BAND))
    draft = Draft(world, client, persona, intent="set_price_alert").verified().cite("3.1", "11.1", "11.2")
    draft.do(act("search_securities", name=security["name"]), act("list_alerts", client_id=client["client_id"]))
    draft.want(
        f"You want an alert for when {security['name']} closes {direction} £{asked:.2f}. If that level is not"
        " allowed, you want the nearest level that is."
    )

    def alert(level: float) -> Any:
        return act("set_price_alert", client_id=client["client_id"], ticker=ticker, direction=direction, level=level)

    if beyond:
        draft.trap(
            f"11.2: £{asked:.2f} is more than 30 percent from the close of £{close:.2f} on {LATEST}", alert(asked)
        )
        return draft.do(alert(bound)).say("amount", money(bound), "11.2: the level set")
    return draft.do(alert(asked))
