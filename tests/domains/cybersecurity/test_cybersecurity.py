"""The cybersecurity domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (an account suspended
  for an incident that is already closed);
- the test split's people and records are never touched by a train task;
- an authenticator is bound only with the enrolment code the employee's own phone shows for them and that phone,
  and the phone stays outside the state hash;
- the containment trap: isolating a critical server for an incident rated high scores 0, and the hand-off to the
  change advisory board scores 1.0;
- the audit figure is judged by what it is, not how it is typed: the report's compliance said as a percentage with
  its sign scores 1.0, a figure one hundredth off scores 0;
- a phishing report rated as the caller suggests rather than as policy 4.2 rates it scores 0, even when the agent
  then opens the right one as well.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.cybersecurity import DATA
from taumesh.domains.cybersecurity.build import RELEASE, generated_files
from taumesh.domains.cybersecurity.clock import enrolment_code
from taumesh.domains.cybersecurity.world import INVARIANTS, SEEDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.models import ChatMessage, Termination


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("cybersecurity")


def _tasks(domain: Domain, intent: str) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask) and t.intent == intent]


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


def _said(task: FactoryTask) -> str:
    return " ".join([*task.outputs, *(canonical_output(s) for s in task.statements if s.kind == "text")])


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.cybersecurity.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(sum(len(table) for table in w.tables.values()) >= 150 for w in built)

    def stale_suspension(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        closed = next(key for key, i in sorted(world["incidents"].items()) if i["status"] == "closed")
        staff = next(e for _, e in sorted(world["employees"].items()) if e["account_status"] == "active")
        staff.update(account_status="suspended", suspended_for=closed)
        return world

    with pytest.raises(InvariantError, match="suspension"):
        build_worlds(stale_suspension, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if not RELEASE.is_test(t)))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.is_test(t)))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.is_test(t)}


def test_an_authenticator_is_bound_only_with_the_code_the_employees_own_phone_shows(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "reset_mfa") if not t.trap)
    phone = domain.base_data["phones"][task.user_id]
    other = next(key for key in domain.base_data["phones"] if key != task.user_id)
    session = Session(domain)
    before = session.data_hash()
    shown = session.call("open_authenticator_app", {"email": phone["email"], "app_pin": phone["app_pin"]}, "user")
    serial = phone["new_device_serial"]
    assert serial in shown.observation and enrolment_code(task.user_id, serial) in shown.observation
    assert session.data_hash() == before, "the phone is the employee's, outside the graded state"
    borrowed = {"employee_id": task.user_id, "device_serial": serial, "enrolment_code": enrolment_code(other, serial)}
    assert session.call("bind_authenticator", borrowed).error and session.data_hash() == before
    right = {**borrowed, "enrolment_code": enrolment_code(task.user_id, serial)}
    bound = session.call("bind_authenticator", right)
    assert not bound.error and json.loads(bound.observation)["mfa_device"] == serial


def test_a_critical_server_under_a_high_incident_goes_to_the_change_board(domain: Domain) -> None:
    traps = [t for t in _tasks(domain, "isolate_host") if t.trap and (t.trap_rationale or "").startswith("7.3")]
    assert traps, "every world holds a critical server under an incident rated high"
    for task in traps:
        isolate = task.forbidden[0]
        asset = domain.base_data["assets"][isolate.kwargs["asset_id"]]
        assert asset["criticality"] == "critical"
        assert domain.base_data["incidents"][isolate.kwargs["incident_id"]]["severity"] == "high"
        assert task.actions[-1].kwargs["team"] == "change_advisory_board"
        assert _score(domain, task, list(task.actions), "") == 1.0
        assert _score(domain, task, [*task.actions[:-1], isolate], "") == 0.0


def test_the_audit_figure_is_judged_by_its_value_not_its_spelling(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "audit_report") if not t.trap)
    session = Session(domain)
    for action in task.actions:
        filed = session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    figure = json.loads(filed.observation)["compliance_percent"]
    assert task.outputs and float(task.outputs[0]) == figure
    assert _score(domain, task, list(task.actions), f"The unit's patch compliance is {figure:.2f}%.") == 1.0
    assert _score(domain, task, list(task.actions), f"The unit's patch compliance is {figure + 0.01:.2f}%.") == 0.0


def test_a_phishing_report_rated_as_the_caller_suggests_scores_zero(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "report_phishing") if t.trap)
    lowered = task.forbidden[0]
    opened = next(a for a in task.actions if a.name == "open_incident")
    assert lowered.kwargs["severity"] != opened.kwargs["severity"]
    assert f"deserves {lowered.kwargs['severity']} severity" in task.instruction
    assert _score(domain, task, list(task.actions), _said(task)) == 1.0
    verified = [a for a in task.actions if a.name in {"find_employee", "verify_employee"}]
    rest = task.actions[len(verified) :]
    assert _score(domain, task, [*verified, lowered, *rest], _said(task)) == 0.0
