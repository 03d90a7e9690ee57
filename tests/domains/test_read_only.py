"""Base data is immutable to every tool: a tool wrongly tagged read that mutates raises, and nothing changes."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import BaseDataMutation, Data, Domain, Session, Tool, ToolCrash, load_domain
from taumesh.domains._cow import copy_json
from taumesh.domains._hashing import consistent_hash, to_hashable
from taumesh.domains._readonly import ReadOnlyDict, ReadOnlyList, freeze

USER = "noah_brown_6181"


class RenameUserCity(Tool):
    """Wrongly tagged read: changes a nested field of a base record."""

    name = "rename_user_city"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        data["users"][user_id]["address"]["city"] = "Nowhere"
        return "done"


class AddOrderToUser(Tool):
    """Wrongly tagged read: appends to a base list."""

    name = "add_order_to_user"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        data["users"][user_id]["orders"].append("#W0000000")
        return "done"


class ReplaceUser(Tool):
    """Wrongly tagged read: replaces a whole record of the session's table."""

    name = "replace_user"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        data["users"][user_id] = {"name": "nobody"}
        return "done"


class DeleteUser(Tool):
    """Wrongly tagged read: deletes a record of the session's table."""

    name = "delete_user"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        del data["users"][user_id]
        return "done"


class SwallowingMutation(Tool):
    """Wrongly tagged read, and hides the failure behind a broad ``except``: still raises out of the session."""

    name = "swallowing_mutation"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        try:
            data["users"][user_id]["email"] = "x@example.com"
        except Exception:  # noqa: BLE001 - the mistake under test
            return "changed nothing, honestly"
        return "done"


class RenameUserProperly(Tool):
    """Correctly tagged write: changes its session's copy only."""

    name = "rename_user_properly"
    writes = True

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        data["users"][user_id]["address"]["city"] = "Somewhere"
        return "done"


BAD_TOOLS = [RenameUserCity, AddOrderToUser, ReplaceUser, DeleteUser, SwallowingMutation]


@pytest.fixture(scope="module")
def retail(v1_data_dir: Path) -> Domain:
    """retail with the test tools added (tool schemas are not needed to call tools)."""
    plain = load_domain("retail", v1_data_dir)
    plugin = dataclasses.replace(plain.plugin, tools=(*plain.plugin.tools, *BAD_TOOLS, RenameUserProperly))
    return Domain(plugin, plain.root)


def file_data(v1_data_dir: Path) -> dict[str, Any]:
    return {t: json.loads((v1_data_dir / "retail" / f"{t}.json").read_text(encoding="utf-8")) for t in retail_tables()}


def retail_tables() -> tuple[str, ...]:
    return ("orders", "products", "users")


@pytest.mark.parametrize("tool", BAD_TOOLS, ids=lambda tool: tool.name)
def test_read_tool_that_mutates_raises_and_changes_nothing(retail: Domain, v1_data_dir: Path, tool: type[Tool]) -> None:
    initial = retail.initial_hash
    other = Session(retail)  # another episode, mid-way through its own write
    assert not other.call("rename_user_properly", {"user_id": USER}).error
    other_hash = other.data_hash()

    session = Session(retail)
    with pytest.raises(BaseDataMutation, match=tool.name) as raised:
        session.call(tool.name, {"user_id": USER})
    assert isinstance(raised.value, ToolCrash)  # the env service aborts the episode: a domain bug, not an observation
    assert "writes = True" in str(raised.value)

    assert session.data_hash() == initial  # the session itself did not change
    assert session.copied_records() == 0
    assert other.data_hash() == other_hash  # nor did the other session
    assert other.data["users"][USER]["address"]["city"] == "Somewhere"
    assert Session(retail).data_hash() == initial  # nor does a new one start from changed data
    assert retail.base_data == file_data(v1_data_dir)  # the base is the files, record for record


def test_the_session_goes_on_after_a_violation(retail: Domain) -> None:
    session = Session(retail)
    with pytest.raises(BaseDataMutation):
        session.call("rename_user_city", {"user_id": USER})
    step = session.call("get_user_details", {"user_id": USER})
    assert not step.error
    assert json.loads(step.observation)["address"]["city"] != "Nowhere"


