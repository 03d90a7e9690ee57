"""The flags a factory domain raises on its own tasks, for ``taumesh domain audit`` (``DomainPlugin.task_flags``).

- ``non_unique``: an outcome the reference solver allows that the domain's grader does not score a success
  (:func:`taumesh.stats.is_success`);
- ``trap_cue``: a sentence only the intent's trap tasks carry (:func:`~taumesh.domains.factory.trap_cues`);
- ``output_spec``: a required output an agent can say without knowing it (:func:`~taumesh.domains.factory.output_spec`).

Each outcome is replayed in a fresh session of the loaded domain and graded by the plugin's own ``score``, with the
task's outputs and statements said, as the oracle would say them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from taumesh.domains import Action, DomainPlugin, DomainView, Episode, Session, Task
from taumesh.domains.factory._lint import output_spec, trap_cues
from taumesh.domains.factory._reward import canonical_output
from taumesh.domains.factory._task import FactoryTask
from taumesh.models import ChatMessage, Termination
from taumesh.stats import is_success

Flags = dict[str, list[tuple[str, str]]]


def outcome_score(
    plugin: DomainPlugin, domain: DomainView, task: FactoryTask, outcome: Sequence[Action], says: str | None = None
) -> float:
    """The plugin's reward for ``outcome`` played, then ``says`` said.

    ``says`` defaults to what the oracle says (:func:`oracle_says`); ``""`` says nothing.
    """
    session = Session(domain)
    for action in outcome:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    said = says if says is not None else oracle_says(task)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if said:
        conversation.append(ChatMessage(role="assistant", content=said))
    ending: Termination = "terminate_tool" if outcome and outcome[-1].name in plugin.terminate_tools else "user_stop"
    episode = Episode(domain, task, conversation, ending, session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def oracle_says(task: FactoryTask) -> str:
    """What the oracle says of ``task``: its outputs and each text statement's canonical phrase."""
    return " ".join([*task.outputs, *(canonical_output(s) for s in task.statements if s.kind == "text")])


def factory_flags(plugin: DomainPlugin, domain: DomainView, tasks: Sequence[Task], policy: str) -> Flags:
    """Every ``non_unique``, ``trap_cue`` and ``output_spec`` flag of ``tasks``, by task id."""
    factory = [task for task in tasks if isinstance(task, FactoryTask)]
    flags: Flags = {}
    for task in factory:
        for number, outcome in enumerate(task.outcomes()):
            reward = outcome_score(plugin, domain, task, outcome)
            if not is_success(reward):
                detail = f"allowed outcome {number} ({', '.join(a.name for a in outcome)}) scores {reward:g}"
                flags.setdefault(task.id, []).append(("non_unique", detail))
        for problem in output_spec(task.outputs, task.instruction, policy):
            flags.setdefault(task.id, []).append(("output_spec", problem))
    for task_id, cues in trap_cues(factory).items():
        for cue in cues:
            flags.setdefault(task_id, []).append(("trap_cue", f"only trap tasks of its intent say {cue!r}"))
    return flags
