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
import contextlib
import datetime
import enum
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
    "Enum": enum.Enum,
    "datetime": datetime,
}
_FIELD_KEYWORDS = {
    "description",
    "default",
    "default_factory",
    "title",
    "alias",
    "examples",
    "ge",
    "le",
    "gt",
    "lt",
    "validate_default",
}
_CONSTRUCTORS = (datetime.date, datetime.datetime, datetime.timedelta)
"""Calls a default may make besides building a model: τ²'s telecom dates."""


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
        if isinstance(node, ast.Attribute):
            owner = self.type_of(node.value)
            if owner is datetime or (isinstance(owner, type) and issubclass(owner, enum.Enum)):
                return getattr(owner, node.attr)
            raise SourceError(f"unsupported attribute {ast.unparse(node)!r} at line {node.lineno}")
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
        args = [self.value(arg) if not _is_ellipsis(arg) else ... for arg in node.args]
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg not in _FIELD_KEYWORDS:
                raise SourceError(f"unsupported Field argument {keyword.arg!r} at line {node.lineno}")
            if keyword.arg == "default_factory":
                kwargs["default_factory"] = self.factory(keyword.value)
            else:
                kwargs[keyword.arg] = self.value(keyword.value)
        return Field(*args, **kwargs)

    def factory(self, node: ast.expr) -> Any:
        """A ``default_factory``: a type, or a ``lambda`` whose body :meth:`value` evaluates afresh per call."""
        if isinstance(node, ast.Lambda):
            if node.args.args or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
                raise SourceError(f"default_factory lambda with arguments at line {node.lineno}")
            body = node.body
            return lambda: self.value(body)
        return self.type_of(node)

    def value(self, node: ast.expr) -> Any:
        """A default value: literals, containers, enum members, known constants, model and date constructors."""
        if isinstance(node, ast.Dict):
            if any(key is None for key in node.keys):
                raise SourceError(f"dict unpacking in a default at line {node.lineno}")
            return {self.value(key): self.value(item) for key, item in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
        if isinstance(node, ast.List | ast.Tuple):
            items = [self.value(item) for item in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Name | ast.Attribute):
            return self.type_of(node)
        if isinstance(node, ast.Call):
            callee = self.type_of(node.func)
            if not (callee in _CONSTRUCTORS or (isinstance(callee, type) and issubclass(callee, BaseModel))):
                raise SourceError(f"unsupported call {ast.unparse(node)!r} at line {node.lineno}")
            arguments = [self.value(argument) for argument in node.args]
            keywords = {keyword.arg: self.value(keyword.value) for keyword in node.keywords if keyword.arg}
            return callee(*arguments, **keywords)
        return ast.literal_eval(node)

    def default(self, node: ast.expr | None) -> Any:
        """A field's or parameter's default: ``...`` when required."""
        if node is None:
            return ...
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Field":
            return self.field(node)
        if _is_ellipsis(node):
            return ...
        return self.value(node)


def _is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is ...


def _enum(node: ast.ClassDef, bases: tuple[Any, ...]) -> type[enum.Enum]:
    """``class X(str, Enum)`` with literal members (comments aside, nothing else)."""
    members = []
    for statement in node.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                members.append((target.id, ast.literal_eval(statement.value)))
                continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring
        raise SourceError(f"enum {node.name} at line {statement.lineno} has a statement that is not a member")
    mixin = next((base for base in bases if base is not enum.Enum), None)
    built: type[enum.Enum] = enum.Enum(node.name, members, type=mixin)  # type: ignore[misc]
    built.__doc__ = ast.get_docstring(node)
    return built


def _class(resolver: Resolver, node: ast.ClassDef) -> type[Any]:
    bases = tuple(resolver.type_of(base) for base in node.bases)
    if enum.Enum in bases:
        return _enum(node, bases)
    return _model(resolver, node, bases)


def _model(resolver: Resolver, node: ast.ClassDef, bases: tuple[Any, ...]) -> type[BaseModel]:
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
            defined[node.name] = resolver.names[node.name] = _class(resolver, node)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.isupper():
                # a constant a default may use (telecom's DEFAULT_START_DATE); paths and loggers are not
                with contextlib.suppress(SourceError, ValueError, TypeError):
                    resolver.names[name] = resolver.value(node.value)
                continue
            if isinstance(node.value, ast.Call):
                continue  # calls (loggers) are no types
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
