"""The null agent: one refusal, whatever is asked, and nothing else. No LLM, no tool call.

It plays the audit's ``null`` floor live (``taumesh run --agent-strategy null``), so a team sees what doing nothing
scores against any user simulator: the scripted user stops at its answer, as the floor's user does.
"""

from __future__ import annotations

from typing import ClassVar

from taumesh.audit import REFUSAL
from taumesh.domains import Catalog
from taumesh.models import ChatMessage
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn


class NullAgent:
    """Refuses every request with :data:`taumesh.audit.REFUSAL`."""

    calls_model: ClassVar[bool] = False

    def __init__(self, catalog: Catalog) -> None:
        del catalog  # the registry hands every strategy the catalog; this one needs no task

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        return AgentReply(message=ChatMessage(role="assistant", content=REFUSAL))
