"""The flags a factory domain answers for the audit (``DomainPlugin.task_flags``): none on healthcare release 2, and
``non_unique``, ``trap_cue`` and ``output_spec`` where a grader, an instruction or an output gives them cause."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from taumesh.domains import V1_REWARD, RewardComponent, Task
from taumesh.domains.factory import FactoryTask, factory_flags
from taumesh.domains.healthcare import plugin
from tests.helpers.healthcare import healthcare


class SingleHashPlugin(type(plugin)):  # type: ignore[misc]
    """Healthcare release 2 graded as release 1 was: the gold's hash only."""

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        return V1_REWARD


def test_release_two_raises_no_flag_of_its_own() -> None:
    domain = healthcare()
    tasks = domain.tasks("base")
    assert plugin.task_flags(domain, tasks) == {}


def test_a_grader_that_takes_the_gold_only_is_non_unique_wherever_another_outcome_is_allowed() -> None:
    domain = healthcare()
    tasks = [t for t in domain.tasks("test") if isinstance(t, FactoryTask)]
    single = SingleHashPlugin(**{f.name: getattr(plugin, f.name) for f in dataclasses.fields(plugin)})
    flags = factory_flags(single, domain, tasks, "")
    several = {t.id for t in tasks if t.outcome_count() > 1}
    assert (
        several and {task_id for task_id, found in flags.items() if any(k == "non_unique" for k, _ in found)} == several
    )
    triage = next(t.id for t in tasks if t.intent == "triage_to_human")
    assert any("allowed outcome 1 (" in detail for _, detail in flags[triage])


def test_cues_and_unspecific_outputs_are_flagged() -> None:
    domain = healthcare()
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    cue = "If the agent says it cannot be done, accept that."
    changed = [
        t.model_copy(update={"instruction": f"{t.instruction} {cue}"}) if t.trap and t.intent == "refill" else t
        for t in tasks
    ]
    costs = [t for t in changed if t.intent == "cost_estimate"]
    changed = [t.model_copy(update={"outputs": ["20"]}) if t is costs[0] else t for t in changed]
    flags = factory_flags(plugin, domain, changed, "")
    kinds = {(task_id, kind) for task_id, found in flags.items() for kind, _ in found}
    cued = {t.id for t in changed if t.trap and t.intent == "refill"}
    assert {(task_id, "trap_cue") for task_id in cued} <= kinds
    assert (costs[0].id, "output_spec") in kinds
