"""Every intent's tasks over one world: candidates drawn from its records, then a varied choice of traps and not.

Per world and intent, one trap and two other tasks (three for the report, which has no trap), the trap of a case the
earlier worlds showed least first; train takes worlds w1 and w2, test w3.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from taumesh.domains.advertising.account_intents import (
    campaign_report,
    change_daily_budget,
    raise_spend_cap,
    resume_campaign,
)
from taumesh.domains.advertising.drafts import CasedTask, Draft
from taumesh.domains.advertising.experiment_intents import conclude_experiment, start_experiment
from taumesh.domains.advertising.targeting_intents import add_segment, remove_exclusion, set_min_age
from taumesh.domains.factory import FactoryTask, World

Solver = Callable[[World, dict[str, Any], random.Random, str], Draft | None]
INTENTS: dict[str, tuple[str, Solver]] = {
    "change_daily_budget": ("campaigns", change_daily_budget),
    "raise_spend_cap": ("advertisers", raise_spend_cap),
    "resume_campaign": ("campaigns", resume_campaign),
    "campaign_report": ("campaigns", campaign_report),
    "set_min_age": ("campaigns", set_min_age),
    "add_segment": ("campaigns", add_segment),
    "remove_exclusion": ("campaigns", remove_exclusion),
    "start_experiment": ("campaigns", start_experiment),
    "conclude_experiment": ("experiments", conclude_experiment),
}
"""Each intent's reference solver, and the table whose records it is asked about."""
PERSONAS = (
    "You run the account between client meetings and answer briefly.",
    "You are methodical and want to hear what the agent checks before it acts.",
    "You are cheerful and chatty about how the campaign is going.",
    "You are under pressure from your marketing director and a little curt.",
    "You are new to the platform and ask what the numbers mean.",
)
PER_WORLD = 3
"""Tasks per intent and world: 6 train (w1, w2) and 3 test (w3) per intent."""
CANDIDATES = 12
"""Drafts of each kind (trap, not) an intent looks at per world before choosing, so that it can vary the cases."""


def _varied(candidates: list[CasedTask], count: int, seen: Counter[str]) -> list[FactoryTask]:
    """``count`` of ``candidates``: the cases ``seen`` least come first, then the earliest."""
    chosen: list[FactoryTask] = []
    pool = list(candidates)
    while pool and len(chosen) < count:
        task = min(pool, key=lambda candidate: seen[candidate.case])
        chosen.append(task)
        pool.remove(task)
        seen[task.case] += 1
    return chosen


def tasks_after_worlds(
    world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
) -> list[FactoryTask]:
    """Every intent's tasks over world ``tag``, ``accept`` filtering the candidates.

    Each intent's trap is of the case the ``earlier`` worlds' traps (:class:`CasedTask` s, as this domain's solvers
    make them) show least.
    """
    tasks: list[FactoryTask] = []
    for index, (intent, (table, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        subjects = [record for key, record in sorted(world[table].items()) if key.split("-")[1] == tag]
        rng.shuffle(subjects)
        traps: list[CasedTask] = []
        plain: list[CasedTask] = []
        for subject in subjects:
            draft = solve(world, subject, rng, rng.choice(PERSONAS))
            if draft is None:
                continue
            bucket = traps if draft.trap_rationale else plain
            task = draft.task(f"{intent}-{tag}-{len(traps) + len(plain) + 1:02d}")
            if len(bucket) < CANDIDATES and accept(task):
                bucket.append(task)
        shown = Counter(t.case for t in earlier if isinstance(t, CasedTask) and t.intent == intent and t.trap)
        chosen = _varied(traps, 1, shown)
        chosen += _varied(plain, PER_WORLD - len(chosen), Counter())
        tasks += sorted(chosen, key=lambda t: t.id)
    return tasks
