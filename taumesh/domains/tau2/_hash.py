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
with the SHA-256 state after every few KiB of it (``_hashing.CheckpointedText``). A
session's text is the base's with its changed records' texts swapped in, so its hash resumes from
the last checkpoint before its first changed record and feeds only the rest, base runs included
as they are. The result is the SHA-256 of the same bytes, by construction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from typing import Any

from taumesh.domains._cow import CowTable
from taumesh.domains._hashing import CheckpointedText


def record_text(key: str, record: Any) -> str:
    """One ``"key": value`` member of a sorted JSON object, as ``json.dumps(sort_keys=True)`` writes it."""
    return f"{json.dumps(key)}: {json.dumps(record, sort_keys=True, default=str)}"


def _object(members: list[str]) -> str:
    return "{" + ", ".join(members) + "}"


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

    def _encode_base(self) -> tuple[CheckpointedText, CheckpointedText | None]:
        agent = CheckpointedText()
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
        user = CheckpointedText()
        self._add_table(user, self.user_table)
        user.seal()
        return agent, user

    def _add_table(self, text: CheckpointedText, name: str) -> None:
        brackets = "[]" if name in self._lists else "{}"
        fragments = self._fragments[name]
        text.add_table(name, brackets[0], {key: fragments[key] for key in self._positions[name]}, brackets[1])

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
        if self._base_texts is not None:
            agent, user = self._base_texts
            agent_swaps = agent.session_swaps(data, self._base, self._record_text, self.table_text)
            user_swaps = (
                [] if user is None else user.session_swaps(data, self._base, self._record_text, self.table_text)
            )
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
