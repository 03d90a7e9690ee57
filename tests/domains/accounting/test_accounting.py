"""The accounting domain's own checks (the generic τ++ bar is tests/domains/test_tau_plus_plus.py's).

- the shipped data is what the generator makes, byte for byte;
- three or more worlds, each keeping the declared invariants, which do catch a broken world;
- the test split's callers, invoices, budgets and suppliers are never touched by a train task;
- rules the tools hold themselves: no new remittance account without the approval reference the supplier's portal
  gives, and the portal stays outside the graded state;
- the three-way match trap: an invoice invoicing more than was received is held with that reason, and approving it
  anyway scores 0;
- early settlement pays the open amount less two percent, the figure the agent must say.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.accounting import DATA, plugin
from taumesh.domains.accounting.build import RELEASE, generated_files
from taumesh.domains.accounting.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, World, build_worlds, canonical_output
from taumesh.models import ChatMessage


@pytest.fixture(scope="module")
def domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("accounting")


def _tasks(domain: Domain) -> list[FactoryTask]:
    return [t for t in domain.tasks("base") if isinstance(t, FactoryTask)]


def _table(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return found


def _score(domain: Domain, task: FactoryTask, actions: list[Action], says: str) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction), ChatMessage(role="assistant", content=says)]
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), plugin.gold_hash(domain, task))
    return plugin.score(episode).reward


def _said(task: FactoryTask) -> str:
    return " ".join(canonical_output(s) for s in task.statements)


def test_the_shipped_data_is_what_the_generator_makes() -> None:
    files = generated_files()
    assert sorted(files) == sorted(p.name for p in DATA.iterdir() if p.is_file())
    stale = [name for name, text in files.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert stale == [], "python -m taumesh.domains.accounting.build"


def test_three_worlds_keep_their_invariants_which_catch_a_broken_world() -> None:
    built = worlds()
    assert len(built) >= 3 and {w.tag for w in built} == set(SEEDS)
    assert all(len(w.tables["invoices"]) >= 50 for w in built)

    def broken(seed: int, tag: str) -> World:
        world = build_world(seed, tag)
        invoice = next(iter(world["invoices"].values()))
        invoice["tax"] = round(invoice["tax"] + 1, 2)  # tax no longer the rate of its code
        return world

    with pytest.raises(InvariantError, match="rate of the invoice's code"):
        build_worlds(broken, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_by_train(domain: Domain) -> None:
    tasks = _tasks(domain)
    train = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) not in TEST_WORLDS))
    test = set().union(*(RELEASE.touched(t) for t in tasks if RELEASE.world_of(t) in TEST_WORLDS))
    assert train and test and not train & test
    assert {t.id for t in domain.tasks("test")} == {t.id for t in tasks if RELEASE.world_of(t) in TEST_WORLDS}


def test_a_new_remittance_account_needs_the_suppliers_approval_in_their_portal(domain: Domain) -> None:
    supplier_id = "sup-w1-01"
    portal = _table("portals")[supplier_id]
    account = {"supplier_id": supplier_id, "sort_code": "12-34-56", "account_number": "87654321"}
    session = Session(domain)
    assert session.call("update_bank_details", {**account, "approval_reference": "BKA-000000"}).error
    before = session.data_hash()
    assert session.call("approve_bank_change", {"sort_code": "12-34-56", "account_number": "87654321"}, "user").error
    session.call("sign_in_to_portal", {"username": portal["username"], "pin": portal["pin"]}, "user")
    approval = session.call("approve_bank_change", {"sort_code": "12-34-56", "account_number": "87654321"}, "user")
    assert session.data_hash() == before  # the portal is the supplier's: outside the books' state
    reference = approval.observation.rsplit(" ", 1)[-1].rstrip(".")
    changed = json.loads(session.call("update_bank_details", {**account, "approval_reference": reference}).observation)
    assert changed["bank"]["account_number"] == "87654321" and changed["bank_history"][-1]["reference"] == reference


def test_an_invoice_billing_more_than_was_received_is_held_and_approving_it_scores_zero(domain: Domain) -> None:
    traps = [
        t
        for t in _tasks(domain)
        if t.intent == "approve_invoice" and t.trap and t.actions[-1].kwargs.get("reason") == "quantity_not_received"
    ]
    assert {RELEASE.world_of(t) for t in traps} & {"w1", "w2"} and {RELEASE.world_of(t) for t in traps} & TEST_WORLDS
    orders, invoices = _table("purchase_orders"), _table("invoices")
    for task in traps:
        invoice = invoices[task.actions[-1].kwargs["invoice_id"]]
        assert invoice["quantity"] > orders[invoice["po_id"]]["received_quantity"]
        assert _score(domain, task, task.actions, _said(task)) == 1.0
        approved = [*task.actions[:-1], task.forbidden[0]]
        assert _score(domain, task, approved, _said(task)) == 0.0


def test_early_settlement_pays_the_open_amount_less_two_percent(domain: Domain) -> None:
    plain = [t for t in _tasks(domain) if t.intent == "early_payment" and not t.trap]
    assert plain
    for task in plain:
        session = Session(domain)
        for action in task.actions[:-1]:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        found = session.call("find_invoice", copy.deepcopy(task.actions[-2].kwargs))
        owed = json.loads(found.observation)["open_amount"]
        settled = json.loads(session.call(task.actions[-1].name, copy.deepcopy(task.actions[-1].kwargs)).observation)
        assert settled["amount_payable"] == round(owed - round(owed * 0.02, 2), 2)
        assert float(task.outputs[0]) == settled["amount_payable"]
