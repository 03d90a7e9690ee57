"""The ``a2a`` strategy's messages: a turn of the conversation as A2A parts, and an A2A reply as the agent's message.

No network here. What goes out (green to purple, role ``user``):

* the first message of an episode opens with the instructions (policy, tools, answer format) as a text part and
  ``{"policy", "tools"}`` as a data part (each part's metadata says its ``kind``);
* a user's words are a text part (kind ``user``);
* a tool's result is a data part ``{"tool_result": {"id", "name", "content"}}`` with a text rendering beside it
  (kind ``tool_result``).

What comes back: tool calls as a data part ``{"tool_calls": [{"id", "name", "arguments"}]}`` (or one
``{"name", "arguments"}`` object), or as text in the public convention ``<json>{"name": ..., "arguments": ...}</json>``;
words to the user as plain text or the ``respond`` tool. Anything else raises :class:`UnparsableReply`.

The A2A agent is stateful per context, while every call here carries the whole conversation: each reply this
strategy returns is marked in ``ChatMessage.reasoning`` (which comes back only to the agent service), so the messages
after the last marked one are exactly what the A2A agent has not seen yet.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from a2a.types.a2a_pb2 import Message, Part, Role
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.struct_pb2 import Struct, Value
from pydantic import BaseModel, ValidationError

from taumesh.models import ChatMessage, ToolCall, ToolSchema

RESPOND_TOOL = "respond"
"""The pseudo-tool whose ``content`` argument is said to the user (the public convention)."""
_JSON_BLOCK = re.compile(r"<json>(.*?)</json>", re.DOTALL)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
_NAMESPACE = uuid.UUID("6f1c63a4-8a43-4c55-9c40-1d2b8e0d7a10")
"""Fixed namespace of the derived context and message ids."""


class UnparsableReply(ValueError):
    """The A2A agent's reply is neither words to the user nor tool calls it could mean: the agent's failure."""


class Mark(BaseModel):
    """What this strategy keeps in ``reasoning`` of each reply: the A2A context and a task left open for input."""

    a2a_context: str
    a2a_task: str = ""

    @classmethod
    def read(cls, message: ChatMessage) -> Mark | None:
        """The mark of an assistant message this strategy returned, or None."""
        if message.role != "assistant" or not message.reasoning.startswith('{"a2a_context"'):
            return None
        try:
            return cls.model_validate_json(message.reasoning)
        except ValidationError:
            return None


def context_id(episode_id: str) -> str:
    """The episode's A2A context id, derived from its id: the same on every call, on any replica."""
    return str(uuid.uuid5(_NAMESPACE, f"taumesh-episode:{episode_id}"))


def message_id(context: str, conversation_length: int) -> str:
    """The outgoing message's id: a retried call sends the same id, so an agent may spot the repeat."""
    return str(uuid.uuid5(_NAMESPACE, f"{context}:{conversation_length}"))


def unseen(conversation: list[ChatMessage]) -> tuple[list[ChatMessage], Mark | None]:
    """The messages the A2A agent has not seen, and the mark of its last reply (None: the episode's first call)."""
    for index in range(len(conversation) - 1, -1, -1):
        mark = Mark.read(conversation[index])
        if mark is not None:
            return conversation[index + 1 :], mark
    return conversation, None


def instructions(policy: str, tools: list[ToolSchema]) -> str:
    """The opening text: the policy, the tools, and how to answer (for agents that read text only)."""
    schemas = json.dumps([tool.openai() for tool in tools], indent=2)
    return (
        f"{policy}\n\n"
        f"Here is the list of tools you can use:\n{schemas}\n\n"
        "Answer each message either with words for the user, or with one tool call written as "
        '<json>{"name": "<tool name>", "arguments": {...}}</json>. '
        f'To speak to the user you may also use <json>{{"name": "{RESPOND_TOOL}", "arguments": '
        '{"content": "<your words>"}}</json>. Tool results come back to you in the next message.'
    )


def _part(kind: str, *, text: str | None = None, data: Any = None) -> Part:
    metadata = Struct()
    metadata.update({"kind": kind})
    if data is not None:
        return Part(data=ParseDict(data, Value()), metadata=metadata, media_type="application/json")
    return Part(text=text or "", metadata=metadata, media_type="text/plain")


def turn_parts(messages: list[ChatMessage]) -> list[Part]:
    """Parts carrying ``messages``: users' words as text, tool results as data with a text rendering."""
    parts: list[Part] = []
    for message in messages:
        if message.role == "tool":
            result = {"id": message.tool_call_id, "name": message.name, "content": message.content}
            parts.append(_part("tool_result", data={"tool_result": result}))
            parts.append(
                _part(
                    "tool_result",
                    text=f"Tool call result ({message.name}, id {message.tool_call_id}):\n{message.content}",
                )
            )
        elif message.role == "user":
            parts.append(_part("user", text=message.content))
        elif message.role == "assistant":  # a τ² task's message history: said before this agent took over
            parts.append(_part("history", data={"assistant_message": message.openai()}))
            parts.append(_part("history", text=f"Earlier agent message: {json.dumps(message.openai())}"))
        elif message.content:
            parts.append(_part(message.role, text=message.content))
    return parts


