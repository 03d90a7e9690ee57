"""The scripted user: opens with the task's instruction, and stops once the agent has answered. No LLM.

Where the user has tools of its own (τ²'s telecom), it also plays the task's user-side gold actions,
one call per message, in the gold order: the actions before the first agent action before it opens,
then, each time the oracle hands over, the actions of that turn before it answers. It stops once the
agent has spoken after its last hand-over. Stateless: the conversation says how far it got. A τ² task's
message history (the conversation before the episode) is not counted: after it, the user says its
instruction, as it would have opened, and stops at the agent's answer.

In a τ² domain, an agent that tells it it is being transferred to a human is answered with ``###TRANSFER###``, as τ²'s
guidelines tell its user to (only once the agent has said so: the agent's tool calls are not the user's to see).
"""

from __future__ import annotations

import json
from pathlib import Path

from taumesh.domains import Catalog, DataError
from taumesh.domains.tau2 import TRANSFER_TOKEN, Tau2Task, announces_transfer
from taumesh.models import STOP_TOKEN, ChatMessage, ToolCall, is_tau2
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn

DONE_LINE = "Done."
"""What the user says once it has done its part of a turn the agent handed over."""


class ScriptedUser:
    """Says the instruction (after any gold actions of its own), then ends the conversation at the agent's answer."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self._catalog = catalog

    def _task(self, turn: UserTurn) -> Tau2Task | None:
        """The τ² task being played (τ² plugins read their data from the τ² cache); None for other domains."""
        if turn.episode is None or not (turn.tools or is_tau2(turn.episode.task.domain)):
            return None
        if self._catalog is None:
            self._catalog = Catalog(Path())
        ref = turn.episode.task
        try:
            _, task = self._catalog.find_task(ref.domain, ref.split, ref.task_id)
        except (KeyError, DataError):
            return None
        return task if isinstance(task, Tau2Task) else None

    @staticmethod
    def _transferred(turn: UserTurn, conversation: list[ChatMessage]) -> bool:
        """Whether, in a τ² domain, the agent's message being answered says the user is being transferred."""
        if turn.episode is None or not is_tau2(turn.episode.task.domain) or not conversation:
            return False
        last = conversation[-1]
        return last.role == "assistant" and not last.tool_calls and announces_transfer(last.content)

    async def reply(self, turn: UserTurn) -> UserReply:
        task = self._task(turn)
        user_turns = task.user_turns() if task is not None else [[]]
        # a τ² task's message history is not this user's doing: it opens after it as it would afresh
        conversation = task.after_history(turn.conversation) if task is not None else turn.conversation
        if self._transferred(turn, conversation):
            return UserReply(message=ChatMessage(role="user", content=TRANSFER_TOKEN))
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
            return UserReply(message=ChatMessage(role="user", content=turn.instruction))
        if spoken < len(user_turns):
            return UserReply(message=ChatMessage(role="user", content=DONE_LINE))
        return UserReply(message=ChatMessage(role="user", content=STOP_TOKEN))
