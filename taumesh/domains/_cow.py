"""Copy-on-write tables: every session shares the process's immutable base data.

A session sees each table through a :class:`CowTable`. Reads return the base record itself (a
read-only container, see ``_readonly``); while a write tool runs (``copy_on_access`` on), the
first access to a record makes a private, mutable deep copy of that one record, so a session only
ever copies the records its write tools touch. Adding, replacing or deleting records is refused
unless a write tool runs: a tool tagged read cannot change the session's data either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import Any

from taumesh.domains._errors import BaseDataMutation
from taumesh.domains._readonly import thaw

copy_json = thaw
"""Deep-copy a JSON-shaped value into plain dicts and lists; much faster than ``copy.deepcopy``."""


class CowSwitch:
    """The flag a session raises while a write tool runs; shared by all its tables."""

    __slots__ = ("copy_on_access",)

    def __init__(self) -> None:
        self.copy_on_access = False

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Write mode for the duration of the block, as while a write tool runs."""
        self.copy_on_access = True
        try:
            yield
        finally:
            self.copy_on_access = False

    def refuse(self, what: str) -> BaseDataMutation:
        """The error for a change attempted while no write tool runs."""
        return BaseDataMutation(f"tried to {what} outside a write tool (a tool that changes data sets writes = True)")


class CowTable(MutableMapping[Any, Any]):
    """A table (record id -> record) layered over an immutable base table."""

    __slots__ = ("_added", "_base", "_copies", "_deleted", "_switch")

    def __init__(self, base: Mapping[Any, Any], switch: CowSwitch) -> None:
        self._base = base
        self._switch = switch
        self._copies: dict[Any, Any] = {}  # private copies of base records, keyed like the base
        self._added: dict[Any, Any] = {}  # records whose key is not (or no longer) in base order
        self._deleted: set[Any] = set()  # base keys removed by the session

    def __getitem__(self, key: Any) -> Any:
        if key in self._added:
            return self._added[key]
        if key in self._copies:
            return self._copies[key]
        if key in self._deleted:
            raise KeyError(key)
        record = self._base[key]
        if self._switch.copy_on_access:
            record = self._copies[key] = copy_json(record)
        return record

    def __contains__(self, key: object) -> bool:
        if key in self._added:
            return True
        return key in self._base and key not in self._deleted

    def __setitem__(self, key: Any, value: Any) -> None:
        hash(key)  # an unhashable key fails as it would on a dict, before the mode check
        if not self._switch.copy_on_access:
            raise self._switch.refuse(f"set record {key!r}")
        if key in self._base and key not in self._deleted and key not in self._added:
            self._copies[key] = value  # replacing a base record keeps its position, as in a dict
        else:
            self._deleted.discard(key)
            self._added[key] = value

    def __delitem__(self, key: Any) -> None:
        hash(key)
        if not self._switch.copy_on_access:
            raise self._switch.refuse(f"delete record {key!r}")
        if key in self._added:
            del self._added[key]
            if key in self._base:
                self._deleted.add(key)  # a re-added base key: deleting it again hides the base record
        elif key in self._base and key not in self._deleted:
            self._copies.pop(key, None)
            self._deleted.add(key)
        else:
            raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        for key in self._base:
            if key not in self._deleted and key not in self._added:
                yield key
        yield from self._added

    def __len__(self) -> int:
        base = len(self._base) - len(self._deleted)
        return base + sum(1 for key in self._added if key not in self._base or key in self._deleted)

    @property
    def pristine(self) -> bool:
        """True when the session has neither copied, added nor deleted any record."""
        return not (self._copies or self._added or self._deleted)

    @property
    def same_keys(self) -> bool:
        """True when the session added and deleted no record (its keys are the base's, in the base's order)."""
        return not (self._added or self._deleted)

    def changed_keys(self) -> set[Any]:
        """Keys whose record may differ from the base (copied, added or deleted)."""
        return set(self._copies) | set(self._added) | self._deleted

    @property
    def base(self) -> Mapping[Any, Any]:
        """The shared base table."""
        return self._base
