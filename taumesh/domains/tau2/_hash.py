"""τ²'s database hash, computed incrementally.

τ² hashes ``json.dumps(db.model_dump(), sort_keys=True, default=str)`` with SHA-256. The base data is
that dump already (normalised by the rebuilt models), so the text is ``json.dumps`` of the session's
tables; the text of every base record is rendered once per process, and a session re-renders only
the records it changed.

Telecom's tables are lists: the session keeps them as tables keyed by position (``"0"``, ``"1"``, …)
and they are rendered as JSON arrays in table order. Its user database (the phone) is one more
table, ``user_table``, whose records are the user database's fields; it is hashed on its own, as τ²'s
``get_user_db_hash``, and a session's hash is then ``"<agent hash>:<user hash>"``.

A session's hash never re-joins the database: each hashed text of the base data is kept encoded,
with the SHA-256 state after every :data:`CHECKPOINT_BYTES` of it (``hashlib`` states copy). A
session's text is the base's with its changed records' texts swapped in, so its hash resumes from
the last checkpoint before its first changed record and feeds only the rest, base runs included
as they are. The result is the SHA-256 of the same bytes, by construction.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_right
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains._cow import CowTable

CHECKPOINT_BYTES = 16 * 1024
"""How far apart the saved SHA-256 states of a base text are: a session's hash re-hashes at most this much
of the base text before its first changed record (16 KiB: a few µs of SHA-256; ~100 states for τ² retail)."""


def record_text(key: str, record: Any) -> str:
    """One ``"key": value`` member of a sorted JSON object, as ``json.dumps(sort_keys=True)`` writes it."""
    return f"{json.dumps(key)}: {json.dumps(record, sort_keys=True, default=str)}"


def _object(members: list[str]) -> str:
    return "{" + ", ".join(members) + "}"


@dataclass
class _TableSpan:
    """Where one table's text lies in a :class:`_BaseText`, and each of its records' (in the text's order)."""

    start: int
    end: int = 0
    records: list[tuple[int, int]] = field(default_factory=list)


class _BaseText:
    """One text τ² hashes (the agent's database or the user's) of the base data: encoded, with SHA-256 checkpoints."""

    def __init__(self) -> None:
        self._pieces: list[bytes] = []
        self.size = 0
        self.tables: dict[str, _TableSpan] = {}
        self.data = b""
        self.offsets: list[int] = []
        """Ascending byte offsets, the first 0; ``states[i]`` is the SHA-256 of ``data[:offsets[i]]``."""
        self.states: list[Any] = []  # hashlib's SHA-256 objects (their type is private)

    def add(self, text: str) -> tuple[int, int]:
        """Append ``text``; its byte range."""
        piece = text.encode("utf-8")
        self._pieces.append(piece)
        self.size += len(piece)
        return self.size - len(piece), self.size

    def add_table(self, name: str, opening: str, parts: list[str], closing: str) -> None:
        span = self.tables[name] = _TableSpan(start=self.size)
        self.add(opening)
        for index, part in enumerate(parts):
            if index:
                self.add(", ")
            span.records.append(self.add(part))
        self.add(closing)
        span.end = self.size

    def seal(self) -> None:
        """Join the pieces and save the SHA-256 state every :data:`CHECKPOINT_BYTES`."""
        self.data = b"".join(self._pieces)
        self._pieces = []
        sha = hashlib.sha256()
        self.offsets, self.states = [0], [sha.copy()]
        view = memoryview(self.data)
        for offset in range(CHECKPOINT_BYTES, len(self.data), CHECKPOINT_BYTES):
            sha.update(view[self.offsets[-1] : offset])
            self.offsets.append(offset)
            self.states.append(sha.copy())

    def hash(self, swaps: list[tuple[int, int, bytes]]) -> str:
        """SHA-256 of this text with each byte range ``[start, end)`` of ``swaps`` (disjoint) replaced."""
        swaps.sort()
        at = bisect_right(self.offsets, swaps[0][0] if swaps else len(self.data)) - 1
        sha, offset = self.states[at].copy(), self.offsets[at]
        view = memoryview(self.data)
        for start, end, text in swaps:
            sha.update(view[offset:start])
            sha.update(text)
            offset = end
        sha.update(view[offset:])
        return sha.hexdigest()


class Tau2Hasher:
    """Hashes a session's data as τ²'s ``get_db_hash``, reusing the text of records left untouched."""

    def __init__(
        self, base: Mapping[str, Any], list_tables: Collection[str] = (), user_table: str | None = None
    ) -> None:
        self._lists = frozenset(list_tables)
        self.user_table = user_table
        self._fragments: dict[str, dict[str, str]] = {
            name: {key: self._record_text(name, key, record) for key, record in table.items()}
            for name, table in base.items()
            if isinstance(table, Mapping)
        }
        self._texts = {
            name: self._join(name, fragments, list(fragments)) for name, fragments in self._fragments.items()
        }
        orders = {
            name: list(fragments) if name in self._lists else sorted(fragments)
            for name, fragments in self._fragments.items()
        }
        self._parts = {name: [self._fragments[name][key] for key in order] for name, order in orders.items()}
        """Each base table's record texts in the order its text lists them."""
        self._positions = {name: {key: i for i, key in enumerate(order)} for name, order in orders.items()}
        self._base = base
        self._base_texts = self._encode_base() if len(self._fragments) == len(base) else None
        """The agent's and the user's base texts, encoded with checkpoints (None: a table is no mapping)."""

    def _encode_base(self) -> tuple[_BaseText, _BaseText | None]:
        agent = _BaseText()
        agent.add("{")
        for index, name in enumerate(sorted(name for name in self._base if name != self.user_table)):
            if index:
                agent.add(", ")
            agent.add(f"{json.dumps(name)}: ")
            self._add_table(agent, name)
        agent.add("}")
        agent.seal()
        if self.user_table is None:
            return agent, None
        user = _BaseText()
        self._add_table(user, self.user_table)
        user.seal()
        return agent, user

    def _add_table(self, text: _BaseText, name: str) -> None:
        brackets = "[]" if name in self._lists else "{}"
        text.add_table(name, brackets[0], self._parts[name], brackets[1])

    def _swaps(self, text: _BaseText, data: Mapping[str, Any]) -> list[tuple[int, int, bytes]] | None:
        """The byte ranges of ``text`` that a session's ``data`` renders otherwise, with their new bytes.

        A changed record of a table with the base's keys swaps that record's text; a table that added or
        deleted records swaps its whole text. None when a table is not a session's view of the base.
        """
        swaps = []
        for name, span in text.tables.items():
            table = data[name]
            if not isinstance(table, CowTable) or table.base is not self._base[name]:
                return None
            if table.pristine:
                continue
            if table.same_keys:
                positions = self._positions[name]
                for key in table.changed_keys():
                    start, end = span.records[positions[key]]
                    swaps.append((start, end, self._record_text(name, key, table[key]).encode("utf-8")))
            else:
                swaps.append((span.start, span.end, self.table_text(name, table).encode("utf-8")))
        return swaps

    def _record_text(self, table: str, key: str, record: Any) -> str:
        if table in self._lists:
            return json.dumps(record, sort_keys=True, default=str)
        return record_text(key, record)

    def _join(self, table: str, fragments: Mapping[str, str], keys: list[str]) -> str:
        if table in self._lists:
            return "[" + ", ".join(fragments[key] for key in keys) + "]"
        return _object([fragments[key] for key in sorted(keys)])

    def table_text(self, name: str, table: Any) -> str:
        """The JSON text of one table."""
        fragments = self._fragments.get(name)
        if name in self._lists and not isinstance(table, CowTable):
            return self._join(name, {key: self._record_text(name, key, table[key]) for key in table}, list(table))
        if fragments is None or not isinstance(table, CowTable):
            return json.dumps(table if not isinstance(table, Mapping) else dict(table), sort_keys=True, default=str)
        if table.pristine:
            return self._texts[name]
        changed = table.changed_keys()
        if table.same_keys:  # only copies: the base's fragments in the base's order, the changed ones re-rendered
            parts = self._parts[name].copy()
            for key in changed:
                parts[self._positions[name][key]] = self._record_text(name, key, table[key])
            return ("[" if name in self._lists else "{") + ", ".join(parts) + ("]" if name in self._lists else "}")
        current = {
            key: fragments[key] if key not in changed else self._record_text(name, key, table[key]) for key in table
        }
        return self._join(name, current, list(current))

    def text(self, data: Mapping[str, Any]) -> str:
        """The exact string τ² hashes for the agent's database."""
        names = sorted(name for name in data if name != self.user_table)
        return _object([f"{json.dumps(name)}: {self.table_text(name, data[name])}" for name in names])

    def user_text(self, data: Mapping[str, Any]) -> str | None:
        """The exact string τ² hashes for the user's database; None when the domain has none."""
        return None if self.user_table is None else self.table_text(self.user_table, data[self.user_table])

    def hashes(self, data: Mapping[str, Any]) -> tuple[str, str | None]:
        """τ²'s ``get_db_hash`` and ``get_user_db_hash`` (None without a user database).

        A session's data is hashed from the base texts' checkpoints (see the module's note); anything else
        from its whole text.
        """
        if self._base_texts is not None and data.keys() == self._base.keys():
            agent, user = self._base_texts
            agent_swaps = self._swaps(agent, data)
            user_swaps = [] if user is None else self._swaps(user, data)
            if agent_swaps is not None and user_swaps is not None:
                return agent.hash(agent_swaps), None if user is None else user.hash(user_swaps)
        user_text = self.user_text(data)
        return _sha256(self.text(data)), None if user_text is None else _sha256(user_text)

    def hash(self, data: Mapping[str, Any]) -> str:
        """The agent database's hash, followed by ``:`` and the user database's when there is one."""
        agent, user = self.hashes(data)
        return agent if user is None else f"{agent}:{user}"

    def same_text(self, data: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
        """True only when two sessions' data render the same texts, so have the same :meth:`hash`; no hashing.

        Both must be sessions over this hasher's base data. Only their copy-on-write overlays are
        looked at: the keys of every record either session copied, added or deleted, and those
        records' rendered texts (a copied record left unchanged renders as its base text). Every
        other record is the base's on both sides. False means "not shown equal": hash to know.
        """
        return data.keys() == other.keys() and all(
            self._same_table(name, table, other[name]) for name, table in data.items()
        )

    def _same_table(self, name: str, table: Any, other: Any) -> bool:
        if table is other:
            return True
        if not (isinstance(table, CowTable) and isinstance(other, CowTable)) or table.base is not other.base:
            return False
        if table.pristine and other.pristine:
            return True
        fragments = self._fragments.get(name)
        if fragments is None:
            return False
        if name in self._lists and not (table.same_keys and other.same_keys) and list(table) != list(other):
            return False  # a list table is rendered in the session's key order
        mine, theirs = table.changed_keys(), other.changed_keys()
        for key in mine | theirs:
            present = key in table
            if present != (key in other):
                return False
            if present and (
                (self._record_text(name, key, table[key]) if key in mine else fragments[key])
                != (self._record_text(name, key, other[key]) if key in theirs else fragments[key])
            ):
                return False
        return True


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
