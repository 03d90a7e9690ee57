"""Read-only JSON containers for the shared base data.

Every session reads the same base records. :func:`freeze` turns the loaded JSON into
:class:`ReadOnlyDict` and :class:`ReadOnlyList`: plain ``dict``/``list`` subclasses, so reads,
``json.dumps``, ``str()``, ``sorted(items())`` and equality behave (and render) exactly as before,
while every mutating method raises :class:`BaseDataMutation`. Copies (``copy_json``,
``copy.deepcopy``, ``dict(record)``) are plain mutable containers.
"""

from __future__ import annotations

from typing import Any, NoReturn

from taumesh.domains._errors import BaseDataMutation


def _refuse(container: object, method: str) -> NoReturn:
    kind = "record" if isinstance(container, dict) else "list"
    raise BaseDataMutation(
        f"a tool called {method}() on a shared base {kind}: base data is read-only "
        "(a tool that changes data must set writes = True, and then changes only its session's copy)"
    )


def thaw(value: Any) -> Any:
    """A plain, mutable deep copy of a JSON-shaped value (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thaw(item) for item in value]
    return value


class ReadOnlyDict(dict[Any, Any]):
    """A ``dict`` whose mutating methods raise :class:`BaseDataMutation`."""

    __slots__ = ()

    def __setitem__(self, key: Any, value: Any) -> NoReturn:
        _refuse(self, "__setitem__")

    def __delitem__(self, key: Any) -> NoReturn:
        _refuse(self, "__delitem__")

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse(self, "__ior__")

    def clear(self) -> NoReturn:
        _refuse(self, "clear")

    def pop(self, *args: Any) -> NoReturn:
        _refuse(self, "pop")

    def popitem(self) -> NoReturn:
        _refuse(self, "popitem")

    def setdefault(self, *args: Any) -> NoReturn:
        _refuse(self, "setdefault")

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse(self, "update")

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        copied: dict[Any, Any] = thaw(self)
        return copied

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class ReadOnlyList(list[Any]):
    """A ``list`` whose mutating methods raise :class:`BaseDataMutation`."""

    __slots__ = ()

    def __setitem__(self, index: Any, value: Any) -> NoReturn:
        _refuse(self, "__setitem__")

    def __delitem__(self, index: Any) -> NoReturn:
        _refuse(self, "__delitem__")

    def __iadd__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse(self, "__iadd__")

    def __imul__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse(self, "__imul__")

    def append(self, value: Any) -> NoReturn:
        _refuse(self, "append")

    def extend(self, values: Any) -> NoReturn:
        _refuse(self, "extend")

    def insert(self, index: Any, value: Any) -> NoReturn:
        _refuse(self, "insert")

    def remove(self, value: Any) -> NoReturn:
        _refuse(self, "remove")

    def pop(self, *args: Any) -> NoReturn:
        _refuse(self, "pop")

    def clear(self) -> NoReturn:
        _refuse(self, "clear")

    def sort(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse(self, "sort")

    def reverse(self) -> NoReturn:
        _refuse(self, "reverse")

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        copied: list[Any] = thaw(self)
        return copied

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def freeze(value: Any) -> Any:
    """A read-only deep copy of a JSON-shaped value; equal to it and rendered identically."""
    if isinstance(value, dict):
        return ReadOnlyDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return ReadOnlyList(freeze(item) for item in value)
    return value
