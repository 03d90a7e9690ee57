"""CowTable: a session's copy-on-write view of one shared base table behaves like a private dict."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from taumesh.domains._cow import CowSwitch, CowTable, copy_json


def make_base() -> dict[str, Any]:
    return {
        "a": {"n": 1, "items": [{"id": "x", "tags": ["t1"]}], "meta": {"deep": {"v": 1.5}}},
        "b": {"n": 2, "items": []},
        "c": {"n": 3, "items": [{"id": "y"}]},
        "d": {"n": 4, "items": None},
    }


@pytest.fixture
def base() -> dict[str, Any]:
    return make_base()


@pytest.fixture
def switch() -> CowSwitch:
    return CowSwitch()


@pytest.fixture
def table(base: dict[str, Any], switch: CowSwitch) -> CowTable:
    return CowTable(base, switch)


def test_copy_json_is_deep() -> None:
    value = make_base()
    copied = copy_json(value)
    assert copied == value
    assert copied["a"] is not value["a"]
    assert copied["a"]["items"] is not value["a"]["items"]
    assert copied["a"]["items"][0]["tags"] is not value["a"]["items"][0]["tags"]
    assert copied["a"]["meta"]["deep"] is not value["a"]["meta"]["deep"]


def test_reads_do_not_copy(table: CowTable, base: dict[str, Any]) -> None:
    for key in base:
        assert table[key] is base[key]
    assert table.get("b") is base["b"]
    assert [value for _, value in table.items()] == list(base.values())
    assert all(value is base[key] for key, value in table.items())
    assert table.pristine
    assert table.changed_keys() == set()
    assert table.base is base


def test_write_mode_copies_one_record_on_access(table: CowTable, base: dict[str, Any], switch: CowSwitch) -> None:
    original = copy.deepcopy(base)
    switch.copy_on_access = True
    record = table["a"]
    assert record is not base["a"]
    assert record == base["a"]
    assert table.changed_keys() == {"a"}  # only the record touched was copied
    assert not table.pristine
    assert table["a"] is record  # the second access returns the same private copy
    record["n"] = 100
    record["items"][0]["tags"].append("t2")
    record["meta"]["deep"]["v"] = 0
    switch.copy_on_access = False
    assert table["a"] is record  # and reads keep seeing it after the write tool
    assert table["a"]["n"] == 100
    assert base == original  # the deep copy kept every nested level away from the base
    assert table["b"] is base["b"]
    assert table.changed_keys() == {"a"}


def test_in_never_copies(table: CowTable, switch: CowSwitch) -> None:
    switch.copy_on_access = True
    assert "a" in table
    assert "zzz" not in table
    assert 1 not in table
    assert table.pristine
    assert len(table) == 4
    assert list(table) == ["a", "b", "c", "d"]
    assert table.pristine  # nor do len and iteration over keys


def test_missing_key(table: CowTable, switch: CowSwitch) -> None:
    with pytest.raises(KeyError):
        table["zzz"]
    with switch.writing():
        with pytest.raises(KeyError):
            del table["zzz"]
        del table["a"]
        with pytest.raises(KeyError):
            table["a"]
        with pytest.raises(KeyError):
            del table["a"]
    with pytest.raises(KeyError):
        table["a"]
    switch.copy_on_access = True
    with pytest.raises(KeyError):
        table["a"]
    assert table.get("a") is None


@pytest.mark.parametrize("key", [["x"], {"a": 1}])
def test_unhashable_key(table: CowTable, key: Any) -> None:
    message = f"unhashable type: '{type(key).__name__}'"
    with pytest.raises(TypeError, match=message):
        table[key]
    with pytest.raises(TypeError, match=message):
        key in table  # noqa: B015
    with pytest.raises(TypeError, match=message):
        table[key] = {}
    with pytest.raises(TypeError, match=message):
        del table[key]


def test_unhashable_key_message_matches_dict(table: CowTable) -> None:
    """τ-bench's observation is ``Error: unhashable type: 'list'``: the exact text of a dict lookup."""
    with pytest.raises(TypeError) as from_dict:
        {}[["x"]]  # type: ignore[index]
    with pytest.raises(TypeError) as from_table:
        table[["x"]]
    assert str(from_table.value) == str(from_dict.value) == "unhashable type: 'list'"


