"""Reading structured answers out of model text: JSON objects, possibly fenced or surrounded by prose."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def find_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (whole text, a fenced block, or embedded in prose); None if there is none."""
    candidates = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    decoder = json.JSONDecoder()
    for start in (i for i, char in enumerate(text) if char == "{"):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def tool_call_in_text(text: str, tool_names: Collection[str]) -> dict[str, Any] | None:
    """A tool call written as JSON in a reply's text, naming one of ``tool_names``; None when it holds none.

    The form is ``{"name": ..., "arguments": ...}`` (or ``"parameters"``), fenced or not.

    A model whose chat template does not make its server parse tool calls writes them so (Qwen2.5-Coder under its
    GGUF's own template): the provider returns no ``tool_calls``, and the text is no message for the user either.
    """
    found = find_json_object(text)
    if found is None or found.get("name") not in tool_names:
        return None
    return found if "arguments" in found or "parameters" in found else None
