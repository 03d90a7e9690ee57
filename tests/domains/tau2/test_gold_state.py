"""The τ² scorer's gold-state comparison: exact against the hash, and no hashing when a replay reaches gold.

Two sessions with equal :meth:`Tau2Hasher.swaps` (how their texts differ from the base's) must
have equal texts; the scorer then takes the gold hash as the replay's hash (``reached_hash``).
Checked on hand-made tables (values Python thinks equal but JSON renders apart), on random
overlays, and on every base task of mock, airline, retail and telecom.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from taumesh.domains import Domain, EpisodeMismatch
from taumesh.domains._cow import CowSwitch, CowTable
from taumesh.domains._readonly import freeze
from taumesh.domains.tau2 import Tau2Task, call_tool, open_session
from taumesh.domains.tau2._hash import Tau2Hasher
from taumesh.domains.tau2._reward import GoldState, gold_hash, reached_hash, replay, score_episode
from taumesh.models import STOP_TOKEN, ChatMessage, Score, ToolCall
from tests.helpers.tau2 import tau2_domain

BASE = freeze(
    {
        "orders": {"o1": {"n": 1, "items": ["a", "b"]}, "o2": {"n": 2.5, "meta": {"x": 1, "y": None}}},
        "phone": {"0": {"on": True}, "1": {"on": False, "apps": []}},
    }
)


class Side:
    """One session's tables over :data:`BASE`, written as a write tool would."""

    def __init__(self) -> None:
        self.switch = CowSwitch()
        self.data = {name: CowTable(table, self.switch) for name, table in BASE.items()}

    def write(self, change: Callable[[dict[str, CowTable]], object]) -> Side:
        with self.switch.writing():
            change(self.data)
        return self


@pytest.fixture
def hasher() -> Tau2Hasher:
    return Tau2Hasher(BASE, list_tables=("phone",))


def _text(hasher: Tau2Hasher, side: Side) -> str:
    return f"{hasher.text(side.data)}|{hasher.user_text(side.data)}"


def _set(table: str, key: str, field: str, value: Any) -> Callable[[dict[str, CowTable]], None]:
    def change(data: dict[str, CowTable]) -> None:
        data[table][key][field] = value

    return change


def _readd(table: CowTable, key: str, record: dict[str, Any]) -> None:
    """Delete ``key`` if present, then set it to ``record``."""
    table.pop(key, None)
    table[key] = record


def _add_o3(data: dict[str, CowTable]) -> None:
    data["orders"]["o3"] = {"n": 3}


