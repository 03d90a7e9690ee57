"""The manufacturing domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (a line with a third
  rush order);
- the test split's callers, lots, holds, NCRs, orders, machines and runs are never touched by a train task;
- rules the tools hold themselves: a hold is released only with the scan reference of the lot's own label, which
  the operator's handheld shows, and the handheld stays outside the state hash;
- each quantity change is counted, which is what makes the quantity-band trap fair: entering the buyer's figure
  and then the allowed one is not the allowed state;
- the rush trap: on a line whose two rush slots are taken, rushing the order anyway scores 0, and the gold with
  its reason scores 1.0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.manufacturing import DATA
from taumesh.domains.manufacturing.build import RELEASE, generated_files
from taumesh.domains.manufacturing.clock import scan_reference
from taumesh.domains.manufacturing.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("manufacturing")


def _tasks(domain: Domain, intent: str) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask) and t.intent == intent]


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.manufacturing.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["work_orders"]) >= 40 and len(w.tables["lots"]) >= 60 for w in built)

    def crowded(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        line_id = sorted(world["lines"])[0]
        for order in world["work_orders"].values():
            if order["line_id"] == line_id and order["status"] != "completed":
                order["priority"] = "rush"
        return world

    with pytest.raises(InvariantError, match="rush"):
        build_worlds(crowded, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}


def test_a_hold_is_released_only_with_its_own_labels_scan_from_the_handheld(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "release_hold") if not t.trap)
    release = next(a for a in task.actions if a.name == "release_quality_hold")
    hold = domain.base_data["quality_holds"][release.kwargs["hold_id"]]
    other_lot = next(key for key in domain.base_data["lots"] if key != hold["lot_id"])
    session = Session(domain)
    before = session.data_hash()
    handheld = domain.base_data["handhelds"][task.user_id]
    session.call("sign_in_to_handheld", {"badge_number": handheld["badge_number"], "pin": handheld["pin"]}, "user")
    scanned = session.call("scan_lot_label", {"lot_id": hold["lot_id"]}, "user")
    assert scan_reference(hold["lot_id"]) in scanned.observation
    assert session.data_hash() == before, "the handheld is the operator's, outside the graded state"
    wrong = session.call(
        "release_quality_hold", {"hold_id": hold["hold_id"], "scan_reference": scan_reference(other_lot)}
    )
    assert wrong.error and session.data_hash() == before
    right = session.call(
        "release_quality_hold", {"hold_id": hold["hold_id"], "scan_reference": scan_reference(hold["lot_id"])}
    )
    assert not right.error and json.loads(right.observation)["lot_status"] == "in_stock"


def test_each_quantity_change_is_counted_so_a_corrected_change_is_not_the_allowed_state(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "change_quantity") if t.trap and "5.3" in t.clauses)
    allowed = next(a for a in task.actions if a.name == "change_order_quantity")
    asked = task.forbidden[0]
    assert asked.kwargs["new_quantity"] != allowed.kwargs["new_quantity"]
    identity = [a for a in task.actions if a.name in ("find_contact", "verify_contact")]
    says = " ".join(canonical_output(s) for s in task.statements)
    assert _score(domain, task, list(task.actions), says) == 1.0
    assert _score(domain, task, [*identity, asked, *task.actions[len(identity) :]], says) == 0.0
    session = Session(domain)
    for action in [asked, allowed]:
        session.call(action.name, copy.deepcopy(action.kwargs))
    order = json.loads(session.call("get_work_order", {"work_order_id": allowed.kwargs["work_order_id"]}).observation)
    assert (order["quantity"], order["revisions"]) == (allowed.kwargs["new_quantity"], 2)


def test_a_line_with_both_rush_slots_taken_gets_no_third_and_rushing_anyway_scores_zero(domain: Domain) -> None:
    traps = [t for t in _tasks(domain, "expedite_order") if t.trap]
    assert traps
    for task in traps:
        order_id = task.forbidden[0].kwargs["work_order_id"]
        line_id = domain.base_data["work_orders"][order_id]["line_id"]
        listed = json.loads(Session(domain).call("list_line_orders", {"line_id": line_id}).observation)
        assert sum(o["priority"] == "rush" for o in listed) == 2
        says = " ".join(canonical_output(s) for s in task.statements)
        assert _score(domain, task, list(task.actions), says) == 1.0
        assert _score(domain, task, [*task.actions, task.forbidden[0]], says) == 0.0
        assert _score(domain, task, list(task.actions), "I'm sorry, I cannot do that.") == 0.0
