r"""τ²'s tool signatures and OpenAI schemas, read from the fetched ``tools.py`` with ``ast``, never executed.

τ² turns each ``@is_tool(ToolType.X)`` method of a toolkit class into a schema: the docstring
(parsed by ``docstring_parser``) gives the description (short, plus ``"\\n\\n"`` and the long one when
there is one) and each parameter's description; the signature gives a pydantic model named
``parameters`` whose JSON schema is the function's ``parameters``. We rebuild the same model from the
source text, so the schemas agents see are τ²'s byte for byte.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from docstring_parser import parse as parse_docstring
from pydantic import Field, create_model

from taumesh.domains.tau2._source_models import Resolver, SourceError

ToolType = Literal["read", "write", "think", "generic"]


@dataclass(frozen=True)
class SourceTool:
    """One tool as τ² declares it: name, type, and the OpenAI function schema τ² shows."""

    name: str
    tool_type: ToolType
    schema: dict[str, Any]


def _tool_type(method: ast.FunctionDef) -> ToolType | None:
    for decorator in method.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name) and decorator.func.id == "is_tool":
            if not decorator.args:
                return "read"
            argument = decorator.args[0]
            if isinstance(argument, ast.Attribute):
                value = argument.attr.lower()
                if value in ("read", "write", "think", "generic"):
                    return value  # type: ignore[return-value]
            raise SourceError(f"unsupported tool type {ast.unparse(argument)!r} at line {decorator.lineno}")
    return None


def _description(short: str | None, long: str | None, name: str) -> str:
    if not short:
        return name
    return short if not long else f"{short}\n\n{long}"


def _schema(resolver: Resolver, method: ast.FunctionDef) -> dict[str, Any]:
    doc = parse_docstring(ast.get_docstring(method, clean=False) or "")
    described = {param.arg_name: param.description for param in doc.params}
    arguments = method.args
    if arguments.vararg or arguments.kwarg or arguments.posonlyargs or arguments.kwonlyargs:
        raise SourceError(f"tool {method.name} at line {method.lineno} has a signature the resolver does not read")
    positional = arguments.args[1:]  # drop self
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    params: dict[str, Any] = {}
    for argument, default_node in zip(positional, defaults, strict=True):
        annotation = Any if argument.annotation is None else resolver.type_of(argument.annotation)
        default = resolver.default(default_node)
        if argument.arg in described:
            default = Field(default, description=described[argument.arg])
        params[argument.arg] = (annotation, default)
    model = create_model("parameters", **params)
    return {
        "type": "function",
        "function": {
            "name": method.name,
            "description": _description(doc.short_description, doc.long_description, method.name),
            "parameters": model.model_json_schema(),
        },
    }


def read_tools(path: Path, toolkit: str, names: Mapping[str, Any]) -> list[SourceTool]:
    """The tools of class ``toolkit`` in ``path``, in τ²'s order (declaration order), with their schemas.

    ``names`` are the types the annotations may use (the domain's rebuilt data models).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    if toolkit not in classes:
        raise SourceError(f"{path} defines no class {toolkit} (has {sorted(classes)})")
    resolver = Resolver(names)
    tools = []
    for node in classes[toolkit].body:
        if isinstance(node, ast.FunctionDef):
            tool_type = _tool_type(node)
            if tool_type is not None:
                tools.append(SourceTool(node.name, tool_type, _schema(resolver, node)))
    return tools


def literal_calls(path: Path, toolkit: str, method: str, callee: str) -> list[dict[str, Any]]:
    """The keyword arguments of every ``callee(...)`` call with literal arguments in ``toolkit.method``.

    For data τ² writes in code rather than in its data files (airline's ``list_all_airports``).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == toolkit:
            for function in node.body:
                if isinstance(function, ast.FunctionDef) and function.name == method:
                    return [
                        {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords if keyword.arg}
                        for call in ast.walk(function)
                        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == callee
                    ]
    raise SourceError(f"{path} has no method {toolkit}.{method}")
