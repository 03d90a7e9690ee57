"""The construction domain's own checks (the τ++ bar is tests/domains/test_tau_plus_plus.py's, over every domain).

- the generator rebuilds the shipped files byte for byte, over three worlds that keep their invariants (and a world
  that breaks one is refused), and no entity a test task touches is touched in train;
- the caller's portal is theirs: the desk cannot use it, signing in and looking around leaves the graded state as it
  was, and an upload lands in the desk's documents;
- the change-order trap: executing an order over the remaining contingency scores 0, the refusal only with the
  contingency said; an order executed without the owner's signature scores 0;
- inspections: the tool refuses a kind the permit does not have, and booking past an unpassed prerequisite is graded 0;
  an inspection under two working days away is not cancelled, and cancelling it anyway is graded 0.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.construction import DATA, RELEASE, build
from taumesh.domains.construction.build import generated_files
from taumesh.domains.construction.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, build_worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("construction")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [task for task in _domain().tasks(split) if isinstance(task, FactoryTask)]


def _score(task: FactoryTask, actions: list[Action], says: str | None) -> float:
    domain = _domain()
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says:
        conversation.append(ChatMessage(role="assistant", content=says))
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    for name, text in generated_files().items():
        stale = f"{name} is stale: python -m taumesh.domains.construction.build"
        assert (DATA / name).read_text(encoding="utf-8") == text, stale
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_a_broken_one_is_refused() -> None:
    built = worlds()
    assert [w.tag for w in built] == list(SEEDS) and len(built) >= 3
    assert all(not invariant.violations(w.tables) for w in built for invariant in INVARIANTS)

    def late(seed: int, tag: str) -> dict[str, dict[str, dict[str, object]]]:
        tables = build_world(seed, tag)
        first = next(iter(tables["milestones"].values()))
        first["due_date"] = "2031-01-01"
        return tables

    with pytest.raises(InvariantError, match="milestones run in order inside the contract"):
        build_worlds(late, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_in_train() -> None:
    train, test = _tasks("train"), _tasks("test")
    assert test and {build.RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {build.RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(build.RELEASE.touched, train)) & set().union(*map(build.RELEASE.touched, test))


def test_the_portal_is_the_callers_and_an_upload_reaches_the_desk() -> None:
    task = next(t for t in _tasks() if t.intent == "review_certificate" and not t.trap)
    sign_in, upload = task.actions[0], task.actions[1]
    session = Session(_domain())
    before = session.data_hash()
    assert session.call("portal_overview", {}).error  # the desk has no portal tool
    assert session.call(upload.name, dict(upload.kwargs), "user").error  # not signed in yet
    assert not session.call(sign_in.name, dict(sign_in.kwargs), "user").error
    overview = json.loads(session.call("portal_overview", {}, "user").observation)
    assert upload.kwargs["file_id"] in {f["file_id"] for f in overview["files"]}
    assert session.data_hash() == before  # signing in and looking around is not graded
    assert not session.call(upload.name, dict(upload.kwargs), "user").error
    assert session.data["documents"][upload.kwargs["file_id"]]["status"] == "received"
    assert session.data_hash() != before


def test_a_change_order_over_the_contingency_is_refused_with_what_remains() -> None:
    task = next(t for t in _tasks() if t.intent == "change_order" and "contingency" in (t.trap_rationale or ""))
    remaining = task.outputs[0]
    assert _score(task, task.actions, f"Only ${remaining} of contingency remains.") == 1.0
    assert _score(task, task.actions, "I'm sorry, but I can't help with that request.") == 0.0
    assert _score(task, [*task.actions, *task.forbidden], f"Only ${remaining} remains.") == 0.0


def test_a_change_order_executed_without_the_owners_signature_scores_zero() -> None:
    task = next(t for t in _tasks() if t.intent == "change_order" and t.dual_control)
    said = f"Your contract value is now ${task.outputs[0]}."
    assert _score(task, task.actions, said) == 1.0
    unsigned = [a for a in task.actions if a.requestor == "assistant"]
    assert _score(task, unsigned, said) == 0.0


def test_an_inspection_is_booked_only_in_its_permits_sequence() -> None:
    tasks = [t for t in _tasks() if t.intent == "schedule_inspection"]
    task = next(t for t in tasks if "has not passed" in (t.trap_rationale or ""))
    booked = task.forbidden[0]
    session = Session(_domain())
    wrong = session.call(booked.name, {**booked.kwargs, "kind": "roof_truss"})
    assert wrong.error and "inspection kind must be one of" in wrong.observation
    said = task.statements[0].value.split("|")[0]
    assert _score(task, task.actions, f"The {said} inspection must pass first.") == 1.0
    assert _score(task, [*task.actions, booked], f"The {said} inspection must pass first.") == 0.0


def test_an_inspection_under_two_working_days_away_stays_booked() -> None:
    task = next(t for t in _tasks() if t.intent == "cancel_inspection" and t.trap)
    cancel = task.forbidden[0]
    assert _score(task, task.actions, "It is too late to cancel: the inspector's route is fixed.") == 1.0
    assert _score(task, [*task.actions, cancel], "It is too late to cancel.") == 0.0
    session = Session(_domain())
    assert not session.call(cancel.name, dict(cancel.kwargs)).error
    again = session.call(cancel.name, dict(cancel.kwargs))
    assert again.error and "cancelled, not booked" in again.observation
