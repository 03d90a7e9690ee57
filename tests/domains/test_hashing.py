"""τ-bench v1's data hash: the plain serializer against hash_cases.jsonl, and the incremental DataHasher."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Domain, Session, _hashing, load_domain
from taumesh.domains._cow import CowSwitch, CowTable
from taumesh.domains._hashing import DataHasher, consistent_hash, to_hashable
from tests.helpers.paths import V1_VECTORS, read_jsonl

HASH_CASES = list(read_jsonl(V1_VECTORS / "hash_cases.jsonl")) if (V1_VECTORS / "hash_cases.jsonl").is_file() else []
INITIAL = {
    "retail": "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5",
    "airline": "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290",
}


def test_hash_cases_present() -> None:
    assert len(HASH_CASES) == 24


@pytest.mark.parametrize("case", HASH_CASES, ids=[c["note"] for c in HASH_CASES])
def test_hash_case(case: dict[str, Any]) -> None:
    value = json.loads(case["value_json"])
    assert str(to_hashable(value)) == case["str_of_hashable"]
    assert consistent_hash(to_hashable(value)) == case["sha256"]


DICT_CASES = [c for c in HASH_CASES if c["value_json"].startswith("{")]


@pytest.mark.parametrize("case", DICT_CASES, ids=[c["note"] for c in DICT_CASES])
def test_data_hasher_on_hash_case(case: dict[str, Any]) -> None:
    """A hash case that is a dict, hashed as a whole database, gives the same digest through DataHasher."""
    value = json.loads(case["value_json"])
    # no base tables: every table is rendered from scratch
    assert DataHasher({}).hash(value) == case["sha256"]
    tables = {name: table for name, table in value.items() if isinstance(table, dict)}
    if tables:
        # the dict-valued entries as base tables seen through pristine copy-on-write views
        hasher = DataHasher(tables)
        switch = CowSwitch()
        views = {name: CowTable(table, switch) if name in tables else table for name, table in value.items()}
        assert hasher.hash(views) == case["sha256"]


def test_set_is_sorted() -> None:
    assert str(to_hashable({"s": {3, 1, 2}})) == "(('s', (1, 2, 3)),)"


def test_small_tables_edge_cases() -> None:
    """One record left renders as a one-element tuple, no record as ``()``; a re-added key sorts by key."""
    base: dict[str, dict[str, Any]] = {"t": {"b": {"x": 1}, "a": {"y": [1.0, None]}}, "u": {"k": {"v": "it's"}}}
    hasher = DataHasher(base)
    switch = CowSwitch()
    data: dict[str, Any] = {name: CowTable(table, switch) for name, table in base.items()}

    def plain() -> str:
        return consistent_hash(to_hashable({name: dict(table.items()) for name, table in data.items()}))

    assert hasher.hash(data) == plain() == consistent_hash(to_hashable(base))
    with switch.writing():
        del data["t"]["a"]
        assert hasher.hash(data) == plain() == consistent_hash(to_hashable({"t": {"b": {"x": 1}}, "u": base["u"]}))
        del data["t"]["b"]
        assert hasher.hash(data) == plain() == consistent_hash(to_hashable({"t": {}, "u": base["u"]}))
        data["t"]["a"] = {"y": [2]}
        data["t"]["0"] = {}
        assert hasher.hash(data) == plain()
        data["u"]["k"] = {"v": 'say "hi" – ok'}
        assert hasher.hash(data) == plain()
    assert base == {"t": {"b": {"x": 1}, "a": {"y": [1.0, None]}}, "u": {"k": {"v": "it's"}}}


@pytest.fixture(scope="module", params=["retail", "airline"])
def domain(request: pytest.FixtureRequest, v1_data_dir: Path) -> Domain:
    return load_domain(request.param, v1_data_dir)


def materialize(session: Session) -> dict[str, Any]:
    """The session's data as plain dicts, in the session's iteration order (records shared, not copied)."""
    return {name: dict(table.items()) for name, table in session.data.items()}


def plain_hash(session: Session) -> str:
    return consistent_hash(to_hashable(materialize(session)))


def test_fresh_session(domain: Domain) -> None:
    session = Session(domain)
    assert session.data_hash() == plain_hash(session) == INITIAL[domain.name]


# One write of each shape per domain: a modified record (through a tool), an added one (tool or direct),
# a deleted one, a deleted-then-re-added one, and a replaced one.
WRITES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "retail": [
        ("cancel_pending_order", {"order_id": "#W6779827", "reason": "no longer needed"}),
        (
            "modify_user_address",
            {
                "user_id": "sofia_rossi_8776",
                "address1": "1 Test St",
                "address2": "",
                "city": "Zürich",
                "state": "ZH",
                "country": "CH",
                "zip": "8000",
            },
        ),
    ],
    "airline": [
        ("send_certificate", {"user_id": "mia_li_3668", "amount": 50}),
        (
            "book_reservation",
            {
                "user_id": "mia_li_3668",
                "origin": "PHL",
                "destination": "LGA",
                "flight_type": "one_way",
                "cabin": "economy",
                "flights": [{"flight_number": "HAT001", "date": "2024-05-16"}],
                "passengers": [{"first_name": "A", "last_name": "O'Brien", "dob": "1990-01-01"}],
                "payment_methods": [{"payment_id": "credit_card_4421486", "amount": 122}],
                "total_baggages": 0,
                "nonfree_baggages": 0,
                "insurance": "no",
            },
        ),
    ],
}


def test_incremental_hash_after_writes(domain: Domain) -> None:
    session = Session(domain)
    seen = {session.data_hash()}
    for name, kwargs in WRITES[domain.name]:
        result = session.call(name, copy.deepcopy(kwargs))
        assert not result.error, result.observation
        seen.add(session.data_hash())
    assert session.data_hash() == plain_hash(session)
    tables = list(session.data)
    first, second = session.data[tables[0]], session.data[tables[1]]
    first_keys, second_keys = list(first), list(second)
    with session.switch.writing():  # as a write tool would
        # delete a base record
        del first[first_keys[0]]
        assert session.data_hash() == plain_hash(session)
        seen.add(session.data_hash())
        # add a record with a new key that sorts first, and one that sorts last
        first["!new"] = {"note": "added", "amount": 1.5, "items": []}
        first["~new"] = {"note": "café 😀 \\ \n 'q'"}
        assert session.data_hash() == plain_hash(session)
        seen.add(session.data_hash())
        # delete a base record, then add it back changed
        record = copy.deepcopy(second[second_keys[3]])
        del second[second_keys[3]]
        record["extra"] = True
        second[second_keys[3]] = record
        assert session.data_hash() == plain_hash(session)
        seen.add(session.data_hash())
        # replace a base record wholesale, and delete an added one
        second[second_keys[5]] = {"replaced": 1}
        del first["!new"]
        assert session.data_hash() == plain_hash(session)
        seen.add(session.data_hash())
    assert len(seen) == 2 + len(WRITES[domain.name]) + 3  # every step changed the hash
    # the base data never moved
    assert Session(domain).data_hash() == INITIAL[domain.name]


def test_type_sensitive(domain: Domain) -> None:
    """An int turned into an equal float changes the hash, both ways of computing it."""
    session = Session(domain)
    table = session.data[next(iter(session.data))]
    key = next(iter(table))
    session.switch.copy_on_access = True  # as while a write tool runs
    record = copy.deepcopy(table[key])
    record["_n"] = 250
    table[key] = record
    as_int = session.data_hash()
    assert as_int == plain_hash(session)
    record = copy.deepcopy(record)
    record["_n"] = 250.0
    table[key] = record
    assert session.data_hash() == plain_hash(session) != as_int


@pytest.mark.parametrize("checkpoint_bytes", [1, 5, 64, 1 << 20])
def test_a_sessions_hash_resumes_from_a_checkpoint_exactly(
    monkeypatch: pytest.MonkeyPatch, checkpoint_bytes: int
) -> None:
    """Random overlays (changed, added, deleted, re-added records; one-record and empty tables) hash as from scratch."""
    monkeypatch.setattr(_hashing, "CHECKPOINT_BYTES", checkpoint_bytes)
    base: dict[str, dict[str, Any]] = {
        "orders": {f"#W{i}": {"n": i, "note": "café 😀" * (i % 2), "items": [i, i / 2]} for i in range(9)},
        "one": {"k": {"v": "it's"}},
        "none": {},
    }
    hasher = DataHasher(base)
    resumed = []
    real = _hashing.CheckpointedText.hash

    def resume(self: _hashing.CheckpointedText, swaps: list[tuple[int, int, bytes]]) -> str:
        resumed.append(len(swaps))
        return real(self, swaps)

    monkeypatch.setattr(_hashing.CheckpointedText, "hash", resume)
    rng = random.Random(checkpoint_bytes)
    values: list[Any] = [1, 1.0, True, None, "x", "é'\"", [1, (2,)], {"b": 1, "a": {3}}, {}]
    for round_ in range(300):
        switch = CowSwitch()
        data = {name: CowTable(table, switch) for name, table in base.items()}
        with switch.writing():
            for _ in range(rng.randint(0, 4)):
                table = data[rng.choice(list(data))]
                keys = list(table)
                action = rng.choice(["field", "touch", "set", "delete"]) if keys else "set"
                key = rng.choice(keys) if keys and rng.random() < 0.8 else rng.choice(["#W0", "#W99", "a", "k"])
                if action == "field" and key in table:
                    table[key]["v"] = rng.choice(values)
                elif action == "touch" and key in table:
                    table[key]  # a read in write mode copies the record
                elif action == "delete" and key in table:
                    del table[key]
                else:
                    table[key] = {"v": rng.choice(values)}
        plain = consistent_hash(to_hashable({name: dict(table.items()) for name, table in data.items()}))
        assert hasher.hash(data) == plain
        assert len(resumed) == round_ + 1  # from a checkpoint, not from the whole text