def test_tables_of_a_session_cannot_be_swapped(retail: Domain) -> None:
    session = Session(retail)
    with pytest.raises(BaseDataMutation):
        session.data["users"] = {}
    with pytest.raises(BaseDataMutation):
        del session.data["users"]


MUTATIONS: dict[str, Callable[[Any], Any]] = {
    "dict set": lambda d: d.__setitem__("k", 1),
    "dict del": lambda d: d.__delitem__("a"),
    "dict update": lambda d: d.update(k=1),
    "dict setdefault": lambda d: d.setdefault("k", 1),
    "dict pop": lambda d: d.pop("a"),
    "dict popitem": lambda d: d.popitem(),
    "dict clear": lambda d: d.clear(),
    "dict |=": lambda d: d.__ior__({"k": 1}),
    "list append": lambda d: d["l"].append(1),
    "list extend": lambda d: d["l"].extend([1]),
    "list insert": lambda d: d["l"].insert(0, 1),
    "list set": lambda d: d["l"].__setitem__(0, 1),
    "list slice set": lambda d: d["l"].__setitem__(slice(0, 1), [1]),
    "list del": lambda d: d["l"].__delitem__(0),
    "list remove": lambda d: d["l"].remove(1.5),
    "list pop": lambda d: d["l"].pop(),
    "list clear": lambda d: d["l"].clear(),
    "list sort": lambda d: d["l"].sort(),
    "list reverse": lambda d: d["l"].reverse(),
    "list +=": lambda d: d["l"].__iadd__([1]),
    "list *=": lambda d: d["l"].__imul__(2),
    "nested": lambda d: d["n"]["x"].append(1),
}
SAMPLE = {"a": 1, "b": "it's", "l": [1.5, None, {"z": True}], "n": {"x": [], "y": {"é": "😀"}}}


@pytest.mark.parametrize("mutate", MUTATIONS.values(), ids=list(MUTATIONS))
def test_every_mutating_method_raises(mutate: Callable[[Any], Any]) -> None:
    frozen = freeze(copy.deepcopy(SAMPLE))
    with pytest.raises(BaseDataMutation):
        mutate(frozen)
    assert frozen == SAMPLE


def test_read_only_renders_exactly_like_plain_json() -> None:
    frozen = freeze(copy.deepcopy(SAMPLE))
    assert isinstance(frozen, ReadOnlyDict)
    assert isinstance(frozen["l"], ReadOnlyList)
    assert json.dumps(frozen) == json.dumps(SAMPLE)
    assert json.dumps(frozen, indent=2, sort_keys=True) == json.dumps(SAMPLE, indent=2, sort_keys=True)
    assert str(frozen) == str(SAMPLE)
    assert repr(frozen["l"]) == repr(SAMPLE["l"])
    assert sorted(frozen.items(), key=str) == sorted(SAMPLE.items(), key=str)
    assert str(to_hashable(frozen)) == str(to_hashable(SAMPLE))
    assert consistent_hash(to_hashable(frozen)) == consistent_hash(to_hashable(SAMPLE))


COPIERS: dict[str, Callable[[Any], Any]] = {
    "copy_json": copy_json,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


@pytest.mark.parametrize("copier", COPIERS.values(), ids=list(COPIERS))
def test_copies_are_plain_and_mutable(copier: Callable[[Any], Any]) -> None:
    copied = copier(freeze(copy.deepcopy(SAMPLE)))
    assert copied == SAMPLE
    assert type(copied) is dict
    assert type(copied["l"]) is list
    assert type(copied["n"]["y"]) is dict
    copied["l"].append(1)
    copied["n"]["x"].append(1)
    copied["k"] = 1


def test_shallow_copies_are_plain() -> None:
    frozen = freeze(copy.deepcopy(SAMPLE))
    assert type(copy.copy(frozen)) is dict
    assert type(dict(frozen)) is dict
    assert type(copy.copy(frozen["l"])) is list
    assert type(frozen["l"][:]) is list


def test_base_data_is_read_only(retail: Domain) -> None:
    users = retail.base_data["users"]
    assert isinstance(users, ReadOnlyDict)
    with pytest.raises(BaseDataMutation):
        users[USER]["orders"].append("#W0000000")
