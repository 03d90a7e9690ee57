"""The factory's reward: the final state must be one the policy allows, and each statement must be said.

:class:`AllowedOutcomes` (DB) replays every allowed outcome of the task from its initial state and accepts the
episode when its final hash is one of theirs; :class:`StatementsSaid` (COMMUNICATE) checks each statement by its
predicate (an amount as a number, a date in any usual spelling, one of a few phrases).
"""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from taumesh.domains import Action, DomainView, Episode, RewardComponent, Session, Task, Verdict, all_passed
from taumesh.domains.factory._task import FactoryTask, Statement
from taumesh.models import RewardBasis, RewardCheck

_AMOUNT = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d])")
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def amounts(text: str) -> list[float]:
    """Every number said in ``text`` (``$1,250.50``, ``87.25``, ``130``), as a float."""
    return [float(whole.replace(",", "") + (f".{cents}" if cents else "")) for whole, cents in _AMOUNT.findall(text)]


def date_spellings(value: str) -> list[str]:
    """How a date ``YYYY-MM-DD`` is said: ISO, ``March 24``, ``Mar 24``, ``24 March``, ``3/24``, ``03/24``."""
    day = date.fromisoformat(value)
    month = _MONTHS[day.month - 1]
    return [
        day.isoformat(),
        f"{month} {day.day}",
        f"{month[:3]} {day.day}",
        f"{day.day} {month}",
        f"{month} {day.day:02d}",
        f"{day.month}/{day.day}",
        f"{day.month:02d}/{day.day:02d}",
    ]


def said(statement: Statement, responses: Sequence[str]) -> bool:
    """Whether the agent's ``responses`` say ``statement``, by its kind's predicate."""
    text = " ".join(responses).lower()
    if statement.kind == "amount":
        return any(abs(found - float(statement.value)) < 0.005 for found in amounts(text))
    if statement.kind == "date":
        spaced = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text)
        return any(re.search(rf"(?<![\w/]){re.escape(s)}(?![\w/])", spaced) for s in date_spellings(statement.value))
    return any(phrase.strip().lower() in text for phrase in statement.value.split("|"))


def canonical_output(statement: Statement) -> str:
    """The statement as a τ-bench output (what the oracle says, what the audit's output rules read)."""
    return statement.value.split("|")[0].strip() if statement.kind == "text" else statement.value


def replay_hash(domain: DomainView, actions: Sequence[Action]) -> str:
    """The data hash after ``actions``, every one replayed (a transfer too), from the base data."""
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    return session.data_hash()


@dataclass
class AllowedOutcomes:
    """DB: the final hash is the hash of one allowed outcome (computed once per domain and task)."""

    basis: RewardBasis = "DB"
    _cache: dict[tuple[str, str, str, str], frozenset[str]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def hashes(self, domain: DomainView, task: Task) -> frozenset[str]:
        """The hashes of every allowed outcome of ``task``."""
        key = (domain.name, str(domain.root), task.id, task.instruction)  # a root's data never changes in a process
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None:
            return cached
        outcomes = task.outcomes() if isinstance(task, FactoryTask) else iter([task.actions])
        found = frozenset(replay_hash(domain, actions) for actions in outcomes)
        with self._lock:
            self._cache[key] = found
        return found

    def evaluate(self, episode: Episode) -> Verdict:
        allowed = self.hashes(episode.domain, episode.task)
        passed = episode.final_hash in allowed
        check = RewardCheck(
            basis=self.basis,
            subject=f"database (one of {len(allowed)} allowed outcomes)",
            passed=passed,
            expected=episode.gold_hash,
            actual=episode.final_hash,
        )
        return Verdict([check], 1.0 if passed else 0.0)


@dataclass(frozen=True)
class StatementsSaid:
    """COMMUNICATE: every statement of the task is said, by its predicate."""

    basis: RewardBasis = "COMMUNICATE"

    def evaluate(self, episode: Episode) -> Verdict:
        statements = episode.task.statements if isinstance(episode.task, FactoryTask) else []
        responses = episode.responses()
        checks = [
            RewardCheck(basis=self.basis, subject=f"{s.kind}: {s.value}", passed=said(s, responses), expected=s.value)
            for s in statements
        ]
        return Verdict(checks, all_passed(checks))


def factory_reward() -> tuple[RewardComponent, ...]:
    """The components of a factory domain's reward (one cache per plugin)."""
    return (AllowedOutcomes(), StatementsSaid())
