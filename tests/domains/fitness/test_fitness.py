"""The fitness domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the generator rebuilds the shipped files byte for byte, over three worlds whose invariants hold (and a world that
  breaks one is refused), with test members and entities never in train;
- the issue's trap: a routine the policy forbids for a declared condition scores 0 when added, and a safe routine
  of the same focus scores 1.0 only with the condition named;
- a clearance on file lifts its condition's rule; a goal set too high and then corrected is not an allowed outcome;
- the club's tools enforce what the data forbids: a late cancellation is charged and a waiver needs a late fee, and
  a watch workout reaches the club only through the share code the member reads from their own watch.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output, verify_task
from taumesh.domains.fitness import DATA, plugin
from taumesh.domains.fitness.build import RELEASE, generated_files
from taumesh.domains.fitness.safety import blocking_conditions, spoken_reason
from taumesh.domains.fitness.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("fitness")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _score(task: FactoryTask, actions: Sequence[Action], says: str | None) -> float:
    domain = _domain()
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says is not None:
        conversation.append(ChatMessage(role="assistant", content=says))
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def _reasons(task: FactoryTask) -> str:
    return " ".join(canonical_output(s) for s in task.statements)


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: python -m taumesh.domains.fitness.build"
        )
    assert sorted(p.name for p in DATA.iterdir()) == sorted(files)


def test_three_worlds_keep_their_invariants_and_a_broken_world_is_refused() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    assert sum(len(records) for w in built for records in w.tables.values()) >= 300

    def cleared_without_condition(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        member = next(m for m in world["members"].values() if not m["conditions"])
        member["cleared_conditions"] = ["asthma"]
        return world

    with pytest.raises(InvariantError, match="clearance for a condition it does not declare"):
        build_worlds(cleared_without_condition, SEEDS, INVARIANTS)


def test_test_members_and_entities_are_never_in_train() -> None:
    train, test = _tasks("train"), _tasks("test")
    assert train and test and {RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {t.user_id for t in train} & {t.user_id for t in test}
    assert not set().union(*map(RELEASE.touched, train)) & set().union(*map(RELEASE.touched, test))


def test_a_routine_forbidden_for_a_declared_condition_is_refused_with_the_condition_named() -> None:
    data = _domain().base_data
    traps = [t for t in _tasks() if t.intent == "request_routine" and t.trap]
    assert len(traps) >= 3
    for task in traps:
        asked = task.forbidden[0]
        blocking = blocking_conditions(data["members"][task.user_id], data["routines"][asked.kwargs["routine_id"]])
        assert asked.name == "assign_routine" and blocking, task.id
        assert task.statements[0].kind == "text" and task.statements[0].value == spoken_reason(blocking)
        for outcome in task.outcomes():  # a safe routine of the same focus, with the condition named
            assert _score(task, outcome, _reasons(task)) == 1.0, task.id
            assert _score(task, outcome, "I've added a gentler routine for you.") == 0.0, task.id
        assert _score(task, [*task.actions, asked], _reasons(task)) == 0.0, task.id


def test_a_clearance_on_file_lifts_its_conditions_rule() -> None:
    members = worlds()[0].tables["members"]
    cleared = next(m for m in members.values() if m["cleared_conditions"])
    condition = cleared["cleared_conditions"][0]
    heated_high = {"intensity": "high", "impact": "high", "spinal_load": "high", "heated": True}
    assert condition not in blocking_conditions(cleared, heated_high)
    assert condition in blocking_conditions({**cleared, "cleared_conditions": []}, heated_high)


def test_a_late_cancellation_is_charged_and_a_waiver_needs_a_late_fee() -> None:
    session = Session(_domain())
    classes = session.data["classes"]
    bookings = sorted(session.data["bookings"].values(), key=lambda b: b["booking_id"])
    late = next(b for b in bookings if classes[b["class_id"]]["start"] < "2025-06-02T21:00")
    early = next(b for b in bookings if classes[b["class_id"]]["start"] > "2025-06-03")
    refused = session.call("cancel_class_booking", {"booking_id": early["booking_id"], "waive_late_fee": True})
    assert refused.error and "nothing to waive" in refused.observation
    kept = session.call("cancel_class_booking", {"booking_id": late["booking_id"], "waive_late_fee": False})
    assert not kept.error
    charges = [c for c in session.data["charges"].values() if c["member_id"] == late["member_id"]]
    assert [(c["kind"], c["amount"], c["status"]) for c in charges] == [("late_cancel", 12.0, "open")]


def test_a_watch_workout_reaches_the_club_only_through_the_code_the_member_reads() -> None:
    task = next(t for t in _tasks("test") if t.intent == "log_workout" and not t.trap)
    session = Session(_domain())
    watch = session.data["wearables"][task.user_id]
    assert session.call("list_watch_workouts", {"account_email": watch["account_email"]}).error  # not the agent's
    shown = session.call("list_watch_workouts", {"account_email": watch["account_email"]}, "user")
    code = next(a.kwargs["share_code"] for a in task.actions if a.name == "import_workout")
    assert code in shown.observation
    assert session.call("import_workout", {"member_id": task.user_id, "share_code": "WK-000000"}).error
    assert not session.call("import_workout", {"member_id": task.user_id, "share_code": code}).error
    assert session.call("import_workout", {"member_id": task.user_id, "share_code": code}).error  # only once


def test_a_goal_set_too_high_and_then_corrected_is_not_an_allowed_outcome() -> None:
    traps = [t for t in _tasks() if t.intent == "weekly_goal" and t.trap]
    assert traps
    for task in traps:  # the goal history keeps the forbidden goal, though the cap replaced it
        assert verify_task(_domain(), task, plugin.identity_tools or frozenset()) == [], task.id
        corrected = [*task.actions[:2], *task.forbidden, *task.actions[2:]]
        assert _score(task, corrected, _reasons(task)) == 0.0, task.id
