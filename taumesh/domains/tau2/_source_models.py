"""τ²'s pydantic data models, rebuilt from the fetched ``data_model.py`` with ``ast``, never executed.

Only the declarative part of the source is read: type aliases (``X = Literal[...]``) and classes whose
bases are models, with their docstrings and annotated fields (``name: type = Field(...)`` or a
literal default). Annotations and ``Field`` arguments are interpreted by a small resolver that knows
the typing constructs τ² uses and the names defined so far; anything else is a :class:`SourceError`.
Methods are ignored: τ²'s data models carry no validators.

The rebuilt models validate ``db.json`` with τ²'s defaults (so the dump hashed is τ²'s) and give the
tool schemas the same ``$defs`` (names, docstrings, field descriptions) as τ²'s own classes.
"""

from __future__ import annotations

import ast
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model


class SourceError(ValueError):
    """The source uses a construct the resolver does not know (τ²'s code changed in a way we must follow)."""


class _NoExtra(BaseModel):
    """τ²'s ``BaseModelNoExtra``: unknown keys are an error."""

    model_config = ConfigDict(extra="forbid")


class DB(_NoExtra):
    """Domain database.

    This is a base class for all domain databases.
    """


_TYPING: dict[str, Any] = {
    "Annotated": typing.Annotated,
    "Any": Any,
    "Dict": dict,
    "List": list,
    "Literal": typing.Literal,
    "Optional": typing.Optional,
    "Tuple": tuple,
    "Union": typing.Union,
    "dict": dict,
    "list": list,
    "tuple": tuple,
    "set": set,
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "None": None,
    "BaseModel": BaseModel,
    "DB": DB,
    "BaseModelNoExtra": _NoExtra,
}
_FIELD_KEYWORDS = {"description", "default", "default_factory", "title", "alias", "examples", "ge", "le", "gt", "lt"}


class Resolver:
    """Interprets annotation and ``Field(...)`` expressions over a table of known names."""

    def __init__(self, names: Mapping[str, Any] | None = None) -> None:
        self.names: dict[str, Any] = dict(_TYPING)
        if names:
            self.names.update(names)

    def type_of(self, node: ast.expr) -> Any:
        """The Python type an annotation node denotes."""
        if isinstance(node, ast.Name):
            if node.id not in self.names:
                raise SourceError(f"unknown name {node.id!r} at line {node.lineno}")
            return self.names[node.id]
        if isinstance(node, ast.Constant):
            if node.value is None or isinstance(node.value, str | int | bool):
                return node.value
            raise SourceError(f"unexpected constant {node.value!r} at line {node.lineno}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "typing":
            return self.type_of(ast.Name(id=node.attr, lineno=node.lineno))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return typing.Union[self.type_of(node.left), self.type_of(node.right)]  # noqa: UP007 - built at run time
        if isinstance(node, ast.Subscript):
            origin = self.type_of(node.value)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if origin is typing.Literal:
                return typing.Literal[tuple(ast.literal_eval(item) for item in items)]
            if origin is typing.Annotated:
                return typing.Annotated[(self.type_of(items[0]), *(self.metadata(item) for item in items[1:]))]
            args = tuple(self.type_of(item) for item in items)
            return origin[args if len(args) > 1 else args[0]]
        raise SourceError(f"unsupported annotation {ast.unparse(node)!r} at line {node.lineno}")

    def metadata(self, node: ast.expr) -> Any:
        """An ``Annotated`` metadata item: a ``Field(...)`` call."""
        if isinstance(node, ast.Call):
            return self.field(node)
        return ast.literal_eval(node)

    def field(self, node: ast.Call) -> Any:
        """``Field(...)`` with literal arguments (``default_factory`` may name a builtin container)."""
        if not (isinstance(node.func, ast.Name) and node.func.id == "Field"):
            raise SourceError(f"unsupported default {ast.unparse(node)!r} at line {node.lineno}")
        args = [ast.literal_eval(arg) if not _is_ellipsis(arg) else ... for arg in node.args]
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg not in _FIELD_KEYWORDS:
                raise SourceError(f"unsupported Field argument {keyword.arg!r} at line {node.lineno}")
            if keyword.arg == "default_factory":
                kwargs["default_factory"] = self.type_of(keyword.value)
            else:
                kwargs[keyword.arg] = ast.literal_eval(keyword.value)
        return Field(*args, **kwargs)

    def default(self, node: ast.expr | None) -> Any:
        """A field's or parameter's default: ``...`` when required."""
        if node is None:
            return ...
        if isinstance(node, ast.Call):
            return self.field(node)
        if _is_ellipsis(node):
            return ...
        return ast.literal_eval(node)


def _is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is ...


def _model(resolver: Resolver, node: ast.ClassDef) -> type[BaseModel]:
    bases = tuple(resolver.type_of(base) for base in node.bases)
    if not all(isinstance(base, type) and issubclass(base, BaseModel) for base in bases):
        raise SourceError(f"class {node.name} at line {node.lineno} is not a pydantic model")
    fields: dict[str, Any] = {}
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            fields[statement.target.id] = (resolver.type_of(statement.annotation), resolver.default(statement.value))
        elif isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "model_config" for target in statement.targets
        ):
            raise SourceError(f"class {node.name} sets model_config, which the resolver does not read")
    base: Any = bases[0] if len(bases) == 1 else bases
    model: type[BaseModel] = create_model(node.name, __base__=base, __doc__=ast.get_docstring(node), **fields)
    return model


def _alias_value(resolver: Resolver, node: ast.expr) -> Any:
    return resolver.type_of(node)


def read_models(path: Path, extra_names: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every model class and type alias of the module at ``path``, by name, in source order."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    resolver = Resolver(extra_names)
    defined: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            defined[node.name] = resolver.names[node.name] = _model(resolver, node)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.isupper() or isinstance(node.value, ast.Call):
                continue  # constants and calls (paths, loggers) are no types
            defined[name] = resolver.names[name] = _alias_value(resolver, node.value)
    return defined


def database_model(models: Mapping[str, Any]) -> type[BaseModel]:
    """The module's database class: the one model deriving from τ²'s ``DB``."""
    found = [
        model for model in models.values() if isinstance(model, type) and issubclass(model, DB) and model is not DB
    ]
    if len(found) != 1:
        raise SourceError(f"expected one DB class, found {[model.__name__ for model in found]}")
    return found[0]


Builder = Callable[[Path], dict[str, Any]]
