"""Every intent's tasks over a world: its subjects drawn in a seeded order, solved, and a varied few kept.

An intent keeps a fixed number of trap and plain tasks per world; traps rotate through the kinds an intent has (the
clauses they test), each world leading with another, so that train and test both see every reason to refuse.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from taumesh.domains.accounting import ledger_intents, payables_intents
from taumesh.domains.accounting.drafts import Draft
from taumesh.domains.factory import FactoryTask, World

PERSONAS = [
    "You are brisk and businesslike, and you answer only what you are asked.",
    "You are new to this and ask the agent to explain each figure plainly.",
    "You are polite but pressed for time before a month-end deadline.",
    "You are meticulous and repeat figures back to be sure of them.",
    "You are friendly and a little chatty, but you keep to your request.",
]


@dataclass(frozen=True)
class Intent:
    """An intent: where its subjects come from, its solver, and how many trap and plain tasks a world keeps."""

    subjects: Callable[[World], Sequence[Any]]
    solve: Callable[[World, Any, random.Random, str], Draft | None]
    traps: int
    plain: int


INTENTS: dict[str, Intent] = {
    "approve_invoice": Intent(payables_intents.approve_invoice_subjects, payables_intents.approve_invoice, 2, 2),
    "release_hold": Intent(payables_intents.release_hold_subjects, payables_intents.release_hold, 1, 2),
    "early_payment": Intent(payables_intents.early_payment_subjects, payables_intents.early_payment, 1, 2),
    "record_credit_note": Intent(payables_intents.credit_note_subjects, payables_intents.record_credit_note, 1, 2),
    "change_bank_details": Intent(payables_intents.bank_change_subjects, payables_intents.change_bank_details, 1, 2),
    "reconcile_statement": Intent(payables_intents.reconcile_subjects, payables_intents.reconcile_statement, 0, 3),
    "correct_tax_code": Intent(ledger_intents.tax_code_subjects, ledger_intents.correct_tax_code, 1, 2),
    "post_journal": Intent(ledger_intents.journal_subjects, ledger_intents.post_journal, 2, 2),
    "transfer_budget": Intent(ledger_intents.budget_subjects, ledger_intents.transfer_budget, 1, 2),
}
"""The reference solver of each intent, and its tasks per world."""
CANDIDATES = 14
"""Drafts of each kind (trap, plain) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[FactoryTask], count: int) -> list[FactoryTask]:
    """``count`` of ``candidates``: one per caller first, then those testing clauses the others do not."""
    chosen: list[FactoryTask] = []
    callers: set[str] = set()
    for task in candidates:
        if len(chosen) < count and task.user_id not in callers:
            chosen.append(task)
            callers.add(task.user_id)
    return chosen + [task for task in candidates if task not in chosen][: count - len(chosen)]


def _rotated(traps: list[FactoryTask], turn: int) -> list[FactoryTask]:
    """``traps`` one kind (the clauses tested) at a time, from the ``turn``-th kind on."""
    kinds = sorted({tuple(t.clauses) for t in traps})
    order = kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)] if kinds else []
    queues = [[t for t in traps if tuple(t.clauses) == kind] for kind in order]
    rotated: list[FactoryTask] = []
    while any(queues):
        rotated += [queue.pop(0) for queue in queues if queue]
    return rotated


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over world ``tag``."""
    tasks: list[FactoryTask] = []
    for index, (name, intent) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = list(intent.subjects(world))
        rng.shuffle(subjects)
        traps: list[FactoryTask] = []
        plain: list[FactoryTask] = []
        for subject in subjects:
            draft = intent.solve(world, subject, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{name}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        chosen = _rotated(traps, int(tag[1:]) - 1)[: intent.traps] + _varied(plain, intent.plain)
        if len(chosen) < intent.traps + intent.plain:
            raise ValueError(f"world {tag}: intent {name} found {len(traps)} traps and {len(plain)} plain tasks")
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
