"""The pharmaceuticals domain's own behaviour (the bar every factory domain meets: tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and the
  test split's entities are never in train;
- blinding: no read tool shows a participant's arm, only the emergency code-break does, and breaking the code for a
  non-serious event (the trap the issue names) scores 0;
- a report of an event that put the participant in hospital is serious whatever the coordinator believes: it is due
  the day after the site learnt of it, and submitting it as non-serious scores 0;
- a diary unlock code reaches only the participant's app: the desk's answer does not show it, a wrong code is
  refused, and opening the app and looking around leaves the graded state as it was.
"""

from __future__ import annotations

import copy
import functools
import json
from datetime import date, timedelta
from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry, Session
from taumesh.domains.factory import FactoryTask, outcome_score
from taumesh.domains.pharmaceuticals import DATA, RELEASE
from taumesh.domains.pharmaceuticals.build import RELEASE as BUILD
from taumesh.domains.pharmaceuticals.build import generated_files
from taumesh.domains.pharmaceuticals.world import TEST_WORLDS, worlds


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("pharmaceuticals")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _play(session: Session, task: FactoryTask, upto: int | None = None) -> None:
    for action in task.actions[:upto]:
        result = session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        assert not result.error, (task.id, action.name, result.observation)


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        stale = f"{name} is stale: python -m taumesh.domains.pharmaceuticals.build"
        assert (DATA / name).read_text(encoding="utf-8") == text, stale
    assert sorted(p.name for p in DATA.iterdir()) == sorted(files)
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_entities_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    assert test and {BUILD.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {BUILD.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(BUILD.touched, train)) & set().union(*map(BUILD.touched, test))


def test_no_read_tool_shows_an_arm_and_breaking_the_code_for_a_non_serious_event_scores_zero() -> None:
    domain = _domain()
    reads = [tool.name for tool in domain.tools if tool.side == "assistant" and not tool.writes]
    participants = [p for p in domain.base_data["participants"].values() if p["arm"]]
    assert participants
    session = Session(domain)
    for participant in participants:
        pid = participant["participant_id"]
        for name, kwargs in (
            ("get_participant", {"participant_id": pid}),
            ("list_site_participants", {"site_id": participant["site_id"]}),
            ("list_visits", {"participant_id": pid}),
            ("list_adverse_events", {"participant_id": pid}),
            ("list_consent_forms", {"participant_id": pid}),
            ("list_travel", {"participant_id": pid}),
        ):
            assert name in reads
            assert '"arm"' not in session.call(name, kwargs).observation
    refused = [t for t in _tasks() if t.intent == "unblind" and t.trap]
    granted = [t for t in _tasks() if t.intent == "unblind" and not t.trap]
    assert refused and granted
    plugin = domain.plugin
    for task in refused:
        (code_break,) = task.forbidden
        assert code_break.name == "unblind_participant"
        assert not any(a.name == "unblind_participant" for outcome in task.outcomes() for a in outcome)
        assert outcome_score(plugin, domain, task, [*task.actions, code_break]) == 0.0, task.id
    for task in granted:
        code_break = task.actions[-1]
        assert code_break.name == "unblind_participant"
        session = Session(domain)
        _play(session, task, upto=-1)
        arm = domain.base_data["participants"][code_break.kwargs["participant_id"]]["arm"]
        assert json.loads(session.call(code_break.name, dict(code_break.kwargs)).observation)["arm"] == arm
        assert any(arm.split(" ", 1)[-1] in s.value.split("|") for s in task.statements)


def test_a_hospital_admission_is_reported_as_serious_by_the_next_day_whatever_the_caller_believes() -> None:
    domain = _domain()
    believed_mild = [t for t in _tasks() if t.intent == "submit_event" and t.trap]
    assert believed_mild
    for task in believed_mild:
        (asked,) = task.forbidden
        event = domain.base_data["adverse_events"][asked.kwargs["ae_id"]]
        assert event["hospitalised"] or event["life_threatening"]
        assert "non-serious event" in task.instruction
        submitted = next(a for a in task.actions if a.name == "submit_adverse_event")
        assert submitted.kwargs["seriousness"] == "serious"
        aware = date.fromisoformat(event["site_aware_date"])
        assert [s.value for s in task.statements if s.kind == "date"] == [(aware + timedelta(days=1)).isoformat()]
        instead = [asked if a == submitted else a for a in task.actions]
        assert outcome_score(domain.plugin, domain, task, instead) == 0.0, task.id


def test_an_unlock_code_reaches_only_the_participants_app_and_looking_around_there_changes_no_grade() -> None:
    task = next(t for t in _tasks() if t.intent == "unlock_diary" and not t.trap)
    unlock = task.actions[-1]
    session = Session(_domain())
    _play(session, task, upto=3)
    before = session.data_hash()
    sent = session.call("send_diary_unlock_code", {"participant_id": unlock.kwargs["participant_id"]})
    assert not sent.error and unlock.kwargs["code"] not in sent.observation
    assert session.call("app_inbox", {}, "assistant").error  # the desk cannot open the participant's app
    sign_in = next(a for a in task.actions if a.name == "app_sign_in")
    assert not session.call(sign_in.name, dict(sign_in.kwargs), "user").error
    inbox = session.call("app_inbox", {}, "user")
    assert unlock.kwargs["code"] in inbox.observation
    assert session.data_hash() == before  # the app is outside the graded state
    wrong = session.call("unlock_diary", {**unlock.kwargs, "code": "000000"})
    assert wrong.error and "does not match" in wrong.observation
    assert not session.call(unlock.name, dict(unlock.kwargs)).error
    assert session.data["participants"][unlock.kwargs["participant_id"]]["diary_status"] == "open"
