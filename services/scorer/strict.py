"""The strict grader (``--grader strict``, docs/validity.md): the benchmark's grading with two of its flaws corrected.

- A task whose gold actions error when replayed in order from its initial state is not graded (τ² logs such errors
  and goes on, so its target may be the unmodified database): :class:`GoldErrors`.
- The final state is compared with the gold's up to the order of the list arguments the domain declares sets
  (``DomainPlugin.unordered_arguments``): the episode's tool calls and the gold's are both replayed with those lists in
  one canonical order, and a DB check the faithful grading failed passes when the two replays reach one state.

Everything else is the faithful grade: the strict grader only ever turns a failed DB check into a passed one, on
evidence it names in the check's explanation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from taumesh.domains import Domain, Requestor, Session, Task, replayed_calls
from taumesh.models import ChatMessage, Score

SHOWN_ERROR = 200
"""Characters of an erroring gold action's observation the refusal quotes."""

UnorderedArguments = Mapping[str, tuple[tuple[str, ...], ...]]


class GoldErrors(Exception):
    """The task's gold errors in strict replay: the strict grader does not grade it (the message names each)."""


def canonical_arguments(name: str, arguments: dict[str, Any], declared: UnorderedArguments) -> dict[str, Any]:
    """``arguments`` with each declared group of lists sorted together (paired lists keep their pairs)."""
    changed = dict(arguments)
    for group in declared.get(name, ()):
        lists = [arguments.get(argument) for argument in group]
        columns = [value for value in lists if isinstance(value, list)]
        if len(columns) != len(group) or len({len(column) for column in columns}) != 1:
            continue  # not lists of one length: left as given
        rows = sorted(zip(*columns, strict=True), key=lambda row: json.dumps(row, sort_keys=True))
        for position, argument in enumerate(group):
            changed[argument] = [row[position] for row in rows]
    return changed


class StrictGrader:
    """Per task, once: which gold actions error, and the canonical gold state's hash."""

    def __init__(self) -> None:
        self._errors: dict[tuple[str, str, str], list[str]] = {}
        self._canonical_gold: dict[tuple[str, str, str], str] = {}

    def gold_errors(self, domain: Domain, split: str, task: Task) -> list[str]:
        """One sentence per gold action that errors when the gold is replayed in order (each as its tool's side)."""
        key = (domain.name, split, task.id)
        if key not in self._errors:
            session = domain.open_session(task)
            found = []
            for position, action in enumerate(task.actions):
                result = domain.call_tool(session, action.name, dict(action.kwargs), _side(domain, action.name))
                if result.error:
                    found.append(f"gold action {position} ({action.name}): {result.observation[:SHOWN_ERROR]}")
            self._errors[key] = found
        return self._errors[key]

    def check_gold(self, domain: Domain, split: str, task: Task) -> None:
        """Raise :class:`GoldErrors` when ``task``'s gold errors."""
        errors = self.gold_errors(domain, split, task)
        if errors:
            raise GoldErrors(
                f"task {task.id!r}'s gold errors in replay, so the strict grader does not grade it: {'; '.join(errors)}"
            )

    def regrade(
        self, domain: Domain, split: str, task: Task, conversation: Sequence[ChatMessage], score: Score
    ) -> Score:
        """``score`` with its failed DB checks passed when the episode and the gold agree up to declared order."""
        declared = domain.spec.unordered_arguments
        basis = set(score.reward_basis)
        failed = [check for check in score.checks if not check.passed and check.basis in basis]
        if not declared or not failed or any(check.basis != "DB" for check in failed):
            return score  # nothing declared, nothing failed, or something besides the state failed
        key = (domain.name, split, task.id)
        if key not in self._canonical_gold:
            self._canonical_gold[key] = self._replay_gold(domain, task, declared).data_hash()
        if self._replay_episode(domain, task, conversation, declared).data_hash() != self._canonical_gold[key]:
            return score
        explanation = "passed under the strict grader: the final state equals the gold's up to the order of lists "
        explanation += "the domain declares sets"
        checks = [
            check.model_copy(update={"passed": True, "explanation": explanation}) if check in failed else check
            for check in score.checks
        ]
        return score.model_copy(update={"reward": 1.0, "checks": checks})

    def _replay_gold(self, domain: Domain, task: Task, declared: UnorderedArguments) -> Session:
        session = domain.open_session(task)
        for action in task.actions:
            arguments = canonical_arguments(action.name, dict(action.kwargs), declared)
            domain.call_tool(session, action.name, arguments, _side(domain, action.name))
        return session

    def _replay_episode(
        self, domain: Domain, task: Task, conversation: Sequence[ChatMessage], declared: UnorderedArguments
    ) -> Session:
        """The episode's tool calls from the task's initial state, as the env ran them, lists in canonical order.

        A call is replayed as the orchestrator ran it: not when its id is empty or already used (the history's
        calls ran when the session opened), nor when its arguments are not a JSON object.
        """
        session = domain.open_session(task)
        for call, arguments in replayed_calls(task.history(), conversation):
            domain.call_tool(session, call.name, canonical_arguments(call.name, arguments, declared), call.requestor)
        return session


def _side(domain: Domain, name: str) -> Requestor:
    """The side whose tool ``name`` is (a gold action of the user's is the user's call); the agent's if unknown."""
    tool = domain.tools_by_name.get(name)
    return tool.side if tool is not None else "assistant"
