"""How the bank's tools are declared: a function per tool, made a :class:`Tool` named as upstream's method.

``invoke`` is named ``KnowledgeTools.<name>`` (or ``KnowledgeUserTools.<name>``), so Python's argument errors
read as upstream's. A tool's schema is built from the function's signature and the imported texts
(:mod:`.texts`), as τ² builds it: a pydantic model named ``parameters``, its keys sorted as pydantic sorts them.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from pydantic import Field, create_model
from pydantic.json_schema import GenerateJsonSchema

from taumesh.domains import Requestor, Tool
from taumesh.domains.tau2_banking_knowledge.texts import ToolDoc

AGENT_TOOLKIT = "KnowledgeTools"
USER_TOOLKIT = "KnowledgeUserTools"
SESSION_UNLOCKED = "_unlocked_agent_tools"
"""A session table outside the database: the discoverable agent tools unlocked so far (upstream's in-memory state)."""
SESSION_TASK = "_task"
"""A session table outside the database: the task's read-log allowlist (``{"read_log_allowlist": {name: True}}``)."""
SESSION_TABLES = (SESSION_UNLOCKED, SESSION_TASK)
CONTEXT_PARAMETERS = ("data", "documents")
"""What a tool function takes before its arguments (the session's data; a retrieval tool's documents)."""


def owned(function: Callable[..., Any], toolkit: str) -> Callable[..., Any]:
    """``function`` named as upstream's method of ``toolkit``."""
    function.__qualname__ = f"{toolkit}.{function.__name__}"
    return function


def tool(function: Callable[..., Any], *, writes: bool, side: Requestor = "assistant") -> type[Tool]:
    """A tool running ``function(data, **arguments)``."""
    toolkit = AGENT_TOOLKIT if side == "assistant" else USER_TOOLKIT
    owned(function, toolkit)
    name = function.__name__
    namespace = {
        "name": name,
        "writes": writes,
        "side": side,
        "invoke": staticmethod(function),
        "__module__": function.__module__,
        "__qualname__": f"{toolkit}.{name}",
    }
    return type("".join(part.title() for part in name.split("_")), (Tool,), namespace)


def schema(tool_class: type[Tool], doc: ToolDoc, enums: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The OpenAI schema upstream shows for ``tool_class``; ``enums``: parameters typed with a ``Literal``."""
    function = tool_class.invoke
    hints = typing.get_type_hints(function)
    fields: dict[str, Any] = {}
    for name, parameter in inspect.signature(function).parameters.items():
        if name in CONTEXT_PARAMETERS:
            continue
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        annotation = hints.get(name, Any)
        if enums and name in enums:
            annotation = typing.Literal[tuple(enums[name])]
        fields[name] = (
            annotation,
            Field(default, description=doc.parameters[name]) if name in doc.parameters else default,
        )
    parameters = create_model("parameters", **fields).model_json_schema()
    return {
        "type": "function",
        "function": {
            "name": doc.name,
            "description": doc.description,
            "parameters": GenerateJsonSchema().sort(parameters),
        },
    }
