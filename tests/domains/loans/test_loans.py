"""The loans domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world;
- the test split's borrowers, loans, fees, payments and applications are never touched by a train task;
- rules the tools hold themselves: no application without the borrower's credit-check consent from their app, no
  autopay without their mandate (and the discount once on), the app outside the state hash;
- the application trap: an amount over the debt-to-income ceiling becomes the largest whole thousand within it,
  as the domain's own calculator shows, and submitting the amount asked scores 0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.domains.loans import DATA, plugin
from taumesh.domains.loans.build import RELEASE, generated_files
from taumesh.domains.loans.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("loans")


def _tasks(domain: Domain) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]


def _borrower(domain: Domain, borrower_id: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(
        Session(domain).call("get_borrower_profile", {"borrower_id": borrower_id}).observation
    )
    return found


def _ratio(domain: Domain, borrower: dict[str, Any], amount: int, apr: float, term_months: int) -> float:
    """The debt-to-income ratio with a new loan, its payment from the domain's own calculator (policy 5.3)."""
    arguments = {"amount": amount, "apr": apr, "term_months": term_months}
    payment = float(Session(domain).call("calculate_monthly_payment", arguments).observation)
    return float((borrower["monthly_debt_payments"] + payment) / borrower["gross_monthly_income"])


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.loans.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["borrowers"]) >= 40 for w in built)

    def broken(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        loan = next(iter(world["loans"].values()))
        loan["balance"] = loan["principal"] + 1  # more owed than was lent
        return world

    with pytest.raises(InvariantError, match="level payment"):
        build_worlds(broken, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_by_train(domain: Domain) -> None:
    tasks = _tasks(domain)
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert train and test and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}


def test_an_application_needs_the_consent_the_borrower_gives_in_their_app(domain: Domain) -> None:
    borrower_id = "bor-w1-001"
    portal = json.loads((DATA / "portals.json").read_text(encoding="utf-8"))[borrower_id]
    session = Session(domain)
    application = {"borrower_id": borrower_id, "product_id": "auto", "amount": 9000, "term_months": 48}
    refused = session.call("submit_application", {**application, "consent_reference": "CC-00000000"})
    assert refused.error and "consent" in refused.observation
    before = session.data_hash()
    assert session.call("approve_credit_check", {}, "user").error  # signed out: the app refuses
    session.call("sign_in_to_app", {"username": portal["username"], "pin": portal["pin"]}, "user")
    approval = session.call("approve_credit_check", {}, "user")
    assert session.data_hash() == before  # the app is the borrower's: outside the lender's state
    reference = approval.observation.rsplit(" ", 1)[-1].rstrip(".")
    submitted = session.call("submit_application", {**application, "consent_reference": reference})
    assert not submitted.error and json.loads(submitted.observation)["status"] == "under_review"


def test_autopay_needs_the_mandate_and_takes_the_discount_off(domain: Domain) -> None:
    loans = json.loads((DATA / "loans.json").read_text(encoding="utf-8"))
    loan = next(loan for loan in loans.values() if loan["autopay"] is None and loan["status"] == "current")
    borrower = _borrower(domain, loan["borrower_id"])
    account = borrower["linked_accounts"][0]["account_last_four"]
    portal = json.loads((DATA / "portals.json").read_text(encoding="utf-8"))[loan["borrower_id"]]
    session = Session(domain)
    args = {"loan_id": loan["loan_id"], "account_last_four": account}
    assert session.call("enroll_autopay", {**args, "mandate_reference": "MD-GUESSED"}).error
    session.call("sign_in_to_app", {"username": portal["username"], "pin": portal["pin"]}, "user")
    mandate = session.call("approve_autopay_mandate", {"account_last_four": account}, "user").observation
    enrolled = session.call("enroll_autopay", {**args, "mandate_reference": mandate.rsplit(" ", 1)[-1].rstrip(".")})
    assert json.loads(enrolled.observation)["apr"] == round(loan["apr"] - 0.25, 2)


def test_an_amount_over_the_ratio_becomes_the_largest_whole_thousand_within_it(domain: Domain) -> None:
    traps = [t for t in _tasks(domain) if t.intent == "loan_application" and t.trap and t.outputs]
    assert {RELEASE.world_of(t) for t in traps} >= {"w2", "w3"}  # the reduction is tested in train and in test
    for task in traps:
        asked = task.forbidden[0].kwargs
        granted = next(a for a in task.actions if a.name == "submit_application").kwargs
        borrower = _borrower(domain, task.user_id)
        product = json.loads((DATA / "products.json").read_text(encoding="utf-8"))[granted["product_id"]]
        apr = next(a for a in task.actions if a.name == "calculate_monthly_payment").kwargs["apr"]
        amount, term = granted["amount"], granted["term_months"]
        assert amount % 1000 == 0 and amount < asked["amount"]
        within = _ratio(domain, borrower, amount, apr, term)
        assert within <= product["max_debt_to_income"] < _ratio(domain, borrower, amount + 1000, apr, term)
        says = " ".join(canonical_output(s) for s in task.statements)
        assert _score(domain, task, task.actions, says) == 1.0
        submitted_as_asked = [task.forbidden[0] if a.name == "submit_application" else a for a in task.actions]
        assert _score(domain, task, submitted_as_asked, says) == 0.0
