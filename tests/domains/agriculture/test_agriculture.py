"""The agriculture domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world;
- the test split's growers, fields, jobs and records are never touched by a train task;
- what the grower's app does: today's probe reading reaches the desk only when the grower syncs it (and lands in the
  graded state, while signing in does not), and a spray is logged only with the reference the app gives;
- the cancellation fee the tool charges is the policy's late-notice rate over the field's hectares;
- the over-label trap: logging a spray applied above its label scores 0, handing it to compliance 1.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.agriculture import DATA, plugin
from taumesh.domains.agriculture.build import RELEASE, generated_files
from taumesh.domains.agriculture.clock import TODAY, days_after, reentry_from
from taumesh.domains.agriculture.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.models import ChatMessage, Termination


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("agriculture")


def _table(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return found


def _tasks(domain: Domain) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    stopped: Termination = "terminate_tool" if actions[-1].name in plugin.terminate_tools else "user_stop"
    episode = Episode(domain, task, conversation, stopped, session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def _signed_in(session: Session, grower_id: str) -> None:
    app = _table("field_apps")[grower_id]
    session.call("sign_in_to_field_app", {"username": app["username"], "pin": app["pin"]}, "user")


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.agriculture.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["fields"]) >= 60 for w in built)

    def broken(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        record = next(iter(world["yield_records"].values()))
        record["harvested_tonnes"] += 10  # tonnes changed, the yield per hectare left as it was
        return world

    with pytest.raises(InvariantError, match="yield per hectare"):
        build_worlds(broken, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_by_train(domain: Domain) -> None:
    tasks = _tasks(domain)
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert train and test and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}


def test_todays_probe_reading_reaches_the_desk_only_when_the_grower_syncs_it(domain: Domain) -> None:
    sensor = next(iter(_table("sensors").values()))
    grower_id = _table("fields")[sensor["field_id"]]["grower_id"]
    session = Session(domain)

    def newest() -> str:
        seen = json.loads(session.call("get_probe_readings", {"sensor_id": sensor["sensor_id"]}).observation)
        return str(seen["readings"][-1]["taken_at"])

    assert newest() < TODAY.isoformat()
    before = session.data_hash()
    assert session.call("sync_soil_probes", {}, "user").error  # signed out: the app refuses
    _signed_in(session, grower_id)
    assert session.data_hash() == before  # the app is the grower's: outside the graded state
    session.call("sync_soil_probes", {}, "user")
    synced = session.data_hash()
    assert newest().startswith(TODAY.isoformat()) and synced != before
    assert "already synced" in session.call("sync_soil_probes", {}, "user").observation
    assert session.data_hash() == synced


def test_a_spray_is_logged_only_with_the_reference_the_grower_confirms_in_the_app(domain: Domain) -> None:
    job = next(j for j in _table("spray_jobs").values() if j["status"] == "awaiting_log")
    field = _table("fields")[job["field_id"]]
    log = _table("field_apps")[field["grower_id"]]["spray_logs"][job["job_id"]]
    session = Session(domain)
    arguments = {"job_id": job["job_id"], **log}  # the rate and finish time the log shows
    guessed = session.call("record_spray_completion", {**arguments, "log_reference": "SL-0000"})
    assert guessed.error and "reference" in guessed.observation
    _signed_in(session, field["grower_id"])
    confirmed = session.call("confirm_spray_log", {"job_id": job["job_id"]}, "user").observation
    reference = confirmed.rsplit(" ", 1)[-1].rstrip(".")
    logged = json.loads(session.call("record_spray_completion", {**arguments, "log_reference": reference}).observation)
    rei = _table("products")[job["product_id"]]["rei_hours"]
    assert logged["job"]["status"] == "completed"
    assert logged["field_reentry_from"] == max(reentry_from(log["finished_at"], rei), field["reentry_from"])


@pytest.mark.parametrize(("ahead", "charged"), [(1, True), (2, True), (3, False), (5, False)])
def test_a_cancellation_charges_the_late_notice_fee_within_two_days(domain: Domain, ahead: int, charged: bool) -> None:
    fields = _table("fields")
    session = Session(domain)
    booked = json.loads(
        session.call(
            "schedule_spray",
            {"field_id": "fld-w1-001", "product_id": "glyphosate-450", "date": days_after(TODAY, ahead)},
        ).observation
    )
    cancelled = json.loads(session.call("cancel_spray_job", {"job_id": booked["job_id"]}).observation)
    assert cancelled["cancellation_fee"] == (round(fields["fld-w1-001"]["area_ha"] * 3.5, 2) if charged else 0.0)


def test_logging_a_spray_applied_over_its_label_scores_zero_and_compliance_one(domain: Domain) -> None:
    traps = [t for t in _tasks(domain) if t.intent == "spray_log" and t.trap]
    assert {RELEASE.world_of(t) for t in traps} == set(SEEDS)  # in train and in test
    for task in traps:
        (record,) = task.forbidden
        product = _table("products")[_table("spray_jobs")[record.kwargs["job_id"]]["product_id"]]
        assert record.kwargs["applied_rate_l_ha"] > product["label_rate_l_ha"]
        assert task.actions[-1].name == "transfer_to_human_agents"
        assert task.actions[-1].kwargs["team"] == "compliance"
        says = " ".join(canonical_output(s) for s in task.statements)
        assert _score(domain, task, task.actions, says) == 1.0
        logged_anyway = [*task.actions[:-1], record]
        assert _score(domain, task, logged_anyway, says) == 0.0