def apply(operations: list[tuple[str, Any, Any]], table: CowTable, plain: dict[str, Any], switch: CowSwitch) -> None:
    """Apply ``operations`` to both, the table as a write tool would (records change only in write mode)."""
    with switch.writing():
        for operation, key, value in operations:
            if operation == "set":
                table[key] = value
                plain[key] = value
            else:
                del table[key]
                del plain[key]


def assert_same(table: CowTable, plain: dict[str, Any]) -> None:
    assert list(table) == list(plain)
    assert len(table) == len(plain)
    assert dict(table.items()) == plain
    assert list(table.values()) == list(plain.values())
    for key in [*plain, "a", "b", "c", "d", "e", "f"]:
        assert (key in table) == (key in plain), key


@pytest.mark.parametrize(
    ("operations", "order"),
    [
        ([("set", "b", {"new": 1})], ["a", "b", "c", "d"]),  # a replaced key keeps its position
        ([("set", "e", {}), ("set", "f", {})], ["a", "b", "c", "d", "e", "f"]),  # new keys at the end
        ([("del", "b", None)], ["a", "c", "d"]),
        ([("del", "b", None), ("set", "b", {"back": 1})], ["a", "c", "d", "b"]),  # deleted then re-added: at the end
        ([("set", "e", {}), ("del", "e", None), ("set", "e", {"again": 1})], ["a", "b", "c", "d", "e"]),
        ([("set", "e", {}), ("set", "a", {}), ("set", "e", {"2": 2})], ["a", "b", "c", "d", "e"]),
        ([("del", "a", None), ("del", "b", None), ("del", "c", None), ("del", "d", None)], []),
        (
            [("del", "c", None), ("set", "e", {}), ("set", "c", {}), ("set", "a", {}), ("set", "c", {"x": 1})],
            ["a", "b", "d", "e", "c"],
        ),
    ],
)
def test_order_and_len_match_a_dict(
    table: CowTable,
    base: dict[str, Any],
    switch: CowSwitch,
    operations: list[tuple[str, Any, Any]],
    order: list[str],
) -> None:
    original = copy.deepcopy(base)
    plain = dict(base)
    apply(operations, table, plain, switch)
    assert list(plain) == order  # the expectation is a plain dict's behaviour
    assert_same(table, plain)
    assert base == original


def test_delete_readded_base_key(table: CowTable, base: dict[str, Any], switch: CowSwitch) -> None:
    plain = dict(base)
    apply([("del", "b", None), ("set", "b", {"back": 1}), ("del", "b", None)], table, plain, switch)
    assert_same(table, plain)


def _random_operations(rng: random.Random, count: int) -> list[tuple[str, Any, Any]]:
    """Random sets and deletes over base keys and new keys, as a dict would accept them."""
    present = ["a", "b", "c", "d"]
    operations: list[tuple[str, Any, Any]] = []
    for step in range(count):
        key = rng.choice("abcdefg")
        if rng.random() < 0.5 or key not in present:
            if key not in present:
                present.append(key)
            operations.append(("set", key, {"step": step}))
        else:
            present.remove(key)
            operations.append(("del", key, None))
    return operations


@pytest.mark.parametrize("seed", range(40))
def test_random_operations_match_a_dict(seed: int) -> None:
    base = make_base()
    original = copy.deepcopy(base)
    switch = CowSwitch()
    table = CowTable(base, switch)
    plain = dict(base)
    rng = random.Random(seed)
    for operation in _random_operations(rng, 30):
        apply([operation], table, plain, switch)
        assert_same(table, plain)
        # now and then a write tool touches a record in place
        if rng.random() < 0.3 and plain:
            key = rng.choice(list(plain))
            switch.copy_on_access = True
            record = table[key]
            switch.copy_on_access = False
            record["touched"] = True
            plain[key] = record
            assert_same(table, plain)
    assert base == original
    # what the data hasher relies on: every key whose record is not the base one is reported as changed
    changed = table.changed_keys()
    assert {key for key in plain if key not in base} <= changed
    assert {key for key in base if key not in plain or plain[key] is not base[key]} <= changed
