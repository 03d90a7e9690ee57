r"""Texts of τ²'s sources that agents see verbatim, extracted once at fetch time into ``texts.json``.

τ² shows an agent each tool's docstring (short description, ``"\n\n"``, long description) and each
parameter's description, and, for a parameter typed with a model, that model's docstring and field
descriptions. Those texts exist only in τ²'s source, so ``taumesh data fetch tau2`` reads them here,
with ``ast`` (nothing is imported or executed), and writes them as data; nothing reads τ²'s source at
run time. The file also keeps τ²'s tool order and tags, and the one table written in code (airline's
airports).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from docstring_parser import parse as parse_docstring

from taumesh.data._cache import DatasetError

TEXTS_FILE = "texts.json"
"""Under ``<cache>/tau2``; recorded in the manifest like every other file."""
TEXTS_FORMAT = 1
TOOLKITS = {
    "mock": {"MockTools": "tools"},
    "airline": {"AirlineTools": "tools"},
    "retail": {"RetailTools": "tools"},
    "telecom": {"TelecomTools": "tools", "TelecomUserTools": "user_tools"},
}
"""Each domain's toolkit classes and the module (under ``src/domains/<domain>/``) defining each."""
MODEL_MODULES = {"tools": "data_model", "user_tools": "user_data_model"}
"""The models module whose texts a toolkit's schemas show."""
_TOOL_TYPES = ("read", "write", "think", "generic")


def _tool_type(method: ast.FunctionDef) -> str | None:
    for decorator in method.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name) and decorator.func.id == "is_tool":
            if not decorator.args:
                return "read"
            argument = decorator.args[0]
            if isinstance(argument, ast.Attribute) and argument.attr.lower() in _TOOL_TYPES:
                return argument.attr.lower()
            raise DatasetError(f"unsupported tool type {ast.unparse(argument)!r} at line {decorator.lineno}")
    return None


def _tool(method: ast.FunctionDef, tool_type: str) -> dict[str, Any]:
    doc = parse_docstring(ast.get_docstring(method, clean=False) or "")
    short, long = doc.short_description, doc.long_description
    description = method.name if not short else (short if not long else f"{short}\n\n{long}")
    return {
        "name": method.name,
        "type": tool_type,
        "description": description,
        "parameters": {param.arg_name: param.description for param in doc.params if param.description is not None},
    }


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def toolkit_texts(path: Path, toolkit: str) -> list[dict[str, Any]]:
    """Every ``@is_tool`` method of class ``toolkit`` in ``path``, in declaration order (τ²'s); none without it."""
    classes = _classes(_parse(path)) if path.is_file() else {}
    if toolkit not in classes:
        return []  # the plugins refuse a domain whose toolkit has no texts, naming the fetch
    return [
        _tool(node, tool_type)
        for node in classes[toolkit].body
        if isinstance(node, ast.FunctionDef) and (tool_type := _tool_type(node)) is not None
    ]


def _field_description(value: ast.expr | None, annotation: ast.expr) -> str | None:
    """``description=`` of the field's ``Field(...)``, in its default or its ``Annotated`` metadata."""
    calls = [value] if value is not None else []
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.slice, ast.Tuple):
        calls += annotation.slice.elts[1:]
    for call in calls:
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Field":
            for keyword in call.keywords:
                if keyword.arg == "description":
                    text = ast.literal_eval(keyword.value)
                    return text if isinstance(text, str) else None
    return None


def model_texts(path: Path) -> dict[str, Any]:
    """Each class's docstring, base names and own fields' descriptions, by class name (none without the file)."""
    models: dict[str, Any] = {}
    for name, node in (_classes(_parse(path)) if path.is_file() else {}).items():
        fields = {
            statement.target.id: _field_description(statement.value, statement.annotation)
            for statement in node.body
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
        }
        models[name] = {
            "doc": ast.get_docstring(node),
            "bases": [base.id for base in node.bases if isinstance(base, ast.Name)],
            "fields": {field: text for field, text in fields.items() if text is not None},
        }
    return models


def airports(path: Path) -> list[dict[str, Any]]:
    """The ``AirportCode(iata=..., city=...)`` rows ``AirlineTools.list_all_airports`` writes in code."""
    classes = _classes(_parse(path)) if path.is_file() else {}
    method = next(
        (
            node
            for node in (classes["AirlineTools"].body if "AirlineTools" in classes else [])
            if isinstance(node, ast.FunctionDef) and node.name == "list_all_airports"
        ),
        None,
    )
    if method is None:
        return []
    return [
        {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords if keyword.arg}
        for call in ast.walk(method)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "AirportCode"
    ]


def _parse(path: Path) -> ast.Module:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError) as exc:
        raise DatasetError(f"cannot read τ²'s source {path}: {exc}") from exc


def extract_texts(folder: Path) -> dict[str, Any]:
    """The texts of every domain whose sources ``<folder>/src/domains/<domain>`` holds."""
    domains: dict[str, Any] = {}
    for domain, toolkits in TOOLKITS.items():
        sources = folder / "src" / "domains" / domain
        if not sources.is_dir():
            continue
        entry: dict[str, Any] = {
            "toolkits": {
                toolkit: {"models": MODEL_MODULES[module], "tools": toolkit_texts(sources / f"{module}.py", toolkit)}
                for toolkit, module in toolkits.items()
            },
            "models": {
                MODEL_MODULES[module]: model_texts(sources / f"{MODEL_MODULES[module]}.py")
                for module in sorted(set(toolkits.values()))
            },
        }
        if domain == "airline":
            entry["airports"] = airports(sources / "tools.py")
        domains[domain] = entry
    return {"format": TEXTS_FORMAT, "domains": domains}


def write_texts(folder: Path) -> None:
    """Extract the texts of the sources under ``folder`` into ``<folder>/texts.json``."""
    text = json.dumps(extract_texts(folder), indent=1, ensure_ascii=False, sort_keys=False)
    (folder / TEXTS_FILE).write_text(text + "\n", encoding="utf-8")
