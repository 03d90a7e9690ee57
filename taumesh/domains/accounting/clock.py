"""The accounting desk's fixed clock and the arithmetic of its rules, shared by tools, worlds and solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay, and the amounts
a task expects are the ones the tools compute.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2025, 9, 15)
"""The desk's clock: Monday 15 September 2025. Periods, payment runs and cool-downs are counted from it."""
CURRENT_QUARTER = "2025-Q3"
"""The budget quarter that is running on :data:`TODAY` (policy 10.2)."""
NEXT_PAYMENT_RUN = date(2025, 9, 19)
"""The Friday payment run an early settlement joins (policy 5.2)."""
EARLY_SETTLEMENT_RATE = 0.02
"""The discount a supplier gives for being paid in the next run instead of on the due date (policy 5.3)."""
PRICE_TOLERANCE = 0.02
"""How far an invoiced unit price may sit above the order's before the match fails (policy 4.2)."""
BANK_CHANGE_COOLDOWN_DAYS = 180
"""Days that must pass between two changes of a supplier's remittance account (policy 8.4)."""
TAX_RATES = {"S20": 0.20, "R5": 0.05, "Z0": 0.0}
"""The tax codes the desk uses and their rates (policy 6.1)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: str | date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    base = day(start) if isinstance(start, str) else start
    return (base + timedelta(days=days)).isoformat()


def cents(value: float) -> float:
    """``value`` rounded to the cent, as every stored amount is."""
    return round(value + 0.0, 2)


def tax_on(net: float, tax_code: str) -> float:
    """The tax a net amount carries under ``tax_code``, to the cent."""
    return cents(net * TAX_RATES[tax_code])


def bank_change_allowed(last_change: str | None) -> bool:
    """Whether a supplier whose account last changed on ``last_change`` may change it again today (policy 8.4)."""
    return last_change is None or (TODAY - day(last_change)).days >= BANK_CHANGE_COOLDOWN_DAYS


def next_bank_change(last_change: str) -> str:
    """The first date a supplier may change the account again (policy 8.4)."""
    return days_after(last_change, BANK_CHANGE_COOLDOWN_DAYS)


def _digest(*parts: str) -> str:
    return hashlib.sha256("/".join(parts).encode()).hexdigest()


def portal_code(caller_id: str) -> str:
    """The one-time code the portal shows a caller: seven digits derived from their id, the same on every replay."""
    return f"{int(_digest('portal-code', caller_id), 16) % 10_000_000:07d}"


def bank_change_reference(supplier_id: str, sort_code: str, account_number: str) -> str:
    """The reference the supplier portal gives an approved change to the account named."""
    return "BKA-" + _digest("bank", supplier_id, sort_code, account_number)[:6].upper()


def money(value: float) -> str:
    """An amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
