"""``llm``: a model plays the customer. Stateless: its prompt is rebuilt from the conversation on every call.

In the model's prompt the roles are mirrored: the agent's messages are ``user`` turns and the customer's own are
``assistant`` turns, after the system prompt and the agent's greeting: the strategy's own, unless the conversation
opens with the agent's message (a domain's opening message, such as τ²'s greeting, the orchestrator put first).

In τ² domains, and wherever the user has tools of its own (τ²'s telecom phone), it plays as τ²'s user simulator:
τ²'s guidelines (the tool-using ones when it has tools) with the task's instructions as ``<scenario>``, the
conversation as τ²'s user sees it (τ²'s greeting first, which the orchestrator seeds, or the task's history; the
domain's greeting only when asked to open with nothing said), and the user's tools passed to the model. Its tool
calls go back as the user's (requestor ``user``); the orchestrator runs them and returns their results in the
conversation, which the prompt shows as the model's own tool calls answered by ``tool`` messages. The agent's tool
calls never reach the user.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from taumesh.domains import DataError, DomainPlugin, Registry, UserPrompt
from taumesh.llm import complete
from taumesh.models import ChatMessage, ToolCall, Usage
from taumesh.rpc.errors import FailedPrecondition, InvalidArgument
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.prompts import GREETING, persona_prompt


class LlmUser:
    """τ-bench's LLM user simulator, and τ²'s in τ² domains."""

    name = "llm-taumesh"
    calls_model: ClassVar[bool] = True
    follows_tau2: ClassVar[bool] = True
    """Plays as τ²'s user simulator in τ² domains. A subclass does only when it says so itself: the subclasses
    written for τ-bench v1 (react's layout, verify's review of text drafts) keep τ-bench's prompt and no tools."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.follows_tau2 = bool(cls.__dict__.get("follows_tau2", False))

    def __init__(self, registry: Registry | None = None) -> None:
        self._registry = registry

    def _plugin(self, domain: str) -> DomainPlugin | None:
        """``domain``'s plugin, None when unknown (the registry is discovered on first use)."""
        if self._registry is None:
            self._registry = Registry.discover()
        try:
            return self._registry.get(domain)
        except (KeyError, DataError):
            return None

    def domain_prompts_user(self, domain: str) -> bool:
        """Whether ``domain``'s plugin brings the user's prompt (its ``user_prompt`` hook: τ²'s guidelines)."""
        plugin = self._plugin(domain)
        return plugin is not None and plugin.own_user_prompt

    def plays_tau2(self, turn: UserTurn) -> bool:
        """Whether this turn is played with the domain's prompt and tools: the user has tools, or the domain prompts."""
        if not self.follows_tau2:
            return False
        return bool(turn.tools) or (turn.episode is not None and self.domain_prompts_user(turn.episode.task.domain))

    def domain_prompt(self, turn: UserTurn) -> UserPrompt:
        """The domain's user prompt (its ``user_prompt`` hook); FAILED_PRECONDITION when its files are missing."""
        plugin = self._plugin(turn.episode.task.domain) if turn.episode is not None else None
        try:
            prompt = plugin.user_prompt(turn.instruction, bool(turn.tools)) if plugin is not None else None
        except DataError as exc:
            raise FailedPrecondition(str(exc), reason="USER_GUIDELINES_MISSING") from exc
        return prompt or UserPrompt(self.system_prompt(turn.instruction), GREETING)

    def system_prompt(self, instruction: str) -> str:
        """The persona (τ-bench's domains)."""
        return persona_prompt(instruction)

    def own_turn(self, message: ChatMessage) -> str:
        """How one of the customer's earlier messages appears in its prompt."""
        return message.content

    def parse(self, text: str) -> ChatMessage:
        """The customer's message from the model's text."""
        return ChatMessage(role="user", content=text.strip())

    def prompt(self, turn: UserTurn) -> list[dict[str, Any]]:
        """System prompt, greeting (unless the conversation has it), then the conversation with roles mirrored."""
        if self.plays_tau2(turn):
            prompt = self.domain_prompt(turn)
            system, greeting = prompt.system, prompt.greeting
            greets = not turn.conversation  # else it holds τ²'s greeting (the orchestrator's) or the task's history
        else:
            system, greeting = self.system_prompt(turn.instruction), GREETING
            greets = not turn.conversation or turn.conversation[0].role != "assistant"  # the agent's own opening
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        if greets:
            messages.append({"role": "user", "content": greeting})
        for message in turn.conversation:
            if message.role == "user":
                own: dict[str, Any] = {"role": "assistant", "content": self.own_turn(message)}
                if message.tool_calls:
                    own["tool_calls"] = [call.openai() for call in message.tool_calls]
                messages.append(own)
            elif message.role == "assistant":
                messages.append({"role": "user", "content": message.content})
            elif message.role == "tool":
                messages.append({"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content})
        return messages

    async def draft(self, turn: UserTurn, extra: list[dict[str, Any]] | None = None) -> tuple[ChatMessage, Usage]:
        """One model call for the customer's next message (``extra`` turns appended to the prompt)."""
        if not turn.settings.model.model:
            raise InvalidArgument(f"user strategy {self.name!r} needs a model (--user-model)")
        if self._registry is None and self.follows_tau2:  # discovering the plugins takes up to seconds: not on the loop
            self._registry = await asyncio.to_thread(Registry.discover)
        tools = turn.tools if self.plays_tau2(turn) else None
        completion = await complete(turn.settings.model, [*self.prompt(turn), *(extra or [])], tools)
        message = self.parse(completion.message.content)
        if completion.message.tool_calls:
            calls = user_calls(completion.message.tool_calls, turn.conversation)
            message = message.model_copy(update={"tool_calls": calls})
        return message, completion.usage

    async def reply(self, turn: UserTurn) -> UserReply:
        message, usage = await self.draft(turn)
        return UserReply(message=message, usage=usage)


def user_calls(calls: list[ToolCall], conversation: list[ChatMessage]) -> list[ToolCall]:
    """The model's tool calls as the user's, each with an id (``user_call_<n>`` where the model gave none)."""
    made = sum(len(m.tool_calls) for m in conversation if m.role == "user")
    return [
        call.model_copy(update={"requestor": "user", "id": call.id or f"user_call_{made + position}"})
        for position, call in enumerate(calls)
    ]