def outgoing(
    context: str, conversation: list[ChatMessage], policy: str, tools: list[ToolSchema]
) -> tuple[Message, Mark | None]:
    """The A2A message for this call (only what the agent has not seen), and the mark of its last reply."""
    new, mark = unseen(conversation)
    parts: list[Part] = []
    if mark is None:
        parts.append(_part("instructions", text=instructions(policy, tools)))
        parts.append(_part("instructions", data={"policy": policy, "tools": [tool.openai() for tool in tools]}))
    parts.extend(turn_parts(new))
    message = Message(
        message_id=message_id(context, len(conversation)),
        context_id=context,
        role=Role.ROLE_USER,
        parts=parts,
    )
    if mark is not None and mark.a2a_task:
        message.task_id = mark.a2a_task  # the agent asked for input on this task: the answer continues it
    return message, mark


def arguments_text(arguments: Any) -> str:
    """Tool arguments as JSON text: a string is kept as the agent wrote it, an object is written out.

    A data part carries numbers as doubles (protobuf ``Value``), so a whole number comes back as ``4.0``; it is
    written as ``4``. Send the arguments as a JSON string to keep the spelling exactly.
    """
    if isinstance(arguments, str):
        return arguments
    if arguments is None:
        return "{}"
    if not isinstance(arguments, dict):
        raise UnparsableReply(f"tool call arguments must be an object or JSON text, not {type(arguments).__name__}")
    return json.dumps(_whole_numbers(arguments))


def _whole_numbers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value


def _call(raw: Any, number: int) -> ToolCall | str:
    """A tool call, or the words of a ``respond`` call."""
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str) or not raw["name"]:
        raise UnparsableReply(f"a tool call must be an object with a non-empty 'name': {json.dumps(raw)[:200]}")
    arguments = raw.get("arguments", raw.get("kwargs", {}))
    if raw["name"] == RESPOND_TOOL:
        content = arguments.get("content") if isinstance(arguments, dict) else None
        if not isinstance(content, str):
            raise UnparsableReply('\'respond\' needs arguments {"content": "..."}')
        return content
    call_id = raw.get("id")
    return ToolCall(
        id=call_id if isinstance(call_id, str) and call_id else f"a2a_call_{number}",
        name=raw["name"],
        arguments=arguments_text(arguments),
    )


def _from_data(data: Any) -> list[Any] | None:
    """The call objects a data part holds, or None when it holds none."""
    if isinstance(data, dict) and "tool_calls" in data:
        calls = data["tool_calls"]
        if not isinstance(calls, list) or not calls:
            raise UnparsableReply("'tool_calls' must be a non-empty list")
        return calls
    if isinstance(data, dict) and "name" in data:
        return [data]
    return None


def _from_text(text: str) -> list[Any] | None:
    """The call objects written in the text convention (or as bare JSON), or None when it is plain words."""
    blocks = _JSON_BLOCK.findall(text)
    if not blocks:
        stripped = text.strip()
        fenced = _FENCE.match(stripped)
        candidate = fenced.group(1) if fenced else stripped
        if not candidate.startswith("{"):
            return None
        try:
            whole = json.loads(candidate)
        except json.JSONDecodeError:
            return None  # words that happen to start with a brace
        return [whole] if isinstance(whole, dict) and "name" in whole else None
    calls = []
    for block in blocks:
        try:
            calls.append(json.loads(block))
        except json.JSONDecodeError as exc:
            raise UnparsableReply(f"<json> block is not JSON ({exc.msg}): {block.strip()[:200]}") from exc
    return calls


def reply_message(parts: list[Part], mark: Mark, used_calls: int) -> ChatMessage:
    """The agent's message from the parts of its A2A reply; ``used_calls`` numbers the ids it leaves out."""
    texts = [part.text for part in parts if part.HasField("text")]
    raws: list[Any] | None = None
    for part in parts:
        if part.HasField("data"):
            raws = _from_data(MessageToDict(part.data))
            if raws is not None:
                break
    if raws is None:
        raws = _from_text("\n".join(texts))
    reasoning = mark.model_dump_json()
    if raws is None:
        words = "\n".join(texts).strip()
        if not words:
            raise UnparsableReply("the reply holds neither text nor tool calls")
        return ChatMessage(role="assistant", content=words, reasoning=reasoning)
    made = [_call(raw, used_calls + i) for i, raw in enumerate(raws)]
    calls = [m for m in made if isinstance(m, ToolCall)]
    said = [m for m in made if isinstance(m, str)]
    if calls and said:
        raise UnparsableReply("the reply mixes 'respond' with tool calls")
    if said:
        return ChatMessage(role="assistant", content="\n".join(said), reasoning=reasoning)
    return ChatMessage(role="assistant", tool_calls=calls, reasoning=reasoning)
