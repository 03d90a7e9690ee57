"""The factory's parts on their own: worlds and invariants, task metadata and outcomes, policies, predicates, lints."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from taumesh.domains import Action
from taumesh.domains.factory import (
    FactoryTask,
    InvariantError,
    Policy,
    SeededWorld,
    Statement,
    Step,
    World,
    build_worlds,
    check_disjoint,
    coverage,
    merge_worlds,
    output_spec,
    per_record,
    said,
    trap_cues,
    unfair_traps,
    within,
)


def _people(seed: int, tag: str) -> World:
    return {"people": {f"{tag}-1": {"age": seed}}, "kinds": {"k": {"name": "shared"}}}


ADULT = per_record("people", "an adult", lambda r: within(r["age"], 18, 100, "age"))


def test_worlds_keep_their_invariants_or_are_refused() -> None:
    worlds = build_worlds(_people, {"w1": 30, "w2": 40, "w3": 50}, [ADULT])
    assert [w.tag for w in worlds] == ["w1", "w2", "w3"]
    with pytest.raises(InvariantError, match=r"world w2 \(seed 12\): an adult: people\[w2-1\] age 12 is outside"):
        build_worlds(_people, {"w1": 30, "w2": 12, "w3": 50}, [ADULT])
    with pytest.raises(InvariantError, match="at least 3 worlds"):
        build_worlds(_people, {"w1": 30, "w2": 40}, [ADULT])


def test_worlds_merge_with_shared_reference_data_and_never_share_an_entity() -> None:
    worlds = build_worlds(_people, {"w1": 30, "w2": 40, "w3": 50}, [ADULT])
    merged = merge_worlds(worlds, shared=["kinds"])
    assert sorted(merged["people"]) == ["w1-1", "w2-1", "w3-1"] and list(merged["kinds"]) == ["k"]
    clash = SeededWorld(7, "w1", {"people": {"w1-1": {"age": 20}}})
    with pytest.raises(InvariantError, match="id 'w1-1' is in two worlds"):
        merge_worlds([*worlds, clash], shared=["kinds"])
    check_disjoint({"train": [{"w1-1"}, {"w2-1"}], "test": [{"w3-1"}]})
    with pytest.raises(InvariantError, match="both touch 1 entities: w2-1"):
        check_disjoint({"train": [{"w1-1"}, {"w2-1"}], "test": [{"w3-1", "w2-1"}]})


def _task(**changes: object) -> FactoryTask:
    verify = [Action(name="verify", kwargs={"how": "dob"})]
    code = [Action(name="send_code"), Action(name="check_code")]
    fields: dict[str, object] = {
        "id": "t-1",
        "user_id": "u",
        "instruction": "You want it booked.",
        "actions": [*verify, Action(name="book", kwargs={"slot": "a"})],
        "intent": "book",
        "steps": [
            Step(why="either verification", alternatives=[verify, code]),
            Step(
                why="a tie",
                alternatives=[[Action(name="book", kwargs={"slot": "a"})], [Action(name="book", kwargs={"slot": "b"})]],
            ),
        ],
    }
    fields.update(changes)
    return FactoryTask.model_validate(fields)


def test_a_task_lists_every_allowed_outcome_gold_first() -> None:
    task = _task()
    outcomes = list(task.outcomes())
    assert task.outcome_count() == len(outcomes) == 4
    assert outcomes[0] == task.actions
    assert [a.name for a in outcomes[3]] == ["send_code", "check_code", "book"] and outcomes[3][-1].kwargs == {
        "slot": "b"
    }
    with pytest.raises(ValidationError, match="first alternative of every step"):
        _task(actions=[Action(name="book", kwargs={"slot": "b"})])


def test_a_trap_carries_its_rationale_and_forbidden_write() -> None:
    with pytest.raises(ValidationError, match="trap_rationale"):
        _task(trap=True, forbidden=[Action(name="book", kwargs={"slot": "c"})])
    with pytest.raises(ValidationError, match="names the write it forbids"):
        _task(trap=True, trap_rationale="3.1: no referral")
    unfair = _task(trap=True, trap_rationale="3.1", forbidden=[Action(name="book", kwargs={"slot": "b"})])
    assert unfair_traps([unfair]) == {"t-1": ["book({'slot': 'b'}) is in an allowed outcome"]}
    fair = _task(trap=True, trap_rationale="3.1", forbidden=[Action(name="book", kwargs={"slot": "c"})])
    assert unfair_traps([fair]) == {}


def test_policy_clauses_are_numbered_and_their_coverage_reported() -> None:
    policy = Policy.build("P", "Be kind.", [("Identity", ["Verify first.", "Either method."]), ("Refills", ["75 %."])])
    assert policy.clause_ids() == ["1.1", "1.2", "2.1"]
    assert "## 2. Refills\n\n- 2.1 75 %." in policy.markdown()
    report = coverage(policy, [("a", ["1.1", "2.1"]), ("b", ["1.1", "9.9"])])
    assert report.tested_by == {"1.1": ["a", "b"], "1.2": [], "2.1": ["a"]}
    assert report.untested == ["1.2"] and report.unknown == {"b": ["9.9"]}
    assert "| 1.1 | 2 |" in report.markdown() and "Untested: 1.2." in report.markdown()


@pytest.mark.parametrize(
    ("statement", "message", "expected"),
    [
        (Statement(kind="amount", value="87.25", why=""), "It comes to $87.25 today.", True),
        (Statement(kind="amount", value="130", why=""), "You would pay $130.00.", True),
        (Statement(kind="amount", value="1250.5", why=""), "That is $1,250.50.", True),
        (Statement(kind="amount", value="130", why=""), "You would pay $1300.", False),
        (Statement(kind="date", value="2025-03-24", why=""), "You can ask from March 24th.", True),
        (Statement(kind="date", value="2025-03-24", why=""), "from 3/24", True),
        (Statement(kind="date", value="2025-03-24", why=""), "from March 2", False),
        (Statement(kind="date", value="2025-03-24", why=""), "from 2025-03-24.", True),
        (Statement(kind="text", value="pending|not yet approved", why=""), "It is not yet approved.", True),
        (Statement(kind="text", value="pending", why=""), "I'm sorry, but I can't help with that request.", False),
    ],
)
def test_statements_are_checked_by_predicate(statement: Statement, message: str, expected: bool) -> None:
    assert said(statement, [message]) is expected


def test_trap_cues_are_sentences_only_trap_tasks_carry() -> None:
    fallback = "If that is not possible, accept what the agent offers."
    cue = "If the agent says it cannot be disputed, accept that."
    drug = "You want your alprazolam refilled."
    z = [Action(name="book", kwargs={"slot": "z"})]
    tasks = [
        _task(id="a", instruction=f"You want A. {fallback} {cue} {drug}", trap=True, trap_rationale="r", forbidden=z),
        _task(id="b", instruction=f"You want B. {fallback} {cue} {drug}", trap=True, trap_rationale="r", forbidden=z),
        _task(id="d", instruction=f"You want D. {fallback} {cue}", trap=True, trap_rationale="r", forbidden=z),
        _task(id="c", instruction=f"You want C. {fallback}"),
    ]
    # the cue is in 3 of 3 traps; the drug, a fact two traps share, is not a cue; the fallback is in every task
    assert trap_cues(tasks) == {"a": [cue], "b": [cue], "d": [cue]}


def test_outputs_must_be_specific() -> None:
    policy = "The late fee is $25. Disputes within 180 days."
    instruction = "You are Ann, born 1961-05-02; your phone ends in 4471."
    assert output_spec(["87.25", "2025-03-24"], instruction, policy) == []
    problems = output_spec(["25", "1,400", "4471", "180 days"], instruction, policy)
    assert [p.split(" is ")[0].split(" has ")[0] for p in problems] == [
        "output '25'",
        "output '1,400'",
        "output '4471'",
        "output '180 days'",
    ]
