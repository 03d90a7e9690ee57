"""τ²'s task records (``tau2.data_model.tasks``), loaded from ``tasks.json`` and its split file.

A :class:`Tau2Task` is also a v1 :class:`~taumesh.domains.Task`: its ``actions`` are the gold actions
and its ``outputs`` the ``communicate_info``, so code written for v1 tasks (the oracle agent, the
scripted user, ``check_domain``) works on it unchanged. Unknown keys are ignored, as τ² does.
"""

from __future__ import annotations

import functools
import json
import textwrap
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from taumesh.domains import Action, DataError, Task, describe_validation_error
from taumesh.models import ChatMessage, RewardBasis, ToolCall

Side = Literal["assistant", "user"]


class EnvFunctionCall(BaseModel):
    """A call of any function (tool or not) of the assistant's or the user's toolkit."""

    env_type: Side
    func_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class EnvAssertion(EnvFunctionCall):
    """A function returning a bool that must equal ``assert_value``."""

    assert_value: bool = True
    message: str | None = None


class GoldAction(BaseModel):
    """A gold tool call: what the evaluator replays and looks for in the trajectory."""

    action_id: str
    requestor: Side = "assistant"
    name: str
    arguments: dict[str, Any]
    info: str | None = None
    compare_args: list[str] | None = None

    def matches(self, name: str, arguments: dict[str, Any]) -> bool:
        """τ²'s ``compare_with_tool_call``: same name, and equal on ``compare_args`` (None: the call's own keys)."""
        if name != self.name:
            return False
        keys = list(arguments) if self.compare_args is None else self.compare_args
        if not keys:
            return True
        predicted = {key: value for key, value in arguments.items() if key in keys}
        gold = {key: value for key, value in self.arguments.items() if key in keys}
        return predicted == gold


def _default_basis() -> list[RewardBasis]:
    return ["DB", "COMMUNICATE"]


class EvaluationCriteria(BaseModel):
    actions: list[GoldAction] | None = None
    env_assertions: list[EnvAssertion] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[RewardBasis] = Field(default_factory=_default_basis)


class InitializationData(BaseModel):
    agent_data: dict[str, Any] | None = None
    user_data: dict[str, Any] | None = None


class HistoryToolCall(BaseModel):
    id: str = ""
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    requestor: Side = "assistant"


class HistoryMessage(BaseModel):
    """A message of a task's ``message_history``."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[HistoryToolCall] | None = None
    id: str | None = None
    requestor: Side = "assistant"


class InitialState(BaseModel):
    initialization_data: InitializationData | None = None
    initialization_actions: list[EnvFunctionCall] | None = None
    message_history: list[HistoryMessage] | None = None


_INSTRUCTION_PARTS = (
    ("reason_for_call", "Reason for call:"),
    ("known_info", "Known info:"),
    ("unknown_info", "Unknown info:"),
    ("task_instructions", "Task instructions:"),
)


def _indented(text: Any) -> str:
    return textwrap.indent(text if isinstance(text, str) else json.dumps(text), "\t")


def render_user_scenario(scenario: dict[str, Any]) -> str:
    """The user scenario as text, as τ²'s ``str(UserScenario)`` gives it to the user simulator."""
    lines = []
    if scenario.get("persona") is not None:
        lines += ["Persona:", _indented(scenario["persona"])]
    instructions = scenario.get("instructions", "")
    if isinstance(instructions, dict):
        parts = [f"Domain: {instructions.get('domain', '')}"]
        for key, title in _INSTRUCTION_PARTS:
            if instructions.get(key) is not None:
                parts += [title, _indented(instructions[key])]
        instructions = "\n".join(parts)
    lines += ["Instructions:", _indented(instructions)]
    return "\n".join(lines)


