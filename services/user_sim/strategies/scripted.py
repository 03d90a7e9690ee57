"""The scripted user: opens with the task's instruction, and stops once the agent has answered. No LLM."""

from __future__ import annotations

from taumesh.models import STOP_TOKEN, ChatMessage
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn


class ScriptedUser:
    """Says the instruction, then ends the conversation at the agent's first answer."""

    async def reply(self, turn: UserTurn) -> UserReply:
        if not turn.conversation:
            return UserReply(message=ChatMessage(role="user", content=turn.instruction))
        return UserReply(message=ChatMessage(role="user", content=STOP_TOKEN))
