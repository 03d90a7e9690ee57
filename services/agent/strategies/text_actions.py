"""``act`` and ``react``: one JSON action per turn, written in text; react writes a thought first.

Stateless: the text-form prompt is rebuilt from the conversation on every call. The agent's earlier tool calls
become ``Action:`` turns (with their ``Thought:`` for react, kept in ``ChatMessage.reasoning``), tool results become
user turns starting with ``API output:``, and the agent's messages to the customer become ``respond`` actions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from taumesh.domains import Catalog
from taumesh.llm import complete, find_json_object
from taumesh.models import ChatMessage, ToolCall
from taumesh.services.agent.strategies.base import AgentReply, AgentTurn
from taumesh.services.agent.strategies.llm import next_call_id, require_model, rollout_headers
from taumesh.services.agent.strategies.prompts import OBSERVATION_PREFIX, RESPOND, action_text, text_action_prompt


class ParsedAction(BaseModel):
    """What a model's text turn says: an optional thought, the action (None when unreadable), the action text."""

    thought: str
    action: dict[str, Any] | None
    action_text: str


def parse_turn(text: str) -> ParsedAction:
    """Split ``Thought: ... Action: {...}`` and read the action's JSON (a name and an arguments object)."""
    head, marker, tail = text.rpartition("Action:")
    action_part = tail.strip() if marker else text.strip()
    thought = head.strip() if marker else ""
    if thought.startswith("Thought:"):
        thought = thought[len("Thought:") :].strip()
    action = find_json_object(action_part)
    if action is not None:
        name, arguments = action.get("name"), action.get("arguments", {})
        valid = isinstance(name, str) and bool(name) and isinstance(arguments, dict)
        action = {"name": name, "arguments": arguments} if valid else None
    return ParsedAction(thought=thought, action=action, action_text=action_part)


def _arguments(call: ToolCall) -> object:
    try:
        return json.loads(call.arguments)
    except json.JSONDecodeError:
        return call.arguments


def text_transcript(conversation: Sequence[ChatMessage], react: bool) -> list[dict[str, str]]:
    """The conversation as alternating user/assistant text turns, in the act/react format."""
    out: list[dict[str, str]] = []
    calls: dict[str, tuple[ToolCall, str]] = {}
    shown: set[str] = set()
    for message in conversation:
        thought = message.reasoning if react else None
        if message.role == "user":
            out.append({"role": "user", "content": message.content})
        elif message.role == "assistant" and message.tool_calls:
            for call in message.tool_calls:
                calls[call.id] = (call, thought or "")
            first = message.tool_calls[0]
            out.append({"role": "assistant", "content": action_text(first.name, _arguments(first), thought)})
            shown.add(first.id)
        elif message.role == "assistant":
            content = {"content": message.content}
            out.append({"role": "assistant", "content": action_text(RESPOND, content, thought)})
        elif message.role == "tool":
            if message.tool_call_id not in shown and message.tool_call_id in calls:
                call, reason = calls[message.tool_call_id]  # a second call of one turn: show it on its own
                shown.add(call.id)
                out.append(
                    {
                        "role": "assistant",
                        "content": action_text(call.name, _arguments(call), reason if react else None),
                    }
                )
            out.append({"role": "user", "content": OBSERVATION_PREFIX + message.content})
    return out


class TextActionAgent:
    """The act strategy; :class:`ReactAgent` adds the thought."""

    name = "act"
    calls_model: ClassVar[bool] = True
    react = False

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    async def next_message(self, turn: AgentTurn) -> AgentReply:
        require_model(turn.settings.model, self.name)
        system = text_action_prompt(turn.policy, turn.tools, react=self.react)
        messages = [{"role": "system", "content": system}, *text_transcript(turn.conversation, self.react)]
        completion = await complete(turn.settings.model, messages, headers=rollout_headers(turn.episode))
        parsed = parse_turn(completion.message.content)
        reasoning = parsed.thought if self.react else ""
        action = parsed.action
        if action is None:  # unreadable: the text goes to the customer as it is, as τ-bench does
            text = parsed.action_text or completion.message.content
            message = ChatMessage(role="assistant", content=text, reasoning=reasoning)
        elif action["name"] == RESPOND:
            content = action["arguments"].get("content")
            text = content if isinstance(content, str) else json.dumps(action["arguments"])
            message = ChatMessage(role="assistant", content=text, reasoning=reasoning)
        else:
            call = ToolCall(
                id=next_call_id(turn.conversation), name=action["name"], arguments=json.dumps(action["arguments"])
            )
            message = ChatMessage(role="assistant", tool_calls=[call], reasoning=reasoning)
        return AgentReply(message=message, usage=completion.usage, system_prompt=system)


class ReactAgent(TextActionAgent):
    """The react strategy: ``Thought:`` then ``Action:``; the thought is kept in the message's reasoning."""

    name = "react"
    react = True
