"""τ²'s hash of a session resumed from a checkpoint of the base text equals the hash of the whole text.

Checked against a from-scratch ``json.dumps`` of the session's data (τ²'s ``get_db_hash`` and
``get_user_db_hash``) on random overlays: changed, added, deleted and re-added records, keyed and
list tables, a user table, and text whose characters take several UTF-8 bytes, with checkpoints
a few bytes apart so that they fall inside records and inside characters.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from taumesh.domains import _hashing
from taumesh.domains._cow import CowSwitch, CowTable
from taumesh.domains._readonly import freeze
from taumesh.domains.tau2 import _hash as tau2_hash
from taumesh.domains.tau2._hash import Tau2Hasher

LISTS = ("lines",)
USER = "phone"
BASE = freeze(
    {
        "orders": {f"o{i}": {"n": i, "note": "café ☕" * (i % 3), "items": [i, i / 2]} for i in range(12)},
        "users": {"u1": {"name": "Zoë"}, "u2": {"name": "日本"}, "u3": {}},
        "lines": {str(i): {"number": f"555-{i}", "on": i % 2 == 0} for i in range(5)},
        "empty": {},
        "phone": {"sim": {"state": "ok"}, "battery": {"level": 80}},
    }
)
VALUES: list[Any] = [1, 1.0, True, None, "x", "é☕", [1, "日"], {"b": 1, "a": 2}, {}]


def _sha(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _from_scratch(data: dict[str, CowTable]) -> tuple[str, str]:
    agent = {
        name: [table[key] for key in table] if name in LISTS else {key: table[key] for key in table}
        for name, table in data.items()
        if name != USER
    }
    return _sha(agent), _sha({key: data[USER][key] for key in data[USER]})


def _change(rng: random.Random, data: dict[str, CowTable]) -> None:
    name = rng.choice(list(data))
    table = data[name]
    keys = list(table)
    action = rng.choice(["field", "field", "touch", "set", "add", "delete"])
    if action == "add" or not keys:
        table[f"new{rng.randint(0, 3)}" if name not in LISTS else str(len(BASE[name]) + rng.randint(0, 2))] = {
            "v": rng.choice(VALUES)
        }
        return
    key = rng.choice(keys)
    if action == "field":
        table[key][rng.choice(["v", "n", "name", "state"])] = rng.choice(VALUES)
    elif action == "touch":
        table[key]  # a read in write mode copies the record
    elif action == "set":
        table[key] = {"v": rng.choice(VALUES)}
    else:
        del table[key]


@pytest.mark.parametrize("checkpoint_bytes", [1, 7, 64, 1 << 20])
def test_a_sessions_hash_is_the_hash_of_its_whole_text(monkeypatch: pytest.MonkeyPatch, checkpoint_bytes: int) -> None:
    monkeypatch.setattr(_hashing, "CHECKPOINT_BYTES", checkpoint_bytes)
    hasher = Tau2Hasher(BASE, list_tables=LISTS, user_table=USER)
    whole_text_hashes: list[str] = []

    def whole_text_hash(text: str) -> str:
        whole_text_hashes.append(text)
        return ""

    monkeypatch.setattr(tau2_hash, "_sha256", whole_text_hash)
    rng = random.Random(checkpoint_bytes)
    for _ in range(400):
        switch = CowSwitch()
        data = {name: CowTable(table, switch) for name, table in BASE.items()}
        with switch.writing():
            for _ in range(rng.randint(0, 4)):
                _change(rng, data)
        agent, user = hasher.hashes(data)
        assert (agent, user) == _from_scratch(data)
    assert whole_text_hashes == []  # every session went through the checkpoints


def test_data_that_is_not_a_session_is_hashed_from_its_text() -> None:
    hasher = Tau2Hasher(BASE, list_tables=LISTS, user_table=USER)
    plain = {name: dict(table) for name, table in BASE.items()}
    plain["orders"]["o1"] = {"changed": True}
    switch = CowSwitch()
    session = {name: CowTable(table, switch) for name, table in BASE.items()}
    with switch.writing():
        session["orders"]["o1"] = {"changed": True}
    assert hasher.hashes(plain) == hasher.hashes(session) == _from_scratch(session)