CASES: dict[str, tuple[Callable[[dict[str, CowTable]], object], Callable[[dict[str, CowTable]], object], bool]] = {
    "copied but unchanged is the base": (lambda d: d["orders"]["o1"], lambda d: None, True),
    "int 1 and float 1.0 render apart": (_set("orders", "o2", "n", 1), _set("orders", "o2", "n", 1.0), False),
    "True and 1 render apart": (_set("phone", "0", "on", 1), lambda d: None, False),
    "tuple and list render alike": (_set("orders", "o1", "items", ("a", "b")), lambda d: d["orders"]["o1"], True),
    "key order does not matter": (
        _set("orders", "o2", "meta", {"y": None, "x": 1}),
        _set("orders", "o2", "meta", {"x": 1, "y": None}),
        True,
    ),
    "a deleted record": (lambda d: d["orders"].pop("o1"), lambda d: None, False),
    "the same added record": (_add_o3, _add_o3, True),
    "an added record against none": (_add_o3, lambda d: None, False),
    "deleted and re-added equals copied in a keyed table": (
        lambda d: _readd(d["orders"], "o1", {"n": 1, "items": ["a", "b"]}),
        lambda d: d["orders"]["o1"],
        True,
    ),
    "deleted and re-added moves a list record to the end": (
        lambda d: _readd(d["phone"], "0", {"on": True}),
        lambda d: d["phone"]["0"],
        False,
    ),
    "an appended list record": (lambda d: _readd(d["phone"], "2", {"on": True}), lambda d: None, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_equal_swaps_are_exact_on_values_that_render_alike_or_apart(hasher: Tau2Hasher, case: str) -> None:
    first, second, same = CASES[case]
    a, b = Side().write(first), Side().write(second)
    assert (_text(hasher, a) == _text(hasher, b)) is same  # the case is what it says
    swaps_a, swaps_b = hasher.swaps(a.data), hasher.swaps(b.data)
    assert swaps_a is not None and swaps_b is not None
    assert (swaps_a == swaps_b) is same
    assert (hasher.hash(a.data) == hasher.hash(b.data)) is same
    assert hasher.swapped_hash(swaps_a) == hasher.hash(a.data)


VALUES: list[Any] = [1, 1.0, True, "1", None, [1], (1,), {"k": 1}, {"k": 1.0}, [], {}]


def _random_change(rng: random.Random) -> Callable[[dict[str, CowTable]], None]:
    table = rng.choice(["orders", "phone"])
    key = rng.choice(["o1", "o2", "o3"] if table == "orders" else ["0", "1", "2"])
    action = rng.choice(["set", "field", "delete", "touch"])
    value = rng.choice(VALUES)

    def change(data: dict[str, CowTable]) -> None:
        target = data[table]
        if action == "delete" and key in target:
            del target[key]
        elif action == "set":
            target[key] = {"v": value}
        elif action == "field" and key in target:
            target[key]["v"] = value
        elif action == "touch" and key in target:
            target[key]  # a read in write mode copies the record

    return change


def test_equal_swaps_never_hide_texts_that_differ(hasher: Tau2Hasher) -> None:
    rng = random.Random(13)
    claimed = 0
    for _ in range(3000):
        a, b = Side(), Side()
        for side in (a, b):
            for _ in range(rng.randint(0, 3)):
                side.write(_random_change(rng))
        equal = _text(hasher, a) == _text(hasher, b)
        same = hasher.swaps(a.data) == hasher.swaps(b.data)
        assert not same or equal
        keys_changed = not all(side.data[name].same_keys for side in (a, b) for name in BASE)
        assert same or not equal or keys_changed  # only a table that added or deleted records swaps as a whole
        claimed += same
    assert claimed > 300  # the random overlays do meet


def _gold_conversation(task: Tau2Task, actions: int | None = None) -> list[ChatMessage]:
    """An oracle episode: the first ``actions`` gold calls (all by default), what to communicate, the stop."""
    conversation = [ChatMessage(role="assistant", content="Hi! How can I help you today?")]
    for index, action in enumerate(task.gold_actions[:actions]):
        call = ToolCall(
            id=f"call_{index}", name=action.name, arguments=json.dumps(action.arguments), requestor=action.requestor
        )
        conversation += [
            ChatMessage(role=action.requestor, tool_calls=[call]),
            ChatMessage(role="tool", content="(recorded)", tool_call_id=call.id),
        ]
    criteria = task.evaluation_criteria
    said = "; ".join(criteria.communicate_info or []) if criteria is not None else ""
    return [*conversation, ChatMessage(role="assistant", content=said), ChatMessage(role="user", content=STOP_TOKEN)]


def _env_hash(domain: Domain, task: Tau2Task, conversation: list[ChatMessage]) -> str:
    """The env's final hash of the episode, as GetFinalState computes it."""
    session = open_session(domain, task)
    for message in conversation:
        for call in message.tool_calls:
            call_tool(session, call.name, json.loads(call.arguments), call.requestor)
    return session.data_hash()


def _tasks(source_name: str) -> Iterator[tuple[Domain, Tau2Task]]:
    domain = tau2_domain(source_name)
    for task in domain.tasks("base"):
        assert isinstance(task, Tau2Task)
        yield domain, task


@pytest.mark.parametrize("source_name", ["mock", "airline", "retail", "telecom"])
def test_every_gold_replay_is_recognised_without_hashing(tau2_data: object, source_name: str) -> None:
    recognised = 0
    for domain, task in _tasks(source_name):
        gold = gold_hash(domain, task)
        assert isinstance(gold, GoldState) and gold.hasher is domain.hasher
        session = replay(domain, task, _gold_conversation(task))
        if gold.swaps == gold.hasher.swaps(session.data):
            recognised += 1
            assert session.data_hash() == gold  # the claim is exact
        else:
            assert session.data_hash() != gold  # else the comparison missed a gold state
    assert recognised > 0


def test_a_passing_episode_is_scored_without_hashing(
    tau2_data: object, monkeypatch: pytest.MonkeyPatch, hash_calls: list[int]
) -> None:
    episodes = []
    for domain, task in _tasks("retail"):
        conversation = _gold_conversation(task)
        episodes.append((domain, task, conversation, _env_hash(domain, task, conversation), gold_hash(domain, task)))
    hash_calls.clear()
    scores = [score_episode(d, t, c, "user_stop", final, gold) for d, t, c, final, gold in episodes]
    assert hash_calls == []
    assert [score.reward for score in scores] == [1.0] * len(episodes)
    for score, (*_, final, gold) in zip(scores, episodes, strict=True):
        db = _db_check(score)
        assert (db.expected, db.actual) == (gold, final)
        assert type(db.expected) is str and type(db.actual) is str


def _db_check(score: Score) -> Any:
    (check,) = [check for check in score.checks if check.basis == "DB"]
    return check


def _naive_hash(data: Any) -> str:
    """τ²'s ``get_db_hash`` from scratch: the whole database dumped and hashed (retail has no list or user table)."""
    tables = {name: {key: table[key] for key in table} for name, table in data.items()}
    return hashlib.sha256(json.dumps(tables, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _short_episode(source_name: str) -> tuple[Domain, Tau2Task, list[ChatMessage]]:
    """A task whose gold actions without the last one end elsewhere than gold."""
    for domain, task in _tasks(source_name):
        conversation = _gold_conversation(task, actions=len(task.gold_actions) - 1)
        if len(task.gold_actions) > 1 and replay(domain, task, conversation).data_hash() != gold_hash(domain, task):
            return domain, task, conversation
    raise AssertionError("no such task")


def test_a_failing_episode_reports_the_replays_exact_hash(tau2_data: object) -> None:
    domain, task, conversation = _short_episode("retail")
    session = open_session(domain, task)
    for message in conversation:
        for call in message.tool_calls:
            call_tool(session, call.name, json.loads(call.arguments), call.requestor)
    final = _naive_hash(session.data)
    gold = gold_hash(domain, task)
    score = score_episode(domain, task, conversation, "user_stop", final, gold)
    assert score.reward == 0.0
    db = _db_check(score)
    assert (db.passed, db.expected, db.actual) == (False, gold, final)
    assert final == session.data_hash() != gold


def test_a_final_hash_the_replay_does_not_reach_is_a_mismatch(tau2_data: object, hash_calls: list[int]) -> None:
    domain, task, short = _short_episode("retail")
    gold = gold_hash(domain, task)
    full = _gold_conversation(task)
    reached_short = _env_hash(domain, task, short)
    hash_calls.clear()
    with pytest.raises(EpisodeMismatch):  # the replay is gold, the env says otherwise: found without hashing
        score_episode(domain, task, full, "user_stop", reached_short, gold)
    assert hash_calls == []
    with pytest.raises(EpisodeMismatch):  # the replay is not gold, the env says it is
        score_episode(domain, task, short, "user_stop", gold, gold)
    with pytest.raises(EpisodeMismatch):  # neither
        score_episode(domain, task, short, "user_stop", "0" * 64, gold)


def test_a_plain_gold_hash_still_scores_by_hashing(tau2_data: object, hash_calls: list[int]) -> None:
    domain, task, _ = _short_episode("retail")
    plain = str(gold_hash(domain, task))
    conversation = _gold_conversation(task)
    final = _env_hash(domain, task, conversation)
    hash_calls.clear()
    assert reached_hash(replay(domain, task, conversation), plain) == plain
    assert len(hash_calls) == 1
    assert score_episode(domain, task, conversation, "user_stop", final, plain).reward == 1.0
