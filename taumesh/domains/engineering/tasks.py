"""The desk's tasks: for every intent, two plain cases and one trap per world, drawn by the world's seed."""

from __future__ import annotations

import random
from collections.abc import Callable

from taumesh.domains.engineering.drafts import Draft
from taumesh.domains.engineering.intents import INTENTS
from taumesh.domains.factory import FactoryTask, World

PERSONAS = [
    "You type in short bursts and answer only what you are asked.",
    "You are between two meetings and want this done quickly.",
    "You are careful and ask the agent to repeat any identifier it mentions.",
    "You are friendly and chatty, but you keep steering back to your request.",
    "You are new to this code host and a little unsure of its rules.",
]
PLAIN, TRAPS = 2, 1


def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
    """Every intent's tasks over world ``tag``: its plain cases and its traps, shuffled, numbered per intent."""
    tasks: list[FactoryTask] = []
    for index, (intent, (cases_of, solve)) in enumerate(INTENTS.items()):
        rng = random.Random(seed * 100 + index)
        cases = cases_of(world)
        rng.shuffle(cases)
        chosen: list[FactoryTask] = []
        wanted = {False: PLAIN, True: TRAPS}
        for case in cases:
            if wanted[case["trap"]] == 0:
                continue
            draft = Draft(intent=intent, world=world, developer=case["who"], persona=rng.choice(PERSONAS))
            solve(draft, case)
            task = draft.task(f"{intent}-{tag}")
            if accept(task):
                chosen.append(task)
                wanted[case["trap"]] -= 1
        if any(wanted.values()):
            raise ValueError(f"{intent} in {tag}: too few cases ({wanted} still wanted)")
        rng.shuffle(chosen)
        tasks += [t.model_copy(update={"id": f"{intent}-{tag}-{n:02d}"}) for n, t in enumerate(chosen, 1)]
    return tasks
