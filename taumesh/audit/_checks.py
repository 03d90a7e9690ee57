"""The audit's checks that need no service: guessable outputs, duplicate instructions, the reward basis's lint.

Each reads what a task states (its outputs, instruction, reward basis and the checks it lists) and answers flags.
The checks that play trajectories through the env and scorer are the orchestrator's (``taumesh.orchestrator.audit``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from taumesh.audit._report import Flag
from taumesh.models import RewardBasis

REFUSAL = "I'm sorry, but I can't help with that request."
"""What the null agent says, in the audit's floors and in ``--agent-strategy null``: one refusal and nothing else."""
SHORT_OUTPUT = 2
"""An output this short (characters, stripped) can be said without knowing it."""
_NUMBER_RUN = re.compile(r"\d[\d\s().,:/\-]*\d|\d")
_SPACES = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"[^\w\s]")

BLANK_BASIS_KINDS: frozenset[RewardBasis] = frozenset({"DB", "ENV_ASSERTION", "ACTION", "NL_ASSERTION"})
"""Kinds that check nothing when the basis names them and the task lists none (τ²'s default basis names COMMUNICATE
for every task, which then passes trivially: that is upstream's design, not a task's flaw, and is not flagged)."""
UNSCORED_KINDS: frozenset[RewardBasis] = frozenset({"ENV_ASSERTION", "COMMUNICATE", "NL_ASSERTION"})
"""Kinds whose listed checks are never scored when the basis leaves them out (gold actions are not: DB replays them)."""


def _digits(text: str) -> str:
    return "".join(character for character in text if character.isdigit())


def _said_form(text: str) -> str:
    """How τ-bench compares an output with what is said: lower case, commas removed."""
    return text.lower().replace(",", "")


def guessable_outputs(outputs: Sequence[str], known: str) -> list[Flag]:
    """Flags for outputs an agent can say without knowing them: ``known`` is the task's conversation-available text.

    An output is guessable when it is :data:`SHORT_OUTPUT` characters or fewer, or when it holds digits that the
    user's own text already holds: the output itself (as τ-bench compares it) or its digits, as a number run of the
    instruction (a date, phone digits, an amount).
    """
    flags = []
    runs = {_digits(run) for run in _NUMBER_RUN.findall(known)}
    said = _said_form(known)
    for output in outputs:
        text = output.strip()
        digits = _digits(text)
        repeated = bool(digits) and (_said_form(text) in said or digits in runs)
        if len(text) <= SHORT_OUTPUT:
            also = " (and the user's own instruction holds it)" if repeated else ""
            detail = f"output {output!r} has {SHORT_OUTPUT} characters or fewer{also}"
            flags.append(Flag(kind="guessable_output", detail=detail))
        elif repeated:
            detail = f"output {output!r} repeats digits the user's own instruction gives"
            flags.append(Flag(kind="guessable_output", detail=detail))
    return flags


def normalised_instruction(text: str) -> str:
    """An instruction compared for duplicates: lower case, punctuation dropped, whitespace collapsed."""
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", text.lower())).strip()


def duplicates(tasks: Iterable[tuple[str, str, str]]) -> dict[str, Flag]:
    """A flag for every task whose normalised instruction another task of the split has over the same initial state.

    ``tasks`` are (id, instruction, initial state hash). Tasks that say the same over different initial states (τ²
    telecom's phones, each broken its own way) are not duplicates: the agent can tell them apart.
    """
    seen: dict[tuple[str, str], list[str]] = {}
    for task_id, instruction, state in tasks:
        seen.setdefault((normalised_instruction(instruction), state), []).append(task_id)
    flags = {}
    for ids in seen.values():
        for task_id in ids if len(ids) > 1 else ():
            others = ", ".join(other for other in ids if other != task_id)
            flags[task_id] = Flag(
                kind="duplicate",
                detail=f"the same normalised instruction, over the same initial state, as task {others}",
            )
    return flags


def basis_lint(basis: Sequence[RewardBasis], listed: Mapping[RewardBasis, int]) -> list[Flag]:
    """Flags for reward components with nothing to check.

    A kind in the basis with none listed, or checks listed beside a basis that leaves them out (upstream τ² PR #411's
    rule for NL assertions, applied to every kind).
    """
    flags = []
    for kind in basis:
        if kind in BLANK_BASIS_KINDS and not listed.get(kind, 0):
            flags.append(
                Flag(
                    kind="basis_lint", detail=f"the reward basis has {kind} but the task lists nothing for it to check"
                )
            )
    for kind, count in listed.items():
        if kind in UNSCORED_KINDS and count and kind not in basis:
            flags.append(
                Flag(
                    kind="basis_lint",
                    detail=f"the task lists {count} {kind} check(s) that its reward basis ({', '.join(basis)}) "
                    "leaves out: they are never scored",
                )
            )
    return flags
