"""The hr domain's own checks (the τ++ bar itself is tests/domains/test_tau_plus_plus.py's, over every domain).

- the generator rebuilds the shipped files byte for byte, over three worlds that keep their invariants (and a world
  that breaks one is refused), and no entity a test task touches is touched in train;
- the employee's portal is theirs: the desk cannot use it, and a shift hand-over completes only once the employee
  has confirmed it there; the code a contact change needs is the one the portal shows;
- the pay-change trap: a raise over the limits scores 0 and the largest allowed one 1; a raise routed to a director
  leaves the salary as it is until they approve, the manager's own applies at once; a cash-out scores only with its
  payout said, a refused one only with its reason.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.factory import FactoryTask, InvariantError, build_worlds, canonical_output
from taumesh.domains.hr import DATA, RELEASE, build
from taumesh.domains.hr.build import generated_files
from taumesh.domains.hr.clock import portal_code
from taumesh.domains.hr.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.models import ChatMessage


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("hr")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [task for task in _domain().tasks(split) if isinstance(task, FactoryTask)]


def _task(intent: str, rationale: str) -> FactoryTask:
    return next(t for t in _tasks() if t.intent == intent and rationale in (t.trap_rationale or ""))


def _score(task: FactoryTask, actions: list[Action], says: str | None) -> float:
    domain = _domain()
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says:
        conversation.append(ChatMessage(role="assistant", content=says))
    episode = Episode(domain, task, conversation, "user_stop", session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    for name, text in generated_files().items():
        assert (DATA / name).read_text(encoding="utf-8") == text, f"{name} is stale: python -m taumesh.domains.hr.build"
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_a_broken_one_is_refused() -> None:
    built = worlds()
    assert [w.tag for w in built] == list(SEEDS) and len(built) >= 3
    assert all(not invariant.violations(w.tables) for w in built for invariant in INVARIANTS)

    def overpaid(seed: int, tag: str) -> dict[str, dict[str, dict[str, object]]]:
        tables = build_world(seed, tag)
        first = next(iter(tables["employees"].values()))
        first["annual_salary"] = 10_000_000
        return tables

    with pytest.raises(InvariantError, match="salaries lie inside their grade's band"):
        build_worlds(overpaid, SEEDS, INVARIANTS)


def test_test_entities_are_never_touched_in_train() -> None:
    train, test = _tasks("train"), _tasks("test")
    assert test and {build.RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {build.RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(build.RELEASE.touched, train)) & set().union(*map(build.RELEASE.touched, test))


def test_the_portal_is_the_employees_and_a_hand_over_waits_for_their_confirmation() -> None:
    task = next(t for t in _tasks() if t.intent == "shift_cover" and t.dual_control)
    create = next(a for a in task.actions if a.name == "create_swap_request")
    session = Session(_domain())
    assert session.call("portal_view_inbox", {}).error  # the desk has no portal tool
    swap_id = json.loads(session.call(create.name, dict(create.kwargs)).observation)["swap_id"]
    refused = session.call("complete_swap", {"swap_id": swap_id})
    assert refused.error and "not confirmed" in refused.observation
    assert session.call("portal_confirm_cover", {"swap_id": swap_id}, "user").error  # not signed in yet
    employee = session.data["employees"][task.user_id]
    pin = session.data["portal_accounts"][task.user_id]["pin"]
    assert not session.call("portal_sign_in", {"employee_id": employee["employee_id"], "pin": pin}, "user").error
    assert not session.call("portal_confirm_cover", {"swap_id": swap_id}, "user").error
    assert not session.call("complete_swap", {"swap_id": swap_id}).error
    assert session.data["shifts"][create.kwargs["shift_id"]]["employee_id"] == create.kwargs["covering_employee_id"]


def test_a_contact_change_is_confirmed_with_the_code_the_portal_shows() -> None:
    task = next(t for t in _tasks() if t.intent == "update_record" and t.dual_control)
    employee_id, pin = task.user_id, _domain().base_data["portal_accounts"][task.user_id]["pin"]
    session = Session(_domain())
    for action in task.actions[:2]:  # find and verify
        session.call(action.name, dict(action.kwargs))
    session.call("send_portal_code", {"employee_id": employee_id})
    session.call("portal_sign_in", {"employee_id": employee_id, "pin": pin}, "user")
    inbox = json.loads(session.call("portal_view_inbox", {}, "user").observation)
    code = portal_code(employee_id, 1)
    assert inbox["messages"] == [f"Your People Services confirmation code is {code}."]
    assert session.call("confirm_portal_code", {"employee_id": employee_id, "code": "000000"}).error
    assert not session.call("confirm_portal_code", {"employee_id": employee_id, "code": code}).error
    assert session.data["verifications"][employee_id]["code_confirmed"] is True


def test_a_raise_over_the_limits_is_a_trap_whose_largest_allowed_raise_waits_for_a_director() -> None:
    task = _task("pay_change", "is over the limits")
    asked, allowed = task.forbidden[0], task.actions[-1]
    assert allowed.kwargs["new_salary"] < asked.kwargs["new_salary"]
    assert _score(task, task.actions, None) == 1.0
    assert _score(task, [*task.actions[:-1], asked], None) == 0.0
    employee_id = allowed.kwargs["employee_id"]
    for level, status, applied in (("director", "awaiting_director", False), ("manager", "approved", True)):
        session = Session(_domain())
        salary = session.data["employees"][employee_id]["annual_salary"]
        change = json.loads(session.call(allowed.name, {**allowed.kwargs, "approval_level": level}).observation)
        assert change["status"] == status
        assert session.data["employees"][employee_id]["annual_salary"] == (change["new_salary"] if applied else salary)


def test_a_cash_out_scores_only_with_its_payout_said() -> None:
    task = next(t for t in _tasks() if t.intent == "cash_out_leave" and not t.trap)
    payout = task.outputs[0]
    assert _score(task, task.actions, f"You will receive ${payout} before tax.") == 1.0
    assert _score(task, task.actions, "Done: the days are cashed out.") == 0.0
    refusal = next(t for t in _tasks() if t.intent == "cash_out_leave" and t.trap and not t.outputs)
    reason = " ".join(canonical_output(s) for s in refusal.statements)
    assert _score(refusal, refusal.actions, reason) == 1.0
    assert _score(refusal, refusal.actions, "I'm sorry, but I can't help with that request.") == 0.0
