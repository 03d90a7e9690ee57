"""``human``: a person types the customer's turns in the terminal of the process running the user-sim service.

With ``taumesh run`` in embedded mode that is the terminal of ``taumesh run`` itself. The agent's message is shown
first, then a line is read (in a worker thread, so the services keep running). An empty line, end of input, or a
line containing ``###STOP###`` ends the conversation.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

from taumesh.models import STOP_TOKEN, ChatMessage
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.prompts import HUMAN_INTRO

PROMPT = "You: "


def _write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class HumanUser:
    """Reads the customer's messages from a person."""

    name = "human"

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = _write) -> None:
        self.read = read
        self.write = write

    def ask(self, shown: str) -> str:
        """Show ``shown``, then read one line (``###STOP###`` for an empty line or end of input)."""
        self.write(shown)
        try:
            line = self.read(PROMPT)
        except EOFError:
            return STOP_TOKEN
        return line.strip() or STOP_TOKEN

    async def reply(self, turn: UserTurn) -> UserReply:
        if turn.conversation:
            shown = f"\nAgent: {turn.conversation[-1].content}"
        else:
            shown = HUMAN_INTRO.format(instruction=turn.instruction)
        text = await asyncio.to_thread(self.ask, shown)
        return UserReply(message=ChatMessage(role="user", content=text))
