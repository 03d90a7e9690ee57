"""A domain built with the factory: the contract's hooks answered from :class:`FactoryTask` fields.

The reward accepts every allowed outcome and checks statements by predicate; the gold replays every action, a
transfer too (it files a hand-off). Beyond the contract, the plugin answers what ``taumesh domain audit`` can ask a
factory domain: its allowed outcomes (``non_unique``), its trap cues (``trap_cue``) and its unspecific outputs
(``output_spec``).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from taumesh.domains import Action, DomainPlugin, DomainView, RewardComponent, Session, Task
from taumesh.domains.factory._audit import factory_flags
from taumesh.domains.factory._lint import output_spec, trap_cues
from taumesh.domains.factory._policy import clause_texts
from taumesh.domains.factory._reward import factory_reward
from taumesh.domains.factory._task import FactoryTask
from taumesh.models import RewardBasis


@dataclass(frozen=True)
class FactoryPlugin(DomainPlugin):
    """A :class:`DomainPlugin` whose tasks are :class:`FactoryTask` records; ``task_model`` must be one."""

    release: str | None = None
    """The data release the files are (``healthcare-2``); results record it, rescore refuses to mix releases."""

    def __post_init__(self) -> None:
        if not issubclass(self.task_model, FactoryTask):
            raise TypeError(f"{self.name}: a FactoryPlugin's task_model must subclass FactoryTask")
        object.__setattr__(self, "_reward", factory_reward())  # one outcome cache per plugin
        object.__setattr__(self, "_gold_hashes", {})  # (domain, root, task id, instruction) -> hash
        object.__setattr__(self, "_gold_lock", threading.Lock())

    def data_release(self, root: Path) -> str | None:
        return self.release

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The state after every gold action, a transfer included, from the base data.

        Computed once per domain, data root and task: every scored episode asks for it (the reward's ``expected``),
        and a root's data never changes in a process (as :class:`AllowedOutcomes` assumes).
        """
        key = (domain.name, str(domain.root), task.id, task.instruction)
        cache: dict[tuple[str, str, str, str], str] = getattr(self, "_gold_hashes")  # noqa: B009 - set in __post_init__
        lock: threading.Lock = getattr(self, "_gold_lock")  # noqa: B009 - set in __post_init__
        with lock:
            cached = cache.get(key)
        if cached is not None:
            return cached
        session = Session(domain)
        for action in task.actions:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        found = session.data_hash()
        with lock:
            cache[key] = found
        return found

    def closing_message(self, task: Task, policy: str) -> str | None:
        """What the oracle says beside the outputs: each text statement's first phrase (a refusal's reason)."""
        said = (
            [s.value.split("|")[0] for s in task.statements if s.kind == "text"]
            if isinstance(task, FactoryTask)
            else []
        )
        return "; ".join(said) if said else None

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        reward: tuple[RewardComponent, ...] = getattr(self, "_reward")  # noqa: B009 - set in __post_init__
        return reward

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        return ["DB", "COMMUNICATE"] if isinstance(task, FactoryTask) and task.statements else ["DB"]

    def listed_checks(self, task: Task) -> Mapping[RewardBasis, int]:
        statements = len(task.statements) if isinstance(task, FactoryTask) else 0
        return {"DB": 1, "COMMUNICATE": statements}

    def task_intent(self, task: Task) -> str | None:
        return task.intent if isinstance(task, FactoryTask) else None

    def policy_clauses(self, root: Path, task: Task) -> Sequence[str] | None:
        """The clauses ``task`` cites (``FactoryTask.clauses``), each with its text from the domain's policy."""
        if not isinstance(task, FactoryTask):
            return None
        texts = clause_texts(self.policy(root))
        return [f"{clause} {texts.get(clause, '(not in the policy)')}" for clause in task.clauses]

    # What the audit can ask a factory domain (issue 41's flags).

    def task_flags(self, domain: DomainView, tasks: Sequence[Task]) -> Mapping[str, list[tuple[str, str]]]:
        """``non_unique``, ``trap_cue`` and ``output_spec`` flags, by task id (the audit adds them to its own)."""
        return factory_flags(self, domain, tasks, self.policy(domain.root))

    def labels(self) -> tuple[str, ...]:
        """The task fields the viewer shows and filters by."""
        return tuple(getattr(self.task_model, "LABELS", ()))

    def allowed_outcomes(self, task: Task) -> list[list[Action]]:
        """Every outcome the policy allows for ``task`` (``non_unique``: each must score 1.0), the gold first."""
        return list(task.outcomes()) if isinstance(task, FactoryTask) else [list(task.actions)]

    def trap_cues(self, tasks: Sequence[Task]) -> dict[str, list[str]]:
        """Per trap task of a split, the sentences only trap tasks of its intent carry (``trap_cue``)."""
        return trap_cues([task for task in tasks if isinstance(task, FactoryTask)])

    def output_problems(self, task: Task, policy: str) -> list[str]:
        """Why ``task``'s required outputs are not specific enough (``output_spec``); empty when they are."""
        return output_spec(task.outputs, task.instruction, policy)
