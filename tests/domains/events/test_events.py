"""The events domain's own checks (the bar every factory domain meets is tests/domains/test_tau_plus_plus.py).

- the generator rebuilds the shipped files byte for byte, over three worlds whose invariants hold and are enforced;
- the test world's callers and records are never touched by a train task;
- the box office's own rules, through a session: a transfer goes out only with the release code the holder's app
  shows; an expired offer is accepted in the recipient's app only once the agent reissues it; either verification
  is allowed, and reading the app's sign-in code changes nothing; a refused refund scores only when its reason is
  said, and a refund made anyway scores 0;
- an oracle run of the test split over the real services scores 1.0 on every task.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Action, Catalog, Domain, Episode, Registry, Session
from taumesh.domains.events import DATA, RELEASE, build
from taumesh.domains.events.build import generated_files
from taumesh.domains.events.clock import release_code, sign_in_code
from taumesh.domains.events.world import INVARIANTS, SEEDS, TEST_WORLDS, build_world, worlds
from taumesh.domains.factory import FactoryTask, InvariantError, build_worlds, canonical_output
from taumesh.models import ChatMessage, Termination
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("events")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _session(*actions: Action) -> Session:
    session = Session(_domain())
    for action in actions:
        step = session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        assert not step.error, (action.name, step.observation)
    return session


def _act(name: str, requestor: str = "assistant", **kwargs: Any) -> Action:
    return Action.model_validate({"name": name, "kwargs": kwargs, "requestor": requestor})


def _score(task: FactoryTask, actions: list[Action], says: str | None) -> float:
    domain = _domain()
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says:
        conversation.append(ChatMessage(role="assistant", content=says))
    ending: Termination = (
        "terminate_tool" if actions and actions[-1].name == "transfer_to_human_agents" else "user_stop"
    )
    episode = Episode(domain, task, conversation, ending, session.data_hash(), domain.gold_hash(task))
    return domain.score(episode).reward


def test_the_generator_rebuilds_the_shipped_release_byte_for_byte() -> None:
    for name, text in generated_files().items():
        assert (DATA / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m taumesh.domains.events.build"
        )
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_a_broken_world_is_refused() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"] and len(SEEDS) >= 3
    for world in built:
        kinds = Counter(e["kind"] for e in world.tables["events"].values())
        assert kinds["conference"] == 4 and sum(kinds.values()) == 14
        assert Counter(e["status"] for e in world.tables["events"].values())["cancelled"] == 1
    regions = [{v["city"] for v in world.tables["venues"].values()} for world in built]
    assert sum(map(len, regions)) == len(set().union(*regions)) == 9  # a venue search stays in its world

    def oversold(seed: int, tag: str) -> dict[str, Any]:
        tables = build_world(seed, tag)
        first = next(iter(tables["ticket_classes"].values()))
        first["sold"] = first["allocation"] + 1
        return tables

    with pytest.raises(InvariantError, match="no class sells more than it puts on sale"):
        build_worlds(oversold, SEEDS, INVARIANTS)


def test_test_callers_and_records_are_never_in_train() -> None:
    train, test = _tasks("train"), _tasks("test")
    release = build.RELEASE
    assert {release.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {release.world_of(t) for t in train} & TEST_WORLDS
    assert not {t.user_id for t in train} & {t.user_id for t in test}
    assert not set().union(*map(release.touched, train)) & set().union(*map(release.touched, test))
    assert len(train) + len(test) == len(_tasks()) >= 60


def test_a_transfer_goes_out_only_with_the_code_the_holders_app_shows() -> None:
    task = next(t for t in _tasks() if t.intent == "transfer_ticket" and not t.trap)
    start = next(a for a in task.actions if a.name == "start_ticket_transfer")
    holder = _domain().base_data["orders"][start.kwargs["order_id"]]["attendee_id"]
    email = _domain().base_data["attendees"][holder]["email"]
    session = _session(start)
    transfer_id = f"trf-{start.kwargs['order_id']}-1"
    wrong = session.call("release_ticket_transfer", {"transfer_id": transfer_id, "release_code": "000000"})
    assert wrong.error and "does not match" in wrong.observation
    shown = session.call("view_app_notifications", {"account_email": email}, "user").observation
    assert release_code(transfer_id) in shown
    released = session.call(
        "release_ticket_transfer", {"transfer_id": transfer_id, "release_code": release_code(transfer_id)}
    )
    assert not released.error and json.loads(released.observation)["status"] == "offered"
    unknown = session.call("view_app_notifications", {"account_email": email})  # the agent cannot read the app
    assert unknown.error


def test_an_expired_offer_is_accepted_in_the_app_only_once_reissued() -> None:
    task = next(t for t in _tasks() if t.intent == "accept_transfer" and not t.trap)
    reissue = next(a for a in task.actions if a.name == "reissue_transfer_offer")
    accept = next(a for a in task.actions if a.name == "accept_transfer_offer")
    transfer = _domain().base_data["transfers"][reissue.kwargs["transfer_id"]]
    early = Session(_domain()).call(accept.name, dict(accept.kwargs), "user")
    assert early.error and "expired" in early.observation
    session = _session(reissue, accept)
    order = session.data["orders"][transfer["order_id"]]
    assert order["attendee_id"] == task.user_id and order["transfers_made"] == 1
    assert order["reference"] in session.data["wallets"][task.user_id]["tickets"]


def test_either_verification_is_allowed_and_reading_the_app_changes_nothing() -> None:
    """The app shows its sign-in code unasked, so an agent that tries it and falls back to the booking reference
    reaches the state of one that asked for the reference alone; both methods are allowed outcomes (2.2)."""
    attendee_tasks = [t for t in _tasks() if t.user_id.startswith("att-")]
    for task in attendee_tasks:
        methods = {path[-1].name for path in task.steps[0].alternatives}
        assert methods == {"verify_booking_holder", "check_app_code"}, task.id
    task = attendee_tasks[0]
    email = _domain().base_data["attendees"][task.user_id]["email"]
    base = Session(_domain()).data_hash()
    read = _act("view_app_notifications", "user", account_email=email)
    assert _session(read).data_hash() == base
    wrong = Session(_domain()).call("check_app_code", {"attendee_id": task.user_id, "code": "000000"})
    assert wrong.error and "does not match" in wrong.observation
    by_code = _act("check_app_code", attendee_id=task.user_id, code=sign_in_code(task.user_id))
    assert _session(read, by_code).data["verifications"][task.user_id]["method"] == "app_code"


def test_a_refused_refund_needs_its_reason_and_a_refund_made_anyway_scores_zero() -> None:
    task = next(t for t in _tasks() if t.intent == "refund_order" and t.trap and t.statements)
    reason = " ".join(canonical_output(s) for s in task.statements)
    assert _score(task, task.actions, f"I'm sorry: those tickets are {reason}.") == 1.0
    assert _score(task, task.actions, "I'm sorry, but I can't help with that request.") == 0.0
    assert _score(task, [*task.actions, *task.forbidden], reason) == 0.0
    approvals = [t for t in _tasks() if t.intent == "refund_order" and t.actions[-1].name == "transfer_to_human_agents"]
    assert approvals and all(t.trap and t.forbidden[0].name == "issue_refund" for t in approvals)


def test_the_oracle_scores_one_on_the_test_split_over_the_services(tmp_path: Path) -> None:
    result = invoke(
        "run", "--env", "events", "--task-split", "test", *ORACLE, "--max-concurrency", "8", "--log-dir", tmp_path
    )
    assert result.exit_code == 0, explain_result(result)
    rewards = {entry["task_id"]: entry["reward"] for entry in load_json(results_path(tmp_path))}
    assert rewards == {t.id: 1.0 for t in _tasks("test")}
