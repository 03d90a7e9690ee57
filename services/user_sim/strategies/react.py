"""``react``: the simulated customer writes a private thought, then its message; only the message reaches the agent.

The thought is returned in ``reasoning``, so it comes back with the conversation and is shown to the model again
in later calls.
"""

from __future__ import annotations

from taumesh.models import ChatMessage
from taumesh.services.user_sim.strategies.llm import LlmUser
from taumesh.services.user_sim.strategies.prompts import persona_prompt

RESPONSE_MARKER = "User Response:"
THOUGHT_MARKER = "Thought:"


def split_thought(text: str) -> tuple[str, str]:
    """(thought, message) of a ``Thought: ... User Response: ...`` answer; all message when the marker is absent."""
    head, marker, tail = text.rpartition(RESPONSE_MARKER)
    if not marker:
        return "", text.strip()
    thought = head.strip()
    if thought.startswith(THOUGHT_MARKER):
        thought = thought[len(THOUGHT_MARKER) :].strip()
    return thought, tail.strip()


class ReactUser(LlmUser):
    """Thought, then reply."""

    name = "react"

    def system_prompt(self, instruction: str) -> str:
        return persona_prompt(instruction, react=True)

    def own_turn(self, message: ChatMessage) -> str:
        return f"{THOUGHT_MARKER}\n{message.reasoning}\n{RESPONSE_MARKER}\n{message.content}"

    def parse(self, text: str) -> ChatMessage:
        thought, reply = split_thought(text)
        return ChatMessage(role="user", content=reply, reasoning=thought)
