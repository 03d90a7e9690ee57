"""Checks a factory domain runs on its own tasks at build time, and the audit can call through the plugin.

- :func:`trap_cues`: a sentence that only an intent's trap tasks carry tells the simulated user the trap is there
  (issue 41's ``trap_cue``); a fallback belongs in trap and non-trap instructions alike.
- :func:`output_spec`: a required output an agent can say without knowing it (``output_spec``): too short, in the
  policy or the instruction already, or holding digits the instruction gives.
- :func:`unfair_traps`: a forbidden write that an allowed outcome contains.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from taumesh.domains.factory._task import FactoryTask

MIN_OUTPUT = 3
"""An output shorter than this is guessed, not known."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_NUMBER_RUN = re.compile(r"\d[\d\s().,:/\-]*\d|\d")


def sentences(text: str) -> list[str]:
    """``text``'s sentences, whitespace collapsed."""
    return [" ".join(s.split()) for s in _SENTENCE.split(text) if s.strip()]


def trap_cues(tasks: Sequence[FactoryTask], share: float = 0.5, least: int = 3) -> dict[str, list[str]]:
    """Per trap task, the sentences ``share`` (and ``least`` or more) of its intent's traps carry and no non-trap has.

    Such a sentence is one the generator adds for traps, not a fact or a persona that tasks happen to share: two
    trap tasks naming the same controlled drug is a fact of the world, which a split of few traps shows by chance.
    """
    plain = {sentence for task in tasks if not task.trap for sentence in sentences(task.instruction)}
    by_intent: dict[str, list[FactoryTask]] = defaultdict(list)
    for task in tasks:
        if task.trap:
            by_intent[task.intent].append(task)
    cues: dict[str, list[str]] = {}
    for traps in by_intent.values():
        carriers: dict[str, set[str]] = defaultdict(set)
        for task in traps:
            for sentence in sentences(task.instruction):
                carriers[sentence].add(task.id)
        for sentence, ids in carriers.items():
            if len(ids) >= max(least, share * len(traps)) and sentence not in plain:
                for task_id in sorted(ids):
                    cues.setdefault(task_id, []).append(sentence)
    return cues


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def output_spec(outputs: Sequence[str], instruction: str, policy: str) -> list[str]:
    """Why each of ``outputs`` is not specific enough to be said only by an agent that knows it (empty: all are)."""
    problems = []
    runs = {_digits(run) for run in _NUMBER_RUN.findall(instruction)}
    for output in outputs:
        text = output.strip()
        if len(text) < MIN_OUTPUT:
            problems.append(f"output {output!r} is shorter than {MIN_OUTPUT} characters")
        elif "," in text:
            problems.append(f"output {output!r} has a comma, which τ-bench's comparison removes from what is said")
        elif text.lower() in instruction.lower() or (_digits(text) and _digits(text) in runs):
            problems.append(f"output {output!r} is in the user's own instruction")
        elif re.search(rf"(?<![\w.]){re.escape(text.lower())}(?![\w])", policy.lower()):
            problems.append(f"output {output!r} is in the policy: any agent can say it")
    return problems


def unfair_traps(tasks: Sequence[FactoryTask]) -> dict[str, list[str]]:
    """Per task, the forbidden writes that one of its allowed outcomes makes (a trap the policy does not set)."""
    unfair: dict[str, list[str]] = {}
    for task in tasks:
        for forbidden in task.forbidden:
            if any(forbidden in outcome for outcome in task.outcomes()):
                unfair.setdefault(task.id, []).append(f"{forbidden.name}({forbidden.kwargs}) is in an allowed outcome")
    return unfair
