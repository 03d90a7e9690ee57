"""Message contents in the GenAI semantic conventions' JSON form, for the opt-in content attributes.

Nothing here is recorded unless ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true``
(see :func:`taumesh.telemetry.capture_content`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from taumesh.models import ChatMessage

MAX_CONTENT_CHARS = 64_000
"""Longer contents are cut, so one long conversation cannot blow an exporter's message limit."""


def _arguments(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _parts(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    role = message.get("role")
    content = message.get("content")
    parts: list[dict[str, Any]] = []
    if role == "tool":
        return [{"type": "tool_call_response", "id": message.get("tool_call_id", ""), "response": content or ""}]
    if isinstance(content, str) and content:
        parts.append({"type": "text", "content": content})
    elif isinstance(content, list):  # OpenAI content parts
        parts += [
            {"type": "text", "content": p.get("text", "")} if p.get("type") == "text" else dict(p)
            for p in content
            if isinstance(p, Mapping)
        ]
    for call in message.get("tool_calls") or []:
        function = call.get("function", {}) if isinstance(call, Mapping) else {}
        parts.append(
            {
                "type": "tool_call",
                "id": call.get("id", "") if isinstance(call, Mapping) else "",
                "name": function.get("name", ""),
                "arguments": _arguments(function.get("arguments", "")),
            }
        )
    return parts


def message_dict(message: ChatMessage | Mapping[str, Any]) -> dict[str, Any]:
    """One message in GenAI form: ``{"role": …, "parts": [...]}``."""
    raw = message.openai() if isinstance(message, ChatMessage) else message
    return {"role": raw.get("role", ""), "parts": _parts(raw)}


def messages_json(
    messages: Iterable[ChatMessage | Mapping[str, Any]], finish_reason: str | None = None, skip_system: bool = False
) -> str:
    """Messages as the JSON text of ``gen_ai.input.messages`` / ``gen_ai.output.messages``."""
    out = []
    for message in messages:
        item = message_dict(message)
        if skip_system and item["role"] == "system":
            continue
        if finish_reason is not None:
            item["finish_reason"] = finish_reason
        out.append(item)
    return truncate(json.dumps(out, ensure_ascii=False))


def system_instructions_json(messages: Iterable[ChatMessage | Mapping[str, Any]]) -> str | None:
    """The system messages' texts as ``gen_ai.system_instructions`` JSON, or None when there are none."""
    texts = [
        {"type": "text", "content": d["parts"][0]["content"]}
        for d in (message_dict(m) for m in messages)
        if d["role"] == "system" and d["parts"] and d["parts"][0].get("type") == "text"
    ]
    return truncate(json.dumps(texts, ensure_ascii=False)) if texts else None


def truncate(text: str, limit: int = MAX_CONTENT_CHARS) -> str:
    """``text``, cut to ``limit`` characters with a marker saying how much was dropped."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[{len(text) - limit} more characters]"
