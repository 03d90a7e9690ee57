"""The automation desk's fixed clock and the arithmetic of its rules, shared by the tools, the worlds and the solvers.

Nothing here reads the real time or draws a random number: a tool answers the same on every replay. The codes a team
member reads from their own browser (a CAPTCHA's token, a site's sign-in code) and the confirmation numbers a site
gives back are digests of what they are for, so a replay finds the same code again and no agent can make one up.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

TODAY = date(2026, 9, 14)
"""The desk's clock: Monday 14 September 2026. Every form deadline and page change is read against it."""
MONTH_MINUTES = 30 * 24 * 60
"""The minutes of the 30-day month over which a schedule's request volume is quoted (policy 4.3)."""
MIN_WATCH_HOURS = 6
"""No page is checked for changes more often than this many hours (policy 5.2)."""
PRICE = "price"
CONTACT = "contact_email"
PERSONAL_FIELDS = frozenset({CONTACT})
"""Fields that hold personal data: an export that carries them is redacted (policy 6.2)."""


def day(text: str) -> date:
    """A date of the data, ``YYYY-MM-DD``."""
    return date.fromisoformat(text)


def days_after(start: date, days: int) -> str:
    """``days`` after ``start``, as the data writes dates."""
    return (start + timedelta(days=days)).isoformat()


def monthly_requests(pages: int, interval_minutes: int) -> int:
    """The page requests a schedule makes in a 30-day month: its pages, once per run (policy 4.3)."""
    return pages * (MONTH_MINUTES // interval_minutes)


def _digest(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()[:6].upper()


def captcha_token(form_id: str) -> str:
    """The token a form's CAPTCHA gives the member who solves it in their own browser."""
    return "CT-" + _digest(form_id, "captcha")


def login_code(site_id: str) -> str:
    """The one-time sign-in code the member's authenticator shows for their account on a site."""
    return _digest(site_id, "sign-in")


def confirmation(form_id: str, member_id: str, quantity: int) -> str:
    """The confirmation number a site returns for a submitted form."""
    return "CONF-" + _digest(form_id, member_id, str(quantity))


def money(value: float) -> str:
    """An amount as an output holds it: ``1250``, ``1250.5``, ``87.25``."""
    return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
