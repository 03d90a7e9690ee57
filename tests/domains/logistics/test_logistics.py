"""The logistics domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world;
- the test split's callers, shipments and stock are never touched by a train task;
- a safe place is recorded only with the reference the consignee's own tracking app gives, and the app stays
  outside the state hash;
- a damage claim pays the declared value capped by the carrier's liability per kilogram, and a claim past the
  fourteen-day deadline filed anyway scores 0;
- a window's history keeps a refused weekend move, so moving to the Saturday and then the Monday scores 0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.logistics import DATA, plugin
from taumesh.domains.logistics.build import RELEASE, generated_files
from taumesh.domains.logistics.clock import day
from taumesh.domains.logistics.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("logistics")


def _tasks(domain: Domain) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]


def _table(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return found


def _score(domain: Domain, task: FactoryTask, actions: list[Action]) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    says = " ".join(canonical_output(s) for s in task.statements)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.logistics.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["shipments"]) >= 100 for w in built)

    def broken(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        shipment = next(iter(world["shipments"].values()))
        shipment["weight_kg"] = 500.0  # heavier than any depot stores
        return world

    with pytest.raises(InvariantError, match="heavier than its destination depot"):
        build_worlds(broken, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_by_train(domain: Domain) -> None:
    tasks = _tasks(domain)
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert train and test and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}
    assert {t.id for t in domain.tasks("train")} == {t.id for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS}


def test_a_safe_place_needs_the_reference_of_the_consignees_own_app(domain: Domain) -> None:
    shipment = next(s for s in _table("shipments").values() if s["status"] == "in_transit")
    app = _table("tracking_apps")[shipment["consignee_id"]]
    session = Session(domain)
    wanted = {"shipment_id": shipment["shipment_id"], "place": "garage"}
    guessed = session.call("set_safe_place", {**wanted, "authorisation": "SP-000000"})
    assert guessed.error and "reference" in guessed.observation
    assert session.call("choose_safe_place", wanted, "user").error  # signed out: the app refuses
    before = session.data_hash()
    session.call("sign_in_to_tracking_app", {"username": app["username"], "pin": app["pin"]}, "user")
    chosen = session.call("choose_safe_place", wanted, "user")
    assert session.data_hash() == before  # the app is the client's: outside the desk's state
    reference = chosen.observation.rsplit(" ", 1)[-1].rstrip(".")
    recorded = session.call("set_safe_place", {**wanted, "authorisation": reference})
    assert json.loads(recorded.observation)["safe_place"] == "garage"
    assert session.data_hash() != before


def test_a_claim_pays_the_declared_value_capped_by_the_carriers_liability(domain: Domain) -> None:
    claims = [t for t in _tasks(domain) if t.intent == "damage_claim" and not t.trap]
    assert claims
    carriers = _table("carriers")
    for task in claims:
        filed = next(a for a in task.actions if a.name == "file_damage_claim").kwargs
        shipment = json.loads(Session(domain).call("get_shipment", {"shipment_id": filed["shipment_id"]}).observation)
        cap = carriers[shipment["carrier_id"]]["liability_per_kg"] * shipment["weight_kg"]
        assert filed["amount"] == round(min(shipment["declared_value"], cap), 2) <= 1000


def test_a_claim_past_the_fourteen_day_deadline_filed_anyway_scores_zero(domain: Domain) -> None:
    late = [t for t in _tasks(domain) if t.intent == "damage_claim" and t.trap and t.outputs]
    assert late, "a world shows the deadline trap"
    for task in late:
        shipment_id = task.forbidden[0].kwargs["shipment_id"]
        shipment = json.loads(Session(domain).call("get_shipment", {"shipment_id": shipment_id}).observation)
        assert (day(task.outputs[0]) - day(shipment["delivery"]["date"])).days == 14
        assert _score(domain, task, task.actions) == 1.0
        app = [a for a in task.actions if a.requestor == "user"]
        filed = [*task.actions, *app[:1], task.forbidden[0]]
        assert _score(domain, task, filed) == 0.0


def test_a_refused_weekend_move_stays_in_the_windows_history(domain: Domain) -> None:
    weekend = [t for t in _tasks(domain) if t.intent == "change_delivery_window" and t.trap and "4.2" in t.clauses]
    assert weekend, "a world shows the weekend trap"
    for task in weekend:
        asked = task.forbidden[0]
        assert day(asked.kwargs["delivery_date"]).weekday() >= 5
        moved = next(a for a in task.actions if a.name == "change_delivery_window")
        assert day(moved.kwargs["delivery_date"]).weekday() == 0
        assert _score(domain, task, task.actions) == 1.0
        both = [a for a in task.actions if a is not moved] + [asked, moved]
        assert _score(domain, task, both) == 0.0
