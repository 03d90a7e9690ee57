"""What a τ² tool call shows its caller: ``Environment.to_json_str`` of the tool's result.

A string is shown verbatim. Anything else is JSON (``default=str``) after processing: a model is its
dump (numbers stay numbers), while a bare ``int``/``float``/``bool`` anywhere else becomes its ``str``
first, so a tool returning ``True`` shows ``"True"`` in quotes. Tools wrap the records they return as
models in :class:`ModelDump`, since records are plain dicts here.
"""

from __future__ import annotations

import json
from typing import Any


class ModelDump(dict[str, Any]):
    """A record returned as τ² returns a pydantic model: shown as its dump, numbers untouched."""


def _process(value: Any) -> Any:
    if isinstance(value, ModelDump) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float | bool):
        return str(value)
    if isinstance(value, list):
        return [_process(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_process(item) for item in value)
    if isinstance(value, dict):
        return {key: _process(item) for key, item in value.items()}
    raise ValueError(f"Unsupported type: {type(value)}")


def to_json_str(value: Any) -> str:
    """The observation text of a tool result, as τ² renders it."""
    if isinstance(value, str):
        return value
    return json.dumps(_process(value), default=str)
