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

from taumesh.domains import CheckpointedText, CowTable, Swaps


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
        self._orders = {
            name: list(fragments) if name in self._lists else sorted(fragments)
            for name, fragments in self._fragments.items()
        }
        """Each base table's record keys in the order its text lists them."""
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
        text.add_table(name, brackets[0], {key: fragments[key] for key in self._orders[name]}, brackets[1])

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

    def swaps(self, data: Mapping[str, Any]) -> tuple[Swaps, Swaps] | None:
        """How a session's texts differ from the base's: the agent's and the user's swaps (see ``session_swaps``).

        Equal swaps mean equal texts, so equal hashes, with nothing hashed. None when ``data`` is not a
        session over this hasher's base data.
        """
        if self._base_texts is None:
            return None
        agent, user = self._base_texts
        render = (self._base, self._record_text, self.table_text)
        agent_swaps = agent.session_swaps(data, *render)
        user_swaps = [] if user is None else user.session_swaps(data, *render)
        return None if agent_swaps is None or user_swaps is None else (agent_swaps, user_swaps)

    def swapped_hash(self, swaps: tuple[Swaps, Swaps]) -> str:
        """:meth:`hash` of the session whose :meth:`swaps` these are."""
        assert self._base_texts is not None
        agent, user = self._base_texts
        return _joined(agent.hash(swaps[0]), None if user is None else user.hash(swaps[1]))

    def hashes(self, data: Mapping[str, Any]) -> tuple[str, str | None]:
        """τ²'s ``get_db_hash`` and ``get_user_db_hash`` (None without a user database).

        A session's data is hashed from the base texts' checkpoints (see the module's note); anything else
        from its whole text.
        """
        swaps = self.swaps(data)
        if swaps is not None and self._base_texts is not None:
            agent, user = self._base_texts
            return agent.hash(swaps[0]), None if user is None else user.hash(swaps[1])
        user_text = self.user_text(data)
        return _sha256(self.text(data)), None if user_text is None else _sha256(user_text)

    def hash(self, data: Mapping[str, Any]) -> str:
        """The agent database's hash, followed by ``:`` and the user database's when there is one."""
        return _joined(*self.hashes(data))


def _joined(agent: str, user: str | None) -> str:
    return agent if user is None else f"{agent}:{user}"


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
