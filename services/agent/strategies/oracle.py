"""The oracle: replays the gold actions the agent itself takes, then tells the user the required outputs. No LLM.

It looks the task up itself from the episode's task reference: gold actions never travel over the
wire. Stateless: the number of tool calls already in the conversation (after the task's message history and the
domain's opening message, which are not the oracle's doing) says which action is next.

After its gold actions, it says the required outputs and what the domain's ``closing_message`` hook adds (τ²:
after a transfer, the message the policy prescribes; the user then ends the conversation).

Dual control (τ²'s telecom): where the task's next gold action is the user's, the oracle hands over
(says :data:`HANDOVER_LINE`) and goes on once the user has answered, so the two sides act in the
gold order; the scripted user plays its part of each turn.
"""

from __future__ import annotations

import json
from typing import ClassVar

from taumesh.domains import Catalog, DataError, same_message
from taumesh.models import ChatMessage, ToolCall
from taumesh.rpc.errors import NotFound
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn

CLOSING_LINE = "Is there anything else I can help you with?"
"""What the oracle says when the task requires no output (τ-bench's reference runs say the same)."""
HANDOVER_LINE = "Please do the next steps on your phone and tell me when you are done."
"""What the oracle says where the user's gold actions come next."""


class OracleAgent:
    """Plays a task's gold solution."""

    calls_model: ClassVar[bool] = False

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        ref = turn.episode.task
        try:
            domain, task = self.catalog.find_task(ref.domain, ref.split, ref.task_id)
        except (KeyError, DataError) as exc:
            raise NotFound(str(exc.args[0]), reason="TASK_NOT_FOUND") from exc
        # the task's message history and the domain's opening message (τ²'s greeting) are not the oracle's doing
        conversation = after_opening(task.after_history(turn.conversation), domain.opening_message(task))
        done = sum(len(m.tool_calls) for m in conversation if m.role == "assistant")
        said = sum(1 for m in conversation if m.role == "assistant" and not m.tool_calls)
        handovers = task.handovers()
        if said < len(handovers) and done == handovers[said]:
            return AgentReply(message=ChatMessage(role="assistant", content=HANDOVER_LINE))
        actions = task.agent_actions()
        if done < len(actions):
            action = actions[done]
            call = ToolCall(id=f"oracle_{done}", name=action.name, arguments=json.dumps(action.kwargs))
            return AgentReply(message=ChatMessage(role="assistant", tool_calls=[call]))
        closing = domain.spec.closing_message(task, turn.policy)
        if closing is not None:
            text = " ".join([*task.outputs, closing])
        else:
            text = " ".join(task.outputs) if task.outputs else CLOSING_LINE
        return AgentReply(message=ChatMessage(role="assistant", content=text))


def after_opening(conversation: list[ChatMessage], opening: str | None) -> list[ChatMessage]:
    """``conversation`` less the domain's opening agent message at its start, when it has one."""
    if opening and conversation and same_message(conversation[0], ChatMessage(role="assistant", content=opening)):
        return conversation[1:]
    return conversation
