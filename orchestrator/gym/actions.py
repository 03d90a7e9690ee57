"""A Gym action (one line of text) as the message it stands for: words, or a tool call.

Three spellings are read, in this order:

* a JSON object with a ``name`` (and ``arguments``, an object or its JSON text): a tool call,
  ``{"name": "find_user_id_by_zip", "arguments": {"first_name": "Yusuf", ...}}``;
* a call in Python syntax starting with the name of one of the seat's tools, with keyword arguments written as literals
  (τ²'s functional form): ``find_user_id_by_zip(first_name="Yusuf", zip="91163")``;
* anything else: text, said to the other party as it is.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Collection
from typing import Any

from taumesh.models import ChatMessage, Requestor, Role, ToolCall


class ActionError(ValueError):
    """An action that looks like a tool call but cannot be read as one (the message says why)."""


def _json_call(text: str) -> tuple[str, str] | None:
    """(name, arguments JSON) of a JSON tool call, or None when ``text`` is no JSON object naming a tool."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    arguments: Any = value.get("arguments", {})
    if isinstance(arguments, str):  # the arguments' JSON text, passed on untouched (number spellings count)
        try:
            parsed = json.loads(arguments)
        except ValueError as exc:
            raise ActionError(f"the arguments of {value['name']!r} are not JSON: {exc}") from exc
        if not isinstance(parsed, dict):
            raise ActionError(f"the arguments of {value['name']!r} must be a JSON object")
        return value["name"], arguments
    if not isinstance(arguments, dict):
        raise ActionError(f"the arguments of {value['name']!r} must be a JSON object")
    return value["name"], json.dumps(arguments)


def _functional_call(text: str, tool_names: Collection[str]) -> tuple[str, str] | None:
    """(name, arguments JSON) of ``tool(key=literal, ...)`` naming one of ``tool_names``, else None."""
    head, paren, _ = text.partition("(")
    if not paren or head.strip() not in tool_names:  # text starting with a tool's name and "(" is meant as a call
        return None
    name = head.strip()
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ActionError(f"{name}(...) is not a call in Python syntax: {exc.msg}") from exc
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.args:
        raise ActionError(f"call {name} with keyword arguments only: {name}(key=value, ...)")
    arguments: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise ActionError(f"{name}(**...) is not accepted: name each argument")
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError as exc:
            raise ActionError(f"argument {keyword.arg!r} of {name} is not a literal value") from exc
    return name, json.dumps(arguments)


def parse_action(text: str, tool_names: Collection[str], requestor: Requestor, call_id: str) -> ChatMessage:
    """The message ``text`` stands for, from the seat of ``requestor`` (its tool call gets ``call_id``).

    Raises :class:`ActionError` for an action that names a tool but whose arguments cannot be read.
    """
    stripped = text.strip()
    call = (_json_call(stripped) if stripped.startswith("{") else None) or _functional_call(stripped, tool_names)
    role: Role = "assistant" if requestor == "assistant" else "user"
    if call is None:
        return ChatMessage(role=role, content=text)
    name, arguments = call
    return ChatMessage(
        role=role, tool_calls=[ToolCall(id=call_id, name=name, arguments=arguments, requestor=requestor)]
    )
