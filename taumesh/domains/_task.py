"""A task and its gold solution, with the hooks the oracle, the scripted user and the env read from it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taumesh.domains._tool import Requestor
from taumesh.models import ChatMessage

_SHOWN_ERRORS = 5


class Action(BaseModel):
    """One tool call of a gold action sequence, and who makes it (the agent, or the user with tools of its own)."""

    model_config = ConfigDict(frozen=True)

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)
    requestor: Requestor = Field(default="assistant", exclude=True)


class Task(BaseModel):
    """A task: who the user is, what they want, the gold solution, and the conversation it continues.

    ``id`` is the task's stable id within its split: the file's ``id`` field when it has one, else
    (τ-bench v1) the task's position in the split, as a string. The methods are the task's hooks: a
    subclass may compute them from its own fields (τ²'s tasks do).
    """

    id: str = ""
    user_id: str
    instruction: str
    actions: list[Action]
    outputs: list[str] = Field(default_factory=list)
    annotator: str | None = None
    message_history: list[ChatMessage] = Field(default_factory=list, exclude=True)
    """The conversation before the episode starts, which the episode continues (the env runs its tool calls)."""

    def agent_actions(self) -> list[Action]:
        """The gold actions the agent itself takes, in order (what the oracle agent plays)."""
        return [action for action in self.actions if action.requestor == "assistant"]

    def user_turns(self) -> list[list[Action]]:
        """The user's gold actions by turn: ``[0]`` before it first speaks, ``[j]`` after the agent's j-th hand-over."""
        return self._interleaving()[0]

    def handovers(self) -> list[int]:
        """After how many of its own gold actions the agent hands over to the user (a user action comes next)."""
        return self._interleaving()[1]

    def _interleaving(self) -> tuple[list[list[Action]], list[int]]:
        turns: list[list[Action]] = [[]]
        handovers: list[int] = []
        done, previous = 0, "user"
        for action in self.actions:
            if action.requestor == "assistant":
                done += 1
            else:
                if previous == "assistant":
                    handovers.append(done)
                    turns.append([])
                turns[-1].append(action)
            previous = action.requestor
        return turns, handovers

    def history(self) -> list[ChatMessage]:
        """The conversation the episode continues (none for τ-bench v1's tasks)."""
        return list(self.message_history)

    def after_history(self, conversation: list[ChatMessage]) -> list[ChatMessage]:
        """``conversation`` less the task's history at its start: the part the episode itself added.

        Each side is given the history filtered to what it sees, so the history's messages are matched in
        order and skipped where the conversation leaves them out. A conversation that does not start with
        the history is returned whole.
        """
        at = 0
        for past in self.history():
            if at < len(conversation) and same_message(conversation[at], past):
                at += 1
        return conversation[at:]


def same_message(message: ChatMessage, other: ChatMessage) -> bool:
    """The same turn: same speaker, text and tool call ids (what survives the trip over the wire)."""

    def key(m: ChatMessage) -> tuple[str, str, str, list[str]]:
        return m.role, m.content, m.tool_call_id, [c.id for c in m.tool_calls]

    return key(message) == key(other)


def describe_validation_error(error: ValidationError, where: str) -> str:
    """A short, readable summary of ``error``: the first few problems, each with its location."""
    problems = []
    for item in error.errors()[:_SHOWN_ERRORS]:
        location = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{location}: {item['msg']}")
    more = error.error_count() - len(problems)
    suffix = f"; and {more} more" if more > 0 else ""
    return f"{where}: " + "; ".join(problems) + suffix
