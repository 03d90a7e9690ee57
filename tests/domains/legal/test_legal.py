"""The legal domain's own behaviour (the bar every factory domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and the
  test split's entities are never in train;
- a matter is opened for work only once the client signed its engagement letter in their own portal: the desk
  cannot sign;
- a privileged document is logged, not produced: producing it anyway scores 0, and the log entry is what the file
  keeps;
- research cites good law only: naming an overruled authority gets its successor cited and its exact citation said;
- the firm's own deadlines move to the next working day and never more than 14 days past their first date, and each
  move is kept, so a deadline moved twice is not the deadline moved once.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, outcome_score
from taumesh.domains.legal import DATA, RELEASE, build
from taumesh.domains.legal.build import generated_files
from taumesh.domains.legal.clock import day, latest_slip, moved_date
from taumesh.domains.legal.world import TEST_WORLDS, worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("legal")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _played(actions: list[Action]) -> Session:
    session = Session(_domain())
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    return session


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        stale = f"{name} is stale: python -m taumesh.domains.legal.build"
        assert (DATA / name).read_text(encoding="utf-8") == text, stale
    assert sorted(p.name for p in DATA.iterdir()) == sorted(files)
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_entities_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    assert test and {build.RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {build.RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(build.RELEASE.touched, train)) & set().union(*map(build.RELEASE.touched, test))


def test_a_matter_opens_for_work_only_on_a_letter_the_client_signed_in_their_portal() -> None:
    task = next(t for t in _tasks() if t.intent == "engage" and t.dual_control)
    sign = next(a for a in task.actions if a.name == "sign_engagement_letter")
    activate = next(a for a in task.actions if a.name == "activate_matter")
    session = _played(task.actions[: task.actions.index(sign)])
    early = session.call(activate.name, dict(activate.kwargs))
    assert early.error and "not signed" in early.observation
    assert session.call(sign.name, dict(sign.kwargs), "assistant").error  # the desk cannot sign for the client
    assert not session.call(sign.name, dict(sign.kwargs), "user").error
    assert not session.call(activate.name, dict(activate.kwargs)).error
    assert session.data["matters"][activate.kwargs["matter_id"]]["status"] == "open"


def test_a_privileged_document_is_logged_and_producing_it_scores_zero() -> None:
    task = next(t for t in _tasks() if t.intent == "produce_document" and t.trap)
    produce = task.forbidden[0]
    plugin = _domain().plugin
    assert outcome_score(plugin, _domain(), task, task.actions) == 1.0
    assert outcome_score(plugin, _domain(), task, [*task.actions, produce]) == 0.0
    logged = _played(task.actions).data["privilege_log"]
    assert [entry["document_id"] for entry in logged.values()] == [produce.kwargs["document_id"]]


def test_naming_an_authority_no_longer_good_law_cites_its_successor_with_its_exact_citation() -> None:
    traps = [t for t in _tasks() if t.intent == "cite_authority" and t.trap]
    assert traps
    corpus = _domain().base_data["authorities"]
    for task in traps:
        named = corpus[task.forbidden[0].kwargs["authority_id"]]
        cited = next(a for a in task.actions if a.name == "cite_authority")
        successor = corpus[cited.kwargs["authority_id"]]
        assert named["status"] != "good_law" and named["superseded_by"] == successor["authority_id"]
        assert successor["citation"] in [s.value for s in task.statements]
        said = " ".join(s.value.split("|")[0] for s in task.statements)
        without = [s for s in task.statements if s.value != successor["citation"]]
        episode = _episode(task, task.actions, " ".join(s.value.split("|")[0] for s in without))
        assert _domain().score(_episode(task, task.actions, said)).reward == 1.0
        assert _domain().score(episode).reward == 0.0


def _episode(task: FactoryTask, actions: list[Action], says: str) -> Episode:
    session = _played(actions)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    return Episode(_domain(), task, conversation, "user_stop", session.data_hash(), _domain().gold_hash(task))


def test_the_firms_deadlines_move_to_working_days_within_14_days_and_each_move_is_kept() -> None:
    deadlines = _domain().base_data["deadlines"]
    moved = [t for t in _tasks() if t.intent == "move_deadline" and not t.trap]
    assert moved
    for task in moved:
        move = next(a for a in task.actions if a.name == "move_deadline")
        deadline = deadlines[move.kwargs["deadline_id"]]
        assert day(move.kwargs["new_due_on"]).weekday() < 5
        assert move.kwargs["new_due_on"] <= latest_slip(deadline["original_due_on"])
        once = _played(task.actions)
        assert once.data["deadlines"][deadline["deadline_id"]]["moves"][-1] == deadline["due_on"]
        step = moved_date(deadline["due_on"], 1)
        if step < move.kwargs["new_due_on"]:  # moved a day first, then to the same date: not the same file
            detour = move.model_copy(update={"kwargs": {**move.kwargs, "new_due_on": step}})
            twice = _played([*task.actions[: task.actions.index(move)], detour, move])
            assert twice.data["deadlines"][deadline["deadline_id"]]["due_on"] == move.kwargs["new_due_on"]
            assert twice.data_hash() != once.data_hash()
