"""``llm``: a model plays the customer. Stateless: its prompt is rebuilt from the conversation on every call.

In the model's prompt the roles are mirrored: the agent's messages are ``user`` turns and the customer's own are
``assistant`` turns, after the persona (system) and the agent's greeting.
"""

from __future__ import annotations

from typing import Any, ClassVar

from taumesh.llm import complete
from taumesh.models import ChatMessage, Usage
from taumesh.rpc.errors import InvalidArgument
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.prompts import GREETING, persona_prompt


class LlmUser:
    """τ-bench's LLM user simulator."""

    name = "llm"
    calls_model: ClassVar[bool] = True
    """Its requests name a model endpoint, which the operator must allow (see ``taumesh.llm.access``)."""

    def system_prompt(self, instruction: str) -> str:
        """The persona."""
        return persona_prompt(instruction)

    def own_turn(self, message: ChatMessage) -> str:
        """How one of the customer's earlier messages appears in its prompt."""
        return message.content

    def parse(self, text: str) -> ChatMessage:
        """The customer's message from the model's text."""
        return ChatMessage(role="user", content=text.strip())

    def prompt(self, turn: UserTurn) -> list[dict[str, Any]]:
        """Persona, greeting, then the conversation with roles mirrored."""
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt(turn.instruction)},
            {"role": "user", "content": GREETING},
        ]
        for message in turn.conversation:
            if message.role == "user":
                messages.append({"role": "assistant", "content": self.own_turn(message)})
            elif message.role == "assistant":
                messages.append({"role": "user", "content": message.content})
        return messages

    async def draft(self, turn: UserTurn, extra: list[dict[str, Any]] | None = None) -> tuple[ChatMessage, Usage]:
        """One model call for the customer's next message (``extra`` turns appended to the prompt)."""
        if not turn.settings.model.model:
            raise InvalidArgument(f"user strategy {self.name!r} needs a model (--user-model)")
        completion = await complete(turn.settings.model, [*self.prompt(turn), *(extra or [])])
        return self.parse(completion.message.content), completion.usage

    async def reply(self, turn: UserTurn) -> UserReply:
        message, usage = await self.draft(turn)
        return UserReply(message=message, usage=usage)
