"""The trial desk's fixed clock and the rules its figures come from (windows, deadlines, stability, caps, codes).

Nothing here reads the real time or draws at random: a tool answers the same on every replay, and the policy text,
the tools and the task solvers all read these figures from one place. Kit numbers, arm assignments and diary unlock
codes are derived from ids with a hash, so they are fixed yet cannot be read off the id.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta

NOW = datetime(2026, 8, 17, 9, 0)
"""The desk's clock: Monday 17 August 2026, 09:00."""
TODAY = NOW.date()
SERIOUS_REPORT_DAYS = 1
"""A serious adverse event reaches the sponsor within this many calendar days of the site becoming aware of it."""
OTHER_REPORT_DAYS = 7
"""Any other adverse event reaches the sponsor within this many calendar days of the site becoming aware of it."""
STABILITY_DAYS: dict[str, int] = {"whole_blood": 2, "urine": 3, "serum": 5, "plasma": 6}
"""Sample kind -> the last day after collection on which the courier may still collect it."""
PICKUP_WEEKDAYS = frozenset({0, 1, 2, 3})
"""Monday to Thursday: the central laboratory receives no courier deliveries over a weekend."""
TRAVEL_CAP = 85.0
"""The most a participant is reimbursed for travel to one visit."""
CLAIM_DAYS = 60
"""A travel claim is paid only within this many days of the visit it is for."""
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def day(value: str) -> date:
    """A date of the data (``2026-08-19``)."""
    return date.fromisoformat(value[:10])


def age_on(born: str, when: date = TODAY) -> int:
    """Completed years of someone born on ``born`` at ``when``."""
    birth = day(born)
    return when.year - birth.year - ((when.month, when.day) < (birth.month, birth.day))


def report_due(aware: str, serious: bool) -> str:
    """The day an adverse event's report is due: the site's awareness date plus the reporting period."""
    return (day(aware) + timedelta(days=SERIOUS_REPORT_DAYS if serious else OTHER_REPORT_DAYS)).isoformat()


def window(target: str, half_width: int) -> tuple[str, str]:
    """A visit's window: the first and last day it may take place, around its target date."""
    middle = day(target)
    return (middle - timedelta(days=half_width)).isoformat(), (middle + timedelta(days=half_width)).isoformat()


def stable_until(collected: str, kind: str) -> str:
    """The last day a sample of ``kind`` collected on ``collected`` may be picked up."""
    return (day(collected) + timedelta(days=STABILITY_DAYS[kind])).isoformat()


def claim_deadline(visit_day: str) -> str:
    """The last day a travel claim for a visit on ``visit_day`` may be paid."""
    return (day(visit_day) + timedelta(days=CLAIM_DAYS)).isoformat()


def travel_payment(receipt: float) -> float:
    """What a travel claim pays: the receipt, never more than the cap, to the cent."""
    return round(min(receipt, TRAVEL_CAP), 2)


def _digest(*parts: str) -> int:
    return int(hashlib.sha256("/".join(parts).encode()).hexdigest()[:12], 16)


def kit_number(participant_id: str, replaced: int = 0) -> str:
    """The medication kit a participant receives at randomisation, or after ``replaced`` replacements.

    The label shows no arm: a replacement comes from the same arm's stock under a new number.
    """
    return f"KT-{_digest('kit', participant_id, str(replaced)) % 900_000 + 100_000}"


def arm_index(participant_id: str, arms: int) -> int:
    """The arm a participant is randomised into, among ``arms`` (the allocation list the desk never shows)."""
    return _digest("arm", participant_id) % arms


def unlock_code(participant_id: str, unlocks: int) -> str:
    """The one-time code that reopens a locked e-diary, fixed per participant and unlock."""
    return f"{_digest('diary', participant_id, str(unlocks)) % 900_000 + 100_000}"


def consent_form_id(participant_id: str, version: str) -> str:
    """The id of the consent form of ``version`` sent to a participant (one form per version)."""
    return f"form-{participant_id[4:]}-{version}"
