"""Tool-call arguments as they travel (JSON text), parsed the one way the env and the scorer's replay share."""

from __future__ import annotations

import json
from typing import Any

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
