"""The space domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world (a spacecraft burning
  into its disposal reserve);
- the test split's callers, spacecraft, passes and records are never touched by a train task;
- the two-person rule the tools hold themselves: a burn is approved only with the code the operator's console shows
  for that manoeuvre, and the console stays outside the state hash;
- the reserve trap: approving a burn that would eat into the reserve scores 0, and the hand-off to flight dynamics
  scores 1.0;
- a released booking keeps the charge its date calls for, so releasing a pass dated today (the same-day trap)
  leaves a trace the gold does not.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.space import DATA
from taumesh.domains.space.build import RELEASE, generated_files
from taumesh.domains.space.clock import approval_code
from taumesh.domains.space.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage, Termination


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("space")


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


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.space.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(sum(len(table) for table in w.tables.values()) >= 300 for w in built)

    def drained(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        craft = world["spacecraft"][f"sc-{tag}-1"]
        craft["propellant_kg"] = craft["reserve_kg"] - 1
        return world

    with pytest.raises(InvariantError, match="reserve"):
        build_worlds(drained, SEEDS, INVARIANTS)


def test_no_train_task_touches_an_entity_of_the_test_world(domain: Domain) -> None:
    tasks = [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert test and train and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}


def test_a_burn_is_approved_only_with_its_own_code_from_the_operators_console(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "approve_maneuver") if not t.trap)
    approve = next(a for a in task.actions if a.name == "approve_maneuver")
    maneuver_id = approve.kwargs["maneuver_id"]
    other = next(key for key in domain.base_data["maneuvers"] if key != maneuver_id)
    session = Session(domain)
    before = session.data_hash()
    console = domain.base_data["consoles"][task.user_id]
    signed = {"operator_number": console["operator_number"], "console_pin": console["console_pin"]}
    session.call("console_sign_in", signed, "user")
    shown = session.call("show_approval_code", {"subject_id": maneuver_id}, "user")
    assert approval_code(maneuver_id) in shown.observation
    assert session.data_hash() == before, "the console is the operator's, outside the graded state"
    wrong = session.call("approve_maneuver", {"maneuver_id": maneuver_id, "approval_code": approval_code(other)})
    assert wrong.error and session.data_hash() == before
    right = session.call("approve_maneuver", {"maneuver_id": maneuver_id, "approval_code": approval_code(maneuver_id)})
    assert not right.error and json.loads(right.observation)["status"] == "approved"


def test_a_burn_into_the_reserve_is_handed_to_flight_dynamics_and_approving_it_scores_zero(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "approve_maneuver") if t.trap and "7.2" in (t.trap_rationale or ""))
    maneuver = domain.base_data["maneuvers"][task.forbidden[0].kwargs["maneuver_id"]]
    craft = domain.base_data["spacecraft"][maneuver["spacecraft_id"]]
    assert craft["propellant_kg"] - maneuver["propellant_kg"] < craft["reserve_kg"]
    assert task.actions[-1].name == "transfer_to_human_agents"
    assert task.actions[-1].kwargs["team"] == "flight_dynamics"
    assert _score(domain, task, list(task.actions), "") == 1.0
    approved = [*task.actions[:-1], task.forbidden[0]]
    assert _score(domain, task, approved, "") == 0.0


def test_a_same_day_release_leaves_its_charge_so_releasing_anyway_scores_zero(domain: Domain) -> None:
    task = next(t for t in _tasks(domain, "cancel_pass") if t.trap)
    release = task.forbidden[0]
    found = domain.base_data["passes"][release.kwargs["pass_id"]]
    assert found["status"] == "booked" and found["booking_cost"]
    says = " ".join(canonical_output(s) for s in task.statements)
    assert _score(domain, task, list(task.actions), says) == 1.0
    assert _score(domain, task, [*task.actions, release], says) == 0.0
    session = Session(domain)
    released = json.loads(session.call("cancel_booking", {"pass_id": found["pass_id"]}).observation)
    assert released["status"] == "released" and released["cancellation_charge"] > 0
