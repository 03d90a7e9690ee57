"""The scripted user: opens with the task's instruction, and stops once the agent has answered. No LLM.

Where the user has tools of its own (τ²'s telecom), it also plays the task's user-side gold actions
(the task's ``user_turns`` hook), one call per message, in the gold order: the actions before the first
agent action before it opens, then, each time the oracle hands over, the actions of that turn before it
answers. It stops once the agent has spoken after its last hand-over. Stateless: the conversation says how
far it got. The task's message history (the conversation before the episode) is not counted: after it, the
user says its instruction, as it would have opened, and stops at the agent's answer.

An agent message the domain's ``stop_reply`` hook answers (τ²: being transferred to a human, answered with
``###TRANSFER###``) gets that answer (only once the agent has said so: its tool calls are not the user's to see).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

from taumesh.domains import Catalog, DataError, Domain, Task
from taumesh.models import STOP_TOKEN, ChatMessage, ToolCall
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn

DONE_LINE = "Done."
"""What the user says once it has done its part of a turn the agent handed over."""


class ScriptedUser:
    """Says the instruction (after any gold actions of its own), then ends the conversation at the agent's answer."""

    calls_model: ClassVar[bool] = False

    def __init__(self, catalog: Catalog | None = None) -> None:
        self._catalog = catalog

    def _task(self, turn: UserTurn) -> tuple[Domain, Task] | None:
        """The domain and task being played; None when this user's catalog does not have them."""
        if turn.episode is None:
            return None
        if self._catalog is None:
            self._catalog = Catalog(Path())
        ref = turn.episode.task
        try:
            return self._catalog.find_task(ref.domain, ref.split, ref.task_id)
        except (KeyError, IndexError, DataError):
            return None

    @staticmethod
    def _stop_reply(domain: Domain, conversation: list[ChatMessage]) -> str | None:
        """The domain's answer to the agent message being answered (its ``stop_reply`` hook), if any."""
        last = conversation[-1] if conversation else None
        if last is None or last.role != "assistant" or last.tool_calls:
            return None
        return domain.spec.stop_reply(last.content)

    @staticmethod
    def _opening(found: tuple[Domain, Task] | None, instruction: str) -> str:
        """The instruction, less the stop tokens it may name where the domain checks the opening for them."""
        if found is None or not found[0].spec.user_opening_stops:
            return instruction
        for token in found[0].spec.user_stop_tokens:
            instruction = instruction.replace(token, "")
        return instruction

    async def reply(self, turn: UserTurn) -> UserReply:
        found = self._task(turn)
        user_turns = found[1].user_turns() if found is not None else [[]]
        # the task's message history is not this user's doing: it opens after it as it would afresh
        conversation = found[1].after_history(turn.conversation) if found is not None else turn.conversation
        stop = self._stop_reply(found[0], conversation) if found is not None else None
        if stop is not None:
            return UserReply(message=ChatMessage(role="user", content=stop))
        spoken = sum(1 for m in conversation if m.role == "user" and not m.tool_calls)
        if spoken < len(user_turns):
            done = sum(len(m.tool_calls) for m in conversation if m.role == "user")
            due = sum(len(actions) for actions in user_turns[: spoken + 1])
            if done < due:
                action = [action for actions in user_turns for action in actions][done]
                call = ToolCall(
                    id=f"user_{done}", name=action.name, arguments=json.dumps(action.kwargs), requestor="user"
                )
                return UserReply(message=ChatMessage(role="user", tool_calls=[call]))
        if spoken == 0:
            return UserReply(message=ChatMessage(role="user", content=self._opening(found, turn.instruction)))
        if spoken < len(user_turns):
            return UserReply(message=ChatMessage(role="user", content=DONE_LINE))
        return UserReply(message=ChatMessage(role="user", content=STOP_TOKEN))
