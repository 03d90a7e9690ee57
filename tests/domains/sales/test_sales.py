"""The sales domain's own behaviour (the bar every factory domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, from three worlds that keep their invariants, and the
  test split's entities are never in train; a world's choice varies from the tasks the worlds before it release
  (given none, it would choose others);
- a deal is won only on a quote the client signed in their own e-signature app (dual control): the desk cannot sign;
- discount authority: a rep's discount beyond their limit is a request to their manager, one beyond 35 percent a
  transfer to a human; granting or submitting it anyway scores 0;
- a quote's lines are the same whichever product the agent adds first (no order to guess);
- a close date moved twice is not the close date moved once (each change counts), which is what makes the
  90-day trap fair; follow-ups asked for a weekend are due the Monday after.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry, Session
from taumesh.domains.factory import FactoryTask, outcome_score, output_spec
from taumesh.domains.sales import DATA, RELEASE, build, tasks
from taumesh.domains.sales.build import generated_files
from taumesh.domains.sales.clock import DEAL_DESK_LIMIT, DISCOUNT_AUTHORITY
from taumesh.domains.sales.policy import POLICY
from taumesh.domains.sales.world import SEEDS, TEST_WORLDS, build_world, worlds


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("sales")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    files = generated_files()
    for name, text in files.items():
        assert (DATA / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: python -m taumesh.domains.sales.build"
        )
    assert sorted(p.name for p in DATA.iterdir()) == sorted(files)
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_entities_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    assert test and {build.RELEASE.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {build.RELEASE.world_of(t) for t in train} & TEST_WORLDS
    assert not set().union(*map(build.RELEASE.touched, train)) & set().union(*map(build.RELEASE.touched, test))


def test_a_world_varies_its_choice_from_the_tasks_the_earlier_worlds_release() -> None:
    """w2 given w1's tasks chooses the tasks it ships with; given none, it would choose others."""
    policy = POLICY.markdown()

    def solve(tag: str, earlier: Sequence[FactoryTask]) -> list[FactoryTask]:
        world = build_world(SEEDS[tag], tag)
        return tasks.tasks_after_worlds(
            world, tag, SEEDS[tag], lambda t: not output_spec(t.outputs, t.instruction, policy), earlier
        )

    shipped = [t.id for t in _tasks() if build.RELEASE.world_of(t) == "w2"]
    assert [t.id for t in solve("w2", solve("w1", ()))] == shipped
    assert [t.id for t in solve("w2", ())] != shipped


def _accepted_quote() -> FactoryTask:
    return next(t for t in _tasks() if t.intent == "accept_quote" and not t.trap)


def test_a_deal_is_won_only_on_a_quote_the_client_signed_in_their_own_app() -> None:
    task = _accepted_quote()
    sign = next(a for a in task.actions if a.name == "sign_envelope")
    won = next(a for a in task.actions if a.name == "mark_opportunity_won")
    session = Session(_domain())
    for action in task.actions[: task.actions.index(sign)]:
        assert not session.call(action.name, dict(action.kwargs), action.requestor).error, action.name
    early = session.call(won.name, dict(won.kwargs))
    assert early.error and "signed" in early.observation
    assert session.call(sign.name, dict(sign.kwargs), "assistant").error  # the desk cannot sign for the client
    assert not session.call(sign.name, dict(sign.kwargs), "user").error
    assert not session.call(won.name, dict(won.kwargs)).error
    opportunity = session.data["opportunities"][won.kwargs["opportunity_id"]]
    assert opportunity["stage"] == "closed_won" and opportunity["won_quote_id"] == won.kwargs["quote_id"]


