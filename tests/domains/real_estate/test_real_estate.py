"""The real-estate domain's own checks; the bar every τ++ domain meets is tests/domains/test_tau_plus_plus.py's.

- the generator rebuilds the shipped files byte for byte, over three worlds that keep their invariants (a world
  breaking one is refused), and no test client or entity is ever in train;
- the client's portal is theirs: a disclosure is signed only there, only once the agent has sent it (dual control);
  signing in to look around is not graded, while an upload the task did not ask for is;
- the issue's offers and counter-offers: an expired counter accepted scores 0, while the new offer at its price with
  the minimum earnest money, the expiry said, scores 1.0; an offer beyond the buyer's pre-approval scores 0;
- showing notice: the first window of a day that gives too little notice, booked, scores 0.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.real_estate import plugin
from taumesh.domains.real_estate.build import RELEASE, generated_files
from taumesh.domains.real_estate.clock import earnest_money, notice_met
from taumesh.domains.real_estate.layout import DATA
from taumesh.domains.real_estate.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("real-estate")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _score(task: FactoryTask, actions: list[Action], says: str | None) -> float:
    """The plugin's reward for ``actions`` played from the base data, then ``says`` (None: nothing said)."""
    session = Session(_domain())
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says is not None:
        conversation.append(ChatMessage(role="assistant", content=says))
    gold = plugin.gold_hash(_domain(), task)
    episode = Episode(_domain(), task, conversation, "user_stop", session.data_hash(), gold)
    return plugin.score(episode).reward


def _said(task: FactoryTask) -> str:
    return " ".join([*task.outputs, *(canonical_output(s) for s in task.statements if s.kind == "text")])


def _verified(task: FactoryTask) -> list[Action]:
    return [a for a in task.actions if a.name in ("find_client", "verify_client")]


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    for name, text in generated_files().items():
        stale = f"{name} is stale: run python -m taumesh.domains.real_estate.build"
        assert (DATA / name).read_text(encoding="utf-8") == text, stale
    assert _domain().data_release == "real-estate-1"


def test_three_worlds_keep_their_invariants_and_a_broken_one_is_refused() -> None:
    assert [w.tag for w in worlds()] == ["w1", "w2", "w3"]  # raises on any broken invariant

    def cheap_offer(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        next(iter(world["offers"].values()))["earnest_money"] = 1
        return world

    with pytest.raises(InvariantError, match="less earnest money"):
        build_worlds(cheap_offer, SEEDS, INVARIANTS)


def test_test_clients_and_entities_are_never_in_train() -> None:
    train, test = _tasks("train"), _tasks("test")
    assert {RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not {t.user_id for t in train} & {t.user_id for t in test}
    assert not set[str]().union(*map(RELEASE.touched, train)) & set[str]().union(*map(RELEASE.touched, test))


def test_a_disclosure_is_signed_only_in_the_clients_portal_once_the_agent_sent_it() -> None:
    task = next(t for t in _tasks() if t.intent == "sign_disclosures" and t.dual_control)
    sign_in = next(a for a in task.actions if a.name == "sign_in_to_portal")
    sent = next(a for a in task.actions if a.name == "send_for_signature")
    document_id = sent.kwargs["document_id"]
    session = Session(_domain())
    assert session.call("sign_document", {"document_id": document_id}, "user").error  # not signed in
    assert not session.call(sign_in.name, dict(sign_in.kwargs), "user").error
    assert "no disclosure" in session.call("sign_document", {"document_id": document_id}, "user").observation
    assert session.call("sign_document", {"document_id": document_id}, "assistant").error  # the agent cannot sign
    assert not session.call(sent.name, dict(sent.kwargs)).error
    assert not session.call("sign_document", {"document_id": document_id}, "user").error
    assert session.call(sent.name, dict(sent.kwargs)).error  # sent once


def test_an_expired_counter_is_never_accepted_and_a_new_offer_at_its_price_is() -> None:
    task = next(t for t in _tasks() if t.intent == "counter_offer" and t.trap and t.actions[-1].name == "submit_offer")
    new_offer = task.actions[-1]
    assert new_offer.kwargs["earnest_money"] == earnest_money(new_offer.kwargs["amount"])
    assert _score(task, task.actions, _said(task)) == 1.0
    assert _score(task, task.actions, "I have made a new offer at the counter's price.") == 0.0  # expiry unsaid
    accepted = [*_verified(task), *task.forbidden]
    assert [a.name for a in task.forbidden] == ["accept_counter_offer"]
    assert _score(task, accepted, _said(task)) == 0.0


def test_an_offer_beyond_the_pre_approval_is_refused_with_its_reason() -> None:
    task = next(t for t in _tasks() if t.intent == "submit_offer" and t.trap)
    assert task.statements and "pre-approval" in task.statements[0].value
    assert _score(task, task.actions, _said(task)) == 1.0
    assert _score(task, task.actions, "I'm sorry, but I can't help with that request.") == 0.0
    assert _score(task, [*task.actions, *task.forbidden], _said(task)) == 0.0


def test_a_window_with_too_little_notice_is_not_booked() -> None:
    task = next(t for t in _tasks() if t.intent == "schedule_tour" and t.trap and t.actions[-1].name == "book_tour")
    base = _domain().base_data
    early = base["showings"][task.forbidden[0].kwargs["slot_id"]]
    booked = base["showings"][task.actions[-1].kwargs["slot_id"]]
    occupied = base["listings"][early["listing_id"]]["occupied"]
    assert not notice_met(early["start"], occupied) and notice_met(booked["start"], occupied)
    assert early["start"] < booked["start"] and early["start"][:10] == booked["start"][:10]
    assert _score(task, task.actions, _said(task)) == 1.0
    assert _score(task, [*task.actions[:-1], *task.forbidden], _said(task)) == 0.0


def test_signing_in_to_look_around_is_not_graded_but_an_unasked_upload_is() -> None:
    task = next(t for t in _tasks() if t.intent == "submit_offer" and t.trap)
    client = _domain().base_data["clients"][task.user_id]
    portal = _domain().base_data["portals"][task.user_id]
    sign_in = Action(
        name="sign_in_to_portal", kwargs={"email": client["email"], "password": portal["password"]}, requestor="user"
    )
    look = Action(name="view_portal", kwargs={}, requestor="user")
    assert _score(task, [*task.actions, sign_in, look], _said(task)) == 1.0
    renter = next(t for t in _tasks() if t.intent == "rental_application")
    session = Session(_domain())
    untouched = session.data_hash()
    for action in renter.actions:
        if action.requestor == "user" and action.name != "upload_file":
            assert not session.call(action.name, dict(action.kwargs), "user").error
    assert session.data_hash() == untouched  # signed in and looked: the client's own
    upload = next(a for a in renter.actions if a.name == "upload_file")
    assert not session.call(upload.name, dict(upload.kwargs), "user").error
    assert session.data_hash() != untouched  # the pay stub reached the agency
