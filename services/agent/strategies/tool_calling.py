"""``tool-calling``: the policy as system prompt and the tools as the model's native function calls."""

from __future__ import annotations

from typing import ClassVar

from taumesh.domains import Catalog
from taumesh.llm import complete
from taumesh.llm.errors import MalformedOutput
from taumesh.llm.parsing import tool_call_in_text
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn
from taumesh.services.agent.strategies.llm import next_call_id, require_model, rollout_headers


class ToolCallingAgent:
    """τ-bench's tool-calling agent: one model call per turn; only the first tool call of a turn runs."""

    name = "tool-calling"
    calls_model: ClassVar[bool] = True

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def system_prompt(self, turn: AgentTurn) -> str:
        """The policy, verbatim."""
        return turn.policy

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        require_model(turn.settings.model, self.name)
        system = self.system_prompt(turn)
        messages = [{"role": "system", "content": system}, *(m.openai() for m in turn.conversation)]
        completion = await complete(turn.settings.model, messages, turn.tools, headers=rollout_headers(turn.episode))
        message = completion.message
        if message.tool_calls:
            # τ-bench runs one action per step: a second call in the same turn is dropped, and the model sees
            # only the first one answered.
            first = message.tool_calls[0]
            if not first.id:
                first = first.model_copy(update={"id": next_call_id(turn.conversation)})
            message = message.model_copy(update={"tool_calls": [first]})
        elif tool_call_in_text(message.content, {tool.name for tool in turn.tools}) is not None:
            # a call written in the text (the server parsed none): the agent's malformed call, not a message for
            # the user; never retried, the same prompt writes it again
            raise MalformedOutput(f"a tool call written as text, not parsed by the server: {message.content[:300]}")
        return AgentReply(message=message, usage=completion.usage, system_prompt=system)