def test_a_discount_beyond_the_reps_authority_goes_to_their_manager_and_beyond_35_percent_to_a_human() -> None:
    traps = [t for t in _tasks() if t.intent == "apply_discount" and t.trap]
    domain, plugin = _domain(), _domain().plugin
    reps = domain.base_data["reps"]
    kinds = set()
    for task in traps:
        granted = task.forbidden[0]
        percent = granted.kwargs["discount_percent"]
        assert granted.name == "set_quote_discount" and percent > DISCOUNT_AUTHORITY[reps[task.user_id]["role"]]
        answer = task.actions[-1]
        if percent > DEAL_DESK_LIMIT:
            assert answer.kwargs == {"person_id": task.user_id, "reason": "deal_desk_exception"}
            assert [a.name for a in task.forbidden] == ["set_quote_discount", "request_discount_approval"]
        else:
            assert answer.name == "request_discount_approval" and answer.kwargs == granted.kwargs
        kinds.add(answer.name)
        assert outcome_score(plugin, domain, task, task.actions) == 1.0
        for forbidden in task.forbidden:
            instead = [*task.actions[:-1], forbidden]
            assert outcome_score(plugin, domain, task, instead) == 0.0, (task.id, forbidden.name)
    assert kinds == {"request_discount_approval", "transfer_to_human_agents"}


def test_a_quotes_lines_are_the_same_whichever_product_the_agent_adds_first() -> None:
    task = next(
        t for t in _tasks() if t.intent == "create_quote" and any(a.name == "add_quote_line" for a in t.actions)
    )
    create = next(a for a in task.actions if a.name == "create_quote")
    add = next(a for a in task.actions if a.name == "add_quote_line")
    gold, swapped = Session(_domain()), Session(_domain())
    gold.call(create.name, dict(create.kwargs))
    gold.call(add.name, dict(add.kwargs))
    opportunity = create.kwargs["opportunity_id"]
    first = {"product_id": add.kwargs["product_id"], "quantity": add.kwargs["quantity"]}
    swapped.call(create.name, {"opportunity_id": opportunity, **first})
    second = {k: create.kwargs[k] for k in ("product_id", "quantity")}
    assert not swapped.call(add.name, {"quote_id": add.kwargs["quote_id"], **second}).error
    assert gold.data_hash() == swapped.data_hash()


def test_each_close_date_change_counts_so_a_second_change_is_not_the_first() -> None:
    task = next(t for t in _tasks() if t.intent == "push_close_date" and t.trap)
    (too_far,) = task.forbidden
    move = next(a for a in task.actions if a.name == "update_close_date")
    once, twice = Session(_domain()), Session(_domain())
    once.call(move.name, dict(move.kwargs))
    twice.call(too_far.name, dict(too_far.kwargs))
    twice.call(move.name, dict(move.kwargs))
    opportunity_id = move.kwargs["opportunity_id"]
    assert (
        once.data["opportunities"][opportunity_id]["close_date"]
        == twice.data["opportunities"][opportunity_id]["close_date"]
    )
    assert once.data_hash() != twice.data_hash()
    base = _domain().base_data["opportunities"][opportunity_id]["close_date_changes"]
    assert twice.data["opportunities"][opportunity_id]["close_date_changes"] == base + 2


def _monday_after_a_weekend(asked: date) -> date:
    """``asked``, or the Monday after it when it is a Saturday or Sunday (policy 11.2), written out independently."""
    return asked + timedelta(days=7 - asked.weekday()) if asked.weekday() >= 5 else asked


def test_a_follow_up_asked_for_a_weekend_is_due_the_monday_after() -> None:
    shifted = 0
    for task in (t for t in _tasks() if t.intent == "schedule_follow_up"):
        found = re.search(r" on (\d{4}-\d{2}-\d{2})", task.instruction)
        assert found, task.id
        asked = date.fromisoformat(found.group(1))
        for outcome in [*task.outcomes(), task.forbidden]:
            for action in (a for a in outcome if a.name == "schedule_follow_up"):
                assert action.kwargs["due_date"] == _monday_after_a_weekend(asked).isoformat(), task.id
                shifted += action.kwargs["due_date"] != asked.isoformat()
    assert shifted, "some follow-up is asked for a weekend"
