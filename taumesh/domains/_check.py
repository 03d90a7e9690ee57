"""``taumesh domain check``: replay every task's gold actions and report what is wrong with the domain."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains._domain import Domain
from taumesh.domains._errors import ToolCrash
from taumesh.domains._task import Task


@dataclass
class TaskCheck:
    """What replaying one task's gold actions showed."""

    split: str
    task_id: str
    action_count: int
    errors: list[str] = field(default_factory=list)
    """Gold actions whose observation is an error."""
    unknown_tools: list[str] = field(default_factory=list)
    argument_mismatches: list[str] = field(default_factory=list)
    """Arguments that do not match the tool's JSON schema."""
    crash: str | None = None
    """A tool that broke (returned no observation, or changed data it may not change); replay stopped there."""
    unchanged: bool = False
    """The gold state equals the initial state: a warning, since some tasks legitimately change nothing."""
    scorer_mismatches: list[str] = field(default_factory=list)
    """What the scorer would fail although the replay passes: a gold hash that skips a writing transfer tool, a tool
    that answers or writes differently on a second replay, a required output the comparison can never find."""

    @property
    def problems(self) -> list[str]:
        """Everything wrong with the task, warnings excluded."""
        crash = [f"crash: {self.crash}"] if self.crash else []
        unknown = [f"unknown tool {name!r}" for name in self.unknown_tools]
        return [*crash, *unknown, *self.argument_mismatches, *self.errors, *self.scorer_mismatches]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class CheckReport:
    """The check of one domain, task by task."""

    domain: str
    splits: list[str]
    tasks: list[TaskCheck]

    @property
    def failed(self) -> list[TaskCheck]:
        return [task for task in self.tasks if not task.ok]

    @property
    def unchanged(self) -> list[TaskCheck]:
        return [task for task in self.tasks if task.unchanged]

    @property
    def ok(self) -> bool:
        """True when no task has a problem (tasks that change nothing are only warnings)."""
        return bool(self.tasks) and not self.failed


class ArgumentChecker:
    """Checks a call's arguments against its tool's JSON schema: required, unknown, and typed arguments."""

    def __init__(self, schemas: Sequence[dict[str, Any]]) -> None:
        from jsonschema import Draft202012Validator  # ~0.15 s to import: only `taumesh domain check` needs it
        from jsonschema.validators import validator_for

        self._parameters = {schema["function"]["name"]: schema["function"].get("parameters", {}) for schema in schemas}
        self._validators = {
            name: validator_for(parameters, default=Draft202012Validator)(parameters)
            for name, parameters in self._parameters.items()
        }

    def mismatches(self, name: str, kwargs: dict[str, Any]) -> list[str]:
        """Why ``kwargs`` do not fit tool ``name``'s schema (empty when they do, or it has no schema)."""
        validator = self._validators.get(name)
        if validator is None:
            return []
        found = [
            f"{'.'.join(str(part) for part in error.absolute_path) or 'arguments'}: {error.message}"
            for error in sorted(validator.iter_errors(kwargs), key=lambda error: list(error.absolute_path))
        ]
        parameters = self._parameters[name]
        if "additionalProperties" not in parameters:  # OpenAI schemas rarely forbid extras; a call must not have any
            known = parameters.get("properties", {})
            found += [f"unknown argument {key!r}" for key in kwargs if key not in known]
        return found


def _replay(domain: Domain, task: Task) -> tuple[list[str], str]:
    """The observations of ``task``'s gold in a fresh session, and the state it leaves (a crash ends it)."""
    session = domain.spec.open_session(domain, task)
    observations = []
    for action in task.actions:
        tool = domain.tools_by_name.get(action.name)
        if tool is None:
            continue
        try:
            observations.append(
                session.call(action.name, copy.deepcopy(action.kwargs), requestor=tool.side).observation
            )
        except ToolCrash as exc:
            observations.append(f"crash: {exc}")
            break
    return observations, session.data_hash()


def scorer_mismatches(domain: Domain, task: Task, observations: list[str], final_hash: str) -> list[str]:
    """What the scorer fails on a task whose gold replays cleanly (issue 41: ``domain check`` must see it first).

    - a terminate tool that writes, which the gold hash skips (v1's :func:`~taumesh.domains.v1_gold_hash` does): the
      oracle's own episode then differs from the gold;
    - a tool that answers or writes otherwise on a second replay of the same gold (a clock, a random id);
    - a required output with a comma: τ-bench's comparison removes commas from what is said, so it never matches.
    """
    found = []
    writing_terminators = {
        action.name
        for action in task.actions
        if action.name in domain.spec.terminate_tools
        and (tool := domain.tools_by_name.get(action.name)) is not None
        and tool.writes
    }
    if writing_terminators and domain.spec.gold_hash(domain, task) != final_hash:
        names = ", ".join(sorted(writing_terminators))
        found.append(
            f"terminate tool {names} writes, but the gold hash skips it: the scorer fails the gold itself "
            "(replay it in gold_hash, or make the tool read only)"
        )
    again, again_hash = _replay(domain, task)
    changed = [
        f"action {position} {task.actions[position].name}"
        for position, (first, second) in enumerate(zip(observations, again, strict=False))
        if first != second
    ]
    if changed or again_hash != final_hash:
        where = ", ".join(changed) if changed else "the final state"
        found.append(f"nondeterministic: a second replay of the gold differs at {where}")
    found += [
        f"output {output!r} has a comma: τ-bench's comparison removes commas from what is said, so it never matches"
        for output in task.outputs
        if "," in output
    ]
    return found


def check_task(domain: Domain, split: str, task: Task, checker: ArgumentChecker) -> TaskCheck:
    """Replay ``task``'s gold actions in a fresh session, then check what the scorer will."""
    result = TaskCheck(split=split, task_id=task.id, action_count=len(task.actions))
    session = domain.spec.open_session(domain, task)  # the task's own initial state (τ²'s, a message history)
    initial_hash = session.data_hash()
    observations: list[str] = []
    for position, action in enumerate(task.actions):
        where = f"action {position} {action.name}"
        tool = domain.tools_by_name.get(action.name)
        if tool is None:
            result.unknown_tools.append(action.name)
            continue
        mismatches = checker.mismatches(action.name, action.kwargs)
        result.argument_mismatches += [f"{where}: {problem}" for problem in mismatches]
        try:
            step = session.call(action.name, copy.deepcopy(action.kwargs), requestor=tool.side)
        except ToolCrash as exc:
            result.crash = f"{where}: {exc}"
            return result
        observations.append(step.observation)
        if step.error:
            result.errors.append(f"{where}: {step.observation}")
    final_hash = session.data_hash()
    result.unchanged = final_hash == initial_hash
    if not result.unknown_tools:
        result.scorer_mismatches = scorer_mismatches(domain, task, observations, final_hash)
    return result


def check_domain(domain: Domain, splits: Sequence[str] | None = None) -> CheckReport:
    """Replay the gold actions of every task of ``splits`` (default: every split whose task file exists)."""
    if splits is None:
        splits = [split for split in domain.spec.splits if domain.has_split_file(split)]
    checker = ArgumentChecker([*domain.tool_schemas, *domain.user_tool_schemas])
    tasks = [check_task(domain, split, task, checker) for split in splits for task in domain.tasks(split)]
    return CheckReport(domain=domain.name, splits=list(splits), tasks=tasks)
