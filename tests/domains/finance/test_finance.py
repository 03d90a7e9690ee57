"""The finance domain's own behaviour (the bar every factory domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and the
  test split's entities are never in train;
- an order is placed only once the client approved its ticket in their own app (dual control): the desk cannot
  approve it, and placing it before the approval is refused;
- a purchase cut to the units allowed is the largest that keeps to the cash and 25 percent rules, and buying what
  the client asked for instead scores 0;
- a risk profile recorded over another leaves both in its history, which is what makes the questionnaire trap fair,
  and a profile recorded without the client submitting the questionnaire in their app is not the one recorded after;
- a pension pays nothing before the 57th birthday, which the agent must name.
"""

from __future__ import annotations

import functools
from datetime import date
from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry, Session
from taumesh.domains.factory import FactoryTask, outcome_score
from taumesh.domains.finance import DATA, RELEASE, build
from taumesh.domains.finance.build import generated_files
from taumesh.domains.finance.world import TEST_WORLDS, worlds


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("finance")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        stale = f"{name} is stale: python -m taumesh.domains.finance.build"
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


def test_an_order_is_placed_only_once_the_client_approved_it_in_their_own_app() -> None:
    task = next(t for t in _tasks() if t.intent == "buy_security" and not t.trap)
    approve = next(a for a in task.actions if a.name == "approve_request")
    place = next(a for a in task.actions if a.name == "place_order")
    session = Session(_domain())
    for action in task.actions[: task.actions.index(approve)]:
        assert not session.call(action.name, dict(action.kwargs), action.requestor).error, action.name
    early = session.call(place.name, dict(place.kwargs))
    assert early.error and "approved" in early.observation
    assert session.call(approve.name, dict(approve.kwargs), "assistant").error  # the desk cannot approve for them
    assert not session.call(approve.name, dict(approve.kwargs), "user").error
    assert not session.call(place.name, dict(place.kwargs)).error
    assert session.data["tickets"][place.kwargs["ticket_id"]]["status"] == "placed"


def _charge(value: float) -> float:
    """0.25 percent, at least £7.50, to the penny (policy 5.1), written out independently of the clock."""
    return round(max(7.5, value * 0.0025) + 1e-9, 2)


def _fits(units: int, close: float, cash: float, held: float, total: float) -> bool:
    """Whether ``units`` bought at ``close`` keep to the cash rule (5.2) and the 25 percent rule (5.3)."""
    value = round(units * close, 2)
    return value + _charge(value) <= cash and held + value <= 0.25 * total


def test_a_purchase_cut_to_the_units_allowed_is_the_largest_within_cash_and_concentration() -> None:
    cut = [t for t in _tasks() if t.intent == "buy_security" and t.trap and "5.4" in t.clauses]
    assert cut, "some purchase is cut to the units allowed"
    domain, plugin = _domain(), _domain().plugin
    for task in cut:
        (asked,) = task.forbidden
        made = next(a for a in task.actions if a.name == "create_order_ticket")
        assert made.kwargs["units"] < asked.kwargs["units"]
        account = domain.base_data["accounts"][made.kwargs["account_id"]]
        securities = domain.base_data["securities"]
        holdings = [h for h in domain.base_data["holdings"].values() if h["account_id"] == account["account_id"]]
        close = securities[made.kwargs["ticker"]]["prices"]["2026-03-17"]
        total = sum(round(h["units"] * securities[h["ticker"]]["prices"]["2026-03-17"], 2) for h in holdings)
        total += account["cash"]
        held = sum(round(h["units"] * close, 2) for h in holdings if h["ticker"] == made.kwargs["ticker"])

        limits = (close, account["cash"], held, total)
        assert _fits(made.kwargs["units"], *limits) and not _fits(made.kwargs["units"] + 1, *limits), task.id
        assert outcome_score(plugin, domain, task, task.actions) == 1.0
        instead = [asked if a == made else a for a in task.actions]
        assert outcome_score(plugin, domain, task, instead) == 0.0, task.id


def test_a_profile_recorded_over_another_leaves_both_in_its_history() -> None:
    task = next(t for t in _tasks() if t.intent == "review_profile" and t.trap)
    (hoped,) = task.forbidden
    record = next(a for a in task.actions if a.name == "record_risk_profile")
    once, twice = Session(_domain()), Session(_domain())
    for session, writes in ((once, [record]), (twice, [hoped, record])):
        for action in [*task.actions[: task.actions.index(record)], *writes]:
            assert not session.call(action.name, dict(action.kwargs), action.requestor).error
    client_id = record.kwargs["client_id"]
    assert once.data["clients"][client_id]["risk_profile"] == twice.data["clients"][client_id]["risk_profile"]
    before = len(_domain().base_data["clients"][client_id]["profile_history"])
    assert len(twice.data["clients"][client_id]["profile_history"]) == before + 2
    assert once.data_hash() != twice.data_hash()


def test_a_profile_is_recorded_with_the_score_the_client_submitted_in_their_app() -> None:
    task = next(t for t in _tasks() if t.intent == "review_profile" and not t.trap)
    submit = next(a for a in task.actions if a.name == "submit_risk_questionnaire")
    gold, skipped = Session(_domain()), Session(_domain())
    for action in task.actions:
        gold.call(action.name, dict(action.kwargs), action.requestor)
        if action != submit:
            skipped.call(action.name, dict(action.kwargs), action.requestor)
    assert gold.data["clients"][task.user_id]["profile_history"][-1]["score"] == submit.kwargs["score"]
    assert skipped.data["clients"][task.user_id]["profile_history"][-1]["score"] is None
    assert gold.data_hash() != skipped.data_hash()


def test_a_pension_pays_nothing_before_the_57th_birthday_which_the_agent_names() -> None:
    young = [t for t in _tasks() if t.intent == "withdraw_cash" and "8.2" in t.clauses]
    assert young, "some client asks too young"
    for task in young:
        born = date.fromisoformat(_domain().base_data["clients"][task.user_id]["date_of_birth"])
        (said,) = [s for s in task.statements if s.kind == "date"]
        assert said.value == born.replace(year=born.year + 57).isoformat() > "2026-03-18"
        assert not any(a.name == "request_withdrawal" for outcome in task.outcomes() for a in outcome)
        assert [a.name for a in task.forbidden] == ["request_withdrawal"]
