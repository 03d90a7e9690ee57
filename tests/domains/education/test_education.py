"""The education domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (a student carrying more
  credits than their standing allows);
- the test split's people and records are never touched by a train task;
- a tutoring slot is booked only with the code the student's own portal shows for it, and the portal stays outside
  the graded state, so the same booking reached another way (the student looking around first, more reads) scores
  1.0 while booking for a student who already holds two scores 0;
- the extension cap: granting the days asked beyond seven scores 0, granting seven and naming the new date 1.0;
- leaving a course computes its own money: a refund up to the drop date, a fee after it, and leaving after the
  withdrawal date (the trap) scores 0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.education import DATA
from taumesh.domains.education.build import RELEASE, generated_files
from taumesh.domains.education.clock import TODAY, confirmation_code
from taumesh.domains.education.world import INVARIANTS, SEEDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.models import ChatMessage, Termination


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("education")


def _tasks(domain: Domain, intent: str) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask) and t.intent == intent]


def _says(task: FactoryTask) -> str:
    return " ".join([*task.outputs, *(canonical_output(s) for s in task.statements if s.kind == "text")])


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    ending: Termination = (
        "terminate_tool" if actions and actions[-1].name == "transfer_to_human_agents" else "user_stop"
    )
    episode = Episode(domain, task, conversation, ending, session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def _act(name: str, requestor: str = "assistant", **kwargs: object) -> Action:
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.education.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(sum(len(table) for table in w.tables.values()) >= 300 for w in built)

    def overloaded(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        world["people"][f"stu-{tag}-01"]["credit_limit"] = 1
        return world

    with pytest.raises(InvariantError, match="credits"):
        build_worlds(overloaded, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if not RELEASE.is_test(t)))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.is_test(t)))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.is_test(t)}


def test_tutoring_is_booked_with_the_portals_code_however_the_student_gets_there(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "book_tutoring") if not t.trap)
    book = task.actions[-1]
    slot_id, student_id = book.kwargs["slot_id"], book.kwargs["student_id"]
    session = Session(domain)
    before = session.data_hash()
    portal = domain.base_data["portals"][student_id]
    signed = {"university_number": portal["university_number"], "portal_pin": portal["portal_pin"]}
    session.call("portal_sign_in", signed, "user")
    shown = session.call("accept_tutoring_offer", {"slot_id": slot_id}, "user")
    assert confirmation_code(slot_id, student_id) in shown.observation
    assert session.data_hash() == before, "the portal is the student's, outside the graded state"
    slots = domain.base_data["tutoring_slots"]
    other = next(key for key, slot in slots.items() if key != slot_id and slot["status"] == "open")
    wrong = session.call("book_tutoring", {**book.kwargs, "confirmation_code": confirmation_code(other, student_id)})
    assert wrong.error and session.data_hash() == before

    looked_around = [
        _act("portal_sign_in", "user", **signed),
        _act("accept_tutoring_offer", "user", slot_id=other),
        *(a for a in task.actions if a.requestor == "assistant"),
        _act("list_tutoring_bookings", student_id=student_id),
    ]
    booked = [*looked_around[:-2], _act("accept_tutoring_offer", "user", slot_id=slot_id), book]
    assert _score(domain, task, list(task.actions), _says(task)) == 1.0
    assert _score(domain, task, booked, _says(task)) == 1.0
    limit = next(t for t in _tasks(domain, "book_tutoring") if t.trap and (t.trap_rationale or "").startswith("8.2"))
    assert _score(domain, limit, [*limit.actions, *limit.forbidden], _says(limit)) == 0.0
    assert _score(domain, limit, list(limit.actions), _says(limit)) == 1.0


def test_an_extension_beyond_seven_days_is_capped_at_seven(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "request_extension") if t.trap and (t.trap_rationale or "").startswith("5.3"))
    granted, asked = task.actions[-1], task.forbidden[0]
    assert granted.kwargs["days"] == 7 < asked.kwargs["days"]
    due = domain.base_data["assignments"][granted.kwargs["assignment_id"]]["due"]
    assert due >= TODAY.isoformat()
    assert _score(domain, task, list(task.actions), _says(task)) == 1.0
    assert _score(domain, task, [*task.actions[:-1], asked], _says(task)) == 0.0
    assert _score(domain, task, list(task.actions), "I have granted the extension.") == 0.0


def test_leaving_a_course_refunds_or_charges_by_its_dates_and_not_after_withdrawal_closes(domain: Domain) -> None:
    session = Session(domain)
    base = domain.base_data
    today = TODAY.isoformat()
    for enrolment in sorted(base["enrolments"].values(), key=lambda e: e["enrolment_id"]):
        course = base["courses"][enrolment["course_id"]]
        if enrolment["status"] != "enrolled" or course["withdraw_by"] < today:
            continue
        left = json.loads(session.call("drop_course", {"enrolment_id": enrolment["enrolment_id"]}).observation)
        if course["drop_by"] >= today:
            assert left["status"] == "dropped" and left["refund"] == enrolment["tuition_charged"]
        else:
            assert left["status"] == "withdrawn" and left["withdrawal_fee"] == 45.0 * course["credits"]
    trap = next(t for t in _tasks(domain, "leave_course") if t.trap)
    assert _score(domain, trap, list(trap.actions), _says(trap)) == 1.0
    assert _score(domain, trap, [*trap.actions, *trap.forbidden], _says(trap)) == 0.0
