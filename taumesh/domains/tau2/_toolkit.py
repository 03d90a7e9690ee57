"""A τ² domain's tools as one toolkit class, as τ² writes them: methods tagged read or write.

A subclass of :class:`Toolkit` is built over a session's data (``self.data``) for each call. Its
methods tagged :func:`read` or :func:`write` are the tools its side (the assistant's, or the user's)
is offered; :func:`read_function` and :func:`write_function` tag the methods tasks call by name to set
up or check a state (``initialization_actions``, ``env_assertions``). :meth:`Toolkit.tools` and
:meth:`Toolkit.functions` turn them into the :class:`Tool` classes a session runs.

A call goes to the bound method, so Python's argument errors read as τ²'s
(``MockTools.create_task() missing 1 required positional argument: 'title'``); a tagged method a
toolkit inherits (``calculate``, ``transfer_to_human_agents``) is re-homed in it, named after it.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from taumesh.domains import Data, Requestor, Tool

Method = TypeVar("Method", bound=Callable[..., Any])


@dataclass(frozen=True)
class _Tag:
    writes: bool
    offered: bool
    """True: a tool of the toolkit's side; False: a function tasks call by name."""


_TAG = "_tau2_tag"


def _tagged(writes: bool, offered: bool) -> Callable[[Method], Method]:
    def tag(method: Method) -> Method:
        setattr(method, _TAG, _Tag(writes, offered))
        return method

    return tag


read = _tagged(writes=False, offered=True)
"""A tool that changes nothing: it gets the read-only base records, and a change is a loud error."""
write = _tagged(writes=True, offered=True)
"""A tool that may change the data."""
read_function = _tagged(writes=False, offered=False)
"""A function tasks call by name that changes nothing (an assertion)."""
write_function = _tagged(writes=True, offered=False)
"""A function tasks call by name that may change the data (an initialization action)."""


def own_schema(description: str, parameters: dict[str, Any]) -> Callable[[Method], Method]:
    """The schema of a tool τ²'s fetched texts do not describe (one only upstream HEAD has), in taumesh's words."""

    def attach(method: Method) -> Method:
        setattr(method, _SCHEMA, (description, parameters))
        return method

    return attach


_SCHEMA = "_tau2_schema"


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


class Toolkit:
    """Base of a domain's toolkit; ``side`` says whose tools its offered methods are."""

    side: ClassVar[Requestor] = "assistant"

    def __init__(self, data: Data) -> None:
        self.data = data

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, method in list(_tagged_methods(cls).items()):
            if name not in cls.__dict__:
                setattr(cls, name, _rehomed(method, cls))

    @classmethod
    def _tools(cls, offered: bool) -> tuple[type[Tool], ...]:
        return tuple(_tool(cls, name, tag) for name, tag in _tags(cls).items() if tag.offered == offered)

    @classmethod
    def tools(cls) -> tuple[type[Tool], ...]:
        """The tools offered to ``side``, in declaration order (bases' first)."""
        return cls._tools(offered=True)

    @classmethod
    def functions(cls) -> tuple[type[Tool], ...]:
        """The functions tasks call by name; ``invoke`` returns the method's Python value."""
        return cls._tools(offered=False)


def _tagged_methods(cls: type) -> dict[str, Callable[..., Any]]:
    methods: dict[str, Callable[..., Any]] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if callable(value) and hasattr(value, _TAG):
                methods[name] = value
    return methods


def _tags(cls: type) -> dict[str, _Tag]:
    return {name: getattr(method, _TAG) for name, method in _tagged_methods(cls).items()}


def _rehomed(method: Callable[..., Any], owner: type) -> Callable[..., Any]:
    """A copy of an inherited method named as ``owner``'s own (its argument errors name ``owner``)."""
    if not isinstance(method, types.FunctionType):
        return method
    code, defaults, closure = method.__code__, method.__defaults__, method.__closure__
    copy = types.FunctionType(code, method.__globals__, method.__name__, defaults, closure)
    copy.__kwdefaults__ = method.__kwdefaults__
    copy.__annotations__ = dict(method.__annotations__)
    copy.__dict__.update(method.__dict__)
    copy.__qualname__ = f"{owner.__name__}.{method.__name__}"
    copy.__module__ = owner.__module__
    return copy


def _tool(toolkit: type[Toolkit], name: str, tag: _Tag) -> type[Tool]:
    def invoke(data: Data, **arguments: Any) -> Any:
        return getattr(toolkit(data), name)(**arguments)

    method = getattr(toolkit, name)
    description, parameters = getattr(method, _SCHEMA, (None, None))
    namespace = {
        "name": name,
        "description": description,
        "parameters": parameters,
        "writes": tag.writes,
        "side": toolkit.side,
        "invoke": staticmethod(invoke),
        "method": method,
        "__module__": toolkit.__module__,
        "__qualname__": f"{toolkit.__name__}.{_camel(name)}",
        "__doc__": f"``{toolkit.__name__}.{name}`` as a tool.",
    }
    return type(_camel(name), (Tool,), namespace)
