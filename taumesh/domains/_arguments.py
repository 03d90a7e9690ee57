"""Tool-call arguments as they travel (JSON text), parsed the one way the env and the scorer's replay share.

:func:`replayed_calls` picks the calls a replay of an episode runs, the one way the env ran them, for every grader.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from taumesh.models import ChatMessage, ToolCall
from taumesh.rpc.errors import clip


def parse_arguments(arguments_json: str) -> dict[str, Any] | str:
    """The tool arguments as a dict, or the observation that tells the agent why they are unusable.

    τ-bench itself crashes on arguments that are not a JSON object; we answer the agent instead.
    """
    if not arguments_json.strip():
        return {}
    try:
        arguments = json.loads(arguments_json)
    except json.JSONDecodeError as exc:
        return f"Error: tool arguments are not valid JSON: {exc}"
    except (ValueError, RecursionError) as exc:  # numbers past Python's digit limit, nesting past the stack
        return f"Error: tool arguments are not valid JSON: {clip(str(exc), 200)}"
    if not isinstance(arguments, dict):
        return f"Error: tool arguments must be a JSON object, not {type(arguments).__name__}"
    return arguments


def replayed_calls(
    history: Iterable[ChatMessage], conversation: Iterable[ChatMessage]
) -> Iterator[tuple[ToolCall, dict[str, Any]]]:
    """The tool calls of ``conversation`` that a replay runs, each with its arguments, in order, as the env ran them.

    Only the assistant's and the user's calls; a call runs once per id: not when its id is empty, was already used,
    or is a call of the task's message ``history`` (those ran when the session opened), nor when its arguments are
    not a JSON object (the env answered those without running anything).
    """
    seen = {call.id for message in history for call in message.tool_calls}
    for message in conversation:
        if message.role not in ("assistant", "user"):
            continue
        for call in message.tool_calls:
            if not call.id or call.id in seen:
                continue
            seen.add(call.id)
            arguments = parse_arguments(call.arguments)
            if isinstance(arguments, dict):
                yield call, arguments
