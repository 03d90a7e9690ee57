"""τ²'s OpenAI schema of a tool: our signature and models, τ²'s texts (from the fetched data).

τ² builds a pydantic model named ``parameters`` from a tool's signature, each parameter described by
the docstring, and shows its JSON schema. We build the same model from the ``invoke`` signature of
our tool (whose annotations are τ²'s types, written in this project), then give every description
the fetched texts hold: the parameters', and the docstrings and field descriptions of the models in
``$defs`` (ours carry none that an agent sees). Keys are then sorted as pydantic sorts them.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import Field, create_model
from pydantic.json_schema import GenerateJsonSchema

from taumesh.domains import Tool
from taumesh.domains.tau2._texts import ModelText, ToolText


def _parameters(tool: type[Tool], described: Mapping[str, str]) -> dict[str, Any]:
    function = getattr(tool, "method", None) or tool.invoke  # a toolkit's method (self first) or invoke (data)
    hints = typing.get_type_hints(function, include_extras=True)
    fields: dict[str, Any] = {}
    for index, (name, parameter) in enumerate(inspect.signature(function).parameters.items()):
        if index == 0:
            continue  # self, or the data
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        if name in described:
            default = Field(default, description=described[name])
        fields[name] = (hints.get(name, Any), default)
    return fields


def _field_text(models: Mapping[str, ModelText], model: str, field: str) -> str | None:
    """A field's description in τ²'s class ``model`` or the nearest base declaring one."""
    seen: set[str] = set()
    pending = [model]
    while pending:
        name = pending.pop(0)
        if name in seen or name not in models:
            continue
        seen.add(name)
        if field in models[name].fields:
            return models[name].fields[field]
        pending += models[name].bases
    return None


def _describe(target: dict[str, Any], text: str | None) -> None:
    if text is None:
        target.pop("description", None)
    else:
        target["description"] = text


def tool_schema(tool: type[Tool], text: ToolText, models: Mapping[str, ModelText]) -> dict[str, Any]:
    """The OpenAI function schema τ² shows for ``tool``."""
    parameters = create_model("parameters", **_parameters(tool, text.parameters)).model_json_schema()
    for name, definition in parameters.get("$defs", {}).items():
        model = models.get(name)
        _describe(definition, None if model is None else model.doc)
        for field, schema in definition.get("properties", {}).items():
            _describe(schema, _field_text(models, name, field))
    return {
        "type": "function",
        "function": {
            "name": text.name,
            "description": text.description,
            "parameters": GenerateJsonSchema().sort(parameters),
        },
    }