class Tau2Task(Task):
    """A τ² task; the v1 fields are derived from it (see the module docstring)."""

    user_id: str = ""
    instruction: str = ""
    actions: list[Action] = Field(default_factory=list)
    description: dict[str, Any] | None = None
    user_scenario: dict[str, Any] = Field(default_factory=dict)
    ticket: str | None = None
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Tau2Task:
        """Validate one record of ``tasks.json`` and fill the v1 fields."""
        task = cls.model_validate(record)
        criteria = task.evaluation_criteria
        gold = (criteria.actions or []) if criteria is not None else []
        return task.model_copy(
            update={
                "actions": [Action(name=action.name, kwargs=action.arguments) for action in gold],
                "outputs": list(criteria.communicate_info or []) if criteria is not None else [],
                "instruction": render_user_scenario(task.user_scenario),
            }
        )

    def agent_actions(self) -> list[Action]:
        """The gold actions whose requestor is the assistant, in order."""
        return [Action(name=g.name, kwargs=g.arguments) for g in self.gold_actions if g.requestor == "assistant"]

    def user_turns(self) -> list[list[Action]]:
        """The user's gold actions by turn: ``[0]`` before it first speaks, ``[j]`` after the agent's j-th hand-over.

        Dual control (telecom): the agent's and the user's gold actions interleave. The offline
        scripted user plays turn ``j`` when the oracle has handed over for the j-th time.
        """
        return self._interleaving()[0]

    def handovers(self) -> list[int]:
        """After how many of its own gold actions the agent hands over to the user (a user action comes next)."""
        return self._interleaving()[1]

    def _interleaving(self) -> tuple[list[list[Action]], list[int]]:
        turns: list[list[Action]] = [[]]
        handovers: list[int] = []
        done = 0
        previous = "user"
        for gold in self.gold_actions:
            if gold.requestor == "assistant":
                done += 1
            else:
                if previous == "assistant":
                    handovers.append(done)
                    turns.append([])
                turns[-1].append(Action(name=gold.name, kwargs=gold.arguments))
            previous = gold.requestor
        return turns, handovers

    @property
    def gold_actions(self) -> list[GoldAction]:
        return list(self.evaluation_criteria.actions or []) if self.evaluation_criteria is not None else []

    def history(self) -> list[ChatMessage]:
        """The task's ``message_history`` (the conversation before the episode starts), system messages aside.

        A tool message is named after the call it answers; a user's tool calls keep ``requestor`` ``user``.
        """
        messages = self.initial_state.message_history or [] if self.initial_state is not None else []
        names = {c.id: c.name for m in messages for c in m.tool_calls or []}
        return [
            ChatMessage(role="tool", content=m.content or "", tool_call_id=m.id or "", name=names.get(m.id or "", ""))
            if m.role == "tool"
            else ChatMessage(
                role=m.role,
                content=m.content or "",
                tool_calls=[
                    ToolCall(id=c.id, name=c.name, arguments=json.dumps(c.arguments), requestor=c.requestor)
                    for c in m.tool_calls or []
                ],
            )
            for m in messages
            if m.role != "system"
        ]

    def after_history(self, conversation: list[ChatMessage]) -> list[ChatMessage]:
        """``conversation`` less the task's history at its start: the part the episode itself added.

        Each side is given the history filtered to what it sees (:meth:`history` less the other side's tool use), so
        the history's messages are matched in order and skipped where the conversation leaves them out. A
        conversation that does not start with the history is returned whole.
        """
        at = 0
        for past in self.history():
            if at < len(conversation) and _same_message(conversation[at], past):
                at += 1
        return conversation[at:]


def _same_message(message: ChatMessage, other: ChatMessage) -> bool:
    """The same turn: same speaker, text and tool call ids (what survives the trip over the wire)."""

    def key(m: ChatMessage) -> tuple[str, str, str, list[str]]:
        return m.role, m.content, m.tool_call_id, [c.id for c in m.tool_calls]

    return key(message) == key(other)


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path} is not valid JSON: {exc}") from exc


@functools.lru_cache(maxsize=8)
def _parsed_tasks(tasks_file: Path, mtime_ns: int, size: int) -> tuple[Tau2Task, ...]:
    """Every task of the file, parsed once per process and file version.

    Telecom's 2,285 tasks take seconds to parse; every split and every domain variant reads the same file.
    """
    tasks = []
    for index, record in enumerate(_load(tasks_file)):
        try:
            tasks.append(Tau2Task.from_record(record))
        except ValidationError as exc:
            raise DataError(describe_validation_error(exc, f"{tasks_file}: task {index}")) from exc
    return tuple(tasks)


def split_file(tasks_file: Path) -> Path:
    """τ²'s split file: ``split_<stem>.json`` beside the tasks file."""
    return tasks_file.with_name(f"split_{tasks_file.stem}.json")


def read_splits(tasks_file: Path) -> dict[str, list[str]]:
    """Split name -> task ids (a fresh copy of what the file held when last parsed)."""
    path = split_file(tasks_file)
    try:
        stat = path.stat()
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found") from exc
    return {name: list(ids) for name, ids in _parsed_splits(path, stat.st_mtime_ns, stat.st_size).items()}


@functools.lru_cache(maxsize=32)
def _parsed_splits(path: Path, mtime_ns: int, size: int) -> dict[str, list[str]]:
    """The split file, parsed once per process and file version: ListDomains counts every split per call."""
    splits = _load(path)
    if not isinstance(splits, dict):
        raise DataError(f"{path} is not a JSON object of split names to task ids")
    return splits


def read_tasks(tasks_file: Path, split: str | None) -> list[Tau2Task]:
    """The tasks of ``split`` in file order (``None``: every task in the file), as τ²'s ``get_tasks``."""
    try:
        stat = tasks_file.stat()
    except FileNotFoundError as exc:
        raise DataError(f"{tasks_file} not found") from exc
    tasks = list(_parsed_tasks(tasks_file, stat.st_mtime_ns, stat.st_size))
    if split is None:
        return tasks
    splits = read_splits(tasks_file)
    if split not in splits:
        raise KeyError(f"{tasks_file}: no split {split!r} (has {sorted(splits)})")
    wanted = set(splits[split])
    return [task for task in tasks if task.id in wanted]
